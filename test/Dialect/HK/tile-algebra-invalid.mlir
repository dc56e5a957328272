// Verifier errors of the register-tile algebra.
// RUN: hk-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{fragment tile 1x24 is not a whole number of 1x16 'col' fragments of a 16x16x32 MMA}}
func.func private @col_shape(!hk.fragment<col, 1x24xf32, mma = 16x16x32>)

// -----

// expected-error @+1 {{a 'row' vector is Rx1, got 32x2}}
func.func private @row_shape(!hk.fragment<row, 32x2xf32, mma = 16x16x32>)

// -----

// expected-error @+1 {{'row' fragments hold f32, bf16 or f16, got 'i32'}}
func.func private @row_type(!hk.fragment<row, 16x1xi32, mma = 16x16x32>)

// -----

func.func @reduce_wrong_cols(%s: !hk.fragment<acc, 64x32xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.reduce' op a 'col' result holds one value per column of the input: it needs 1x32, got col 1x16 mma = 16x16x32}}
  %m = hk.reduce max %s : !hk.fragment<acc, 64x32xf32, mma = 16x16x32> -> !hk.fragment<col, 1x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @reduce_wrong_rows(%s: !hk.fragment<acc, 64x32xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.reduce' op a 'row' result holds one value per row of the input: it needs 64x1, got row 32x1 mma = 16x16x32}}
  %m = hk.reduce sum %s : !hk.fragment<acc, 64x32xf32, mma = 16x16x32> -> !hk.fragment<row, 32x1xf32, mma = 16x16x32>
  return
}

// -----

func.func @reduce_to_acc(%s: !hk.fragment<acc, 64x32xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.reduce' op reduces to a 'row' or 'col' vector, got 'acc 64x32 mma = 16x16x32'}}
  %m = hk.reduce sum %s : !hk.fragment<acc, 64x32xf32, mma = 16x16x32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
  return
}

// -----

func.func @reduce_operand(%a: !hk.fragment<a, 64x32xbf16, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.reduce' op reduces 'acc' fragments, got 'a 64x32 mma = 16x16x32'}}
  %m = hk.reduce max %a : !hk.fragment<a, 64x32xbf16, mma = 16x16x32> -> !hk.fragment<row, 64x1xf32, mma = 16x16x32>
  return
}

// -----

func.func @reduce_bf16(%s: !hk.fragment<acc, 64x32xbf16, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.reduce' op reduces f32 to f32, got 'bf16' to 'f32'}}
  %m = hk.reduce max %s : !hk.fragment<acc, 64x32xbf16, mma = 16x16x32> -> !hk.fragment<row, 64x1xf32, mma = 16x16x32>
  return
}

// -----

func.func @reduce_mma(%s: !hk.fragment<acc, 64x32xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.reduce' op result 'col 1x32 mma = 16x16x16' has another MMA shape than the input's 16x16x32}}
  %m = hk.reduce max %s : !hk.fragment<acc, 64x32xf32, mma = 16x16x32> -> !hk.fragment<col, 1x32xf32, mma = 16x16x16>
  return
}

// -----

func.func @reduce_kind(%s: !hk.fragment<acc, 64x32xf32, mma = 16x16x32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [max, sum]}}
  %m = hk.reduce min %s : !hk.fragment<acc, 64x32xf32, mma = 16x16x32> -> !hk.fragment<col, 1x32xf32, mma = 16x16x32>
  return
}

// -----

func.func @map_broadcast_mismatch(%s: !hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
                                  %m: !hk.fragment<col, 1x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.map' op input #1 is a 'col 1x16 mma = 16x16x32' fragment but the result is 'acc 64x32 mma = 16x16x32'}}
  %r = hk.map %s, %m : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<col, 1x16xf32, mma = 16x16x32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
  ^bb0(%x: f32, %y: f32):
    hk.yield %x : f32
  }
  return
}

// -----

func.func @map_broadcast_to_operand(%a: !hk.fragment<a, 64x32xbf16, mma = 16x16x32>,
                                    %m: !hk.fragment<row, 64x1xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.map' op input #1 is a 'row 64x1 mma = 16x16x32' fragment but the result is 'a 64x32 mma = 16x16x32'}}
  %r = hk.map %a, %m : !hk.fragment<a, 64x32xbf16, mma = 16x16x32>, !hk.fragment<row, 64x1xf32, mma = 16x16x32> -> !hk.fragment<a, 64x32xbf16, mma = 16x16x32> {
  ^bb0(%x: bf16, %y: f32):
    hk.yield %x : bf16
  }
  return
}

// -----

