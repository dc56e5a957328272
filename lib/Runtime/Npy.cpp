//===- Npy.cpp - NumPy .npy files -----------------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements reading and writing .npy files.
//
//===----------------------------------------------------------------------===//

#include "HK/Runtime/Npy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir::hk;

static Error malformed(StringRef path, const Twine &what) {
  return createStringError(inconvertibleErrorCode(),
                           "'" + path + "' is not a valid .npy file: " + what);
}

/// The value of `key` in the header dictionary, up to the next top-level
/// comma or closing brace.
static std::optional<StringRef> headerField(StringRef header, StringRef key) {
  size_t at = header.find("'" + key.str() + "'");
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef rest = header.drop_front(at + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  rest = rest.ltrim();
  if (rest.starts_with("(")) {
    size_t close = rest.find(')');
    return close == StringRef::npos ? std::nullopt
                                    : std::optional(rest.take_front(close + 1));
  }
  return rest.take_until([](char c) { return c == ',' || c == '}'; }).trim();
}

Expected<NpyArray> mlir::hk::readNpy(StringRef path) {
  auto buffer = MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return createStringError(buffer.getError(),
                             "cannot read '" + path +
                                 "': " + buffer.getError().message());
  return parseNpy((*buffer)->getBuffer(), path);
}

Expected<NpyArray> mlir::hk::parseNpy(StringRef bytes, StringRef path) {
  if (!bytes.starts_with("\x93NUMPY") || bytes.size() < 10)
    return malformed(path, "no NUMPY magic");
  unsigned major = static_cast<uint8_t>(bytes[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = uint8_t(bytes[8]) | (uint8_t(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return malformed(path, "truncated header");
    headerLength = uint8_t(bytes[8]) | (uint8_t(bytes[9]) << 8) |
                   (uint8_t(bytes[10]) << 16) |
                   (size_t(uint8_t(bytes[11])) << 24);
    headerStart = 12;
  } else {
    return malformed(path, "unknown format version " + Twine(major));
  }
  if (headerStart + headerLength > bytes.size())
    return malformed(path, "truncated header");
  StringRef header = bytes.substr(headerStart, headerLength);

  NpyArray array;
  std::optional<StringRef> descr = headerField(header, "descr");
  std::optional<StringRef> order = headerField(header, "fortran_order");
  std::optional<StringRef> shape = headerField(header, "shape");
  if (!descr || !order || !shape)
    return malformed(path, "header lacks descr, fortran_order or shape");
  array.dtype = descr->trim("'\"").str();
  if (*order != "False")
    return malformed(path, "Fortran order is not supported");
  for (StringRef dim : llvm::split(shape->trim("()"), ',')) {
    dim = dim.trim();
    if (dim.empty())
      continue;
    int64_t n;
    if (dim.getAsInteger(10, n) || n < 0)
      return malformed(path, "bad shape " + *shape);
    array.shape.push_back(n);
  }
  if (array.dtype.size() < 3 ||
      (array.dtype[0] != '<' && array.dtype[0] != '|'))
    return malformed(path, "dtype '" + array.dtype + "' is not little-endian");
  unsigned itemSize;
  if (StringRef(array.dtype).drop_front(2).getAsInteger(10, itemSize) ||
      itemSize == 0)
    return malformed(path, "dtype '" + array.dtype + "' is not understood");
  // The element count and byte size, refused when they overflow (a wrapped
  // size could match a short payload).
  uint64_t count = 1, size = 0;
  for (int64_t n : array.shape)
    if (__builtin_mul_overflow(count, uint64_t(n), &count))
      return malformed(path, "shape " + *shape + " is too large");
  if (__builtin_mul_overflow(count, uint64_t(itemSize), &size))
    return malformed(path, "shape " + *shape + " is too large");
  StringRef payload = bytes.drop_front(headerStart + headerLength);
  if (payload.size() != size)
    return malformed(path, "shape " + *shape + " of " + array.dtype +
                               " needs " + Twine(size) +
                               " bytes of data, the file has " +
                               Twine(payload.size()));
  array.data.assign(payload.begin(), payload.end());
  return array;
}

Error mlir::hk::writeNpy(StringRef path, const NpyArray &array) {
  std::string shape = "(";
  for (auto [i, n] : llvm::enumerate(array.shape))
    shape += (i ? ", " : "") + std::to_string(n);
  shape += array.shape.size() == 1 ? ",)" : ")";
  std::string header = "{'descr': '" + array.dtype +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces so the data starts 64-byte aligned; end with a newline.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec)
    return createStringError(ec,
                             "cannot write '" + path + "': " + ec.message());
  os << "\x93NUMPY" << char(1) << char(0) << char(header.size() & 0xff)
     << char(header.size() >> 8) << header;
  os.write(reinterpret_cast<const char *>(array.data.data()),
           array.data.size());
  os.close();
  if (os.has_error()) {
    std::error_code error = os.error();
    os.clear_error();
    return createStringError(error,
                             "cannot write '" + path + "': " + error.message());
  }
  return Error::success();
}
