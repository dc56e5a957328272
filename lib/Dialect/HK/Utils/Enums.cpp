//===- Enums.cpp - hk enums -----------------------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the hk enums generated from Enums.td. They live in
// HKUtils, the bottom library, because the layout math and the target
// description name them without needing the dialect.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/Enums.h"

#include "llvm/ADT/StringSwitch.h"

#include "HK/Dialect/HK/Utils/Enums.cpp.inc"
