//===- PlaceholderAnalyzer.h - Stand-in until the analysis exists -*- C++ -*-===//
//
// Answers `unknown` ("analysis not implemented yet") for every instantiation, so that clcapture-verify runs
// end to end (capture loading, selection, reports, exit codes) before the verifier is written. Never
// `verified`: that would be unsound.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/pipeline/InstantiationAnalyzer.h"

namespace clcapture::pipeline {

class PlaceholderAnalyzer final : public InstantiationAnalyzer {
public:
  report::InstantiationResult analyze(const AnalysisRequest &request) override;
};

} // namespace clcapture::pipeline
