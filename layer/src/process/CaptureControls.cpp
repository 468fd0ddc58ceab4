//===- CaptureControls.cpp - CLCAPTURE_* settings (docs/contract.md §2) --------------===//

#include "process/CaptureControls.h"

#include "clcapture/format/ByteCount.h"

#include <cerrno>
#include <cstdlib>

namespace clcapture::layer {

namespace {

/// A switch control: unset or empty keeps `value`; on/1 and off/0 set it; anything else is an error naming
/// the variable. Returns false on the error.
bool onOff(const char *name, const char *text, bool &value, std::string &error) {
  if (!text || !*text)
    return true;
  std::string t(text);
  if (t == "on" || t == "1")
    value = true;
  else if (t == "off" || t == "0")
    value = false;
  else {
    error = std::string(name) + "=" + t + ": expected on or off";
    return false;
  }
  return true;
}

std::optional<std::uint64_t> parseIndex(const std::string &text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  errno = 0;
  unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE)
    return std::nullopt;
  return value;
}

} // namespace

bool CaptureControls::wantsLaunch(std::uint64_t launch, const std::string &kernel) const {
  return inLaunchRange(launch) && wantsKernel(kernel);
}

bool CaptureControls::wantsKernel(const std::string &kernel) const {
  return !kernels || std::regex_search(kernel, *kernels);
}

CaptureControls parseControls(const char *kernels, const char *launches, const char *data,
                              const char *maxBytes, const char *callSites, const char *store,
                              const char *minFree, const char *dataAfter, const char *dataPerShape,
                              const char *pack) {
  CaptureControls c;
  if (kernels && *kernels) {
    c.kernelsText = kernels;
    try {
      c.kernels.emplace(kernels, std::regex::ECMAScript);
    } catch (const std::regex_error &e) {
      c.error = std::string("CLCAPTURE_KERNELS=") + kernels + ": not a regular expression (" + e.what() + ")";
      return c;
    }
  }
  if (launches && *launches) {
    std::string text(launches);
    auto dash = text.find('-');
    std::optional<std::uint64_t> first, last;
    if (dash == std::string::npos) {
      first = last = parseIndex(text);
    } else {
      first = parseIndex(text.substr(0, dash));
      last = dash + 1 == text.size() ? std::optional<std::uint64_t>(UINT64_MAX)
                                     : parseIndex(text.substr(dash + 1));
    }
    if (!first || !last || *first > *last) {
      c.error = "CLCAPTURE_LAUNCHES=" + text + ": expected A-B, A- or N (launch numbers from 0, A <= B)";
      return c;
    }
    c.firstLaunch = *first;
    c.lastLaunch = *last;
  }
  if (data && *data) {
    std::string text(data);
    if (text == "all") {
    } else if (text == "none") {
      c.captureData = false;
    } else if (auto cap = format::parseByteCount(text)) {
      c.perBufferCap = *cap;
    } else {
      c.error = "CLCAPTURE_DATA=" + text + ": expected all, none or a byte count (e.g. 1048576 or 1M)";
      return c;
    }
  }
  if (maxBytes && *maxBytes) {
    auto budget = std::string(maxBytes) == "unlimited" ? std::optional<std::uint64_t>(UINT64_MAX)
                                                       : format::parseByteCount(maxBytes);
    if (!budget) {
      c.error = std::string("CLCAPTURE_MAX_BYTES=") + maxBytes +
                ": expected a byte count (e.g. 1073741824 or 1G) or unlimited";
      return c;
    }
    c.totalBudget = *budget;
  }
  if (minFree && *minFree) {
    auto floor =
        std::string(minFree) == "off" ? std::optional<std::uint64_t>(0) : format::parseByteCount(minFree);
    if (!floor) {
      c.error = std::string("CLCAPTURE_MIN_FREE=") + minFree + ": expected a byte count (e.g. 10G) or off";
      return c;
    }
    c.minFree = *floor;
  }
  if (callSites && *callSites) {
    std::string text(callSites);
    if (text == "off")
      c.callSites = false;
    else if (text != "on") {
      c.error = "CLCAPTURE_CALL_SITES=" + text + ": expected on or off";
      return c;
    }
  }
  if (!onOff("CLCAPTURE_DATA_AFTER", dataAfter, c.dataAfter, c.error) ||
      !onOff("CLCAPTURE_PACK", pack, c.pack, c.error))
    return c;
  if (dataPerShape && *dataPerShape) {
    std::string text(dataPerShape);
    auto n = text == "all" ? std::optional<std::uint64_t>(UINT64_MAX) : parseIndex(text);
    if (!n) {
      c.error = "CLCAPTURE_DATA_PER_SHAPE=" + text + ": expected a number of launches (e.g. 64) or all";
      return c;
    }
    c.dataPerShape = *n;
  }
  // Any folder name is valid: "off" disables the store, "on" (like unset) names the default folder.
  if (store && *store) {
    std::string text(store);
    if (text == "off")
      c.storeFolder.reset();
    else if (text != "on")
      c.storeFolder = text;
  }
  return c;
}

std::optional<std::string> defaultStoreFolder(const char *xdgCacheHome, const char *home) {
  if (xdgCacheHome && xdgCacheHome[0] == '/')
    return std::string(xdgCacheHome) + "/clcapture/programs";
  if (home && *home)
    return std::string(home) + "/.cache/clcapture/programs";
  return std::nullopt;
}

CaptureControls controlsFromEnvironment() {
  CaptureControls c = parseControls(std::getenv("CLCAPTURE_KERNELS"), std::getenv("CLCAPTURE_LAUNCHES"),
                                    std::getenv("CLCAPTURE_DATA"), std::getenv("CLCAPTURE_MAX_BYTES"),
                                    std::getenv("CLCAPTURE_CALL_SITES"), std::getenv("CLCAPTURE_STORE"),
                                    std::getenv("CLCAPTURE_MIN_FREE"), std::getenv("CLCAPTURE_DATA_AFTER"),
                                    std::getenv("CLCAPTURE_DATA_PER_SHAPE"), std::getenv("CLCAPTURE_PACK"));
  if (c.storeFolder && c.storeFolder->empty())
    c.storeFolder = defaultStoreFolder(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
  return c;
}

} // namespace clcapture::layer
