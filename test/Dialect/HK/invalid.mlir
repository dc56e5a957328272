// One case per verifier and parser error of the hk dialect.
// RUN: hk-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// !hk.shared_tile
//===----------------------------------------------------------------------===//

// expected-error @+1 {{shared tile element type must be bf16, f16, f32, f8E4M3FN or f8E5M2, got 'i8'}}
func.func private @tile_element(!hk.shared_tile<64x64xi8, #hk.swizzle<none>>)

// -----

// expected-error @+1 {{shared tile needs at least 1 slot, got 0}}
func.func private @tile_slots(!hk.shared_tile<64x64xbf16, #hk.swizzle<none>, slots = 0>)

// -----

// expected-error @+1 {{shared tile 9223372036854775807x64 with 1 slot(s) exceeds the limits of 65536 rows or columns and 64 slots}}
func.func private @tile_huge(!hk.shared_tile<9223372036854775807x64xbf16, #hk.swizzle<none>>)

// -----

// expected-error @+1 {{swizzle st_16x32 is defined for 16-bit elements, not 4-byte ones}}
func.func private @tile_swizzle_f32(!hk.shared_tile<64x64xf32, #hk.swizzle<st_16x32>>)

// -----

// expected-error @+1 {{tile 24x64 is not a whole number of st_16x32 sub-tiles (16x32)}}
func.func private @tile_subtiles(!hk.shared_tile<24x64xbf16, #hk.swizzle<st_16x32>>)

// -----

// expected-error @+1 {{tile 64x32 is not a whole number of st_8x64 sub-tiles (8x64)}}
func.func private @tile_subtiles_8x64(!hk.shared_tile<64x32xbf16, #hk.swizzle<st_8x64>>)

// -----

// expected-error @+1 {{column permutation block4_0213 needs a multiple of 16 columns, got 8}}
func.func private @tile_perm(!hk.shared_tile<16x8xbf16, #hk.swizzle<none>, #hk.col_perm<block4_0213>>)

// -----

// expected-error @+1 {{tile 0x64 must have positive dimensions}}
func.func private @tile_empty(!hk.shared_tile<0x64xbf16, #hk.swizzle<none>>)

// -----

// expected-error @+1 {{expected a 2-D shape, got 3 dimensions}}
func.func private @tile_rank(!hk.shared_tile<2x64x64xbf16, #hk.swizzle<none>>)

// -----

// expected-error @+2 {{expected ::mlir::hk::Swizzle to be one of: none, st_16x16, st_16x32, st_32x16, st_32x32, st_8x64}}
// expected-error @+1 {{failed to parse HK_SwizzleAttr parameter 'value' which is to be a `::mlir::hk::Swizzle`}}
func.func private @tile_swizzle_name(!hk.shared_tile<64x64xbf16, #hk.swizzle<st_8x8>>)

//===----------------------------------------------------------------------===//
// !hk.fragment
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{unknown fragment role 'c', expected 'a', 'b', 'acc', 'scale', 'scale_mma', 'row' or 'col'}}
func.func private @frag_role(!hk.fragment<c, 16x16xf32, mma = 16x16x16>)

// -----

// expected-error @+1 {{expected an MMA shape MxNxK, got 2 dimensions}}
func.func private @frag_mma_rank(!hk.fragment<a, 16x32xbf16, mma = 16x32>)

// -----

// expected-error @+1 {{MMA shape 0x16x32 must be positive}}
func.func private @frag_mma_zero(!hk.fragment<a, 16x32xbf16, mma = 0x16x32>)

// -----

// expected-error @+1 {{fragment tile 0x32 must have positive dimensions}}
func.func private @frag_empty(!hk.fragment<a, 0x32xbf16, mma = 16x16x32>)

// -----

// expected-error @+1 {{'a' fragments hold bf16, f16, f8E4M3FN or f8E5M2, got 'f32'}}
func.func private @frag_operand_type(!hk.fragment<a, 16x32xf32, mma = 16x16x32>)

// -----

// expected-error @+1 {{'acc' fragments hold f32, bf16 or f16, got 'i32'}}
func.func private @frag_acc_type(!hk.fragment<acc, 16x16xi32, mma = 16x16x32>)

// -----

// expected-error @+1 {{fragment tile 16x48 is not a whole number of 16x32 'b' fragments of a 16x16x32 MMA}}
func.func private @frag_divisible(!hk.fragment<b, 16x48xbf16, mma = 16x16x32>)

// -----

// The k-order roles of old are an `a` or `b` fragment with a k order now.
// expected-error @+1 {{unknown fragment role 'a_acc_k', expected 'a', 'b', 'acc', 'scale', 'scale_mma', 'row' or 'col'}}
func.func private @frag_old_k_role(!hk.fragment<a_acc_k, 16x32xbf16, mma = 16x16x32>)

// -----

// expected-error @+1 {{unknown k order 'rows', expected 'mma', 'acc' or 'run'}}
func.func private @frag_k_order(!hk.fragment<a, 16x32xbf16, mma = 16x16x32, k = rows>)

// -----

// expected-error @+1 {{only 'a' and 'b' fragments take a k order, got 'acc' with k = acc}}
func.func private @frag_k_order_acc(!hk.fragment<acc, 16x16xf32, mma = 16x16x32, k = acc>)

// -----

// expected-error @+1 {{only 'a' and 'b' fragments take a k order, got 'scale' with k = run}}
func.func private @frag_k_order_scale(!hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128, k = run>)

// -----

func.func @map_k_orders(%a: !hk.fragment<a, 16x32xbf16, mma = 16x16x32, k = acc>) {
  // expected-error @+1 {{'hk.map' op input #0 is a 'a 16x32 mma = 16x16x32, k = acc' fragment but the result is 'a 16x32 mma = 16x16x32': the fragments must share lane layout (role and k order)}}
  %r = hk.map %a : !hk.fragment<a, 16x32xbf16, mma = 16x16x32, k = acc> -> !hk.fragment<a, 16x32xbf16, mma = 16x16x32> {
  ^bb0(%x: bf16):
    hk.yield %x : bf16
  }
  return
}

// -----

func.func @mma_k_orders(%a: !hk.fragment<a, 16x32xbf16, mma = 16x16x32, k = run>,
                        %b: !hk.fragment<b, 16x32xbf16, mma = 16x16x32, k = acc>,
                        %c: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.mma' op 'a' takes k in 'run' order but 'b' in 'acc' order: both operands must take k in the same order}}
  %d = hk.mma %a, %b, %c : !hk.fragment<a, 16x32xbf16, mma = 16x16x32, k = run>, !hk.fragment<b, 16x32xbf16, mma = 16x16x32, k = acc>, !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @to_operand_k_order(%s: !hk.fragment<acc, 32x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.to_operand' op gives 'b' operands with k = acc, which the accumulator's registers already are; a 'b, k = run' result would move elements between lanes}}
  %p = hk.to_operand %s : !hk.fragment<acc, 32x16xf32, mma = 16x16x32> -> !hk.fragment<b, 16x32xbf16, mma = 16x16x32, k = run>
  return
}

//===----------------------------------------------------------------------===//
// Chip selection
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{'hk.chip' must be a #hk.chip attribute (e.g. #hk.chip<gfx950>), got "gfx950"}}
module attributes {hk.chip = "gfx950"} {}

// -----

// expected-error @+1 {{unknown hk attribute 'hk.tile' (hk defines 'hk.chip', 'hk.launch', 'hk.remainder', 'hk.schedule' and 'hk.backend_options')}}
module attributes {hk.tile = 1 : i64} {}

// -----

// expected-error @+1 {{'hk.schedule' is a #hk.schedule attribute of gpu.module (e.g. #hk.schedule<stages = 2, unroll = 2>), got #hk.schedule<stages = 2> on 'builtin.module'}}
module attributes {hk.schedule = #hk.schedule<stages = 2>} {}

// -----

// expected-error @+1 {{'hk.schedule' is a #hk.schedule attribute of gpu.module (e.g. #hk.schedule<stages = 2, unroll = 2>), got "stages=2" on 'gpu.module'}}
gpu.module @k attributes {hk.schedule = "stages=2"} {}

// -----

// A schedule contradicts the knobs it sets itself; the others it does not
// use are refused, whatever the chip.
// expected-error @+1 {{schedule=ping-pong double-buffers its tiles (stages=2): stages=3 contradicts it}}
gpu.module @k attributes {hk.schedule = #hk.schedule<stages = 3, schedule = ping-pong>} {}

// -----

// expected-error @+1 {{schedule=ping-pong's loop body already covers two K tiles with constant slots: it needs unroll=1, got unroll=2}}
gpu.module @k attributes {hk.schedule = #hk.schedule<unroll = 2, schedule = ping-pong>} {}

// -----

// expected-error @+1 {{schedule=ping-pong-hk raises its MMA clusters' priority to ping-pong-priority (default 1); mma-priority is hk-raise-mma-priority's, for schedule=none: got mma-priority=2}}
gpu.module @k attributes {hk.schedule = #hk.schedule<mma-priority = 2, schedule = ping-pong-hk>} {}

// -----

// expected-error @+1 {{ping-pong-priority is the priority of schedule=ping-pong's MMA clusters; schedule=interleave does not use it}}
gpu.module @k attributes {hk.schedule = #hk.schedule<ping-pong-priority = 2, schedule = interleave>} {}

// -----

// expected-error @+1 {{defer-fill-stores defers the stores of stages=2's prefetch: it needs stages=2, got stages=1}}
gpu.module @k attributes {hk.schedule = #hk.schedule<defer-fill-stores = true>} {}

// -----

// expected-error @+1 {{defer-fill-stores keeps fills on the register path, direct-lds=true makes them direct-to-LDS loads: give one of them}}
gpu.module @k attributes {hk.schedule = #hk.schedule<stages = 2, direct-lds = true, defer-fill-stores = true>} {}

// -----

// expected-error @+1 {{schedule knob 'stages' is given twice}}
gpu.module @k attributes {hk.schedule = #hk.schedule<stages = 2, stages = 2>} {}

// -----

// expected-error @+1 {{'ping-pong' is not a value of schedule knob 'workgroup-order'}}
gpu.module @k attributes {hk.schedule = #hk.schedule<workgroup-order = ping-pong>} {}

// -----

// expected-error @+1 {{'hk.backend_options' must be a dictionary of AMDGPU backend options and their values as strings (e.g. {"amdgpu-codegenprepare-break-large-phis" = "false"}), got "amdgpu-codegenprepare-break-large-phis=false"}}
gpu.module @k attributes {hk.backend_options = "amdgpu-codegenprepare-break-large-phis=false"} {}

// -----

// expected-error @+1 {{'hk.backend_options' belongs on a gpu.module, found on 'builtin.module'}}
module attributes {hk.backend_options = {"amdgpu-codegenprepare-break-large-phis" = "false"}} {}

// -----

// expected-error @+1 {{'hk.backend_options' names 'help', which is not an AMDGPU backend option (amdgpu-*)}}
gpu.module @k attributes {hk.backend_options = {help = "true"}} {}

// -----

// expected-error @+1 {{'hk.backend_options' gives 'amdgpu-codegenprepare-break-large-phis' the value false, which is not a string}}
gpu.module @k attributes {hk.backend_options = {"amdgpu-codegenprepare-break-large-phis" = false}} {}

// -----

gpu.module @old [#rocdl.target<chip = "gfx90a">] {
  func.func @f() {
    // expected-error @+1 {{'hk.alloc_shared' op gpu.module 'old' targets chip 'gfx90a', which hk does not support (supported: gfx950, gfx1201)}}
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    return
  }
}

// -----

gpu.module @two [#rocdl.target<chip = "gfx950">, #rocdl.target<chip = "gfx1201">] {
  func.func @f() {
    // expected-error @+1 {{'hk.alloc_shared' op hk ops need a single chip, but gpu.module 'two' targets gfx950 and gfx1201}}
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    return
  }
}

// -----

gpu.module @conflict [#rocdl.target<chip = "gfx950">] attributes {hk.chip = #hk.chip<gfx1201>} {
  func.func @f() {
    // expected-error @+1 {{'hk.alloc_shared' op the hk.chip attribute selects gfx1201 but the enclosing gpu.module targets gfx950}}
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    return
  }
}

//===----------------------------------------------------------------------===//
// hk.alloc_shared
//===----------------------------------------------------------------------===//

// -----

func.func @alloc_in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'hk.alloc_shared' op must be in the entry block of a function (shared tiles are allocated once per kernel)}}
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
  }
  return
}

// -----

// A 256x256 double-buffered tile on gfx1201: 2 x 2 x 32 KiB.
func.func @lds_budget() attributes {hk.chip = #hk.chip<gfx1201>} {
  %a = hk.alloc_shared : !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
  // expected-error @+1 {{'hk.alloc_shared' op shared tiles of 'lds_budget' need 131072 bytes of LDS (this tile 65536 bytes), but gfx1201 has 65536 bytes}}
  %b = hk.alloc_shared : !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
  return
}

//===----------------------------------------------------------------------===//
// hk.copy_to_shared
//===----------------------------------------------------------------------===//

// -----

gpu.module @copy_direct_partial [#rocdl.target<chip = "gfx950">] {
  func.func @f(%A: memref<?x?xbf16>) {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // expected-error @+1 {{'hk.copy_to_shared' op a direct fill cannot take 'bounds partial': columns past the source are zeroed on the register path only (use partial_rows with whole K tiles, see hk-peel-partial-tiles)}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0] direct bounds partial : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    return
  }
}

// -----

func.func @copy_partial_rows_columns(%A: memref<128x32xbf16>) {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.copy_to_shared' op region of 64x64 does not fit in the 32 columns of the source}}
  hk.copy_to_shared %A[%c0, %c0], %t[%c0] bounds partial_rows : memref<128x32xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  return
}

// -----

func.func @copy_partial_negative(%A: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %m1 = arith.constant -1 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.copy_to_shared' op column offset -1 is negative}}
  hk.copy_to_shared %A[%c0, %m1], %t[%c0] bounds partial : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  return
}

// -----

func.func @copy_bounds_keyword(%A: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'bounds' [inside, partial_rows, partial, partial_chunks]}}
  hk.copy_to_shared %A[%c0, %c0], %t[%c0] bounds zero : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  return
}

// -----

func.func @copy_transpose_direct(%A: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.copy_to_shared' op a transposing copy goes through registers: drop 'direct'}}
  hk.copy_to_shared %A[%c0, %c0], %t[%c0] direct transpose : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  return
}

// -----

func.func @copy_transpose_rows(%A: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<4x64xbf16, #hk.swizzle<none>>
  // expected-error @+1 {{'hk.copy_to_shared' op a transposing copy moves blocks of 4 source rows of 8 16-bit elements: it needs 16-bit elements, tile rows a multiple of 8 and columns a multiple of 4, got '!hk.shared_tile<4x64xbf16, #hk.swizzle<none>>'}}
  hk.copy_to_shared %A[%c0, %c0], %t[%c0] transpose : memref<?x?xbf16>, !hk.shared_tile<4x64xbf16, #hk.swizzle<none>>
  return
}

// -----

func.func @copy_transpose_region(%A: memref<32x128xbf16>) {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
  // The region is 64 source rows of 128: A has 32.
  // expected-error @+1 {{'hk.copy_to_shared' op region of 64x128 does not fit in the 32 rows of the source}}
  hk.copy_to_shared %A[%c0, %c0], %t[%c0] transpose : memref<32x128xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
  return
}

// -----

func.func @copy_element(%A: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.copy_to_shared' op source element type 'f16' does not match the tile's 'bf16'}}
  hk.copy_to_shared %A[%c0, %c0], %t[%c0] : memref<?x?xf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  return
}

// -----

func.func @copy_slot(%A: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
  // expected-error @+1 {{'hk.copy_to_shared' op slot 2 is out of range for a tile with 2 slot(s)}}
  hk.copy_to_shared %A[%c0, %c0], %t[%c2] : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
  return
}

// -----

func.func @copy_column_major(%A: memref<?x?xbf16, strided<[1, ?]>>) {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.copy_to_shared' op source must have a strided layout whose last stride is 1 (rows are read in 16-byte chunks), got 'memref<?x?xbf16, strided<[1, ?]>>'}}
  hk.copy_to_shared %A[%c0, %c0], %t[%c0] : memref<?x?xbf16, strided<[1, ?]>>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  return
}

// -----

func.func @copy_not_strided(%A: memref<64x64xbf16, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>) {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.copy_to_shared' op source must have a strided layout whose last stride is 1}}
  hk.copy_to_shared %A[%c0, %c0], %t[%c0] : memref<64x64xbf16, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  return
}

// -----

func.func @copy_direct_huge_rows(%A: memref<256x16777216xbf16>) attributes {hk.chip = #hk.chip<gfx950>} {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.copy_to_shared' op a direct fill addresses its tile with 32-bit offsets: 256 rows x row stride 16777216 x 2 bytes reaches 4 GiB}}
  hk.copy_to_shared %A[%c0, %c0], %t[%c0] direct : memref<256x16777216xbf16>, !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>>
  return
}

// -----

func.func @copy_too_big(%A: memref<32x256xbf16>, %i: index) {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.copy_to_shared' op region of 64x64 does not fit in the 32 rows of the source}}
  hk.copy_to_shared %A[%i, %c0], %t[%c0] : memref<32x256xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  return
}

// -----

func.func @copy_negative(%A: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %m = arith.constant -64 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.copy_to_shared' op column offset -64 is negative}}
  hk.copy_to_shared %A[%c0, %m], %t[%c0] : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  return
}

// -----

func.func @copy_out_of_bounds(%A: memref<256x256xbf16>) {
  %c0 = arith.constant 0 : index
  %c224 = arith.constant 224 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.copy_to_shared' op region of 64 rows at row offset 224 exceeds the 256 rows of the source}}
  hk.copy_to_shared %A[%c224, %c0], %t[%c0] : memref<256x256xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  return
}

// -----

// A huge constant offset is reported, not overflowed.
func.func @copy_huge_offset(%A: memref<256x256xbf16>) {
  %c0 = arith.constant 0 : index
  %big = arith.constant 9223372036854775807 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.copy_to_shared' op region of 64 rows at row offset 9223372036854775807 exceeds the 256 rows of the source}}
  hk.copy_to_shared %A[%big, %c0], %t[%c0] : memref<256x256xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  return
}

// -----

func.func @copy_direct_chip(%A: memref<?x?xbf16>) attributes {hk.chip = #hk.chip<gfx1201>} {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.copy_to_shared' op gfx1201 has no direct-to-LDS loads; fill through registers (drop 'direct')}}
  hk.copy_to_shared %A[%c0, %c0], %t[%c0] direct : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  return
}

// -----

func.func @copy_direct_layout(%A: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
  // expected-error @+1 {{'hk.copy_to_shared' op a direct fill needs each 16-byte chunk of LDS to hold consecutive elements of a row, which this tile's layout does not (LDS element 4)}}
  hk.copy_to_shared %A[%c0, %c0], %t[%c0] direct : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
  return
}

//===----------------------------------------------------------------------===//
// hk.load_fragment
//===----------------------------------------------------------------------===//

// -----

func.func @load_acc() {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.load_fragment' op loads 'a' or 'b' fragments, not 'acc'}}
  %f = hk.load_fragment %t[%c0][%c0, %c0] : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @load_element() {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.load_fragment' op fragment element type 'f16' does not match the tile's 'bf16'}}
  %f = hk.load_fragment %t[%c0][%c0, %c0] : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>> -> !hk.fragment<a, 16x32xf16, mma = 16x16x32>
  return
}

// -----

func.func @load_slot() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.load_fragment' op slot 1 is out of range for a tile with 1 slot(s)}}
  %f = hk.load_fragment %t[%c1][%c0, %c0] : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>> -> !hk.fragment<a, 16x32xbf16, mma = 16x16x32>
  return
}

// -----

func.func @load_too_big() {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.load_fragment' op region of 128x32 does not fit in the 64 rows of the tile}}
  %f = hk.load_fragment %t[%c0][%c0, %c0] : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>> -> !hk.fragment<a, 128x32xbf16, mma = 16x16x32>
  return
}

// -----

func.func @load_out_of_tile() {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.load_fragment' op region of 32 columns at column offset 64 exceeds the 64 columns of the tile}}
  %f = hk.load_fragment %t[%c0][%c0, %c64] : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>> -> !hk.fragment<a, 16x32xbf16, mma = 16x16x32>
  return
}

// -----

func.func @load_misaligned() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.load_fragment' op row offset 8 is not a multiple of the fragment's 16 rows}}
  %f = hk.load_fragment %t[%c0][%c8, %c0] : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>> -> !hk.fragment<a, 16x32xbf16, mma = 16x16x32>
  return
}

// -----

func.func @load_chip() attributes {hk.chip = #hk.chip<gfx1201>} {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.load_fragment' op gfx1201 has no 16x16x32 'bf16' MMA (its MMA shapes: 16x16x16)}}
  %f = hk.load_fragment %t[%c0][%c0, %c0] : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>> -> !hk.fragment<a, 16x32xbf16, mma = 16x16x32>
  return
}

//===----------------------------------------------------------------------===//
// hk.mma
//===----------------------------------------------------------------------===//

// -----

func.func @mma_role(%a: !hk.fragment<a, 16x32xbf16, mma = 16x16x32>,
                    %c: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.mma' op operand 'b' must be an 'b' fragment, got 'a'}}
  %r = hk.mma %a, %a, %c : !hk.fragment<a, 16x32xbf16, mma = 16x16x32>, !hk.fragment<a, 16x32xbf16, mma = 16x16x32>, !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @mma_shapes(%a: !hk.fragment<a, 16x32xbf16, mma = 16x16x32>,
                      %b: !hk.fragment<b, 16x32xbf16, mma = 16x16x16>,
                      %c: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.mma' op fragments of different MMA shapes: a 16x16x32, b 16x16x16, acc 16x16x32}}
  %r = hk.mma %a, %b, %c : !hk.fragment<a, 16x32xbf16, mma = 16x16x32>, !hk.fragment<b, 16x32xbf16, mma = 16x16x16>, !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @mma_types(%a: !hk.fragment<a, 16x32xbf16, mma = 16x16x32>,
                     %b: !hk.fragment<b, 16x32xf16, mma = 16x16x32>,
                     %c: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.mma' op 'a' holds 'bf16' but 'b' holds 'f16'}}
  %r = hk.mma %a, %b, %c : !hk.fragment<a, 16x32xbf16, mma = 16x16x32>, !hk.fragment<b, 16x32xf16, mma = 16x16x32>, !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @mma_k(%a: !hk.fragment<a, 16x64xbf16, mma = 16x16x32>,
                 %b: !hk.fragment<b, 16x32xbf16, mma = 16x16x32>,
                 %c: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.mma' op 'a' has K = 64 but 'b' has K = 32}}
  %r = hk.mma %a, %b, %c : !hk.fragment<a, 16x64xbf16, mma = 16x16x32>, !hk.fragment<b, 16x32xbf16, mma = 16x16x32>, !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @mma_acc_shape(%a: !hk.fragment<a, 32x32xbf16, mma = 16x16x32>,
                         %b: !hk.fragment<b, 16x32xbf16, mma = 16x16x32>,
                         %c: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.mma' op 'acc' is 16x16 but a * b^T is 32x16}}
  %r = hk.mma %a, %b, %c : !hk.fragment<a, 32x32xbf16, mma = 16x16x32>, !hk.fragment<b, 16x32xbf16, mma = 16x16x32>, !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

// 32x32x16 is gfx950's (v_mfma_f32_32x32x16_bf16): gfx1201 has no such WMMA.
func.func @mma32_chip(%a: !hk.fragment<a, 32x16xbf16, mma = 32x32x16>,
                      %b: !hk.fragment<b, 32x16xbf16, mma = 32x32x16>,
                      %c: !hk.fragment<acc, 32x32xf32, mma = 32x32x16>)
    attributes {hk.chip = #hk.chip<gfx1201>} {
  // expected-error @+1 {{'hk.mma' op gfx1201 has no 32x32x16 'bf16' MMA (its MMA shapes: 16x16x16)}}
  %r = hk.mma %a, %b, %c : !hk.fragment<a, 32x16xbf16, mma = 32x32x16>, !hk.fragment<b, 32x16xbf16, mma = 32x32x16>, !hk.fragment<acc, 32x32xf32, mma = 32x32x16>
  return
}

// -----

// gfx950's 32x32 fp8 MFMA (32x32x64 f8f6f4) is not one hk emits.
func.func @mma32_fp8(%a: !hk.fragment<a, 32x16xf8E4M3FN, mma = 32x32x16>)
    attributes {hk.chip = #hk.chip<gfx950>} {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xf8E4M3FN, #hk.swizzle<none>>
  // expected-error @+1 {{'hk.load_fragment' op gfx950 has no 32x32x16 'f8E4M3FN' MMA (its MMA shapes: 16x16x32, 32x32x16, 16x16x128)}}
  %f = hk.load_fragment %t[%c0][%c0, %c0] : !hk.shared_tile<64x64xf8E4M3FN, #hk.swizzle<none>> -> !hk.fragment<a, 32x16xf8E4M3FN, mma = 32x32x16>
  return
}

// -----

func.func @mma_chip(%a: !hk.fragment<a, 16x16xbf16, mma = 16x16x16>,
                    %b: !hk.fragment<b, 16x16xbf16, mma = 16x16x16>,
                    %c: !hk.fragment<acc, 16x16xf32, mma = 16x16x16>)
    attributes {hk.chip = #hk.chip<gfx950>} {
  // expected-error @+1 {{'hk.mma' op gfx950 has no 16x16x16 'bf16' MMA (its MMA shapes: 16x16x32, 32x32x16, 16x16x128)}}
  %r = hk.mma %a, %b, %c : !hk.fragment<a, 16x16xbf16, mma = 16x16x16>, !hk.fragment<b, 16x16xbf16, mma = 16x16x16>, !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
  return
}

//===----------------------------------------------------------------------===//
// hk.fill_fragment
//===----------------------------------------------------------------------===//

// -----

func.func @fill_type(%x: f16) {
  // expected-error @+1 {{'hk.fill_fragment' op failed to verify that value type matches the fragment's element type}}
  %f = "hk.fill_fragment"(%x) : (f16) -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @fill_chip(%x: f32) attributes {hk.chip = #hk.chip<gfx950>} {
  // expected-error @+1 {{'hk.fill_fragment' op gfx950 has no 16x16x16 MMA accumulating f32 (its MMA shapes: 16x16x32, 32x32x16, 16x16x128)}}
  %f = hk.fill_fragment %x : !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
  return
}

// -----

gpu.module @load_transpose_gfx1201 [#rocdl.target<chip = "gfx1201">] {
  func.func @f() {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_8x64>>
    // expected-error @+1 {{'hk.load_fragment' op gfx1201 has no transposed LDS reads (ds_read_b64_tr_b16 is gfx950's); fill the tile with 'hk.copy_to_shared ... transpose' instead}}
    %a = hk.load_fragment %t[%c0][%c0, %c0] transpose : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_8x64>> -> !hk.fragment<a, 32x32xbf16, mma = 16x16x16>
    return
  }
}

// -----

gpu.module @load_transpose_region [#rocdl.target<chip = "gfx950">] {
  func.func @f() {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
    // The region is 64 tile rows (the fragment's k) from row 32.
    // expected-error @+1 {{'hk.load_fragment' op region of 64 rows at row offset 32 exceeds the 64 rows of the tile}}
    %a = hk.load_fragment %t[%c0][%c32, %c0] transpose : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>> -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
    return
  }
}

//===----------------------------------------------------------------------===//
// hk.store_fragment
//===----------------------------------------------------------------------===//

// -----

func.func @store_role(%f: !hk.fragment<a, 16x32xbf16, mma = 16x16x32>, %C: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.store_fragment' op stores 'acc' fragments and 'row' / 'col' vectors, got 'a'}}
  hk.store_fragment %f, %C[%c0, %c0] : !hk.fragment<a, 16x32xbf16, mma = 16x16x32>, memref<?x?xbf16>
  return
}

// -----

func.func @store_bounds(%f: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, %C: memref<64x64xbf16>) {
  %c0 = arith.constant 0 : index
  %c56 = arith.constant 56 : index
  // expected-error @+1 {{'hk.store_fragment' op region of 16 columns at column offset 56 exceeds the 64 columns of the destination}}
  hk.store_fragment %f, %C[%c0, %c56] : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, memref<64x64xbf16>
  return
}

// -----

func.func @store_partial_rows(%f: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, %C: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.store_fragment' op stores take bounds 'inside' or 'partial', not 'partial_rows'}}
  hk.store_fragment %f, %C[%c0, %c0] bounds partial_rows : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, memref<?x?xbf16>
  return
}

// -----

// expected-error @+1 {{expected '/' or 'ceildiv' in a grid term}}
func.func private @grid_term() attributes {hk.launch = #hk.launch<grid = [arg0[0] by 64]>}

// -----

func.func @remainder_attr() {
  // expected-error @+1 {{'hk.remainder' is a unit attribute of scf.for}}
  return {hk.remainder}
}

// -----

func.func @store_rank(%f: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, %C: memref<?xbf16>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.store_fragment' op stores an 'acc' fragment to a 2-D memref}}
  "hk.store_fragment"(%f, %C, %c0, %c0) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>}> : (!hk.fragment<acc, 16x16xf32, mma = 16x16x32>, memref<?xbf16>, index, index) -> ()
  return
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx1201">] {
  func.func @store_chip(%f: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, %C: memref<?x?xbf16>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'hk.store_fragment' op gfx1201 has no 16x16x32 MMA accumulating f32 (its MMA shapes: 16x16x16)}}
    hk.store_fragment %f, %C[%c0, %c0] : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, memref<?x?xbf16>
    return
  }
}

// -----

// expected-error @+1 {{expected static shape}}
func.func private @frag_dynamic(!hk.fragment<a, ?x32xbf16, mma = 16x16x32>)

//===----------------------------------------------------------------------===//
// Schedule ops
//===----------------------------------------------------------------------===//

// -----

func.func @cluster_priority() {
  // expected-error @+1 {{'hk.cluster' op priority must be 0 to 3 (s_setprio), got 4}}
  hk.cluster priority = 4 {
    hk.yield
  }
  return
}

// -----

!alt_tile = !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
!alt_a = !hk.fragment<a, 16x32xbf16, mma = 16x16x32>
func.func @cluster_alternating(%t: !alt_tile) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.cluster' op is 'alternating' but not 'interleaved' with 2 memory operations: they cannot both keep their order and alternate with its MMAs}}
  %r:2 = hk.cluster alternating {
    %x = hk.load_fragment %t[%c0][%c0, %c0] : !alt_tile -> !alt_a
    %y = hk.load_fragment %t[%c0][%c0, %c0] : !alt_tile -> !alt_a
    hk.yield %x, %y : !alt_a, !alt_a
  } : !alt_a, !alt_a
  return
}

// -----

func.func @cluster_barrier() {
  // expected-error @+1 {{'hk.cluster' op cannot hold a barrier: clusters are separated by barriers}}
  hk.cluster {
    // expected-note @+1 {{barrier here}}
    amdgpu.lds_barrier
    hk.yield
  }
  return
}

// -----

func.func @cluster_wait() {
  // expected-error @+1 {{'hk.cluster' op cannot hold 'amdgpu.memory_counter_wait': waits, priority changes and scheduling fences go between clusters}}
  hk.cluster {
    // expected-note @+1 {{here}}
    amdgpu.memory_counter_wait load(0)
    hk.yield
  }
  return
}

// -----

func.func @cluster_nested_barrier(%c: i1) {
  // expected-error @+1 {{'hk.cluster' op cannot hold a barrier: clusters are separated by barriers}}
  hk.cluster {
    scf.if %c {
      // expected-note @+1 {{barrier here}}
      amdgpu.lds_barrier
    }
    hk.yield
  }
  return
}

// -----

func.func @cluster_setprio() {
  // expected-error @+1 {{'hk.cluster' op cannot hold 'rocdl.s.setprio': waits, priority changes and scheduling fences go between clusters}}
  hk.cluster {
    // expected-note @+1 {{here}}
    rocdl.s.setprio 1
    hk.yield
  }
  return
}

// -----

func.func @cluster_nested() {
  // expected-error @+1 {{'hk.cluster' op cannot hold 'hk.cluster': clusters do not nest}}
  hk.cluster {
    // expected-note @+1 {{here}}
    hk.cluster {
      hk.yield
    }
    hk.yield
  }
  return
}

// -----

func.func @cluster_yield(%x: f32) {
  // expected-error @+1 {{'hk.cluster' op yields 1 values of types ('f32') but has 0 results of types ()}}
  hk.cluster {
    hk.yield %x : f32
  }
  return
}

// -----

func.func @barrier_divergent() {
  %c32 = arith.constant 32 : index
  %tid = gpu.thread_id x
  %lower = arith.cmpi ult, %tid, %c32 : index
  scf.if %lower {
    // expected-error @+1 {{'hk.barrier' op every wave must execute the same barriers, but this one sits under an scf.if whose condition is not provably uniform across the workgroup (computed only from constants, kernel arguments, workgroup ids and sizes and memref.dim)}}
    hk.barrier
  }
  return
}

// -----

func.func @barrier_divergent_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tid = gpu.thread_id x
  scf.for %i = %c0 to %tid step %c1 {
    // expected-error @+1 {{'hk.barrier' op every wave must execute the same barriers, but this one sits in an scf.for whose bounds are not provably uniform}}
    hk.barrier
  }
  return
}

// -----

func.func @barrier_while(%n: i32) {
  scf.while : () -> () {
    %c = arith.constant true
    scf.condition(%c)
  } do {
    // expected-error @+1 {{'hk.barrier' op every wave must execute the same barriers, but this one sits in 'scf.while', whose control flow hk cannot prove uniform}}
    hk.barrier
    scf.yield
  }
  return
}

// -----

func.func @stagger_nested(%late: i1) {
  hk.stagger %late {
    // expected-error @+1 {{'hk.stagger' op cannot be nested in another hk.stagger: two phase offsets would pair the wrong intervals}}
    hk.stagger %late {
      hk.yield
    }
    hk.yield
  }
  return
}

// -----

func.func @stagger_upstream_barrier(%late: i1) {
  %c32 = arith.constant 32 : index
  %tid = gpu.thread_id x
  %lower = arith.cmpi ult, %tid, %c32 : index
  hk.stagger %late {
    scf.if %lower {
      // expected-error @+1 {{'amdgpu.lds_barrier' op every wave must execute the same barriers, but this one sits under an scf.if whose condition is not provably uniform}}
      amdgpu.lds_barrier
    }
    hk.yield
  }
  return
}

// -----

func.func @yield_parent(%x: f32) {
  // expected-error @+1 {{'hk.yield' op expects parent op to be one of 'hk.cluster, hk.stagger, hk.map, hk.mask, hk.any'}}
  "hk.yield"(%x) : (f32) -> ()
  return
}

// -----

func.func @map_no_inputs() {
  // expected-error @+1 {{'hk.map' op needs at least one input fragment}}
  %r = "hk.map"() ({
  ^bb0:
    %z = arith.constant 0.0 : f32
    hk.yield %z : f32
  }) : () -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @map_shapes(%a: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.map' op input #0 is a 'acc 16x16 mma = 16x16x32' fragment but the result is 'acc 32x16 mma = 16x16x32': the fragments must share lane layout (role and k order), shape and MMA shape}}
  %r = hk.map %a : !hk.fragment<acc, 16x16xf32, mma = 16x16x32> -> !hk.fragment<acc, 32x16xf32, mma = 16x16x32> {
  ^bb0(%x: f32):
    hk.yield %x : f32
  }
  return
}

// -----

func.func @map_arguments(%a: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.map' op body takes 2 element(s) for 1 input(s)}}
  %r = hk.map %a : !hk.fragment<acc, 16x16xf32, mma = 16x16x32> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32> {
  ^bb0(%x: f32, %y: f32):
    hk.yield %x : f32
  }
  return
}

// -----

func.func @map_argument_type(%a: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.map' op body argument #0 is 'f16' but input #0 holds 'f32'}}
  %r = hk.map %a : !hk.fragment<acc, 16x16xf32, mma = 16x16x32> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32> {
  ^bb0(%x: f16):
    %y = arith.extf %x : f16 to f32
    hk.yield %y : f32
  }
  return
}

// -----

func.func @map_yield_type(%a: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.map' op body yields 'f16' but the result holds 'f32'}}
  %r = hk.map %a : !hk.fragment<acc, 16x16xf32, mma = 16x16x32> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32> {
  ^bb0(%x: f32):
    %y = arith.truncf %x : f32 to f16
    hk.yield %y : f16
  }
  return
}

// -----

func.func @map_memory(%a: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, %p: memref<f32>) {
  %r = hk.map %a : !hk.fragment<acc, 16x16xf32, mma = 16x16x32> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32> {
  ^bb0(%x: f32):
    // expected-error @+1 {{'memref.load' op in an 'hk.map' body must not touch memory (the body runs once per element)}}
    %y = memref.load %p[] : memref<f32>
    hk.yield %y : f32
  }
  return
}

// -----

func.func @map_hk_value(%a: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>) {
  %r = hk.map %a : !hk.fragment<acc, 16x16xf32, mma = 16x16x32> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32> {
  ^bb0(%x: f32):
    // expected-error @+1 {{'hk.fill_fragment' op in an 'hk.map' body uses an hk value; the body computes one element from scalars}}
    %f = hk.fill_fragment %x : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    hk.yield %x : f32
  }
  return
}

// -----

func.func @read_role(%C: memref<?x?xbf16>, %i: index) {
  // expected-error @+1 {{'hk.read_fragment' op reads 'acc', 'scale', 'row' or 'col' fragments, got 'b'}}
  %r = hk.read_fragment %C[%i, %i] : memref<?x?xbf16> -> !hk.fragment<b, 16x32xbf16, mma = 16x16x32>
  return
}

// -----

func.func @read_indices(%C: memref<?x?xbf16>, %i: index) {
  // expected-error @+1 {{'hk.read_fragment' op takes 2 index(es) for a rank-2 source, got 1}}
  %r = hk.read_fragment %C[%i] : memref<?x?xbf16> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @read_bounds(%C: memref<?x?xbf16>, %i: index) {
  // expected-error @+1 {{'hk.read_fragment' op reads take bounds 'inside', 'partial_rows' or 'partial', not 'partial_chunks'}}
  %r = hk.read_fragment %C[%i, %i] bounds partial_chunks : memref<?x?xbf16> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @read_rows_transposed(%C: memref<?x?xbf16>, %i: index) {
  // expected-error @+1 {{'hk.read_fragment' op bounds 'partial_rows' reads rows of a 2-D source, not transposed}}
  %r = hk.read_fragment %C[%i, %i] transpose bounds partial_rows : memref<?x?xbf16> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @read_rows_vector(%b: memref<?xf32>, %i: index) {
  // expected-error @+1 {{'hk.read_fragment' op bounds 'partial_rows' reads rows of a 2-D source, not transposed}}
  %r = hk.read_fragment %b[%i] bounds partial_rows : memref<?xf32> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @read_outside(%C: memref<8x?xbf16>, %i: index) {
  // expected-error @+1 {{'hk.read_fragment' op region of 16x16 does not fit in the 8 rows of the source}}
  %r = hk.read_fragment %C[%i, %i] : memref<8x?xbf16> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @read_row_outside(%bias: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.read_fragment' op region of 1x16 does not fit in the 8 columns of the source}}
  %r = hk.read_fragment %bias[%c0] : memref<8xf32> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @read_vector_2d(%C: memref<?x?xf32>, %i: index) {
  // expected-error @+1 {{'hk.read_fragment' op reads a 'row' or 'col' vector from a 1-D memref}}
  %r = hk.read_fragment %C[%i, %i] : memref<?x?xf32> -> !hk.fragment<col, 1x32xf32, mma = 32x32x16>
  return
}

// -----

func.func @read_vector_bf16(%L: memref<?xbf16>, %i: index) {
  // expected-error @+1 {{'hk.read_fragment' op reads into f32 fragments, got 'bf16'}}
  %r = hk.read_fragment %L[%i] : memref<?xbf16> -> !hk.fragment<row, 32x1xbf16, mma = 32x32x16>
  return
}

// -----

func.func @read_vector_transposed(%L: memref<?xf32>, %i: index) {
  // expected-error @+1 {{'hk.read_fragment' op transposes 'acc' fragments read from 2-D memrefs only}}
  %r = hk.read_fragment %L[%i] transpose : memref<?xf32> -> !hk.fragment<row, 32x1xf32, mma = 32x32x16>
  return
}

// -----

func.func @read_row_vector_outside(%L: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.read_fragment' op region of 32x1 does not fit in the 16 rows of the source}}
  %r = hk.read_fragment %L[%c0] : memref<16xf32> -> !hk.fragment<row, 32x1xf32, mma = 32x32x16>
  return
}

// -----

func.func @read_transposed_outside(%C: memref<16x64xbf16>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.read_fragment' op region of 32x64 does not fit in the 16 rows of the source}}
  %r = hk.read_fragment %C[%c0, %c0] transpose : memref<16x64xbf16> -> !hk.fragment<acc, 64x32xf32, mma = 32x32x16>
  return
}

// -----

func.func @read_strided(%C: memref<?x?xbf16, strided<[1, ?]>>, %i: index) {
  // expected-error @+1 {{'hk.read_fragment' op source must be strided with unit stride along its rows, got 'memref<?x?xbf16, strided<[1, ?]>>'}}
  %r = hk.read_fragment %C[%i, %i] : memref<?x?xbf16, strided<[1, ?]>> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

// gfx1201 has no 16x16x128 fp8 MMA (gfx950's f8f6f4 shape).
func.func @fp8_shape_gfx1201(%a: !hk.fragment<a, 16x128xf8E4M3FN, mma = 16x16x128>,
                             %b: !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
                             %c: !hk.fragment<acc, 16x16xf32, mma = 16x16x128>) attributes {hk.chip = #hk.chip<gfx1201>} {
  // expected-error @+1 {{'hk.mma' op gfx1201 has no 16x16x128 'f8E4M3FN' MMA (its MMA shapes: 16x16x16)}}
  %d = hk.mma %a, %b, %c : !hk.fragment<a, 16x128xf8E4M3FN, mma = 16x16x128>, !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>, !hk.fragment<acc, 16x16xf32, mma = 16x16x128>
  return
}

// -----

// The half-rate CDNA3-style 16x16x32 fp8 MFMA is not used on gfx950.
func.func @fp8_half_rate() attributes {hk.chip = #hk.chip<gfx950>} {
  %z = arith.constant 0.0 : f8E4M3FN
  // expected-error @+1 {{'hk.fill_fragment' op gfx950 has no 16x16x32 'f8E4M3FN' MMA (its MMA shapes: 16x16x32, 32x32x16, 16x16x128)}}
  %a = hk.fill_fragment %z : !hk.fragment<a, 16x32xf8E4M3FN, mma = 16x16x32>
  return
}

// -----

// FNUZ fp8 (gfx942's) is not a type hk's chips have.
// expected-error @+1 {{'a' fragments hold bf16, f16, f8E4M3FN or f8E5M2, got 'f8E4M3FNUZ'}}
func.func @fp8_fnuz(%a: !hk.fragment<a, 16x128xf8E4M3FNUZ, mma = 16x16x128>) {
  return
}

// -----

func.func @fp8_mixed(%a: !hk.fragment<a, 16x128xf8E4M3FN, mma = 16x16x128>,
                     %b: !hk.fragment<b, 16x128xf8E5M2, mma = 16x16x128>,
                     %c: !hk.fragment<acc, 16x16xf32, mma = 16x16x128>) attributes {hk.chip = #hk.chip<gfx950>} {
  // expected-error @+1 {{'hk.mma' op 'a' holds 'f8E4M3FN' but 'b' holds 'f8E5M2'}}
  %d = hk.mma %a, %b, %c : !hk.fragment<a, 16x128xf8E4M3FN, mma = 16x16x128>, !hk.fragment<b, 16x128xf8E5M2, mma = 16x16x128>, !hk.fragment<acc, 16x16xf32, mma = 16x16x128>
  return
}

// -----

// expected-error @+1 {{swizzle st_16x128 is defined for 8-bit elements, not 2-byte ones}}
func.func @fp8_swizzle(%t: !hk.shared_tile<128x128xbf16, #hk.swizzle<st_16x128>>) {
  return
}

// -----

// MXFP8 block scales exist only on gfx950's 16x16x128 fp8 MFMA.
func.func @scales_gfx1201(%s: memref<?x?xf8E8M0FNU>, %i: index) attributes {hk.chip = #hk.chip<gfx1201>} {
  // expected-error @+1 {{'hk.read_fragment' op gfx1201 has no 16x16x128 MMA with block scales (MXFP8 needs gfx950's v_mfma_scale_f32_16x16x128_f8f6f4) (its MMA shapes: 16x16x16)}}
  %r = hk.read_fragment %s[%i, %i] : memref<?x?xf8E8M0FNU> -> !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>
  return
}

// -----

// expected-error @+1 {{'scale' fragments need an MMA K that is a multiple of 32, got 16}}
func.func @scales_k(%a: !hk.fragment<scale, 16x1xf8E8M0FNU, mma = 16x16x16>) {
  return
}

// -----

// expected-error @+1 {{'scale' fragments hold f8E8M0FNU, got 'f32'}}
func.func @scales_type(%a: !hk.fragment<scale, 16x4xf32, mma = 16x16x128>) {
  return
}

// -----

func.func @scales_shape(%a: !hk.fragment<a, 16x128xf8E4M3FN, mma = 16x16x128>,
                        %b: !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
                        %c: !hk.fragment<acc, 16x16xf32, mma = 16x16x128>,
                        %sa: !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>,
                        %sb: !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>) attributes {hk.chip = #hk.chip<gfx950>} {
  // expected-error @+1 {{'hk.mma' op the scales of 'a' are 32x4 but 'a' needs 16x4 (one per row per 32 k)}}
  %d = hk.mma %a, %b, %c scales(%sa, %sb) : !hk.fragment<a, 16x128xf8E4M3FN, mma = 16x16x128>, !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>, !hk.fragment<acc, 16x16xf32, mma = 16x16x128>, !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>, !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>
  return
}

// -----

func.func @scales_one(%a: !hk.fragment<a, 16x128xf8E4M3FN, mma = 16x16x128>,
                      %b: !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
                      %c: !hk.fragment<acc, 16x16xf32, mma = 16x16x128>,
                      %sa: !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>) attributes {hk.chip = #hk.chip<gfx950>} {
  // expected-error @+1 {{'hk.mma' op takes the scales of 'a' and 'b', got 1 scale fragment(s)}}
  %d = hk.mma %a, %b, %c scales(%sa) : !hk.fragment<a, 16x128xf8E4M3FN, mma = 16x16x128>, !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>, !hk.fragment<acc, 16x16xf32, mma = 16x16x128>, !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>
  return
}

// -----

func.func @gather_transposed(%A: memref<?x?xbf16>, %ids: memref<?xi32>, %d: index) {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_8x64>>
  // expected-error @+1 {{'hk.copy_to_shared' op a gathering copy is not transposed: drop 'transpose'}}
  hk.copy_to_shared %A[%c0, %c0], %t[%c0] gather %ids[%c0] div %d transpose : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_8x64>>, memref<?xi32>
  return
}

// -----

func.func @gather_read_acc(%C: memref<?x?xf32>, %ids: memref<?xi32>, %d: index) attributes {hk.chip = #hk.chip<gfx950>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.read_fragment' op a gathering read reads a 'scale' fragment from a 2-D source, untransposed}}
  %r = hk.read_fragment %C[%c0, %c0] gather %ids[%c0] div %d bounds partial : memref<?x?xf32>, memref<?xi32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
  return
}

// -----

func.func @gather_read_inside(%s: memref<?x?xf8E8M0FNU>, %ids: memref<?xi32>, %d: index) attributes {hk.chip = #hk.chip<gfx950>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.read_fragment' op a gathering read takes bounds 'partial' or 'partial_rows' (padding ids point past the source's rows), not 'inside'}}
  %r = hk.read_fragment %s[%c0, %c0] gather %ids[%c0] div %d : memref<?x?xf8E8M0FNU>, memref<?xi32> -> !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
  return
}

// -----

func.func @gather_read_incomplete(%s: memref<?x?xf8E8M0FNU>, %ids: memref<?xi32>) attributes {hk.chip = #hk.chip<gfx950>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.read_fragment' op a gathering read needs the ids, the first id's position and the divisor}}
  %r = "hk.read_fragment"(%s, %c0, %c0, %ids) <{bounds = 2 : i32, operandSegmentSizes = array<i32: 1, 2, 1, 0, 0>}> : (memref<?x?xf8E8M0FNU>, index, index, memref<?xi32>) -> !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
  return
}

// -----

func.func @scatter_inside(%C: memref<?x?xbf16>, %ids: memref<?xi32>, %d: index) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %acc = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
  // expected-error @+1 {{'hk.store_fragment' op a scattering store takes a 2-D destination with 'bounds partial' (padding rows fall past it), untransposed}}
  hk.store_fragment %acc, %C[%c0, %c0] scatter %ids[%c0] div %d : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>, memref<?xi32>
  return
}

// -----

func.func @atomic_bf16(%C: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %acc = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
  // expected-error @+1 {{'hk.store_fragment' op an atomic store adds an f32 fragment into an f32 destination with 'bounds partial', untransposed}}
  hk.store_fragment %acc, %C[%c0, %c0] atomic bounds partial : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>
  return
}

// -----

func.func @deferred_direct(%A: memref<?x?xbf16>) attributes {hk.chip = #hk.chip<gfx950>} {
  %c0 = arith.constant 0 : index
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  // expected-error @+1 {{'hk.copy_to_shared' op a direct fill has no stores to defer: drop 'deferred'}}
  hk.copy_to_shared %A[%c0, %c0], %t[%c0] direct deferred : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
  return
}
