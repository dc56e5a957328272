// A kernel that keeps 640 floats per lane live across a loop: more than a
// wave's 512 registers, so the backend spills (hk-compile-spills.test).
module attributes {gpu.container_module} {
  gpu.module @spill [#rocdl.target<chip = "gfx950">] {
    gpu.func @many_live(%x: memref<?xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %init = vector.load %x[%c0] : memref<?xf32>, vector<640xf32>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (vector<640xf32>) {
        %v = vector.load %x[%i] : memref<?xf32>, vector<640xf32>
        %m = arith.mulf %acc, %v : vector<640xf32>
        scf.yield %m : vector<640xf32>
      }
      vector.store %r, %x[%c0] : memref<?xf32>, vector<640xf32>
      gpu.return
    }
  }
}
