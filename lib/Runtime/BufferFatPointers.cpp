//===- BufferFatPointers.cpp - fat buffer pointers for the simulator ------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Buffer fat pointers (address space 7) are a convenience of LLVM IR: the
// AMDGPU backend rewrites them into buffer resources (address space 8) and
// raw buffer intrinsics before selecting instructions. The simulator runs the
// same backend pass, so it executes exactly the buffer accesses the code
// object makes.
//
//===----------------------------------------------------------------------===//

#include "HK/Runtime/Simulator.h"

#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>

using namespace llvm;

extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeAMDGPUTarget();
extern "C" void LLVMInitializeAMDGPUTargetMC();

static bool usesBufferFatPointers(const Module &module) {
  for (const Function &function : module)
    for (const BasicBlock &block : function)
      for (const Instruction &inst : block) {
        auto usesSpace7 = [](Type *type) {
          auto *pointer = dyn_cast<PointerType>(type->getScalarType());
          return pointer && pointer->getAddressSpace() == 7;
        };
        if (usesSpace7(inst.getType()))
          return true;
        for (const Value *operand : inst.operands())
          if (usesSpace7(operand->getType()))
            return true;
      }
  return false;
}

Error mlir::hk::sim::lowerBufferFatPointers(Module &module,
                                            const ChipInfo &chip) {
  if (!usesBufferFatPointers(module))
    return Error::success();
  LLVMInitializeAMDGPUTargetInfo();
  LLVMInitializeAMDGPUTarget();
  LLVMInitializeAMDGPUTargetMC();
  Triple triple("amdgcn-amd-amdhsa");
  std::string message;
  const Target *target = TargetRegistry::lookupTarget(triple, message);
  if (!target)
    return createStringError(inconvertibleErrorCode(),
                             "no AMDGPU target in this LLVM: " + message);
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
      triple, chip.name, "", TargetOptions(), std::nullopt));
  if (!machine)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create an AMDGPU target machine for " +
                                 chip.name);

  LoopAnalysisManager loops;
  FunctionAnalysisManager functions;
  CGSCCAnalysisManager cgscc;
  ModuleAnalysisManager modules;
  PassBuilder builder(machine.get());
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  ModulePassManager passes;
  if (Error e = builder.parsePassPipeline(
          passes, "amdgpu-lower-buffer-fat-pointers,instcombine,dce"))
    return e;
  passes.run(module, modules);
  return Error::success();
}
