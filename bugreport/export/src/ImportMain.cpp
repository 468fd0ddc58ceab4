//===- ImportMain.cpp - clcapture-import: PySchedCL specs as a capture ----===//
//
// `clcapture import --pyschedcl SPEC.json… -o DIR [--define NAME=N]… [--src-dir DIR]` (docs/contract.md §1):
// one capture folder (captures.json, captures.meta.json, kernels/, data/) with one instantiation per spec, in
// the order given, written through common/'s writer and read back to check it. What a spec leaves
// symbolic stays open, each case reported. Exit codes: 0 imported; 1 command-line error or an output that
// cannot be written; 10 a spec is invalid or lacks something a capture must have (the global work size).
//
//===----------------------------------------------------------------------===//

#include "clcapture/cli/CommandLine.h"
#include "clcapture/export/ExitCodes.h"
#include "clcapture/export/PySchedClSpec.h"
#include "clcapture/format/CaptureReader.h"
#include "clcapture/format/CaptureWriter.h"
#include "clcapture/format/GpuVerifyForm.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <set>

namespace fs = std::filesystem;
namespace fmt = clcapture::format;
using namespace clcapture::exporter;

int main(int argc, char **argv) {
  CLI::App app{
      "Turns PySchedCL per-kernel JSON specifications (those clcapture\n"
      "export --pyschedcl writes, or plain ones) into one capture folder that clcapture-verify reads.\n"
      "Exit 0: imported; 1: command-line error; 10: a spec is invalid or lacks what a capture needs",
      "clcapture import"};
  bool pyschedcl = false;
  std::vector<std::string> specs, defines;
  std::string output, srcDir;
  app.add_flag("--pyschedcl", pyschedcl, "the inputs are PySchedCL kernel specifications (the only format)")
      ->required();
  app.add_option("SPEC", specs, "PySchedCL spec files (JSON), one instantiation each")
      ->required()
      ->type_name("");
  app.add_option("-o,--output", output, "the capture folder to create")->required()->type_name("DIR");
  app.add_option("--define", defines, "a value for a name the specs' expressions use (e.g. dataset=1024)")
      ->type_name("NAME=N");
  app.add_option("--src-dir", srcDir, "where the specs' `src` files are (default: beside each spec)")
      ->type_name("DIR");
  app.set_version_flag("--version", std::string("clcapture-import ") + CLCAPTURE_VERSION);
  if (auto exit = clcapture::cli::parseOrExit(app, argc, argv, "clcapture import", std::cout, std::cerr))
    return *exit;
  ImportOptions options;
  for (const std::string &d : defines) {
    auto parsed = parseDefine(d);
    if (!parsed) {
      std::cerr << "clcapture import: error: --define: expected NAME=INTEGER, got '" << d << "'\n";
      return kExitCommandLine;
    }
    options.defines[parsed->first] = parsed->second;
  }
  if (!srcDir.empty())
    options.srcDir = fs::path(srcDir);

  fs::path outDir(output);
  std::error_code ec;
  if (fs::exists(outDir / "captures.json", ec)) {
    std::cerr << "clcapture import: error: " << (outDir / "captures.json").string()
              << " exists; give a new folder with -o\n";
    return kExitCommandLine;
  }
  fs::create_directories(outDir / "kernels", ec);
  if (!ec)
    fs::create_directories(outDir / "data", ec);
  if (ec) {
    std::cerr << "clcapture import: error: cannot create " << output << ": " << ec.message() << "\n";
    return kExitCommandLine;
  }

  std::vector<fmt::Instantiation> insts;
  fmt::Sidecar sidecar;
  bool headerSet = false;
  for (const std::string &spec : specs) {
    auto imported = importSpec(spec, options, outDir);
    if (!imported) {
      std::cerr << "clcapture import: error: " << imported.error() << "\n";
      return kExitSpecInvalid;
    }
    for (const std::string &n : imported->notes)
      std::cerr << "clcapture import: " << spec << ": note: " << n << "\n";
    if (imported->header && !headerSet) {
      sidecar.header = *imported->header;
      headerSet = true;
    }
    if (imported->facts) {
      fmt::LaunchFacts facts = std::move(*imported->facts);
      facts.instantiation = insts.size();
      // The exact offset, non-uniform local size and 0-byte sizes the GPUVerify form leaves out.
      fmt::keepExactFacts(imported->instantiation, facts);
      sidecar.launches.push_back(std::move(facts));
    }
    insts.push_back(std::move(imported->instantiation));
  }
  if (!headerSet) {
    sidecar.header.clcaptureVersion = CLCAPTURE_VERSION;
    sidecar.header.process.executable = "clcapture-import";
  }
  sidecar.header.formatVersion = fmt::kSidecarFormatVersion;
  // Launch numbers name launches; specs from several captures may repeat one.
  std::set<std::uint64_t> numbers;
  for (const fmt::LaunchFacts &f : sidecar.launches)
    numbers.insert(f.launch);
  if (numbers.size() != sidecar.launches.size())
    for (std::size_t i = 0; i < sidecar.launches.size(); ++i)
      sidecar.launches[i].launch = i;

  fs::path captures = outDir / "captures.json";
  auto status = fmt::writeCapturesFile(captures, insts);
  if (status && !sidecar.launches.empty())
    status = fmt::writeSidecarFile(fmt::sidecarPathFor(captures), sidecar);
  if (!status) {
    std::cerr << "clcapture import: error: " << status.error() << "\n";
    return kExitSpecInvalid;
  }
  // What clcapture-verify will read: the capture must load without errors.
  fmt::Capture check = fmt::loadCapture(captures);
  bool bad = check.hasErrors();
  for (const fmt::Diagnostic &d : check.diagnostics)
    if (d.severity == fmt::Severity::Error || bad)
      std::cerr << d.str() << "\n";
  if (bad) {
    std::cerr << "clcapture import: error: the capture written to " << outDir.string()
              << " does not read back\n";
    return kExitSpecInvalid;
  }
  std::cout << "imported " << insts.size() << " spec" << (insts.size() == 1 ? "" : "s") << " into "
            << captures.string() << "\n";
  return kExitOk;
}
