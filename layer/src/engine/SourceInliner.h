//===- SourceInliner.h - #include resolved into the captured source -*- C++ -*-===//
//
// docs/contract.md §3 / docs/drivers-and-loaders.md: the capture folder alone must compile the kernel again.
// A program's source may #include headers the application passed to clCompileProgram (input_headers, named by
// header_include_names) or files found through its -I options. The layer has no preprocessor, so it
// inlines them textually: each resolvable #include line is replaced by the file's text between comments
// naming it, recursively (no #line markers: findings cite lines of the stored file, which users open);
// conditional compilation stays intact because the text stays where the #include was. An #include that cannot
// be resolved is left as it is (it may sit in a branch that is never compiled).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <string>
#include <vector>

namespace clcapture::layer {

struct IncludeSources {
  /// clCompileProgram's input headers: include name → source.
  std::map<std::string, std::string> headers;
  /// Folders from the program's -I options (relative ones against the process's working folder).
  std::vector<std::string> searchDirs;
};

struct InlineResult {
  std::string source;
  std::vector<std::string> unresolved; ///< include names left as they were
  std::size_t inlined = 0;             ///< how many #include lines were replaced
};

/// `source` with every resolvable #include replaced by the included text. Names are looked up in
/// `sources.headers` first, then in the including file's folder (for files), then in `searchDirs`.
/// A header with `#pragma once`, or one already being inlined (a cycle), is inlined once.
InlineResult inlineIncludes(const std::string &source, const IncludeSources &sources);

/// The -I folders of an OpenCL build-options string ("-I dir", "-Idir", quoted paths).
std::vector<std::string> includeDirsOf(const std::string &options);

} // namespace clcapture::layer
