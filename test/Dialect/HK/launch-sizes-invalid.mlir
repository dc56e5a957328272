// A kernel with hk.launch has its launch sizes checked when it is verified,
// on its chip when it has one.
// RUN: hk-opt %s --split-input-file -verify-diagnostics

gpu.module @m {
  // expected-error @+1 {{kernel 'empty' has known_block_size = [0, 1, 1]: every dimension must be at least 1}}
  gpu.func @empty(%A: memref<?xf32>) kernel attributes {known_block_size = array<i32: 0, 1, 1>, hk.launch = #hk.launch<grid = [arg0[0] / 64]>} {
    gpu.return
  }
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // expected-error @+1 {{kernel 'large' has known_block_size = [2048, 1, 1], 2048 lanes: gfx950 runs workgroups of at most 1024}}
  gpu.func @large(%A: memref<?xf32>) kernel attributes {known_block_size = array<i32: 2048, 1, 1>, hk.launch = #hk.launch<grid = [arg0[0] / 64]>} {
    gpu.return
  }
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // expected-error @+1 {{kernel 'partial' has known_block_size = [96, 1, 1], 96 lanes: its hk ops need whole waves, a multiple of gfx950's wave size 64}}
  gpu.func @partial(%A: memref<?xf32>) kernel attributes {known_block_size = array<i32: 96, 1, 1>, hk.launch = #hk.launch<grid = [arg0[0] / 64]>} {
    hk.barrier
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{kernel 'no_blocks' has known_grid_size = [0, 1, 1]: every dimension must be at least 1}}
  gpu.func @no_blocks(%A: memref<?xf32>) kernel attributes {known_grid_size = array<i32: 0, 1, 1>, hk.launch = #hk.launch<grid = [arg0[0] / 64]>} {
    gpu.return
  }
}
