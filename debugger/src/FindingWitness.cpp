//===- FindingWitness.cpp - A verify finding's witness, for the debugger to replay ---===//
#include "FindingWitness.h"

#include "ChildProgram.h"
#include "clcapture/cli/ToolProgram.h"

#include <nlohmann/json.hpp>

namespace clcapture::debug {

namespace fmt = clcapture::format;

fmt::Expected<FindingWitness> parseFindingWitness(const std::string &reportJson, std::size_t number) {
  nlohmann::json report = nlohmann::json::parse(reportJson, nullptr, false);
  if (report.is_discarded() || !report.contains("results") || !report["results"].is_array() ||
      report["results"].empty())
    return fmt::fail("clcapture-verify's report could not be read");
  const nlohmann::json &result = report["results"][0];
  const nlohmann::json findings = result.value("findings", nlohmann::json::array());
  if (number == 0 || number > findings.size())
    return fmt::fail("--finding " + std::to_string(number) + ": the launch has " +
                     std::to_string(findings.size()) + (findings.size() == 1 ? " finding" : " findings") +
                     " (verdict " + result.value("verdict", std::string("?")) + ")");
  const nlohmann::json &f = findings[number - 1];
  FindingWitness w;
  w.number = number;
  w.kind = f.value("kind", std::string());
  w.message = f.value("message", std::string());
  w.memory = f.value("memory", std::string());
  w.array = f.value("array", std::string());
  if (f.contains("index") && f["index"].is_array())
    for (const auto &i : f["index"])
      if (i.is_number_unsigned())
        w.index.push_back(i.get<std::uint64_t>());
  if (f.contains("bytes") && f["bytes"].is_array() && f["bytes"].size() == 2) {
    w.firstByte = f["bytes"][0].get<std::uint64_t>();
    w.lastByte = f["bytes"][1].get<std::uint64_t>();
  }
  for (const auto &a : f.value("accesses", nlohmann::json::array())) {
    WitnessAccess access;
    std::string kind = a.value("access", std::string());
    access.write = kind.find("write") != std::string::npos;
    const auto &ids = a["work_item"]["global_id"];
    for (std::size_t d = 0; d < 3 && d < ids.size(); ++d)
      access.globalId[d] = ids[d].get<std::uint64_t>();
    access.file = a["location"].value("file", std::string());
    access.line = a["location"].value("line", 0u);
    access.source = a.value("source", std::string());
    w.accesses.push_back(access);
  }
  if (w.accesses.empty() || w.array.empty())
    return fmt::fail("--finding " + std::to_string(number) + " (" + w.kind +
                     ") names no accesses on an array to stop at");
  return w;
}

fmt::Expected<FindingWitness> findingWitness(const std::filesystem::path &capture, std::size_t launch,
                                             std::size_t number) {
  auto found = cli::findToolProgram("clcapture-verify");
  if (!found)
    return fmt::fail("--finding: clcapture-verify is neither beside clcapture-debug nor on PATH");
  std::string verify = found->string();
  auto [report, status] =
      runProgram({verify, "--format=json", "--only=" + std::to_string(launch), capture.string()});
  if (status != 0 && status != 6)
    return fmt::fail("--finding: " + verify + " failed (exit " + std::to_string(status) + ") on " +
                     capture.string());
  return parseFindingWitness(report, number);
}

} // namespace clcapture::debug