func.func @mask_fill_type(%s: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, %f: f16, %i: index) {
  // expected-error @+1 {{'hk.mask' op failed to verify that fill type matches the fragment's element type}}
  %r = "hk.mask"(%s, %f, %i, %i) ({
  ^bb0(%a: index, %b: index):
    %t = arith.constant true
    hk.yield %t : i1
  }) : (!hk.fragment<acc, 16x16xf32, mma = 16x16x32>, f16, index, index) -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @mask_arguments(%s: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, %f: f32, %i: index) {
  // expected-error @+1 {{'hk.mask' op body takes the (row, column) of an element: two 'index' arguments}}
  %r = hk.mask %s, %f at [%i, %i] : !hk.fragment<acc, 16x16xf32, mma = 16x16x32> {
  ^bb0(%a: index):
    %t = arith.constant true
    hk.yield %t : i1
  }
  return
}

// -----

func.func @mask_yield(%s: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, %f: f32, %i: index) {
  // expected-error @+1 {{'hk.mask' op body must end with 'hk.yield' of one i1 (true keeps the element)}}
  %r = hk.mask %s, %f at [%i, %i] : !hk.fragment<acc, 16x16xf32, mma = 16x16x32> {
  ^bb0(%a: index, %b: index):
    hk.yield %f : f32
  }
  return
}

// -----

func.func @mask_memory(%s: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, %f: f32, %i: index, %m: memref<4xi1>) {
  %r = hk.mask %s, %f at [%i, %i] : !hk.fragment<acc, 16x16xf32, mma = 16x16x32> {
  ^bb0(%a: index, %b: index):
    // expected-error @+1 {{'memref.load' op in an 'hk.mask' body must not touch memory (the body runs once per element)}}
    %t = memref.load %m[%a] : memref<4xi1>
    hk.yield %t : i1
  }
  return
}

// -----

func.func @mma_bf16_acc(%a: !hk.fragment<a, 16x32xbf16, mma = 16x16x32>,
                        %b: !hk.fragment<b, 16x32xbf16, mma = 16x16x32>,
                        %c: !hk.fragment<acc, 16x16xbf16, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.mma' op accumulates in f32, but 'acc' holds 'bf16'}}
  %d = hk.mma %a, %b, %c : !hk.fragment<a, 16x32xbf16, mma = 16x16x32>, !hk.fragment<b, 16x32xbf16, mma = 16x16x32>, !hk.fragment<acc, 16x16xbf16, mma = 16x16x32>
  return
}

// -----

func.func @store_bf16_to_f32(%c: !hk.fragment<acc, 16x16xbf16, mma = 16x16x32>, %m: memref<16x16xf32>, %i: index) {
  // expected-error @+1 {{'hk.store_fragment' op stores f32 accumulators (rounded to the destination's type) or ones of the destination's type, got 'bf16' into 'f32'}}
  hk.store_fragment %c, %m[%i, %i] : !hk.fragment<acc, 16x16xbf16, mma = 16x16x32>, memref<16x16xf32>
  return
}

// -----

func.func @operand_orders(%a: !hk.fragment<a, 16x32xbf16, mma = 16x16x32>,
                          %b: !hk.fragment<b, 16x32xbf16, mma = 16x16x32, k = acc>,
                          %c: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.mma' op 'a' takes k in 'mma' order but 'b' in 'acc' order: both operands must take k in the same order}}
  %d = hk.mma %a, %b, %c : !hk.fragment<a, 16x32xbf16, mma = 16x16x32>, !hk.fragment<b, 16x32xbf16, mma = 16x16x32, k = acc>, !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  return
}

// -----

func.func @run_k_with_mma_order(%a: !hk.fragment<a, 16x16xbf16, mma = 16x16x16, k = run>,
                                %b: !hk.fragment<b, 16x16xbf16, mma = 16x16x16>,
                                %c: !hk.fragment<acc, 16x16xf32, mma = 16x16x16>) {
  // expected-error @+1 {{'hk.mma' op 'a' takes k in 'run' order but 'b' in 'mma' order: both operands must take k in the same order}}
  %d = hk.mma %a, %b, %c : !hk.fragment<a, 16x16xbf16, mma = 16x16x16, k = run>, !hk.fragment<b, 16x16xbf16, mma = 16x16x16>, !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
  return
}

// -----

func.func @run_k_with_acc_k(%a: !hk.fragment<a, 16x16xbf16, mma = 16x16x16, k = acc>,
                            %b: !hk.fragment<b, 16x16xbf16, mma = 16x16x16, k = run>,
                            %c: !hk.fragment<acc, 16x16xf32, mma = 16x16x16>) {
  // expected-error @+1 {{'hk.mma' op 'a' takes k in 'acc' order but 'b' in 'run' order: both operands must take k in the same order}}
  %d = hk.mma %a, %b, %c : !hk.fragment<a, 16x16xbf16, mma = 16x16x16, k = acc>, !hk.fragment<b, 16x16xbf16, mma = 16x16x16, k = run>, !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
  return
}

// -----

func.func @to_operand_a(%s: !hk.fragment<acc, 32x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.to_operand' op gives 'b' operands with k = acc, which the accumulator's registers already are; a 'a' result would move elements between lanes (an LDS round trip hk does not build): multiply by the accumulator as the B operand (S^T orientation) and load the other operand as 'a' with k = acc}}
  %p = hk.to_operand %s : !hk.fragment<acc, 32x16xf32, mma = 16x16x32> -> !hk.fragment<a, 32x32xbf16, mma = 16x16x32>
  return
}

