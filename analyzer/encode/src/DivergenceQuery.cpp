//===- DivergenceQuery.cpp - KernelEncoding::checkDivergence: do two work-items of a group disagree? ----===//

#include "KernelEncodingImpl.h"
#include "LaunchFacts.h"
#include "SolverQuery.h"
#include "Witnesses.h"
#include "clcapture/encode/KernelEncoding.h"

#include <string>

namespace clcapture::encode {

using namespace detail;

namespace {

/// A satisfiable divergence query `q`: its witness into `out`, the model kept within the guards (an exact
/// witness that cannot be is left as keepWithinGuards made it) and small values preferred.
void withWitness(EncodingState &s, const cvc5::Term &q, const std::string &label, const Exactness &how,
                 bool differentArguments, QueryOutcome &out) {
  if (how.exact() && !keepWithinGuards(s, q, label, out))
    return;
  if (how.exact())
    preferSmallValues(s, s.tf.land(q, withinGuards(s)), label);
  out.exact = how.exact();
  out.abstraction = how.abstraction;
  out.divergence = DivergenceWitness{idsFromModel(s, 0), idsFromModel(s, 1), differentArguments,
                                     openValuesFromModel(s), localSizeFromModel(s)};
}

} // namespace

QueryOutcome KernelEncoding::checkDivergence(unsigned barrier) {
  EncodingState &s = m_impl->state;
  TermFactory &tf = s.tf;
  const BarrierRecord &ra = s.barrierRecords[0][barrier];
  const BarrierRecord &rb = s.barrierRecords[1][barrier];
  QueryOutcome out;
  if (!ra.present || !rb.present || oneWorkItemPerGroup(s.launch)) {
    out.status = QueryOutcome::Status::Unsat; // a group of one work-item cannot disagree with itself
    return out;
  }
  const std::string &function = s.barriers[barrier].function;
  try {
    // In a loop, both at the same iteration: a work-group function is reached by the whole group at each.
    cvc5::Term together = s.sameGroup;
    for (std::size_t i = 0; i < ra.iterations.size() && i < rb.iterations.size(); ++i)
      together = tf.land(together, tf.eq(ra.iterations[i], rb.iterations[i]));
    cvc5::Term q = tf.land(together, tf.land(ra.reach, tf.lnot(rb.reach)));
    std::string label =
        function + " " + std::to_string(barrier) + " reached by A, not by B of the same group";
    out = ask(s, q, label);
    if (out.status == QueryOutcome::Status::Sat) {
      withWitness(s, q, label, ra.reachHow & rb.reachHow, false, out);
      return out;
    }
    if (out.status != QueryOutcome::Status::Unsat || ra.uniformArgs.size() != rb.uniformArgs.size())
      return out;
    // Both reach it: with the same arguments (the same elements and event of an async copy, the same
    // events waited for, the same fence flags)?
    cvc5::Term differ = tf.boolean(false);
    for (std::size_t i = 0; i < ra.uniformArgs.size(); ++i)
      if (ra.uniformArgs[i].getSort() == rb.uniformArgs[i].getSort() &&
          ra.uniformArgs[i] != rb.uniformArgs[i])
        differ = tf.lor(differ, tf.lnot(tf.eq(ra.uniformArgs[i], rb.uniformArgs[i])));
    if (differ.isBooleanValue() && !differ.getBooleanValue())
      return out;
    q = tf.land(together, tf.land(tf.land(ra.reach, rb.reach), differ));
    label = function + " " + std::to_string(barrier) +
            " reached by A and B of the same group with different arguments";
    out = ask(s, q, label);
    if (out.status == QueryOutcome::Status::Sat)
      withWitness(s, q, label, ra.reachHow & rb.reachHow & ra.argsHow & rb.argsHow, true, out);
  } catch (const cvc5::CVC5ApiException &e) {
    out.status = QueryOutcome::Status::Unknown;
    out.unknownReason = std::string("solver error: ") + e.what();
  }
  return out;
}

} // namespace clcapture::encode
