// hk-opt reports an error by its message and location; the text of the op
// (the whole module for a module's error) follows only when asked for with
// --mlir-print-op-on-diagnostic, as in hk-compile and hk-run.
// RUN: not hk-opt %s --hk-attach-target=chip=gfx950 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not hk-opt %s --hk-to-binary-pipeline=chip=gfx1201 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: hk-opt %s --hk-attach-target=chip=gfx950 > /dev/null 2>&1; test $? -eq 2
// TARGET: error: gpu.module 'm' targets gfx1201 but the compilation is for gfx950
// TARGET-NOT: see current operation
// VALUE: error: gpu.module 'm': 'hk.backend_options' option 'amdgpu-codegenprepare-break-large-phis' does not take the value "maybe"
// VALUE-NOT: see current operation

// Asked for, the operation follows the message.
// RUN: not hk-opt %s --hk-attach-target=chip=gfx950 --mlir-print-op-on-diagnostic 2>&1 | FileCheck %s --check-prefix=OP
// OP: error: gpu.module 'm' targets gfx1201 but the compilation is for gfx950
// OP: see current operation
// OP-NEXT: "gpu.module"() <{sym_name = "m"

gpu.module @m [#rocdl.target<chip = "gfx1201">] attributes {hk.backend_options = {"amdgpu-codegenprepare-break-large-phis" = "maybe"}} {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    gpu.return
  }
}