// -----

func.func @to_operand_shape(%s: !hk.fragment<acc, 32x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.to_operand' op the B operand of an 32x16 accumulator X (B = X^T) is 16x32, got b 32x32 mma = 16x16x32, k = acc}}
  %p = hk.to_operand %s : !hk.fragment<acc, 32x16xf32, mma = 16x16x32> -> !hk.fragment<b, 32x32xbf16, mma = 16x16x32, k = acc>
  return
}

// -----

func.func @to_operand_type(%s: !hk.fragment<acc, 32x16xbf16, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.to_operand' op converts f32 (rounding to nearest even) or keeps the type, got 'bf16' to 'f16'}}
  %p = hk.to_operand %s : !hk.fragment<acc, 32x16xbf16, mma = 16x16x32> -> !hk.fragment<b, 16x32xf16, mma = 16x16x32, k = acc>
  return
}

// -----

func.func @to_operand_input(%a: !hk.fragment<a, 32x32xbf16, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.to_operand' op takes an 'acc' fragment, got 'a 32x32 mma = 16x16x32'}}
  %p = hk.to_operand %a : !hk.fragment<a, 32x32xbf16, mma = 16x16x32> -> !hk.fragment<b, 32x32xbf16, mma = 16x16x32, k = acc>
  return
}

// -----

func.func @store_vector_2d(%v: !hk.fragment<col, 1x32xf32, mma = 16x16x32>, %m: memref<4x32xf32>, %i: index) {
  // expected-error @+1 {{'hk.store_fragment' op stores a 'row' or 'col' vector to a 1-D memref}}
  hk.store_fragment %v, %m[%i, %i] : !hk.fragment<col, 1x32xf32, mma = 16x16x32>, memref<4x32xf32>
  return
}

// -----

func.func @store_acc_1d(%x: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, %m: memref<256xf32>, %i: index) {
  // expected-error @+1 {{'hk.store_fragment' op stores an 'acc' fragment to a 2-D memref}}
  hk.store_fragment %x, %m[%i, %i] : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, memref<256xf32>
  return
}

// -----

func.func @store_vector_transposed(%v: !hk.fragment<row, 32x1xf32, mma = 16x16x32>, %m: memref<32xf32>, %i: index) {
  // expected-error @+1 {{'hk.store_fragment' op transposes 'acc' fragments only}}
  hk.store_fragment %v, %m[%i, %i] transpose : !hk.fragment<row, 32x1xf32, mma = 16x16x32>, memref<32xf32>
  return
}

// -----

func.func @store_transposed_bounds(%x: !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, %m: memref<64x32xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'hk.store_fragment' op region of 32x64 does not fit in the 32 columns of the destination}}
  hk.store_fragment %x, %m[%c0, %c0] transpose : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<64x32xf32>
  return
}

// -----

func.func @any_mixed_shapes(%a: !hk.fragment<col, 1x32xf32, mma = 16x16x32>, %b: !hk.fragment<col, 1x16xf32, mma = 16x16x32>) -> i1 {
  // expected-error @+1 {{'hk.any' op input #1 is a 'col 1x16 mma = 16x16x32' fragment but input #0 is 'col 1x32 mma = 16x16x32': the fragments must share lane layout (role and k order), shape and MMA shape}}
  %r = hk.any %a, %b : !hk.fragment<col, 1x32xf32, mma = 16x16x32>, !hk.fragment<col, 1x16xf32, mma = 16x16x32> {
  ^bb0(%x: f32, %y: f32):
    %p = arith.cmpf ogt, %x, %y : f32
    hk.yield %p : i1
  }
  return %r : i1
}

// -----

func.func @any_yields_f32(%a: !hk.fragment<col, 1x32xf32, mma = 16x16x32>) -> i1 {
  // expected-error @+1 {{'hk.any' op body must end with 'hk.yield' of one i1 (the predicate of the element)}}
  %r = hk.any %a : !hk.fragment<col, 1x32xf32, mma = 16x16x32> {
  ^bb0(%x: f32):
    hk.yield %x : f32
  }
  return %r : i1
}

// -----

