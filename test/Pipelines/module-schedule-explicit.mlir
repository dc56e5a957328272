// A pipeline option given explicitly counts even at its default: against a
// gpu.module whose hk.schedule asks for another value it is refused (it
// was ignored), in hk-opt's pipelines and hk-compile alike. The same value,
// or no option, is taken (test/Pipelines/module-schedule.test).
// RUN: not hk-opt %s --hk-to-rocdl-pipeline='chip=gfx950 stages=1' 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: hk-opt %s --hk-to-rocdl-pipeline='chip=gfx950 stages=1' > /dev/null 2>&1; test $? -eq 2
// RUN: not hk-compile %s --chip=gfx950 --stages=1 -o %t.hsaco 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: hk-compile %s --chip=gfx950 --stages=1 -o %t.hsaco > /dev/null 2>&1; test $? -eq 2
// STAGES: error: gpu.module 'm' asks for #hk.schedule<stages = 2, verify-lds = false> ('hk.schedule') and the pipeline for other values of stages (stages=1): drop the attribute or those options
// RUN: not hk-opt %s --hk-to-rocdl-pipeline='chip=gfx950 stages=1 verify-lds=true' 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: and the pipeline for other values of stages, verify-lds (stages=1 verify-lds=true): drop
// RUN: hk-opt %s --hk-to-rocdl-pipeline='chip=gfx950 stages=2' | FileCheck %s --check-prefix=TAKEN
// RUN: hk-opt %s --hk-to-rocdl-pipeline='chip=gfx950' | FileCheck %s --check-prefix=TAKEN
// TAKEN: llvm.func @k()

gpu.module @m attributes {hk.schedule = #hk.schedule<stages = 2, verify-lds = false>} {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    gpu.return
  }
}
