//===- ExportMain.cpp - clcapture-export: a capture in other tools' formats -===//
//
// `clcapture export --sim|--pyschedcl CAPTURE [--only I,J…] -o DIR` (docs/contract.md §1): one file per
// selected instantiation, DIR/<index>-<entry>.sim or .json, with the kernel source (and, for specs, the data
// files) beside it under content-addressed names. An instantiation the format cannot express is reported with
// the reason and skipped. Exit codes: 0 every selected instantiation written; 1 command-line error or an
// output that cannot be written; 4 some were skipped (each reported); 10 the capture is invalid.
//
//===----------------------------------------------------------------------===//

#include "clcapture/archive/CaptureInput.h"
#include "clcapture/cli/CommandLine.h"
#include "clcapture/export/ExitCodes.h"
#include "clcapture/export/PySchedClSpec.h"
#include "clcapture/export/SimExport.h"
#include "clcapture/format/BlobStore.h"
#include "clcapture/format/JsonEmitter.h"

#include <CLI/CLI.hpp>
#include <iostream>

namespace fs = std::filesystem;
namespace fmt = clcapture::format;
using namespace clcapture::exporter;

namespace {

constexpr const char *kTool = "clcapture export";

std::string contentName(const std::string &entry, const std::string &source, const std::string &kernelFile) {
  bool pre = kernelFile.size() >= 7 && kernelFile.compare(kernelFile.size() - 7, 7, ".pre.cl") == 0;
  return fs::path(fmt::kernelFileName(entry, source, pre ? ".pre.cl" : ".cl")).filename().string();
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{
      "Writes a capture's instantiations in other tools' formats: Oclgrind simulator files (--sim, run\n"
      "with oclgrind-kernel) or PySchedCL kernel specifications (--pyschedcl; clcapture import turns\n"
      "them back into a capture). Exit 0: all written; 1: command-line error; 4: some instantiations\n"
      "cannot be expressed (each reported, the rest written); 10: invalid capture",
      "clcapture export"};
  bool sim = false, pyschedcl = false;
  std::string capture, output;
  std::vector<std::string> only;
  auto *simFlag =
      app.add_flag("--sim", sim, "Oclgrind .sim files: DIR/<index>-<entry>.sim + the kernel source");
  app.add_flag("--pyschedcl", pyschedcl,
               "PySchedCL specs: DIR/<index>-<entry>.json + the kernel source and data files")
      ->excludes(simFlag);
  app.add_option("CAPTURE", capture, "a capture folder or its captures.json")->required()->type_name("");
  app.add_option("--only", only,
                 "export only these instantiations (indices in captures.json, from 0; pid=N: every launch of "
                 "process N)")
      ->delimiter(',')
      ->type_name("I[,J...]");
  app.add_option("-o,--output", output, "the folder to write (created when missing)")
      ->required()
      ->type_name("DIR");
  app.set_version_flag("--version", std::string("clcapture-export ") + CLCAPTURE_VERSION);
  if (auto exit = clcapture::cli::parseOrExit(app, argc, argv, kTool, std::cout, std::cerr))
    return *exit;
  if (!sim && !pyschedcl)
    return clcapture::cli::commandLineError(kTool, "give --sim or --pyschedcl", std::cerr);
  std::vector<std::uint64_t> pids;
  auto indices = clcapture::cli::parseIndices(only, kTool, "--only", std::cerr, &pids);
  if (!indices)
    return kExitCommandLine;

  fmt::ReadOptions readOptions;
  readOptions.checkFiles = true;
  auto input =
      clcapture::archive::openToolInput(capture, readOptions, kTool, "nothing was exported", std::cerr);
  if (!input)
    return kExitCaptureInvalid;
  const fmt::Capture &c = input->capture;
  auto positions = clcapture::archive::selectInstantiations(c, *indices, capture, pids);
  if (!positions) {
    std::cerr << kTool << ": error: " << positions.error() << "\n";
    return kExitCommandLine;
  }
  fs::path outDir(output);
  std::error_code ec;
  fs::create_directories(outDir, ec);
  if (ec) {
    std::cerr << "clcapture export: error: cannot create " << output << ": " << ec.message() << "\n";
    return kExitCommandLine;
  }

  std::size_t written = 0, skipped = 0;
  for (std::size_t position : *positions) {
    const fmt::Instantiation &inst = c.captures.instantiations[position];
    std::size_t index = c.captures.indices[position];
    std::string what = "instantiation " + std::to_string(index) + " (" + inst.entryPoint + ")";
    auto skip = [&](const std::string &why) {
      std::cerr << "clcapture export: " << what << ": skipped: " << why << "\n";
      ++skipped;
    };
    auto view = viewLaunch(input->folder, inst, c.factsFor(position));
    if (!view) {
      skip(view.error());
      continue;
    }
    std::string base = std::to_string(index) + "-" + inst.entryPoint;
    std::vector<std::string> notes;
    fs::path file;
    if (sim) {
      std::string kernelName = contentName(inst.entryPoint, view->source, inst.kernelFile);
      auto simFile = simulationFile(*view, input->folder, index, kernelName);
      if (!simFile) {
        skip(simFile.error());
        continue;
      }
      auto kernel = fmt::writeBlobOnce(outDir, kernelName, view->source.data(), view->source.size());
      file = outDir / (base + ".sim");
      auto status = kernel ? fmt::writeFileAtomically(file, simFile->text.data(), simFile->text.size())
                           : fmt::Status(fmt::fail(kernel.error()));
      if (!status) {
        std::cerr << "clcapture export: error: " << status.error() << "\n";
        return kExitCommandLine;
      }
      notes = simFile->notes;
    } else {
      auto spec = exportSpec(*view, c, position, input->folder, outDir);
      if (!spec) {
        skip(spec.error());
        continue;
      }
      std::string text = fmt::emitJson(spec->spec) + "\n";
      file = outDir / (base + ".json");
      auto status = fmt::writeFileAtomically(file, text.data(), text.size());
      if (!status) {
        std::cerr << "clcapture export: error: " << status.error() << "\n";
        return kExitCommandLine;
      }
      notes = spec->notes;
    }
    ++written;
    std::cout << "wrote " << file.string() << "\n";
    for (const std::string &n : notes)
      std::cerr << "clcapture export: " << what << ": note: " << n << "\n";
  }
  std::cout << "exported " << written << " of " << positions->size() << " instantiation"
            << (positions->size() == 1 ? "" : "s") << " to " << outDir.string()
            << (skipped ? " (" + std::to_string(skipped) + " skipped, reasons above)" : std::string())
            << "\n";
  return skipped ? kExitSkipped : kExitOk;
}
