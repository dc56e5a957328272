// Test input: s = sqrt(x), r = rsqrt(x), q = 3 / x, and t = x^(1/4) through
// the chip's approximate instructions (v_rsq_f32, v_rcp_f32, v_sqrt_f32),
// for i < n, one lane per element. math.rsqrt is expanded to 1 / sqrt:
// no ROCm device library is needed.
gpu.module @roots {
  gpu.func @roots(%x: memref<?xf32>, %s: memref<?xf32>, %r: memref<?xf32>,
                  %q: memref<?xf32>, %t: memref<?xf32>, %n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c64 = arith.constant 64 : index
    %three = arith.constant 3.0 : f32
    %block = gpu.block_id x
    %lane = gpu.thread_id x
    %base = arith.muli %block, %c64 : index
    %i = arith.addi %base, %lane : index
    %inside = arith.cmpi ult, %i, %n : index
    scf.if %inside {
      %a = memref.load %x[%i] : memref<?xf32>
      %sqrt = math.sqrt %a : f32
      memref.store %sqrt, %s[%i] : memref<?xf32>
      %rsqrt = math.rsqrt %a : f32
      memref.store %rsqrt, %r[%i] : memref<?xf32>
      %quotient = arith.divf %three, %a : f32
      memref.store %quotient, %q[%i] : memref<?xf32>
      %rsq = llvm.call_intrinsic "llvm.amdgcn.rsq"(%a) : (f32) -> f32
      %rcp = rocdl.rcp %rsq f32 -> f32
      %fourth = rocdl.sqrt %rcp f32 -> f32
      memref.store %fourth, %t[%i] : memref<?xf32>
    }
    gpu.return
  }
}
