//===- PackEnvironment.cpp - environment.json and the maintainer's README of an archive -===//

#include "PackEnvironment.h"

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sys/utsname.h>

namespace clcapture::pack {

namespace fmt = clcapture::format;
using Json = nlohmann::ordered_json;

namespace {

std::string osName() {
  std::ifstream in("/etc/os-release");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      std::string v = line.substr(12);
      if (v.size() >= 2 && v.front() == '"' && v.back() == '"')
        v = v.substr(1, v.size() - 2);
      return v;
    }
  return "unknown";
}

} // namespace

std::string environmentJson(const PackedCapture &packed) {
  const fmt::SidecarHeader &h = packed.sidecar.header;
  Json captured;
  captured["clcapture_version"] = h.clcaptureVersion;
  captured["executable"] = h.process.executable;
  captured["command_line"] = h.process.commandLine;
  captured["loader"] = h.process.loader ? Json(*h.process.loader) : Json(nullptr);
  captured["front_end"] = h.process.frontEnd ? Json(*h.process.frontEnd) : Json(nullptr);
  captured["started_at"] = h.process.startedAt;
  std::map<std::string, Json> devices; // by a stable key, in a stable order
  for (const fmt::LaunchFacts &l : packed.sidecar.launches) {
    const fmt::DeviceFacts &d = l.device;
    std::string key = d.vendor + "\n" + d.name + "\n" + d.version + "\n" + d.driverVersion;
    if (d.name.empty() || devices.count(key))
      continue;
    devices[key] = Json{{"name", d.name},
                        {"vendor", d.vendor},
                        {"version", d.version},
                        {"driver_version", d.driverVersion},
                        {"address_bits", d.addressBits},
                        {"endianness", d.endianness == fmt::Endianness::Little ? "little" : "big"}};
  }
  Json list = Json::array();
  for (auto &[key, d] : devices)
    list.push_back(d);
  captured["devices"] = list;
  Json packedOn;
  packedOn["os"] = osName();
  struct utsname u {};
  if (::uname(&u) == 0)
    packedOn["kernel"] = std::string(u.sysname) + " " + u.release + " " + u.machine;
  packedOn["clcapture_version"] = CLCAPTURE_VERSION;
  Json j;
  j["format"] = "clcapture-environment";
  j["captured"] = captured;
  j["packed_on"] = packedOn;
  j["instantiations"] = packed.instantiations.size();
  return j.dump(2) + "\n";
}

std::string maintainerReadme(const PackedCapture &packed, const std::string &archiveName, bool withReport,
                             const std::vector<std::string> &recordings) {
  std::map<std::string, std::size_t> kernels;
  for (const fmt::Instantiation &inst : packed.instantiations)
    ++kernels[inst.entryPoint + " (" + inst.kernelFile + ")"];
  const auto &process = packed.sidecar.header.process;
  std::string s = "# clcapture bug report\n\n";
  s += "Kernel launches captured from `" +
       (process.commandLine.empty() ? process.executable : [&] {
         std::string c;
         for (const auto &a : process.commandLine)
           c += (c.empty() ? "" : " ") + a;
         return c;
       }()) +
       "` by clcapture " + packed.sidecar.header.clcaptureVersion + ": " +
       std::to_string(packed.instantiations.size()) + " launch(es), each a GPUVerify kernel instantiation in " +
       "`captures.json` (launch facts in `captures.meta.json`, sources in `kernels/`, buffer bytes in `data/`; " +
       "where it ran: `environment.json`).\n\n";
  s += "| kernel | launches |\n|---|---|\n";
  for (const auto &[k, n] : kernels)
    s += "| " + k + " | " + std::to_string(n) + " |\n";
  if (packed.dataLeftOut)
    s += "\n" + std::to_string(packed.dataLeftOut) +
         " buffer(s) were packed without their bytes; their contents are open to the verifier.\n";
  s += "\n## Reproduce\n\n```\nclcapture-verify " + archiveName +
       "            # data races and barrier divergence, with witnesses\nclcapture-replay " + archiveName +
       " --compare  # run the launches again on any OpenCL device, outputs compared\n```\n";
  if (withReport)
    s += "\nThe packer's own verification is in `report/` (text, JSON, SARIF).\n";
  if (!recordings.empty()) {
    s += "\n## Recordings\n\nWhat the reporter's device did, statement by statement "
         "(`docs/device-debugging.md`): "
         "step through it without that device, or compare it with the interpreter.\n\n```\n";
    for (const std::string &r : recordings)
      s += "clcapture-debug " + archiveName + " --recording " + r + "\n";
    s += "```\n";
  }
  return s;
}

} // namespace clcapture::pack
