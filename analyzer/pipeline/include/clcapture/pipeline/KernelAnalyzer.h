//===- KernelAnalyzer.h - clcapture-verify's analysis of one launch -*- C++ -*-===//
//
// frontend → model → encode → check for one instantiation: compile the captured kernel with its flags
// (error: the kernel does not compile), normalise it, specialise it to the captured launch, encode the two
// work-items into CVC5 (unknown: a construct the method does not cover, named), ask every divergence and
// race query (findings with witnesses; unknown when a possible defect depends on an abstraction or the
// solver gives up), within the --timeout.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/pipeline/InstantiationAnalyzer.h"

#include <memory>

namespace clcapture::pipeline {

class PreparedKernels;

class KernelAnalyzer : public InstantiationAnalyzer {
public:
  KernelAnalyzer();
  ~KernelAnalyzer() override;
  report::InstantiationResult analyze(const AnalysisRequest &request) override;
  /// Compiles and normalises once each program that two or more of `requests` compile
  /// (src/PreparedKernels.h).
  void prepareForForks(const std::vector<AnalysisRequest> &requests, unsigned jobs) override;
  /// clcapture's, LLVM's and CVC5's versions, and the optimisation level that CLCAPTURE_VERIFY_OPT_LEVEL
  /// sets (KernelCompiler.h).
  std::string identity() const override;

private:
  std::unique_ptr<PreparedKernels> m_prepared;
};

} // namespace clcapture::pipeline
