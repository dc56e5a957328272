// MXFP8 block scales in registers (docs/Fp8.md#scales): a lane holds one
// row's 4 block scales per word (lane l row l of each 64 rows, row l % 16
// of a 16-row fragment). With `partial_rows` a word is one 4-byte buffer
// load; with `partial` 4 byte loads packed into it. Words are transposed
// for the MFMA two at a time, here the MMA's A and B words together: a
// permlane32 swap of the two, two v_perm_b32 (bytes 0 and 2, 1 and 3 of
// both rows), a permlane16 swap of those, two v_perm_b32 (the 4 rows' byte
// of the lane's group and the group 2 on), a permlane32 swap that puts each
// in place; every selector is the same in all lanes. Row block i's MFMA
// takes byte i (op_sel).
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s

// CHECK-LABEL: gpu.func @scales
// CHECK-DAG: %[[BYTES02:.*]] = arith.constant 33947652 : i32
// CHECK-DAG: %[[BYTES13:.*]] = arith.constant 50790661 : i32
// CHECK-DAG: %[[OWN:.*]] = arith.constant 17104900 : i32
// CHECK-DAG: %[[NEXT:.*]] = arith.constant 50790918 : i32
// CHECK: %[[WA:.*]] = rocdl.raw.ptr.buffer.load %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK-COUNT-4: rocdl.raw.ptr.buffer.load %{{.*}} : i8
// CHECK: %[[WB:.*]] = arith.ori
// CHECK: %[[S1:.*]] = rocdl.permlane32.swap %[[WA]], %[[WB]], false, false
// CHECK: %[[L1:.*]] = llvm.extractvalue %[[S1]][0]
// CHECK: %[[H1:.*]] = llvm.extractvalue %[[S1]][1]
// CHECK: %[[P:.*]] = llvm.call_intrinsic "llvm.amdgcn.perm"(%[[L1]], %[[H1]], %[[BYTES02]])
// CHECK: %[[Q:.*]] = llvm.call_intrinsic "llvm.amdgcn.perm"(%[[L1]], %[[H1]], %[[BYTES13]])
// CHECK: %[[S2:.*]] = rocdl.permlane16.swap %[[P]], %[[Q]], false, false
// CHECK: %[[L2:.*]] = llvm.extractvalue %[[S2]][0]
// CHECK: %[[H2:.*]] = llvm.extractvalue %[[S2]][1]
// CHECK: %[[R:.*]] = llvm.call_intrinsic "llvm.amdgcn.perm"(%[[L2]], %[[H2]], %[[OWN]])
// CHECK: %[[S:.*]] = llvm.call_intrinsic "llvm.amdgcn.perm"(%[[L2]], %[[H2]], %[[NEXT]])
// CHECK: %[[S3:.*]] = rocdl.permlane32.swap %[[R]], %[[S]], false, false
// CHECK: %[[TA:.*]] = llvm.extractvalue %[[S3]][0]
// CHECK: %[[TB:.*]] = llvm.extractvalue %[[S3]][1]
// CHECK: %[[SAW:.*]] = vector.broadcast %[[TA]] : i32 to vector<1xi32>
// CHECK: %[[SAV:.*]] = vector.bitcast %[[SAW]] : vector<1xi32> to vector<4xi8>
// CHECK: %[[SAE:.*]] = arith.bitcast %[[SAV]] : vector<4xi8> to vector<4xf8E8M0FNU>
// CHECK: %[[SBW:.*]] = vector.broadcast %[[TB]] : i32 to vector<1xi32>
// Both words arranged once, not once per MFMA.
// CHECK-NOT: rocdl.permlane
// CHECK: amdgpu.scaled_mfma 16x16x128 (%[[SAE]][0] *
// CHECK: amdgpu.scaled_mfma 16x16x128 (%[[SAE]][1] *
// CHECK: amdgpu.scaled_mfma 16x16x128 (%[[SAE]][2] *
// CHECK: amdgpu.scaled_mfma 16x16x128 (%[[SAE]][3] *
// CHECK-NOT: rocdl.permlane
// CHECK: gpu.return
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
// A word alone goes with a poison partner. A filled scale fragment holds
// its byte 4 times per word.
// CHECK-LABEL: gpu.func @arranged
// CHECK: %[[POISON:.*]] = llvm.mlir.poison : i32
// CHECK: %[[W:.*]] = rocdl.raw.ptr.buffer.load %{{.*}} : i32
// CHECK: rocdl.permlane32.swap %[[W]], %[[POISON]], false, false
// CHECK: rocdl.permlane16.swap
// CHECK: %[[S3:.*]] = rocdl.permlane32.swap
// CHECK: %[[T:.*]] = llvm.extractvalue %[[S3]][0]
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

