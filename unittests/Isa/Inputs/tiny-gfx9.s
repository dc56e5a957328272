; A two-kernel code object for IsaTest's ELF decoding (assembled by CMake
; with llvm-mc for gfx950, and for gfx90a to check the refusal).
  .text
  .globl first
  .p2align 8
  .type first,@function
first:
  s_load_dwordx2 s[0:1], s[0:1], 0x0
  v_mov_b32 v0, 1.0
.Lloop:
  v_add_f32 v0, v0, v0
  s_sub_u32 s2, s2, 1
  s_cbranch_scc1 .Lloop
  s_waitcnt lgkmcnt(0)
  s_endpgm
.Lfirst_end:
  .size first, .Lfirst_end-first

  .globl second
  .p2align 8
  .type second,@function
second:
  ds_read_b128 v[0:3], v4
  s_endpgm
.Lsecond_end:
  .size second, .Lsecond_end-second
