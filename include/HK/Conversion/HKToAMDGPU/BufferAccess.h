//===- BufferAccess.h - raw buffer views of global matrices -----*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The raw buffer resources the lowering reads and writes global matrices
// through, and the offsets that keep an access at a matrix's edge inside it
// (rules R1-R3 of docs/hardware/SchedulesTailsLayouts.md#tail-rules): the
// resource starts at the region's first row and ends at the matrix's end,
// row offsets go in voffset, only the region's column in soffset, and a
// masked access gets an offset that no masked resource's range contains.
//
//===----------------------------------------------------------------------===//

#ifndef HK_CONVERSION_HKTOAMDGPU_BUFFERACCESS_H
#define HK_CONVERSION_HKTOAMDGPU_BUFFERACCESS_H

#include "HK/Target/Chip.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace mlir::hk {

/// A byte offset outside the range of every masked resource (whose range is
/// at most 2^31 bytes), whether or not the hardware adds soffset (rule R1).
constexpr int64_t kMaskedByteOffset = int64_t(1) << 31;

/// Region (`row`, `col`) of a 2-D strided memref seen as a raw buffer.
struct BufferRegion {
  /// Raw resource from the region's first row to the end of the matrix.
  Value resource;
  /// i32 byte offset of the region's column from there: the soffset.
  Value origin;
  /// Index strides of the matrix.
  Value rowStride, colStride;
  /// Index columns of the matrix from the region's column (zero or
  /// negative when the region starts past the end).
  Value colsLeft;
  /// Index offset and columns of the matrix, and the region's column.
  Value offset, cols, col;
  int64_t elementBytes = 0;
  /// How a column mask reaches the offset: its columns-left's sign bit
  /// ORed in (wave64, where a compare's mask takes two scalar registers,
  /// live while every row of the column uses it), or a compare selecting
  /// kMaskedByteOffset (wave32: one scalar register).
  bool maskBySignBit = false;

  /// The i32 byte offset of element (row, col) of the region from the
  /// resource's start, without the origin's column (that is soffset).
  Value byteOffset(OpBuilder &b, Location loc, Value row, Value col) const;

  /// byteOffset, or an offset of at least kMaskedByteOffset when columns
  /// [col, col + width) of the region do not all lie inside the matrix.
  Value maskedByteOffset(OpBuilder &b, Location loc, Value row, Value col,
                         int64_t width) const;

  /// `offset`, or an offset of at least kMaskedByteOffset (`offset` with
  /// bit 31 set, or kMaskedByteOffset itself) when columns [col, col +
  /// width) do not all lie inside the matrix.
  Value maskOffset(OpBuilder &b, Location loc, Value offset, Value col,
                   int64_t width) const;

  /// Whether the matrix's rows are whole `bytes`-byte chunks from the
  /// region's column: row stride, offset, columns and `col` multiples of
  /// `bytes` / elementBytes (an i1).
  Value rowsAreChunked(OpBuilder &b, Location loc, int64_t bytes) const;
};

/// How many rows of a region its buffer's range covers.
struct RegionRows {
  /// The region's rows.
  int64_t rows;
  /// Whether rows past the matrix's last may be among them (`partial_rows`):
  /// the range then ends at the last row, and they read zero.
  bool mayEnd = false;
};

/// The region of `memref` at (`row`, `col`) as a raw buffer. With
/// `regionRows` (nothing masked but, with `mayEnd`, the rows past the
/// matrix's last) the resource's range is the region's rows that lie in the
/// matrix, clamped to 2^32 - 1 when that may be exceeded; without `mayEnd`
/// it does not depend on `row`. Without `regionRows`, the range runs to the
/// matrix's end, clamped to 2^31 bytes for masked offsets (rule R1).
BufferRegion makeBufferRegion(OpBuilder &b, Location loc, Value memref,
                              Value row, Value col, int64_t elementBytes,
                              const ChipInfo &chip,
                              std::optional<RegionRows> regionRows);

} // namespace mlir::hk

#endif // HK_CONVERSION_HKTOAMDGPU_BUFFERACCESS_H
