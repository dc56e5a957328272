// hk-attach-target: modules without a ROCDL target get the chip's; modules
// with one must name the same chip.
// RUN: hk-opt %s --split-input-file --hk-attach-target=chip=gfx1201 -verify-diagnostics | FileCheck %s

// CHECK: gpu.module @plain [#rocdl.target<O = 3, chip = "gfx1201">]
gpu.module @plain {
}
// An existing target for the chip is kept as it is, not duplicated.
// CHECK: gpu.module @same [#rocdl.target<chip = "gfx1201">]
gpu.module @same [#rocdl.target<chip = "gfx1201">] {
}

// -----

// expected-error @+1 {{gpu.module 'other' targets gfx950 but the compilation is for gfx1201}}
gpu.module @other [#rocdl.target<chip = "gfx950">] {
}
