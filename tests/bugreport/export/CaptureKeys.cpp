//===- CaptureKeys.cpp - Prints the analysis key of every instantiation of some captures -===//
//
// usage: capture_keys CAPTURES.json...
// One line per instantiation: "<captures.json> <index> <key>", the key being clcapture-verify's own
// (analyzer/cli/src/InstantiationKey.cpp, compiled in: everything that decides a verdict and nothing that
// only names a launch). Two captures analyse alike exactly when their keys are equal. Exit 10 when a capture
// does not load.
//
//===----------------------------------------------------------------------===//

#include "clcapture/format/CaptureReader.h"
#include "clcapture/verify/InstantiationKey.h"

#include <iostream>

int main(int argc, char **argv) {
  namespace fmt = clcapture::format;
  int status = 0;
  clcapture::verify::FileHashCache hashes;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path path(argv[i]);
    fmt::Capture capture = fmt::loadCapture(path);
    if (capture.hasErrors()) {
      for (const fmt::Diagnostic &d : capture.diagnostics)
        std::cerr << d.str() << "\n";
      status = 10;
      continue;
    }
    std::filesystem::path folder = path.parent_path();
    for (std::size_t k = 0; k < capture.captures.instantiations.size(); ++k)
      std::cout << argv[i] << " " << capture.captures.indices[k] << " "
                << clcapture::verify::analysisKey(capture.captures.instantiations[k], capture.factsFor(k),
                                                  folder, hashes)
                << "\n";
  }
  return status;
}
