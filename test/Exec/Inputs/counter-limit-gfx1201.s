// READS LDS loads in flight at once (llvm-mc --defsym=READS=N), none waited
// for, then a read of the first one's register. v0 is the lane's id.

	.amdgcn_target "amdgcn-amd-amdhsa--gfx1201"
	.amdhsa_code_object_version 6
	.text
	.globl	semantics
	.p2align	8
	.type	semantics,@function
semantics:
	s_load_b128 s[12:15], s[0:1], 0x10
	v_lshlrev_b32_e32 v1, 2, v0
	v_add_nc_u32_e32 v3, 0x100, v0
	ds_store_b32 v1, v3
	s_wait_dscnt 0x0
	s_wait_kmcnt 0x0
	s_lshl_b32 s14, s14, 2
	s_mov_b32 s15, 0x31027000
	ds_load_b32 v10, v1
	.set n, 1
	.rept READS - 1
	ds_load_b32 v11, v1 offset:4*n
	.set n, n + 1
	.endr
	v_mov_b32_e32 v30, v10
	buffer_store_b32 v30, v1, s[12:15], null offen
	s_endpgm
.Lfunc_end0:
	.size	semantics, .Lfunc_end0-semantics

	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel semantics
		.amdhsa_group_segment_fixed_size 512
		.amdhsa_kernarg_size 32
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_wavefront_size32 1
		.amdhsa_system_sgpr_workgroup_id_x 0
		.amdhsa_next_free_vgpr 32
		.amdhsa_next_free_sgpr 16
		.amdhsa_float_denorm_mode_32 3
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
    .group_segment_fixed_size: 512
    .kernarg_segment_align: 8
    .kernarg_segment_size: 32
    .max_flat_workgroup_size: 32
    .name:           semantics
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .symbol:         semantics.kd
    .vgpr_count:     32
    .wavefront_size: 32
amdhsa.target:   amdgcn-amd-amdhsa--gfx1201
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
