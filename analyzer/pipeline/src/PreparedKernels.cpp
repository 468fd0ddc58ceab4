//===- PreparedKernels.cpp - Programs compiled once for many forked analyses -===//

#include "PreparedKernels.h"

#include "clcapture/frontend/Normalizer.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <unistd.h>

namespace clcapture::pipeline {

namespace {

/// Everything compiling and normalising read (KernelCompiler.h CompileRequest), '\0'-separated.
std::string compileKey(const frontend::CompileRequest &r) {
  return r.captureDir.string() + '\0' + r.kernelFile + '\0' + r.sourceText.value_or("") + '\0' +
         (r.sourceText ? "text" : "file") + '\0' + r.compilerFlags + '\0' + r.entryPoint + '\0' +
         std::to_string(r.addressBits) + '\0' + std::to_string(r.optimisationLevel);
}

} // namespace

PreparedKernel compileAndNormalize(const frontend::KernelCompiler &compiler,
                                   const frontend::CompileRequest &request) {
  PreparedKernel prepared;
  auto kernel = compiler.compile(request);
  if (!kernel) {
    prepared.compileError = kernel.error();
    return prepared;
  }
  if (auto normalized = frontend::Normalizer::normalize(*kernel); !normalized)
    prepared.normalizeError = normalized.error();
  prepared.kernel.emplace(std::move(*kernel));
  return prepared;
}

PreparedKernels::PreparedKernels(const frontend::KernelCompiler &compiler,
                                 const std::vector<frontend::CompileRequest> &requests, unsigned jobs)
    : m_preparer(::getpid()) {
  std::map<std::string, std::pair<std::size_t, const frontend::CompileRequest *>> uses;
  for (const frontend::CompileRequest &r : requests) {
    auto &use = uses[compileKey(r)];
    ++use.first;
    use.second = &r;
  }
  std::vector<std::pair<std::size_t, std::string>> shared; // (uses, key), the most used first
  for (const auto &[key, use] : uses)
    if (use.first >= 2)
      shared.emplace_back(use.first, key);
  std::stable_sort(shared.begin(), shared.end(),
                   [](const auto &a, const auto &b) { return a.first > b.first; });
  if (shared.size() > kMaxPrepared)
    shared.resize(kMaxPrepared);

  std::vector<const frontend::CompileRequest *> toCompile;
  for (const auto &entry : shared)
    toCompile.push_back(uses.at(entry.second).second);
  std::vector<PreparedKernel> done(shared.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next++) < toCompile.size();)
      done[i] = compileAndNormalize(compiler, *toCompile[i]);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::min<std::size_t>(jobs, shared.size()); ++t)
    threads.emplace_back(work);
  work();
  for (std::thread &t : threads)
    t.join();
  for (std::size_t i = 0; i < shared.size(); ++i)
    m_prepared.emplace(shared[i].second, std::move(done[i]));
}

std::optional<PreparedKernel> PreparedKernels::take(const frontend::CompileRequest &request) {
  if (::getpid() == m_preparer)
    return std::nullopt;
  auto it = m_prepared.find(compileKey(request));
  if (it == m_prepared.end())
    return std::nullopt;
  std::optional<PreparedKernel> out(std::move(it->second));
  m_prepared.erase(it);
  return out;
}

} // namespace clcapture::pipeline
