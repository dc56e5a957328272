// One wave of 32 lanes running gfx1201 instruction families whose semantics
// semantics-gfx1201.test pins. Argument 0's first 8 words are the inputs
// (read with s_load); each result register is stored, all 32 lanes, as a
// row of argument 1. v0 is the lane's id.

	.amdgcn_target "amdgcn-amd-amdhsa--gfx1201"
	.amdhsa_code_object_version 6
	.text
	.globl	semantics
	.p2align	8
	.type	semantics,@function
semantics:
	// Raw buffer resources: each argument's pointer and element count
	// (kernarg words 0-2), count * 4 bytes, then the dword format.
	s_load_b128 s[8:11], s[0:1], 0x0
	s_load_b128 s[12:15], s[0:1], 0x10
	v_lshlrev_b32_e32 v1, 2, v0
	s_wait_kmcnt 0x0
	s_load_b256 s[20:27], s[8:9], 0x0
	s_lshl_b32 s14, s14, 2
	s_mov_b32 s15, 0x31027000
	s_wait_kmcnt 0x0

	// Row 0: scalar float results and lane reads, written into lanes 0-7
	// of a register holding 0xeeeeeeee.
	s_mul_f32 s28, s20, s21
	s_mul_f32 s29, s22, 4.0
	s_cvt_u32_f32 s30, s23
	s_cvt_u32_f32 s31, s21
	s_cmp_eq_f32 s24, 0
	s_cselect_b32 s32, 1, 2
	s_cmp_eq_f32 s25, s25
	s_cselect_b32 s33, 1, 2
	v_add_nc_u32_e32 v41, 0x200, v0
	s_mov_b32 s35, 9
	v_readlane_b32 s34, v41, 5
	v_readlane_b32 s35, v41, s35
	v_mov_b32_e32 v40, 0xeeeeeeee
	v_writelane_b32 v40, s28, 0
	v_writelane_b32 v40, s29, 1
	v_writelane_b32 v40, s30, 2
	v_writelane_b32 v40, s31, 3
	v_writelane_b32 v40, s32, 4
	v_writelane_b32 v40, s33, 5
	v_writelane_b32 v40, s34, 6
	v_writelane_b32 v40, s35, 7

	// Rows 1-2: one dual-issue instruction, the Y half accumulating into
	// its own destination v21 (odd: vdstX's bit 0 flipped).
	v_mov_b32_e32 v10, s20
	v_mov_b32_e32 v11, s21
	v_mov_b32_e32 v12, s26
	v_mov_b32_e32 v13, s26
	v_mov_b32_e32 v20, 0
	v_mov_b32_e32 v21, s27
	v_dual_mul_f32 v20, v10, v11 :: v_dual_fmac_f32 v21, v12, v13

	// Row 3: lane j of each 16-lane row reads lane 15 - j of the other
	// row of 0x100 + lane.
	v_add_nc_u32_e32 v31, 0x100, v0
	s_mov_b32 s36, 0x89abcdef
	s_mov_b32 s37, 0x1234567
	v_permlanex16_b32 v30, v31, s36, s37

	// Rows 4-6: the 64-bit sum (0xffffffff : 0xfffffff0) + (bit 3 of lane
	// : lane), the carry through s38 then s39.
	v_mov_b32_e32 v33, 0xfffffff0
	v_mov_b32_e32 v35, -1
	v_bfe_u32 v36, v0, 3, 1
	v_add_co_u32 v32, s38, v33, v0
	v_add_co_ci_u32_e64 v34, s39, v35, v36, s38
	v_cndmask_b32_e64 v37, 0, 1, s39

	// Row 7: a 16-bit shift by 20 into a register holding 0xaaaa5555.
	// Row 8: (0xf0f0f0f0 ^ lane) + 0x10.
	v_mov_b32_e32 v50, 0xaaaa5555
	v_mov_b32_e32 v53, 0x1234abcd
	v_mov_b32_e32 v54, 20
	v_lshlrev_b16 v50, v54, v53
	v_mov_b32_e32 v55, 0xf0f0f0f0
	v_xad_u32 v56, v55, v0, 0x10

	// Row 9: LDS word `lane` written in halves: the low half of
	// 0x50007000 | lane at its first byte, the high half at its third.
	v_or_b32_e32 v58, 0x50007000, v0
	ds_store_b16 v1, v58
	ds_store_b16_d16_hi v1, v58 offset:2
	ds_load_b32 v59, v1
	s_wait_dscnt 0x0

	buffer_store_b32 v40, v1, s[12:15], null offen
	buffer_store_b32 v20, v1, s[12:15], null offen offset:128
	buffer_store_b32 v21, v1, s[12:15], null offen offset:256
	buffer_store_b32 v30, v1, s[12:15], null offen offset:384
	buffer_store_b32 v32, v1, s[12:15], null offen offset:512
	buffer_store_b32 v34, v1, s[12:15], null offen offset:640
	buffer_store_b32 v37, v1, s[12:15], null offen offset:768
	buffer_store_b32 v50, v1, s[12:15], null offen offset:896
	buffer_store_b32 v56, v1, s[12:15], null offen offset:1024
	buffer_store_b32 v59, v1, s[12:15], null offen offset:1152
	s_endpgm
.Lfunc_end0:
	.size	semantics, .Lfunc_end0-semantics

	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel semantics
		.amdhsa_group_segment_fixed_size 128
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 32
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_wavefront_size32 1
		.amdhsa_system_sgpr_workgroup_id_x 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 64
		.amdhsa_next_free_sgpr 40
		.amdhsa_reserve_vcc 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
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
    .group_segment_fixed_size: 128
    .kernarg_segment_align: 8
    .kernarg_segment_size: 32
    .max_flat_workgroup_size: 32
    .name:           semantics
    .private_segment_fixed_size: 0
    .sgpr_count:     42
    .symbol:         semantics.kd
    .vgpr_count:     64
    .wavefront_size: 32
amdhsa.target:   amdgcn-amd-amdhsa--gfx1201
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
