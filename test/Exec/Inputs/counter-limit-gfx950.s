// READS LDS reads in flight at once (llvm-mc --defsym=READS=N), none waited
// for, then a read of the first one's register. v0 is the lane's id.

	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.amdhsa_code_object_version 6
	.text
	.globl	semantics
	.p2align	8
	.type	semantics,@function
semantics:
	s_load_dwordx4 s[12:15], s[0:1], 0x10
	v_lshlrev_b32_e32 v1, 2, v0
	v_add_u32_e32 v3, 0x100, v0
	ds_write_b32 v1, v3
	s_waitcnt lgkmcnt(0)
	s_lshl_b32 s14, s14, 2
	s_mov_b32 s15, 0x27000
	ds_read_b32 v10, v1
	.set n, 1
	.rept READS - 1
	ds_read_b32 v11, v1 offset:256*n
	.set n, n + 1
	.endr
	v_mov_b32_e32 v30, v10
	buffer_store_dword v30, v1, s[12:15], 0 offen
	s_endpgm
.Lfunc_end0:
	.size	semantics, .Lfunc_end0-semantics

	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel semantics
		.amdhsa_group_segment_fixed_size 4096
		.amdhsa_kernarg_size 32
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 0
		.amdhsa_next_free_vgpr 32
		.amdhsa_next_free_sgpr 16
		.amdhsa_accum_offset 32
		.amdhsa_float_denorm_mode_32 3
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
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 32
    .max_flat_workgroup_size: 64
    .name:           semantics
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .symbol:         semantics.kd
    .vgpr_count:     32
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx950
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
