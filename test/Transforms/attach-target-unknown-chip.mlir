// An unknown chip is an error naming the supported ones.
// RUN: hk-opt %s --hk-attach-target=chip=gfx90a -verify-diagnostics

// expected-error @+1 {{hk-attach-target: unknown chip 'gfx90a' (supported: gfx950, gfx1201)}}
module {
  gpu.module @m {
  }
}
