// Test input: out[i] = alpha * x[i] + y[i] for i < n, alpha an f32 kernel
// argument (hk-run --arg=<number>), one lane per element.
gpu.module @axpy {
  gpu.func @axpy(%alpha: f32, %x: memref<?xf32>, %y: memref<?xf32>,
                 %out: memref<?xf32>, %n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c64 = arith.constant 64 : index
    %block = gpu.block_id x
    %lane = gpu.thread_id x
    %base = arith.muli %block, %c64 : index
    %i = arith.addi %base, %lane : index
    %inside = arith.cmpi ult, %i, %n : index
    scf.if %inside {
      %a = memref.load %x[%i] : memref<?xf32>
      %b = memref.load %y[%i] : memref<?xf32>
      %ax = arith.mulf %a, %alpha : f32
      %r = arith.addf %ax, %b : f32
      memref.store %r, %out[%i] : memref<?xf32>
    }
    gpu.return
  }
}
