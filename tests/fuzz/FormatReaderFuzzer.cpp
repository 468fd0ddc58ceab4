// libFuzzer target for the capture-format reader: any input must be rejected cleanly or accepted, and
// whatever is accepted must survive the writer unchanged (write → read → write gives the same bytes).
// The same input, after a pack header, is scanned as a pack (BlobPack.h): every record it keeps lies inside
// the input, in order, and holds bytes with the hash it names.
// Built with ASan + UBSan (+ LeakSanitizer through ASan): a crash, leak or undefined behaviour fails it.
#include "clcapture/format/BlobPack.h"
#include "clcapture/format/BlobStore.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/CaptureWriter.h"
#include "clcapture/format/JsonArrayFile.h"
#include "clcapture/format/ScalarCodec.h"

#include <cstdint>
#include <string_view>

using namespace clcapture::format;

namespace {

void requireThat(bool condition) {
  if (!condition)
    __builtin_trap();
}

void checkCaptures(std::string_view text, const ReadOptions &options) {
  CaptureSet set = parseCaptures(text, "fuzz.json", options);
  requireThat(set.instantiations.size() == set.indices.size());
  requireThat(set.instantiations.size() <= set.recordCount || set.truncated);
  if (set.instantiations.empty())
    return;
  std::string written = serializeCaptures(set.instantiations);
  CaptureSet again = parseCaptures(written, "fuzz.json", options);
  requireThat(!again.hasErrors());
  requireThat(again.instantiations.size() == set.instantiations.size());
  requireThat(serializeCaptures(again.instantiations) == written);
}

void checkSidecar(std::string_view text) {
  SidecarSet set = parseSidecar(text, "fuzz.meta.json", ReadOptions{});
  if (!set.sidecar)
    return;
  std::string written = serializeSidecar(*set.sidecar);
  SidecarSet again = parseSidecar(written, "fuzz.meta.json", ReadOptions{});
  requireThat(again.sidecar.has_value());
  requireThat(serializeSidecar(*again.sidecar) == written);
}

void checkPack(std::string_view text) {
  const std::string pack = packHeader() + std::string(text);
  PackScan scan = scanBlobPack(pack);
  requireThat(scan.validBytes <= pack.size());
  std::uint64_t previous = 0;
  for (const PackedBlob &blob : scan.blobs) {
    requireThat(blob.offset > previous && blob.offset + blob.size <= scan.validBytes);
    requireThat(contentHash128(pack.data() + blob.offset, static_cast<std::size_t>(blob.size)) == blob.hash);
    previous = blob.offset;
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  ReadOptions strict;
  strict.checkFiles = false;
  checkCaptures(text, strict);
  ReadOptions lenient = strict;
  lenient.strict = false;
  lenient.allowNonUniformWorkGroups = true;
  checkCaptures(text, lenient);
  checkSidecar(text);
  checkPack(text);
  (void)recoverTruncatedJson(text, 1 + static_cast<int>(size % 2));
  for (Endianness order : {Endianness::Little, Endianness::Big}) {
    auto bytes = decodeScalar(text.substr(0, 40), size % 17, order);
    if (bytes)
      requireThat(decodeScalar(encodeScalar(*bytes, order), bytes->size(), order).value() == *bytes);
  }
  return 0;
}