func.func @any_argument_type(%a: !hk.fragment<col, 1x32xf32, mma = 16x16x32>) -> i1 {
  // expected-error @+1 {{'hk.any' op body argument #0 is 'bf16' but input #0 holds 'f32'}}
  %r = hk.any %a : !hk.fragment<col, 1x32xf32, mma = 16x16x32> {
  ^bb0(%x: bf16):
    %t = arith.constant true
    hk.yield %t : i1
  }
  return %r : i1
}

// -----

func.func @any_no_inputs() -> i1 {
  // expected-error @+1 {{'hk.any' op needs at least one input fragment}}
  %r = "hk.any"() ({
  ^bb0:
    %t = arith.constant true
    hk.yield %t : i1
  }) : () -> i1
  return %r : i1
}

// -----

func.func @to_operand_scale_shape(%s: !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>) {
  // expected-error @+1 {{'hk.to_operand' op arranges a 'scale' fragment for the MMA as the 'scale_mma' fragment of the same shape, got 'scale 64x4 mma = 16x16x128' to 'scale_mma 32x4 mma = 16x16x128'}}
  %t = hk.to_operand %s : !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128> -> !hk.fragment<scale_mma, 32x4xf8E8M0FNU, mma = 16x16x128>
  return
}

// -----

func.func @to_operand_results(%s: !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>) {
  // expected-error @+1 {{'hk.to_operand' op gives one result per input, got 2 inputs and 1 results}}
  %t = hk.to_operand %s, %s : <scale, 64x4xf8E8M0FNU, mma = 16x16x128>, <scale, 64x4xf8E8M0FNU, mma = 16x16x128> -> <scale_mma, 64x4xf8E8M0FNU, mma = 16x16x128>
  return
}

// -----

func.func @to_operand_several_acc(%s: !hk.fragment<acc, 32x16xf32, mma = 16x16x32>) {
  // expected-error @+1 {{'hk.to_operand' op takes several fragments only of block scales, got 'acc 32x16 mma = 16x16x32'}}
  %p:2 = hk.to_operand %s, %s : <acc, 32x16xf32, mma = 16x16x32>, <acc, 32x16xf32, mma = 16x16x32> -> <b, 16x32xbf16, mma = 16x16x32, k = acc>, <b, 16x32xbf16, mma = 16x16x32, k = acc>
  return
}

// -----

func.func @to_operand_scale_pair_shape(%s: !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>) {
  // expected-error @+1 {{'hk.to_operand' op arranges a 'scale' fragment for the MMA as the 'scale_mma' fragment of the same shape, got 'scale 64x4 mma = 16x16x128' to 'scale_mma 32x4 mma = 16x16x128'}}
  %t:2 = hk.to_operand %s, %s : <scale, 64x4xf8E8M0FNU, mma = 16x16x128>, <scale, 64x4xf8E8M0FNU, mma = 16x16x128> -> <scale_mma, 64x4xf8E8M0FNU, mma = 16x16x128>, <scale_mma, 32x4xf8E8M0FNU, mma = 16x16x128>
  return
}

// -----

func.func @to_operand_scale_twice(%s: !hk.fragment<scale_mma, 64x4xf8E8M0FNU, mma = 16x16x128>) {
  // expected-error @+1 {{'hk.to_operand' op arranges a 'scale' fragment for the MMA as the 'scale_mma' fragment of the same shape, got 'scale_mma 64x4 mma = 16x16x128' to 'scale_mma 64x4 mma = 16x16x128'}}
  %t = hk.to_operand %s : !hk.fragment<scale_mma, 64x4xf8E8M0FNU, mma = 16x16x128> -> !hk.fragment<scale_mma, 64x4xf8E8M0FNU, mma = 16x16x128>
  return
}

// -----

func.func @to_operand_acc_to_scale(%s: !hk.fragment<acc, 64x16xf32, mma = 16x16x128>) {
  // expected-error @+1 {{'hk.to_operand' op arranges a 'scale' fragment for the MMA as the 'scale_mma' fragment of the same shape, got 'acc 64x16 mma = 16x16x128' to 'scale_mma 64x4 mma = 16x16x128'}}
  %t = hk.to_operand %s : !hk.fragment<acc, 64x16xf32, mma = 16x16x128> -> !hk.fragment<scale_mma, 64x4xf8E8M0FNU, mma = 16x16x128>
  return
}

// -----

func.func @read_scale_mma(%S: memref<?x?xf8E8M0FNU>, %i: index) {
  // expected-error @+1 {{'hk.read_fragment' op reads 'acc', 'scale', 'row' or 'col' fragments, got 'scale_mma'}}
  %s = hk.read_fragment %S[%i, %i] bounds partial : memref<?x?xf8E8M0FNU> -> !hk.fragment<scale_mma, 64x4xf8E8M0FNU, mma = 16x16x128>
  return
}
