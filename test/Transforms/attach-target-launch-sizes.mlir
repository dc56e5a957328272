// hk-attach-target checks the launch sizes of the kernels it compiles, on
// its chip, before any pass reads them (a workgroup of 0 lanes crashed
// hk-rematerialize-after-loops).
// RUN: hk-opt %s --split-input-file --hk-attach-target=chip=gfx1201 -verify-diagnostics

gpu.module @m {
  // expected-error @+1 {{kernel 'empty' has known_block_size = [0, 1, 1]: every dimension must be at least 1}}
  gpu.func @empty() kernel attributes {known_block_size = array<i32: 0, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{kernel 'negative' has known_block_size = [-64, 1, 1]: every dimension must be at least 1}}
  gpu.func @negative() kernel attributes {known_block_size = array<i32: -64, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{kernel 'large' has known_block_size = [64, 32, 1], 2048 lanes: gfx1201 runs workgroups of at most 1024}}
  gpu.func @large() kernel attributes {known_block_size = array<i32: 64, 32, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{kernel 'partial' has known_block_size = [48, 1, 1], 48 lanes: its hk ops need whole waves, a multiple of gfx1201's wave size 32}}
  gpu.func @partial() kernel attributes {known_block_size = array<i32: 48, 1, 1>} {
    hk.barrier
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{kernel 'no_blocks' has known_grid_size = [4, 0, 1]: every dimension must be at least 1}}
  gpu.func @no_blocks() kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 4, 0, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{kernel 'huge_grid' has known_grid_size = [2147483647, 1, 1] with known_block_size = [1024, 1, 1]: dimension x launches 2199023254528 lanes, more than a dispatch's 4294967295}}
  gpu.func @huge_grid() kernel attributes {known_block_size = array<i32: 1024, 1, 1>, known_grid_size = array<i32: 2147483647, 1, 1>} {
    gpu.return
  }
}

// -----

// Whole waves are for hk ops: a kernel without them may have a partial one.
gpu.module @m {
  gpu.func @plain() kernel attributes {known_block_size = array<i32: 48, 1, 1>} {
    gpu.return
  }
}
