// The chip is an enum option (the values of chipOptionValues, as the
// pipelines' `chip`): an unknown one is refused by the option parser, a
// missing one by the pass, naming the supported ones.
// RUN: not hk-opt %s --hk-attach-target=chip=gfx90a 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: hk-opt %s --hk-attach-target -verify-diagnostics

// UNKNOWN: for the --chip option: Cannot find option named 'gfx90a'!

// expected-error @+1 {{hk-attach-target needs a chip: hk-attach-target=chip=<chip> (gfx950, gfx1201)}}
module {
  gpu.module @m {
  }
}
