// One wave of 64 lanes running gfx950 instruction families whose semantics
// semantics-gfx950.test pins. Argument 0 holds the per-lane inputs, rows of
// 64 words; each result register is stored, all 64 lanes, as a row of
// argument 1. v0 is the lane's id.

	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.amdhsa_code_object_version 6
	.text
	.globl	semantics
	.p2align	8
	.type	semantics,@function
semantics:
	// Raw buffer resources: each argument's pointer and element count
	// (kernarg words 0-2), count * 4 bytes, then the dword format.
	s_load_dwordx4 s[8:11], s[0:1], 0x0
	s_load_dwordx4 s[12:15], s[0:1], 0x10
	v_lshlrev_b32_e32 v1, 2, v0
	v_add_u32_e32 v2, 0x1000, v1
	s_waitcnt lgkmcnt(0)
	s_lshl_b32 s10, s10, 2
	s_lshl_b32 s14, s14, 2
	s_mov_b32 s11, 0x27000
	s_mov_b32 s15, 0x27000
	buffer_load_dword v10, v1, s[8:11], 0 offen
	buffer_load_dword v11, v1, s[8:11], 0 offen offset:256
	buffer_load_dword v12, v1, s[8:11], 0 offen offset:512
	buffer_load_dword v13, v1, s[8:11], 0 offen offset:768
	buffer_load_dword v14, v1, s[8:11], 0 offen offset:1024
	buffer_load_dword v15, v1, s[8:11], 0 offen offset:1280
	s_waitcnt vmcnt(0)

	// Row 0: v10 / v11, LLVM's f32 division with denormals kept.
	v_div_scale_f32 v20, s[16:17], v11, v11, v10
	v_div_scale_f32 v21, vcc, v10, v11, v10
	v_rcp_f32_e32 v22, v20
	v_fma_f32 v23, -v20, v22, 1.0
	v_fmac_f32_e32 v22, v23, v22
	v_mul_f32_e32 v23, v21, v22
	v_fma_f32 v24, -v20, v23, v21
	v_fmac_f32_e32 v23, v24, v22
	v_fma_f32 v24, -v20, v23, v21
	v_div_fmas_f32 v24, v24, v22, v23
	v_div_fixup_f32 v24, v24, v11, v10

	// Row 1: v_cvt_u32_f32 of v12. Row 2: v_maximum3_f32 of v13-v15.
	v_cvt_u32_f32_e32 v25, v12
	v_maximum3_f32 v26, v13, v14, v15

	// Rows 3-6: packed f32 with operand selection and negation;
	// v[30:31] = (2, 3), v[32:33] = (5, 7).
	v_mov_b32_e32 v30, 2.0
	v_mov_b32_e32 v31, 0x40400000
	v_mov_b32_e32 v32, 0x40a00000
	v_mov_b32_e32 v33, 0x40e00000
	v_pk_mul_f32 v[34:35], v[30:31], v[32:33] op_sel_hi:[0,1] neg_lo:[1,0] neg_hi:[0,1]
	v_pk_add_f32 v[36:37], v[30:31], v[32:33] op_sel:[1,1] op_sel_hi:[0,0] neg_lo:[0,1]

	// Rows 27-32: packed f32 with a constant operand whose halves both
	// read its low half (op_sel and op_sel_hi clear), as LLVM emits it.
	v_pk_add_f32 v[86:87], v[30:31], 1.0 op_sel_hi:[1,0]
	v_pk_mul_f32 v[88:89], -2.0, v[32:33] op_sel_hi:[0,1] neg_hi:[1,0]
	v_pk_fma_f32 v[90:91], v[30:31], 0.5, v[32:33] op_sel_hi:[1,0,1]

	// Rows 33-34: s_brev_b32 of a literal; SCC (set by the compare) kept.
	s_cmp_eq_u32 s0, s0
	s_brev_b32 s22, 0x12345678
	s_cselect_b32 s23, 0x5cc, 0
	v_mov_b32_e32 v92, s22
	v_mov_b32_e32 v93, s23

	// Rows 7-9: the 64-bit difference (0 : lane) - (lane / 32 : 5), the
	// borrow through VCC then s[20:21].
	v_mov_b32_e32 v41, 5
	v_mov_b32_e32 v43, 0
	v_lshrrev_b32_e32 v44, 5, v0
	v_sub_co_u32_e32 v40, vcc, v0, v41
	v_subb_co_u32_e64 v42, s[20:21], v43, v44, vcc
	v_cndmask_b32_e64 v45, 0, 1, s[20:21]

	// Rows 10-11: (1 : 0xc0000000 + lane) << 2 + (0x107 : 0xffffffe0).
	// Rows 25-26: the same shifted by 5.
	v_add_u32_e32 v46, 0xc0000000, v0
	v_mov_b32_e32 v47, 1
	v_mov_b32_e32 v48, 0xffffffe0
	v_mov_b32_e32 v49, 0x107
	v_lshl_add_u64 v[50:51], v[46:47], 2, v[48:49]
	v_mov_b32_e32 v84, 5
	v_lshl_add_u64 v[82:83], v[46:47], v84, v[48:49]

	// Row 12: a 16-bit shift by 20 into a register holding 0xaaaa5555.
	// Row 13: an SDWA or into such a register.
	v_mov_b32_e32 v52, 0xaaaa5555
	v_mov_b32_e32 v53, 0x1234abcd
	v_mov_b32_e32 v54, 20
	v_lshlrev_b16_e32 v52, v54, v53
	v_mov_b32_e32 v55, 0xaaaa5555
	v_mov_b32_e32 v56, 0xff0f0f
	v_or_b32_sdwa v55, v53, v56 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:DWORD

	// Rows 14-17: lane swaps of (lane, 0x100 + lane).
	v_mov_b32_e32 v57, v0
	v_add_u32_e32 v58, 0x100, v0
	v_permlane32_swap_b32_e32 v57, v58
	v_mov_b32_e32 v59, v0
	v_add_u32_e32 v60, 0x100, v0
	v_permlane16_swap_b32_e32 v59, v60

	// Rows 18-19: LDS halfword n holds n (lane l writes 4l .. 4l+3 at byte
	// 8l), read back transposed.
	v_lshlrev_b32_e32 v61, 3, v0
	v_lshlrev_b32_e32 v62, 2, v0
	v_add_u32_e32 v63, 1, v62
	v_lshl_or_b32 v64, v63, 16, v62
	v_add_u32_e32 v65, 0x20002, v64
	ds_write_b64 v61, v[64:65]
	s_waitcnt lgkmcnt(0)
	ds_read_b64_tr_b16 v[66:67], v61

	// Rows 20-23: two 64-bit words per lane at 1024 + 8 lane and 512 bytes
	// further, written in units of 8 bytes and read in units of 512.
	v_add_u32_e32 v70, 0x1000, v0
	v_add_u32_e32 v71, 0x2000, v0
	v_add_u32_e32 v72, 0x3000, v0
	v_add_u32_e32 v73, 0x4000, v0
	ds_write2_b64 v61, v[70:71], v[72:73] offset0:128 offset1:192
	v_add_u32_e32 v69, 0x400, v61
	s_waitcnt lgkmcnt(0)
	ds_read2st64_b64 v[74:77], v69 offset0:1 offset1:0

	// Row 24: every lane stores 0x5000 + lane at private byte 12 (vaddr
	// form) and loads it back (immediate-offset form).
	v_add_u32_e32 v78, 0x5000, v0
	v_mov_b32_e32 v79, 12
	scratch_store_dword v79, v78, off
	scratch_load_dword v80, off, off offset:12
	s_waitcnt vmcnt(0) lgkmcnt(0)

	buffer_store_dword v24, v1, s[12:15], 0 offen
	buffer_store_dword v25, v1, s[12:15], 0 offen offset:256
	buffer_store_dword v26, v1, s[12:15], 0 offen offset:512
	buffer_store_dword v34, v1, s[12:15], 0 offen offset:768
	buffer_store_dword v35, v1, s[12:15], 0 offen offset:1024
	buffer_store_dword v36, v1, s[12:15], 0 offen offset:1280
	buffer_store_dword v37, v1, s[12:15], 0 offen offset:1536
	buffer_store_dword v40, v1, s[12:15], 0 offen offset:1792
	buffer_store_dword v42, v1, s[12:15], 0 offen offset:2048
	buffer_store_dword v45, v1, s[12:15], 0 offen offset:2304
	buffer_store_dword v50, v1, s[12:15], 0 offen offset:2560
	buffer_store_dword v51, v1, s[12:15], 0 offen offset:2816
	buffer_store_dword v52, v1, s[12:15], 0 offen offset:3072
	buffer_store_dword v55, v1, s[12:15], 0 offen offset:3328
	buffer_store_dword v57, v1, s[12:15], 0 offen offset:3584
	buffer_store_dword v58, v1, s[12:15], 0 offen offset:3840
	buffer_store_dword v59, v2, s[12:15], 0 offen
	buffer_store_dword v60, v2, s[12:15], 0 offen offset:256
	buffer_store_dword v66, v2, s[12:15], 0 offen offset:512
	buffer_store_dword v67, v2, s[12:15], 0 offen offset:768
	buffer_store_dword v74, v2, s[12:15], 0 offen offset:1024
	buffer_store_dword v75, v2, s[12:15], 0 offen offset:1280
	buffer_store_dword v76, v2, s[12:15], 0 offen offset:1536
	buffer_store_dword v77, v2, s[12:15], 0 offen offset:1792
	buffer_store_dword v80, v2, s[12:15], 0 offen offset:2048
	buffer_store_dword v82, v2, s[12:15], 0 offen offset:2304
	buffer_store_dword v83, v2, s[12:15], 0 offen offset:2560
	buffer_store_dword v86, v2, s[12:15], 0 offen offset:2816
	buffer_store_dword v87, v2, s[12:15], 0 offen offset:3072
	buffer_store_dword v88, v2, s[12:15], 0 offen offset:3328
	buffer_store_dword v89, v2, s[12:15], 0 offen offset:3584
	buffer_store_dword v90, v2, s[12:15], 0 offen offset:3840
	v_add_u32_e32 v3, 0x2000, v1
	buffer_store_dword v91, v3, s[12:15], 0 offen
	buffer_store_dword v92, v3, s[12:15], 0 offen offset:256
	buffer_store_dword v93, v3, s[12:15], 0 offen offset:512
	s_endpgm
.Lfunc_end0:
	.size	semantics, .Lfunc_end0-semantics

	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel semantics
		.amdhsa_group_segment_fixed_size 2048
		.amdhsa_private_segment_fixed_size 16
		.amdhsa_kernarg_size 32
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_enable_private_segment 1
		.amdhsa_system_sgpr_workgroup_id_x 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 96
		.amdhsa_next_free_sgpr 24
		.amdhsa_accum_offset 96
		.amdhsa_reserve_vcc 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .offset:         8
        .size:           4
        .value_kind:     by_value
      - .address_space:  global
        .offset:         16
        .size:           8
        .value_kind:     global_buffer
      - .offset:         24
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 2048
    .kernarg_segment_align: 8
    .kernarg_segment_size: 32
    .max_flat_workgroup_size: 64
    .name:           semantics
    .private_segment_fixed_size: 16
    .sgpr_count:     26
    .symbol:         semantics.kd
    .vgpr_count:     96
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx950
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
