//===- SiteChoice.h - One work-item's choice among the access sites of a race query -*- C++ -*-===//
//
// Internal to encode/: a race query covers every pair of its sites at once; each work-item picks one of its
// sites through a selector, and fresh terms stand for the chosen site's reach, place, interval and value.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "EncodingState.h"

#include <vector>

namespace clcapture::encode::detail {

/// One work-item's choice among several access sites: fresh terms equal to the chosen site's.
struct SiteChoice {
  std::vector<unsigned> sites; ///< candidates, present for this work-item
  std::vector<Exactness> how;  ///< per candidate: how exact its reach, pointer, size (and value) are
  cvc5::Term selector;         ///< which candidate (absent with one candidate)
  cvc5::Term constraint;       ///< selector in range ∧ (selector = i ⇒ the fresh terms are site i's)
  cvc5::Term reach, object, offset, size, epoch, value;
  cvc5::Term done;       ///< the async copies complete before the access (one bit per copy site)
  cvc5::Term tagBit;     ///< the chosen site's own copy bit (0 unless it is an async copy)
  cvc5::Term collective; ///< Bool: the chosen site is a work-group's collective access (async copy)
  cvc5::Term siteId;     ///< the chosen site's id (32-bit)
  bool allExact = true, noneExact = true;

  cvc5::Term exactOnly(TermFactory &tf) const {
    cvc5::Term any = tf.boolean(false);
    for (std::size_t i = 0; i < sites.size(); ++i)
      if (how[i].exact())
        any = tf.lor(any, isChosen(tf, i));
    return any;
  }
  cvc5::Term isChosen(TermFactory &tf, std::size_t i) const {
    return sites.size() == 1 ? tf.boolean(true) : tf.eq(selector, tf.constant(32, i));
  }
};

/// The barrier interval of the memory's fence (local or global) that the access lies in.
const cvc5::Term &epochOf(const AccessRecord &r, bool local);

/// Work-item `t`'s choice among `sites` (present for it), for race query number `query` (which names its
/// fresh terms). `local`: the sites access local memory (their intervals are of the local fence).
/// `withValue`: the choice carries the value written; `ordering`: whether async copies are complete decides
/// the race (then their exactness counts).
SiteChoice chooseSite(EncodingState &s, unsigned t, const std::vector<unsigned> &sites, bool local,
                      bool withValue, bool ordering, unsigned query);

} // namespace clcapture::encode::detail
