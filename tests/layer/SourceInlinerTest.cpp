// SourceInliner: #include lines resolved into the captured source, so the capture folder compiles alone.
#include "engine/SourceInliner.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace clcapture::layer;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    char name[] = "/tmp/clcapture-inliner-XXXXXX";
    path = ::mkdtemp(name);
  }
  ~TempDir() { fs::remove_all(path); }
  void write(const std::string &relative, const std::string &text) const {
    fs::create_directories((path / relative).parent_path());
    std::ofstream(path / relative) << text;
  }
};

} // namespace

TEST_CASE("an input header replaces its #include line, between comments naming it") {
  IncludeSources sources;
  sources.headers["scale.h"] = "#define SCALE 3\n";
  InlineResult r = inlineIncludes("#include \"scale.h\"\nint f(int x) { return x * SCALE; }\n", sources);
  CHECK(r.inlined == 1);
  CHECK(r.unresolved.empty());
  CHECK(r.source == "/* clcapture: begin #include \"scale.h\" (scale.h) */\n#define SCALE 3\n"
                    "/* clcapture: end #include \"scale.h\" */\nint f(int x) { return x * SCALE; }\n");
}

TEST_CASE("files are found through -I folders, and their own includes relative to themselves") {
  TempDir dir;
  dir.write("inc/a.h", "#include \"sub/b.h\"\n#define A 1\n");
  dir.write("inc/sub/b.h", "#define B 2\n");
  IncludeSources sources;
  sources.searchDirs = includeDirsOf("-cl-mad-enable -I " + (dir.path / "inc").string());
  InlineResult r = inlineIncludes("  #  include <a.h>\nkernel void k() {}\n", sources);
  CHECK(r.inlined == 2);
  CHECK(r.source.find("#define A 1") != std::string::npos);
  CHECK(r.source.find("#define B 2") < r.source.find("#define A 1"));
  CHECK(r.source.find("#include <a.h>") == std::string::npos);
}

TEST_CASE("a header with #pragma once, or one including itself, is inlined once") {
  IncludeSources sources;
  sources.headers["once.h"] = "#pragma once\nint once_value;\n";
  sources.headers["loop.h"] = "#include \"loop.h\"\nint loop_value;\n";
  InlineResult r = inlineIncludes("#include \"once.h\"\n#include \"once.h\"\n#include \"loop.h\"\n", sources);
  auto count = [&](const std::string &needle) {
    std::size_t n = 0;
    for (auto at = r.source.find(needle); at != std::string::npos; at = r.source.find(needle, at + 1))
      ++n;
    return n;
  };
  CHECK(count("int once_value;") == 1);
  CHECK(count("int loop_value;") == 1);
  CHECK(count("already inlined") == 2);
}

TEST_CASE("an include that cannot be found is left as it is and reported") {
  InlineResult r = inlineIncludes("#ifdef NEVER\n#include \"missing.h\"\n#endif\n", IncludeSources{});
  CHECK(r.inlined == 0);
  CHECK(r.source == "#ifdef NEVER\n#include \"missing.h\"\n#endif\n");
  CHECK(r.unresolved == std::vector<std::string>{"missing.h"});
}

TEST_CASE("include folders are read from build options as a shell would split them") {
  CHECK(includeDirsOf("-I/a -I b -DX=1 -I \"c d\" '-I/e f'") ==
        std::vector<std::string>{"/a", "b", "c d", "/e f"});
  CHECK(includeDirsOf("-cl-std=CL2.0 -Werror").empty());
}