// Several scale fragments arranged together: their words by pairs, A's two
// words in one transpose, B's third alone.
// CHECK-LABEL: gpu.func @together
// CHECK: %[[POISON:.*]] = llvm.mlir.poison : i32
// CHECK: %[[W0:.*]] = rocdl.raw.ptr.buffer.load %{{.*}} : i32
// CHECK: %[[W1:.*]] = rocdl.raw.ptr.buffer.load %{{.*}} : i32
// CHECK: %[[W2:.*]] = rocdl.raw.ptr.buffer.load %{{.*}} : i32
// CHECK: rocdl.permlane32.swap %[[W0]], %[[W1]], false, false
// CHECK: rocdl.permlane16.swap
// CHECK: %[[P0:.*]] = rocdl.permlane32.swap
// CHECK: %[[A0:.*]] = llvm.extractvalue %[[P0]][0]
// CHECK: %[[A1:.*]] = llvm.extractvalue %[[P0]][1]
// CHECK: rocdl.permlane32.swap %[[W2]], %[[POISON]], false, false
// CHECK: rocdl.permlane16.swap
// CHECK: %[[P1:.*]] = rocdl.permlane32.swap
// CHECK: %[[B0:.*]] = llvm.extractvalue %[[P1]][0]
// CHECK-NOT: rocdl.permlane
// CHECK-DAG: vector.broadcast %[[A0]] : i32 to vector<1xi32>
// CHECK-DAG: vector.broadcast %[[A1]] : i32 to vector<1xi32>
// CHECK-DAG: vector.broadcast %[[B0]] : i32 to vector<1xi32>
// CHECK-NOT: rocdl.permlane
// CHECK: gpu.return
gpu.module @together [#rocdl.target<chip = "gfx950">] {
  gpu.func @together(%a: !hk.fragment<a, 128x128xf8E4M3FN, mma = 16x16x128>,
                     %b: !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
                     %acc: !hk.fragment<acc, 128x16xf32, mma = 16x16x128>,
                     %SA: memref<?x?xf8E8M0FNU>, %SB: memref<?x?xf8E8M0FNU>,
                     %r: index, %k: index, %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %sa = hk.read_fragment %SA[%r, %k] bounds partial_rows
        : memref<?x?xf8E8M0FNU> -> !hk.fragment<scale, 128x4xf8E8M0FNU, mma = 16x16x128>
    %sb = hk.read_fragment %SB[%r, %k] bounds partial_rows
        : memref<?x?xf8E8M0FNU> -> !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>
    %ta, %tb = hk.to_operand %sa, %sb
        : <scale, 128x4xf8E8M0FNU, mma = 16x16x128>,
          <scale, 16x4xf8E8M0FNU, mma = 16x16x128>
        -> <scale_mma, 128x4xf8E8M0FNU, mma = 16x16x128>,
           <scale_mma, 16x4xf8E8M0FNU, mma = 16x16x128>
    %d = hk.mma %a, %b, %acc scales(%ta, %tb)
        : !hk.fragment<a, 128x128xf8E4M3FN, mma = 16x16x128>,
          !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
          !hk.fragment<acc, 128x16xf32, mma = 16x16x128>,
          !hk.fragment<scale_mma, 128x4xf8E8M0FNU, mma = 16x16x128>,
          !hk.fragment<scale_mma, 16x4xf8E8M0FNU, mma = 16x16x128>
    hk.store_fragment %d, %out[%c0, %c0]
        : !hk.fragment<acc, 128x16xf32, mma = 16x16x128>, memref<?x?xf32>
    gpu.return
  }
}
