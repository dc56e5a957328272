; A one-kernel code object for IsaTest's ELF decoding on gfx1201.
  .text
  .globl wmma
  .p2align 8
  .type wmma,@function
wmma:
  s_load_b64 s[0:1], s[0:1], 0x0
  s_wait_kmcnt 0x0
  v_wmma_f32_16x16x16_bf16 v[0:7], v[8:11], v[12:15], v[0:7]
  s_endpgm
.Lwmma_end:
  .size wmma, .Lwmma_end-wmma
