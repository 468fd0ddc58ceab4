//===- ElementBytes.h - Element values <-> their bytes, exactly -*- C++ -*-===//
//
// Both exports write captured bytes as numbers a reader parses back (Oclgrind's istream >> T, Python's
// json), and the import turns numbers into bytes again. Every conversion here is exact or refuses: a float
// is written with digits that read back to the same bits, and one that cannot be (NaN, an infinity) has
// no decimal form.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/export/OpenClTypes.h"
#include "clcapture/format/Instantiation.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace clcapture::exporter {

/// The `size` (1 to 8) bytes at `p`, read in `order`.
std::uint64_t loadUnsigned(const unsigned char *p, std::size_t size, format::Endianness order);
/// Writes the low `size` bytes of `v` to `out` in `order`.
void storeUnsigned(std::uint64_t v, std::size_t size, format::Endianness order, unsigned char *out);

/// Sign-extends the low `size` bytes of `bits`.
std::int64_t signExtend(std::uint64_t bits, std::size_t size);

/// One element (its low elementSize bytes in `bits`) as decimal text that `istream >> T` reads back to the
/// same bits (Oclgrind's parser): integers exactly; floats and doubles with %.9g / %.17g, checked by
/// reading them back; nullopt for a NaN or an infinity. Half values are written as their raw bits.
std::optional<std::string> elementText(std::uint64_t bits, const ClType &element);

/// A number from a spec: an integer (±magnitude) or a real.
struct NumberValue {
  bool isInteger = true;
  bool negative = false;
  std::uint64_t magnitude = 0;
  double real = 0;

  static NumberValue integer(std::int64_t v);
  static NumberValue unsignedInteger(std::uint64_t v);
  static NumberValue realNumber(double v);
  std::string str() const;
};

/// The bits of `value` as one element of `element`: an integer in the element's range (a real only when
/// it is a whole number), or any finite number for float and double (a double narrowed to float rounds to
/// nearest; an integer beyond 2^53 must be exact). nullopt and `why` when it does not fit.
std::optional<std::uint64_t> elementBits(const NumberValue &value, const ClType &element, std::string &why);

} // namespace clcapture::exporter
