//===- PlaceholderAnalyzer.cpp - Stand-in until the analysis exists ------===//

#include "clcapture/pipeline/PlaceholderAnalyzer.h"

namespace clcapture::pipeline {

report::InstantiationResult PlaceholderAnalyzer::analyze(const AnalysisRequest &) {
  report::InstantiationResult r;
  r.verdict = report::Verdict::Unknown;
  r.reason = "analysis not implemented yet";
  return r;
}

} // namespace clcapture::pipeline
