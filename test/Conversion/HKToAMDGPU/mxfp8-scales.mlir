// MXFP8 block scales in registers (docs/Fp8.md#scales): a lane holds one
// row's 4 block scales per word (lane l row l of each 64 rows, row l % 16
// of a 16-row fragment). With `partial_rows` a word is one 4-byte buffer
// load; with `partial` 4 byte loads packed into it. The MMA transposes each
// word once, by a permlane32 swap and a v_perm_b32 (byte pairs between lane
// groups 2 apart), then a permlane16 swap and a v_perm_b32 (bytes between
// groups 1 apart), each perm's selector by the lane's half (0x01000504
// below 32, 0x03020706 above) or row (0x02060004 even, 0x03070105 odd);
// row block i's MFMA takes byte i (op_sel).
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s

// CHECK-LABEL: gpu.func @scales
// CHECK-DAG: %[[BELOW32:.*]] = arith.constant 16778500 : i32
// CHECK-DAG: %[[ABOVE32:.*]] = arith.constant 50464518 : i32
// CHECK-DAG: %[[EVEN16:.*]] = arith.constant 33947652 : i32
// CHECK-DAG: %[[ODD16:.*]] = arith.constant 50790661 : i32
// CHECK: %[[WORD:.*]] = rocdl.raw.ptr.buffer.load %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK-COUNT-4: rocdl.raw.ptr.buffer.load %{{.*}} : i8
// CHECK: %[[SWAP:.*]] = rocdl.permlane32.swap %[[WORD]], %[[WORD]], false, false
// CHECK: %[[HALF:.*]] = arith.select %{{.*}}, %[[ABOVE32]], %[[BELOW32]] : i32
// CHECK: %[[PAIRS:.*]] = llvm.call_intrinsic "llvm.amdgcn.perm"(%{{.*}}, %{{.*}}, %[[HALF]])
// CHECK: rocdl.permlane16.swap %[[PAIRS]], %[[PAIRS]], false, false
// CHECK: %[[ROW:.*]] = arith.select %{{.*}}, %[[ODD16]], %[[EVEN16]] : i32
// CHECK: %[[SA:.*]] = llvm.call_intrinsic "llvm.amdgcn.perm"(%{{.*}}, %{{.*}}, %[[ROW]])
// CHECK: %[[SAV:.*]] = vector.bitcast %{{.*}} : vector<1xi32> to vector<4xi8>
// CHECK: %[[SAE:.*]] = arith.bitcast %[[SAV]] : vector<4xi8> to vector<4xf8E8M0FNU>
// The B word: transposed once, not once per MFMA.
// CHECK-COUNT-1: rocdl.permlane32.swap
// CHECK-NOT: rocdl.permlane32.swap
// CHECK: amdgpu.scaled_mfma 16x16x128 (%[[SAE]][0] *
// CHECK: amdgpu.scaled_mfma 16x16x128 (%[[SAE]][1] *
// CHECK: amdgpu.scaled_mfma 16x16x128 (%[[SAE]][2] *
// CHECK: amdgpu.scaled_mfma 16x16x128 (%[[SAE]][3] *
gpu.module @gfx950 [#rocdl.target<chip = "gfx950">] {
  gpu.func @scales(%t: !hk.shared_tile<64x128xf8E4M3FN, #hk.swizzle<st_16x128>>,
                   %acc: !hk.fragment<acc, 64x16xf32, mma = 16x16x128>,
                   %SA: memref<?x?xf8E8M0FNU>, %SB: memref<?x?xf8E8M0FNU>,
                   %r: index, %k: index, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %a = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<64x128xf8E4M3FN, #hk.swizzle<st_16x128>>
        -> !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>
    %b = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<64x128xf8E4M3FN, #hk.swizzle<st_16x128>>
        -> !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>
    %sa = hk.read_fragment %SA[%r, %k] bounds partial_rows
        : memref<?x?xf8E8M0FNU> -> !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
    %sb = hk.read_fragment %SB[%r, %k] bounds partial
        : memref<?x?xf8E8M0FNU> -> !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>
    %d = hk.mma %a, %b, %acc scales(%sa, %sb)
        : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
          !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
          !hk.fragment<acc, 64x16xf32, mma = 16x16x128>,
          !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>,
          !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>
    hk.store_fragment %d, %out[%c0, %c0]
        : !hk.fragment<acc, 64x16xf32, mma = 16x16x128>, memref<?x?xf32>
    gpu.return
  }
}

// hk.to_operand arranges ahead; the MMA then takes the words as they are.
// A filled scale fragment holds its byte 4 times per word.
// CHECK-LABEL: gpu.func @arranged
// CHECK: %[[W:.*]] = rocdl.raw.ptr.buffer.load %{{.*}} : i32
// CHECK: rocdl.permlane32.swap %[[W]], %[[W]], false, false
// CHECK: rocdl.permlane16.swap
// CHECK: %[[T:.*]] = llvm.call_intrinsic "llvm.amdgcn.perm"
// CHECK: %[[FILL:.*]] = arith.muli %{{.*}}, %c16843009_i32 : i32
// CHECK-NOT: rocdl.permlane
// CHECK: %[[TV:.*]] = vector.broadcast %[[T]] : i32 to vector<1xi32>
// CHECK: amdgpu.scaled_mfma 16x16x128 (%{{.*}}[0] *
// CHECK-NOT: rocdl.permlane
// CHECK: gpu.return
gpu.module @arranged [#rocdl.target<chip = "gfx950">] {
  gpu.func @arranged(%a: !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
                     %b: !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
                     %acc: !hk.fragment<acc, 64x16xf32, mma = 16x16x128>,
                     %SA: memref<?x?xf8E8M0FNU>, %r: index, %k: index,
                     %one: f8E8M0FNU, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %sa = hk.read_fragment %SA[%r, %k] bounds partial_rows
        : memref<?x?xf8E8M0FNU> -> !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
    %ta = hk.to_operand %sa
        : !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
        -> !hk.fragment<scale_mma, 64x4xf8E8M0FNU, mma = 16x16x128>
    %sb = hk.fill_fragment %one : !hk.fragment<scale_mma, 16x4xf8E8M0FNU, mma = 16x16x128>
    %d = hk.mma %a, %b, %acc scales(%ta, %sb)
        : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
          !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
          !hk.fragment<acc, 64x16xf32, mma = 16x16x128>,
          !hk.fragment<scale_mma, 64x4xf8E8M0FNU, mma = 16x16x128>,
          !hk.fragment<scale_mma, 16x4xf8E8M0FNU, mma = 16x16x128>
    hk.store_fragment %d, %out[%c0, %c0]
        : !hk.fragment<acc, 64x16xf32, mma = 16x16x128>, memref<?x?xf32>
    gpu.return
  }
}
