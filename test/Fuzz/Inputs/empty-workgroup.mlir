gpu.module @m {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 0, 1, 1>} {
    gpu.return
  }
}
