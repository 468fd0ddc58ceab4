//===- SiteChoice.cpp - One work-item's choice among the access sites of a race query ----===//

#include "SiteChoice.h"

#include <string>

namespace clcapture::encode::detail {

const cvc5::Term &epochOf(const AccessRecord &r, bool local) {
  return local ? r.localEpoch : r.globalEpoch;
}

SiteChoice chooseSite(EncodingState &s, unsigned t, const std::vector<unsigned> &sites, bool local,
                      bool withValue, bool ordering, unsigned query) {
  TermFactory &tf = s.tf;
  SiteChoice c;
  c.sites = sites;
  for (unsigned id : sites) {
    const AccessRecord &r = s.records[t][id];
    Exactness how = r.reachHow & r.pointer.how & r.sizeHow;
    if (withValue)
      how = how & r.value.how;
    if (ordering)
      how = how & r.doneHow; // whether a copy is complete decides the race
    c.how.push_back(how);
    c.allExact = c.allExact && how.exact();
    c.noneExact = c.noneExact && !how.exact();
  }
  if (sites.size() == 1) {
    const AccessRecord &r = s.records[t][sites[0]];
    c.constraint = tf.boolean(true);
    c.reach = r.reach;
    c.object = r.pointer.object;
    c.offset = r.pointer.offset;
    c.size = r.size;
    c.epoch = epochOf(r, local);
    c.done = r.done;
    c.tagBit = r.tagBit;
    c.collective = tf.boolean(s.sites[sites[0]].collective);
    c.siteId = tf.constant(32, sites[0]);
    if (withValue)
      c.value = r.value.term;
    return c;
  }
  std::string tag = std::string("_") + (t == 0 ? "A" : "B") + "_q" + std::to_string(query);
  const AccessRecord &first = s.records[t][sites[0]];
  c.selector = tf.fresh(tf.bv(32), "site" + tag);
  c.reach = tf.boolean(true);
  c.object = tf.fresh(tf.bv(64), "object" + tag);
  c.offset = tf.fresh(tf.bv(64), "offset" + tag);
  c.size = tf.fresh(tf.bv(64), "size" + tag);
  c.epoch = tf.fresh(epochOf(first, local).getSort(), "interval" + tag);
  c.done = tf.fresh(tf.bv(64), "done" + tag);
  c.tagBit = tf.fresh(tf.bv(64), "tag" + tag);
  c.collective = tf.fresh(s.solver.getBooleanSort(), "collective" + tag);
  c.siteId = tf.fresh(tf.bv(32), "site_id" + tag);
  if (withValue)
    c.value = tf.fresh(first.value.term.getSort(), "value" + tag);
  c.constraint = tf.ult(c.selector, tf.constant(32, sites.size()));
  for (std::size_t i = 0; i < sites.size(); ++i) {
    const AccessRecord &r = s.records[t][sites[i]];
    cvc5::Term is = tf.land(r.reach, tf.eq(c.object, r.pointer.object));
    is = tf.land(is, tf.land(tf.eq(c.offset, r.pointer.offset), tf.eq(c.size, r.size)));
    is = tf.land(is, tf.eq(c.epoch, epochOf(r, local)));
    is = tf.land(is, tf.land(tf.eq(c.done, r.done), tf.eq(c.siteId, tf.constant(32, sites[i]))));
    is = tf.land(is, tf.eq(c.tagBit, r.tagBit));
    is = tf.land(is, tf.eq(c.collective, tf.boolean(s.sites[sites[i]].collective)));
    if (withValue)
      is = tf.land(is, tf.eq(c.value, r.value.term));
    c.constraint = tf.land(c.constraint, tf.lor(tf.lnot(c.isChosen(tf, i)), is));
  }
  return c;
}

} // namespace clcapture::encode::detail
