// hk-schedule-interleave asks the backend to keep the loop's vector phis
// whole (hk.backend_options on the gpu.module); a value the module already
// gives stays, and a module without a K loop gets nothing.
// RUN: hk-opt %S/schedule-interleave-ahead-after-barrier.mlir --pass-pipeline='builtin.module(gpu.module(hk-direct-lds-fill{require=true},hk-schedule-interleave))' | FileCheck %s --check-prefix=ASK
// ASK: gpu.module @m [#rocdl.target<chip = "gfx950">] attributes {hk.backend_options = {"amdgpu-codegenprepare-break-large-phis" = "false"}}

// RUN: sed 's/gpu.module @m \[#rocdl.target<chip = "gfx950">\]/& attributes {hk.backend_options = {"amdgpu-codegenprepare-break-large-phis" = "true", "amdgpu-mfma-vgpr-form" = "true"}}/' %S/schedule-interleave-ahead-after-barrier.mlir | hk-opt --pass-pipeline='builtin.module(gpu.module(hk-direct-lds-fill{require=true},hk-schedule-interleave))' | FileCheck %s --check-prefix=KEEP
// KEEP: gpu.module @m [#rocdl.target<chip = "gfx950">] attributes {hk.backend_options = {"amdgpu-codegenprepare-break-large-phis" = "true", "amdgpu-mfma-vgpr-form" = "true"}}

// RUN: hk-opt %s --pass-pipeline='builtin.module(gpu.module(hk-schedule-interleave))' | FileCheck %s --check-prefix=NONE
// NONE: gpu.module @no_loop [#rocdl.target<chip = "gfx950">] {
gpu.module @no_loop [#rocdl.target<chip = "gfx950">] {
}
