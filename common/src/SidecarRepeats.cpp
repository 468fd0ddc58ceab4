//===- SidecarRepeats.cpp - Sidecar entries that repeat an earlier launch -===//

#include "clcapture/format/SidecarRepeats.h"

#include "clcapture/format/SidecarJson.h"

#include <optional>

namespace clcapture::format {

using OrderedJson = nlohmann::ordered_json;

namespace {

/// A key the slot has and the launch lacks: a repeat entry cannot drop a key, so the launch is written whole.
bool dropsAKey(const LaunchFacts &slot, const LaunchFacts &f) {
  return (slot.notCapturedReason && !f.notCapturedReason) || (slot.globalOffset && !f.globalOffset) ||
         (slot.localSize && !f.localSize) || (!slot.hostCalls.empty() && f.hostCalls.empty());
}

OrderedJson instantiationJson(const LaunchFacts &f) {
  return f.instantiation ? OrderedJson(*f.instantiation) : OrderedJson(nullptr);
}

} // namespace

SidecarRepeats::Entry SidecarRepeats::entryFor(const LaunchFacts &f) {
  ++m_clock;
  Key key{f.program, f.kernelName, f.queue, f.thread};
  auto found = m_byKey.find(key);
  if (found != m_byKey.end() && !dropsAKey(m_slots[found->second].facts, f)) {
    Slot &slot = m_slots[found->second];
    const LaunchFacts &t = slot.facts;
    Entry e;
    e.repeat = true;
    e.sameHostCalls = t.hostCalls == f.hostCalls;
    OrderedJson &j = e.json;
    j["launch"] = f.launch;
    j["instantiation"] = instantiationJson(f);
    j["like"] = found->second;
    if (f.notCapturedReason && f.notCapturedReason != t.notCapturedReason)
      j["not_captured_reason"] = *f.notCapturedReason;
    if (f.enqueueFunction != t.enqueueFunction)
      j["enqueue_function"] = f.enqueueFunction;
    if (f.programOrigin != t.programOrigin)
      j["program_origin"] = toString(f.programOrigin);
    if (f.buildOptions != t.buildOptions)
      j["build_options"] = f.buildOptions;
    if (f.globalOffset && f.globalOffset != t.globalOffset)
      j["global_offset"] = *f.globalOffset;
    if (f.localSize && f.localSize != t.localSize)
      j["local_size"] = *f.localSize;
    if (!(f.device == t.device))
      j["device"] = toJson(f.device);
    if (!(f.arguments == t.arguments)) {
      OrderedJson args = OrderedJson::array();
      bool positional = f.arguments.size() == t.arguments.size();
      for (std::size_t i = 0; i < f.arguments.size(); ++i)
        args.push_back(positional && f.arguments[i] == t.arguments[i] ? OrderedJson("same")
                                                                      : toJson(f.arguments[i]));
      j["arguments"] = std::move(args);
    }
    if (f.aliases != t.aliases)
      j["aliases"] = f.aliases;
    if (!e.sameHostCalls) {
      OrderedJson calls = OrderedJson::array();
      for (const HostCallFacts &c : f.hostCalls)
        calls.push_back(toJson(c));
      j["host_calls"] = std::move(calls);
    }
    slot.facts = f;
    slot.lastUse = m_clock;
    return e;
  }

  // A full entry, remembered in the launch's own slot, a new one or the least recently used.
  std::size_t index;
  if (found != m_byKey.end()) {
    index = found->second;
  } else if (m_slots.size() < m_capacity) {
    index = m_slots.size();
    m_slots.push_back(Slot{});
  } else {
    index = 0;
    for (std::size_t i = 1; i < m_slots.size(); ++i)
      if (m_slots[i].lastUse < m_slots[index].lastUse)
        index = i;
    m_byKey.erase(m_slots[index].key);
  }
  Slot &slot = m_slots[index];
  slot.key = key;
  slot.facts = f;
  slot.lastUse = m_clock;
  m_byKey[key] = index;

  Entry e;
  OrderedJson full = toJson(f);
  for (auto &[k, v] : full.items()) {
    e.json[k] = std::move(v);
    if (k == "instantiation")
      e.json["slot"] = index;
  }
  return e;
}

std::optional<std::uint64_t> RepeatExpander::renumber(const nlohmann::json &entry) {
  if (!entry.is_object() || entry.size() > 3)
    return std::nullopt;
  auto like = entry.find("like");
  auto launch = entry.find("launch");
  auto instantiation = entry.find("instantiation");
  if (like == entry.end() || launch == entry.end() || !like->is_number_unsigned() ||
      !launch->is_number_unsigned() ||
      (instantiation != entry.end() && !instantiation->is_number_unsigned()) ||
      entry.size() != (instantiation == entry.end() ? 2u : 3u))
    return std::nullopt;
  auto slot = m_slots.find(like->get<std::uint64_t>());
  if (slot == m_slots.end() || !slot->second.is_object())
    return std::nullopt;
  // The slot's own entry must have the same keys for the result to be the same as expand()'s.
  if (slot->second.contains("instantiation") != (instantiation != entry.end()))
    return std::nullopt;
  slot->second["launch"] = *launch;
  if (instantiation != entry.end())
    slot->second["instantiation"] = *instantiation;
  return slot->first;
}

std::optional<std::uint64_t> RepeatExpander::expand(nlohmann::json &entry, std::size_t position,
                                                    std::vector<RepeatProblem> &problems) {
  std::string path = "launches[" + std::to_string(position) + "]";
  if (!entry.is_object())
    return std::nullopt;
  auto slotNumber = [&](const nlohmann::json &v, const std::string &where) -> std::optional<std::uint64_t> {
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() >= kMaxRepeatSlot) {
      problems.push_back(
          {where, "expected a slot number below " + std::to_string(kMaxRepeatSlot) + ", got " + v.dump()});
      return std::nullopt;
    }
    return v.get<std::uint64_t>();
  };
  if (entry.contains("slot") && entry.contains("like")) {
    problems.push_back(
        {path + ".like", "an entry is either a full entry (slot) or a repeat (like), not both"});
    return std::nullopt;
  }
  if (auto it = entry.find("slot"); it != entry.end()) {
    auto slot = slotNumber(*it, path + ".slot");
    entry.erase("slot");
    if (slot)
      m_slots[*slot] = entry;
    return slot;
  }
  auto like = entry.find("like");
  if (like == entry.end())
    return std::nullopt;
  auto slot = slotNumber(*like, path + ".like");
  if (!slot)
    return std::nullopt;
  auto base = m_slots.find(*slot);
  if (base == m_slots.end()) {
    problems.push_back(
        {path + ".like", "slot " + std::to_string(*slot) + " was not filled by an earlier entry"});
    return std::nullopt;
  }
  // The slot becomes this launch's facts in place (one copy per repeat, into the entry): on a problem
  // nothing changes.
  nlohmann::json &facts = base->second;
  std::optional<nlohmann::json> args;
  if (auto given = entry.find("arguments"); given != entry.end() && given->is_array()) {
    const nlohmann::json *had = facts.contains("arguments") ? &facts["arguments"] : nullptr;
    args = nlohmann::json::array();
    for (std::size_t k = 0; k < given->size(); ++k) {
      if ((*given)[k] != "same") {
        args->push_back(std::move((*given)[k]));
      } else if (had && had->is_array() && had->size() == given->size()) {
        args->push_back((*had)[k]);
      } else {
        problems.push_back({path + ".arguments[" + std::to_string(k) + "]",
                            "\"same\" needs the slot's arguments to have as many entries (" +
                                std::to_string(given->size()) + ")"});
        return std::nullopt;
      }
    }
  }
  for (auto &[key, value] : entry.items()) {
    if (key == "like")
      continue;
    facts[key] = key == "arguments" && args ? std::move(*args) : std::move(value);
  }
  entry = facts;
  return base->first;
}

std::vector<RepeatProblem> expandRepeats(nlohmann::json &launches) {
  std::vector<RepeatProblem> problems;
  if (!launches.is_array())
    return problems;
  RepeatExpander expander;
  for (std::size_t i = 0; i < launches.size(); ++i)
    expander.expand(launches[i], i, problems);
  return problems;
}

} // namespace clcapture::format
