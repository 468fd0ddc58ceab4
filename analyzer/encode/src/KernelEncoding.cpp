//===- KernelEncoding.cpp - GPUVerify's two-thread reduction, in CVC5 ----===//
//
// The encoding's steps in order (encode) and the SMT-LIB log (smtLog). The queries are RaceQuery.cpp and
// DivergenceQuery.cpp; analyzer/README.md lists the other files of encode/ and their jobs.
//
//===----------------------------------------------------------------------===//

#include "clcapture/encode/KernelEncoding.h"

#include "KernelEncodingImpl.h"
#include "LaunchFacts.h"
#include "LaunchSetUp.h"
#include "ThreadEncoder.h"

#include <algorithm>
#include <llvm/IR/Instruction.h>
#include <set>
#include <string>
#include <vector>

namespace clcapture::encode {

format::Expected<std::unique_ptr<KernelEncoding>> KernelEncoding::encode(llvm::Function &kernel,
                                                                         const model::LaunchConfig &launch,
                                                                         const EncodeOptions &options) {
  auto impl = std::make_unique<Impl>(kernel, launch, options);
  EncodingState &s = impl->state;
  try {
    detail::setUpLaunch(s);
    detail::setUpSharedValues(s);
    detail::setUpReadOnlyTables(s);
    if (options.dependenceSlice)
      s.slice = DependenceSlice::of(kernel, options.storedValues);
    for (unsigned t = 0; t < 2; ++t)
      if (auto status = encodeThread(s, t); !status)
        return format::fail(status.error());
    if (!detail::oneWorkItem(launch)) { // facts about two distinct work-items
      detail::stateCounterFacts(s);
      detail::guardCounterResults(s);
      detail::stateUniformReads(s);
      detail::stateExclusiveSuccesses(s);
    }
  } catch (const cvc5::CVC5ApiException &e) {
    return format::fail(std::string("internal error while encoding: ") + e.what());
  }
  return std::unique_ptr<KernelEncoding>(new KernelEncoding(std::move(impl)));
}

KernelEncoding::KernelEncoding(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
KernelEncoding::~KernelEncoding() = default;

const std::vector<AccessSite> &KernelEncoding::accesses() const {
  return m_impl->state.sites;
}
const std::vector<BarrierSite> &KernelEncoding::barriers() const {
  return m_impl->state.barriers;
}

namespace {

void collectConstants(const cvc5::Term &t, std::set<cvc5::Term> &seen, std::vector<cvc5::Term> &out) {
  std::vector<cvc5::Term> todo{t};
  while (!todo.empty()) {
    cvc5::Term u = todo.back();
    todo.pop_back();
    if (!seen.insert(u).second)
      continue;
    if (u.getKind() == cvc5::Kind::CONSTANT)
      out.push_back(u);
    for (const cvc5::Term &child : u)
      todo.push_back(child);
  }
}

} // namespace

bool KernelEncoding::built(const llvm::Instruction &inst) const {
  return m_impl->state.builtForA.count(&inst) != 0;
}

std::size_t KernelEncoding::valuesBuilt() const {
  return m_impl->state.builtForA.size();
}

std::string KernelEncoding::smtLog() const {
  EncodingState &s = m_impl->state;
  // A script cvc5 (or any SMT-LIB 2 solver) replays: declarations, the encoding's assertions, then each
  // query under check-sat-assuming, with the answer clcapture-verify got and how long it took.
  std::vector<cvc5::Term> assertions = s.solver.getAssertions();
  std::set<cvc5::Term> seen;
  std::vector<cvc5::Term> constants;
  for (const cvc5::Term &a : assertions)
    collectConstants(a, seen, constants);
  for (const auto &q : s.queryLog)
    collectConstants(q.query, seen, constants);
  std::sort(constants.begin(), constants.end(),
            [](const cvc5::Term &x, const cvc5::Term &y) { return x.getId() < y.getId(); });
  std::string out =
      "; clcapture-verify: the two-thread encoding of one launch (replay: cvc5 --incremental FILE)\n"
      "(set-logic QF_ABVFP)\n(set-option :produce-models true)\n(set-option :incremental true)\n";
  for (const cvc5::Term &c : constants)
    out += "(declare-const " + c.toString() + " " + c.getSort().toString() + ")\n";
  for (const cvc5::Term &a : assertions)
    out += "(assert " + a.toString() + ")\n";
  for (const auto &q : s.queryLog)
    out += "; " + q.label + "\n; clcapture-verify: " + q.answer + "\n(check-sat-assuming (" +
           q.query.toString() + "))\n";
  return out;
}

} // namespace clcapture::encode
