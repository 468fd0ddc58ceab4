//===- ExitCode.cpp - clcapture-verify's exit status ----------------------===//

#include "clcapture/verify/ExitCode.h"

namespace clcapture::verify {

int exitCodeFor(const std::vector<report::InstantiationResult> &results) {
  bool compile = false, timeout = false, notVerified = false;
  for (const auto &r : results) {
    compile = compile || r.errorKind == report::ErrorKind::Compile;
    timeout = timeout || r.errorKind == report::ErrorKind::Timeout;
    notVerified = notVerified || r.verdict != report::Verdict::Verified;
  }
  // Precedence (ExitCode.h): the earliest stage that failed.
  if (compile)
    return kExitCompileError;
  if (timeout)
    return kExitTimeout;
  if (notVerified)
    return kExitNotAllVerified;
  return kExitVerified;
}

} // namespace clcapture::verify
