// Test input for hk-run --shuffle-workgroups: each workgroup's first lane
// appends the workgroup's linear id (x + y gx, gx the grid's x size: the
// last argument) to `order` at the position the counter counter[0] holds,
// then increments it. Plain loads and stores: a race on a GPU, but the
// simulator runs one workgroup at a time, so `order` records the order it
// ran them in (hk-run-shuffle-workgroups.test).
gpu.module @order {
  gpu.func @workgroup_order(%counter: memref<?xi32>, %order: memref<?xi32>,
                            %gx: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %lane = gpu.thread_id x
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      %x = gpu.block_id x
      %y = gpu.block_id y
      %row = arith.muli %y, %gx : index
      %id = arith.addi %row, %x : index
      %id32 = arith.index_cast %id : index to i32
      %n = memref.load %counter[%c0] : memref<?xi32>
      %slot = arith.index_cast %n : i32 to index
      memref.store %id32, %order[%slot] : memref<?xi32>
      %next = arith.addi %n, %one : i32
      memref.store %next, %counter[%c0] : memref<?xi32>
    }
    gpu.return
  }
}
