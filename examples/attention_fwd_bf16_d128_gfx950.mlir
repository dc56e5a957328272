// FlashAttention-2 forward, bf16, head dim 128, for gfx950 (MI350/MI355X).
//
//   O[b, h, q, :] = sum_k softmax_k(Q[b, h, q, :] . K[b, g, k, :] / sqrt(128))
//                   V[b, g, k, :],     g = h / (Hq / Hkv)   (GQA)
//   LSE[b, h, q]  = ln sum_k exp(Q[b, h, q, :] . K[b, g, k, :] / sqrt(128))
//
// Q, O [B, Hq, Nq, 128], K, V [B, Hkv, Nkv, 128] bf16; LSE [B, Hq, Nq] f32.
// `causal` != 0 masks key k for query q when k > q (top-left alignment:
// query q sees keys 0..q whatever Nq and Nkv are). Any Nq, Nkv >= 1.
//
// One workgroup of 4 waves takes 128 queries of one (batch, head); each
// wave owns 32 of them. The computation runs transposed (S^T = K Q^T, O^T =
// V^T P^T): a lane then holds whole query columns, the softmax statistics
// are column vectors, and the probabilities P^T are already the B operand
// of the second MMA (hk.to_operand moves no data across lanes). V is read
// transposed from LDS (ds_read_b64_tr_b16). Per KV tile of 64 keys:
//   S^T = K Q^T (f32), masked (tail and diagonal tiles only);  t = colmax S^T
//   m' = max(m, t) if c (t - m) > 8 for some query of the wave, else m' = m
//   (lazy rescale: the probabilities stay below 2^8)
//   P^T = exp2(c S^T - c m'),  alpha = exp2(c m - c m') (1 when m' = m),
//   c = log2(e)/sqrt(128)
//   l = alpha l + colsum P^T;  O^T = alpha O^T + V^T bf16(P^T)
// and at the end O = (O^T / l)^T, LSE = ln(2) (c m + log2 l).
//
// Launch (recorded in hk.launch): grid (ceil(Nq / 128), Hq, B), block
// (256, 1, 1). The K/V loop has the form hk-multi-buffer and
// hk-direct-lds-fill take (--stages=2 --direct-lds).
gpu.module @hk_attention [#rocdl.target<chip = "gfx950">] {
  gpu.func @attention_fwd_bf16_d128(%Q: memref<?x?x?x128xbf16>,
                                   %K: memref<?x?x?x128xbf16>,
                                   %V: memref<?x?x?x128xbf16>,
                                   %O: memref<?x?x?x128xbf16>,
                                   %LSE: memref<?x?x?xf32>,
                                   %causal: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg0[2] ceildiv 128, arg0[1] / 1, arg0[0] / 1]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c_wave = arith.constant 64 : index
    %c_qw = arith.constant 32 : index
    %c_qwg = arith.constant 128 : index
    %c_kv = arith.constant 64 : index
    %c_kv_last = arith.constant 63 : index
    %zero_i32 = arith.constant 0 : i32
    %zero = arith.constant 0.0 : f32
    %minus_inf = arith.constant 0xFF800000 : f32
    // log2(e) / sqrt(128): the softmax scale folded into exp2.
    %scale = arith.constant 0.127517431 : f32
    %minus_scale = arith.constant -0.127517431 : f32
    %ln2 = arith.constant 0.693147182 : f32
    // The lazy rescale threshold, in the exp2 domain (2^8).
    %rescale_threshold = arith.constant 8.0 : f32

    // This workgroup's (batch, head) and its heads' 2-D views.
    %batch = gpu.block_id z
    %head = gpu.block_id y
    %qblock = gpu.block_id x
    %Hq = memref.dim %Q, %c1 : memref<?x?x?x128xbf16>
    %Nq = memref.dim %Q, %c2 : memref<?x?x?x128xbf16>
    %Hkv = memref.dim %K, %c1 : memref<?x?x?x128xbf16>
    %Nkv = memref.dim %K, %c2 : memref<?x?x?x128xbf16>
    %group = arith.divui %Hq, %Hkv : index
    %kv_head = arith.divui %head, %group : index
    %Qh = memref.subview %Q[%batch, %head, 0, 0] [1, 1, %Nq, 128] [1, 1, 1, 1]
        : memref<?x?x?x128xbf16> to memref<?x128xbf16, strided<[128, 1], offset: ?>>
    %Kh = memref.subview %K[%batch, %kv_head, 0, 0] [1, 1, %Nkv, 128] [1, 1, 1, 1]
        : memref<?x?x?x128xbf16> to memref<?x128xbf16, strided<[128, 1], offset: ?>>
    %Vh = memref.subview %V[%batch, %kv_head, 0, 0] [1, 1, %Nkv, 128] [1, 1, 1, 1]
        : memref<?x?x?x128xbf16> to memref<?x128xbf16, strided<[128, 1], offset: ?>>
    %Oh = memref.subview %O[%batch, %head, 0, 0] [1, 1, %Nq, 128] [1, 1, 1, 1]
        : memref<?x?x?x128xbf16> to memref<?x128xbf16, strided<[128, 1], offset: ?>>
    %Lh = memref.subview %LSE[%batch, %head, 0] [1, 1, %Nq] [1, 1, 1]
        : memref<?x?x?xf32> to memref<?xf32, strided<[1], offset: ?>>

    %Qs = hk.alloc_shared : !hk.shared_tile<128x128xbf16, #hk.swizzle<st_8x64>>
    %Ks = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_8x64>>
    %Vs = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_8x64>>

    // The workgroup's 128 queries, this wave's 32 (its B operand, kept in
    // registers for the whole loop).
    %q0 = arith.muli %qblock, %c_qwg : index
    %tid = gpu.thread_id x
    %wave = arith.divui %tid, %c_wave : index
    %wq = arith.muli %wave, %c_qw : index
    %qw = arith.addi %q0, %wq : index
    hk.copy_to_shared %Qh[%q0, %c0], %Qs[%c0] bounds partial
        : memref<?x128xbf16, strided<[128, 1], offset: ?>>, !hk.shared_tile<128x128xbf16, #hk.swizzle<st_8x64>>
    amdgpu.lds_barrier
    %qf = hk.load_fragment %Qs[%c0][%wq, %c0]
        : !hk.shared_tile<128x128xbf16, #hk.swizzle<st_8x64>>
        -> !hk.fragment<b, 32x128xbf16, mma = 16x16x32>

    // Causal: no key past the workgroup's last query is needed.
    %is_causal = arith.cmpi ne, %causal, %zero_i32 : i32
    %q_end = arith.addi %q0, %c_qwg : index
    %kv_causal = arith.minui %Nkv, %q_end : index
    %kv_end = arith.select %is_causal, %kv_causal, %Nkv : index
    // No wave needs a mask on the tiles before %kv_masked: they hold no key
    // past Nkv and none past the workgroup's first query. hk-split-loops
    // moves the tiles from there on out of the steady-state loop.
    %kv_whole_tiles = arith.divui %Nkv, %c_kv : index
    %kv_whole = arith.muli %kv_whole_tiles, %c_kv : index
    %kv_diagonal = arith.minui %q0, %kv_whole : index
    %kv_masked = arith.select %is_causal, %kv_diagonal, %kv_whole : index

    %m_init = hk.fill_fragment %minus_inf : !hk.fragment<col, 1x32xf32, mma = 16x16x32>
    %l_init = hk.fill_fragment %zero : !hk.fragment<col, 1x32xf32, mma = 16x16x32>
    %o_init = hk.fill_fragment %zero : !hk.fragment<acc, 128x32xf32, mma = 16x16x32>
    %s_init = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    %state:3 = scf.for %k = %c0 to %kv_end step %c_kv
        iter_args(%m = %m_init, %l = %l_init, %o = %o_init)
        -> (!hk.fragment<col, 1x32xf32, mma = 16x16x32>,
            !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
            !hk.fragment<acc, 128x32xf32, mma = 16x16x32>) {
      hk.copy_to_shared %Kh[%k, %c0], %Ks[%c0] bounds partial
          : memref<?x128xbf16, strided<[128, 1], offset: ?>>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_8x64>>
      hk.copy_to_shared %Vh[%k, %c0], %Vs[%c0] bounds partial
          : memref<?x128xbf16, strided<[128, 1], offset: ?>>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_8x64>>
      amdgpu.lds_barrier

      // S^T = K Q^T: rows are keys k .. k+63, columns this wave's queries.
      %kf = hk.load_fragment %Ks[%c0][%c0, %c0]
          : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_8x64>>
          -> !hk.fragment<a, 64x128xbf16, mma = 16x16x32>
      %s = hk.mma %kf, %qf, %s_init
          : !hk.fragment<a, 64x128xbf16, mma = 16x16x32>,
            !hk.fragment<b, 32x128xbf16, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      // Keys past Nkv (the tail) and, when causal, past the query get
      // -inf; only tiles holding such keys pay for the mask, and only tiles
      // past %kv_masked can hold them.
      %k_next = arith.addi %k, %c_kv : index
      %tail = arith.cmpi ugt, %k_next, %Nkv : index
      %k_last = arith.addi %k, %c_kv_last : index
      %past_query = arith.cmpi ugt, %k_last, %qw : index
      %diagonal = arith.andi %is_causal, %past_query : i1
      %wave_needs_mask = arith.ori %tail, %diagonal : i1
      %in_mask_tiles = arith.cmpi uge, %k, %kv_masked : index
      %needs_mask = arith.andi %in_mask_tiles, %wave_needs_mask : i1
      %sm = scf.if %needs_mask -> (!hk.fragment<acc, 64x32xf32, mma = 16x16x32>) {
        %masked = hk.mask %s, %minus_inf at [%k, %qw]
            : !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
        ^bb0(%key: index, %query: index):
          %next = arith.addi %query, %c1 : index
          %causal_end = arith.minui %next, %Nkv : index
          %end = arith.select %is_causal, %causal_end, %Nkv : index
          %keep = arith.cmpi ult, %key, %end : index
          hk.yield %keep : i1
        }
        scf.yield %masked : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      } else {
        scf.yield %s : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      }

      // Online softmax, one statistic per query (column), with a lazy
      // rescale: the running maximum m stays as it is unless some query's
      // tile maximum t exceeds it by more than 8 in the exp2 domain
      // (c (t - m) > 8, one vote for the whole wave). A stale m keeps the
      // probabilities below 2^8 and O, l and m consistent: the same sums,
      // scaled by exp2(c (max - m)) until the final division.
      %tile_max = hk.reduce max %sm
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
          -> !hk.fragment<col, 1x32xf32, mma = 16x16x32>
      %rescale = hk.any %tile_max, %m
          : !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
            !hk.fragment<col, 1x32xf32, mma = 16x16x32> {
      ^bb0(%t: f32, %old: f32):
        %rise = arith.subf %t, %old : f32
        %x = arith.mulf %rise, %scale : f32
        %big = arith.cmpf ugt, %x, %rescale_threshold : f32
        hk.yield %big : i1
      }
      %m_new, %l_scaled, %o_scaled = scf.if %rescale
          -> (!hk.fragment<col, 1x32xf32, mma = 16x16x32>,
              !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
              !hk.fragment<acc, 128x32xf32, mma = 16x16x32>) {
        %m_max = hk.map %m, %tile_max
            : !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
              !hk.fragment<col, 1x32xf32, mma = 16x16x32>
            -> !hk.fragment<col, 1x32xf32, mma = 16x16x32> {
        ^bb0(%a: f32, %b: f32):
          %r = arith.maximumf %a, %b : f32
          hk.yield %r : f32
        }
        // alpha = exp2(c (m - m')): 0 on the first tile (m = -inf).
        %alpha = hk.map %m, %m_max
            : !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
              !hk.fragment<col, 1x32xf32, mma = 16x16x32>
            -> !hk.fragment<col, 1x32xf32, mma = 16x16x32> {
        ^bb0(%old: f32, %new: f32):
          %d = arith.subf %old, %new : f32
          %x = arith.mulf %d, %scale : f32
          %r = math.exp2 %x : f32
          hk.yield %r : f32
        }
        %l_alpha = hk.map %l, %alpha
            : !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
              !hk.fragment<col, 1x32xf32, mma = 16x16x32>
            -> !hk.fragment<col, 1x32xf32, mma = 16x16x32> {
        ^bb0(%lo: f32, %al: f32):
          %r = arith.mulf %lo, %al : f32
          hk.yield %r : f32
        }
        %o_alpha = hk.map %o, %alpha
            : !hk.fragment<acc, 128x32xf32, mma = 16x16x32>,
              !hk.fragment<col, 1x32xf32, mma = 16x16x32>
            -> !hk.fragment<acc, 128x32xf32, mma = 16x16x32> {
        ^bb0(%x: f32, %al: f32):
          %r = arith.mulf %x, %al : f32
          hk.yield %r : f32
        }
        scf.yield %m_max, %l_alpha, %o_alpha
            : !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
              !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
              !hk.fragment<acc, 128x32xf32, mma = 16x16x32>
      } else {
        scf.yield %m, %l, %o
            : !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
              !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
              !hk.fragment<acc, 128x32xf32, mma = 16x16x32>
      }
      %offset = hk.map %m_new : !hk.fragment<col, 1x32xf32, mma = 16x16x32>
          -> !hk.fragment<col, 1x32xf32, mma = 16x16x32> {
      ^bb0(%new: f32):
        %r = arith.mulf %new, %minus_scale : f32
        hk.yield %r : f32
      }
      %p = hk.map %sm, %offset
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
            !hk.fragment<col, 1x32xf32, mma = 16x16x32>
          -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
      ^bb0(%x: f32, %off: f32):
        %y = math.fma %x, %scale, %off : f32
        %r = math.exp2 %y : f32
        hk.yield %r : f32
      }
      %p_sum = hk.reduce sum %p
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
          -> !hk.fragment<col, 1x32xf32, mma = 16x16x32>
      %l_new = hk.map %l_scaled, %p_sum
          : !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
            !hk.fragment<col, 1x32xf32, mma = 16x16x32>
          -> !hk.fragment<col, 1x32xf32, mma = 16x16x32> {
      ^bb0(%lo: f32, %ps: f32):
        %r = arith.addf %lo, %ps : f32
        hk.yield %r : f32
      }

      // O^T = O^T + V^T P^T (O^T rescaled above when m moved); P^T is the
      // B operand where it is.
      %pf = hk.to_operand %p
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
          -> !hk.fragment<b_acc_k, 32x64xbf16, mma = 16x16x32>
      %vt = hk.load_fragment %Vs[%c0][%c0, %c0] transpose
          : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_8x64>>
          -> !hk.fragment<a_acc_k, 128x64xbf16, mma = 16x16x32>
      %o_new = hk.mma %vt, %pf, %o_scaled
          : !hk.fragment<a_acc_k, 128x64xbf16, mma = 16x16x32>,
            !hk.fragment<b_acc_k, 32x64xbf16, mma = 16x16x32>,
            !hk.fragment<acc, 128x32xf32, mma = 16x16x32>

      // Nobody refills K or V while another wave still reads them.
      amdgpu.lds_barrier
      scf.yield %m_new, %l_new, %o_new
          : !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
            !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
            !hk.fragment<acc, 128x32xf32, mma = 16x16x32>
    }

    // O = (O^T / l)^T in bf16, LSE = ln(2) (c m + log2 l).
    %out = hk.map %state#2, %state#1
        : !hk.fragment<acc, 128x32xf32, mma = 16x16x32>,
          !hk.fragment<col, 1x32xf32, mma = 16x16x32>
        -> !hk.fragment<acc, 128x32xf32, mma = 16x16x32> {
    ^bb0(%x: f32, %sum: f32):
      %r = arith.divf %x, %sum : f32
      hk.yield %r : f32
    }
    hk.store_fragment %out, %Oh[%qw, %c0] transpose bounds partial
        : !hk.fragment<acc, 128x32xf32, mma = 16x16x32>,
          memref<?x128xbf16, strided<[128, 1], offset: ?>>
    %lse = hk.map %state#0, %state#1
        : !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
          !hk.fragment<col, 1x32xf32, mma = 16x16x32>
        -> !hk.fragment<col, 1x32xf32, mma = 16x16x32> {
    ^bb0(%max: f32, %sum: f32):
      %lg = math.log2 %sum : f32
      %t = math.fma %max, %scale, %lg : f32
      %r = arith.mulf %t, %ln2 : f32
      hk.yield %r : f32
    }
    hk.store_fragment %lse, %Lh[%c0, %qw] bounds partial
        : !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
          memref<?xf32, strided<[1], offset: ?>>
    gpu.return
  }
}
