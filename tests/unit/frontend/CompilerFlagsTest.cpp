// compiler_flags as the application gave them to clBuildProgram: split like a shell, sorted for Clang.
#include "clcapture/frontend/CompilerFlags.h"

#include <catch2/catch.hpp>

using clcapture::frontend::parseCompilerFlags;
using clcapture::frontend::splitShellWords;
using Words = std::vector<std::string>;

TEST_CASE("compiler_flags split like a shell, quotes honoured", "[frontend][flags]") {
  CHECK(*splitShellWords("") == Words{});
  CHECK(*splitShellWords("  -DA=1\t -I inc  ") == Words{"-DA=1", "-I", "inc"});
  CHECK(*splitShellWords("-D'MSG=hello world'") == Words{"-DMSG=hello world"});
  CHECK(*splitShellWords(R"(-D"Q=\"x\" \\ \$" -Dy)") == Words{R"(-DQ="x" \ $)", "-Dy"});
  CHECK(*splitShellWords(R"(-I my\ dir '' x)") == Words{"-I", "my dir", "", "x"});
  CHECK(*splitShellWords(R"("a\b")") == Words{R"(a\b)"}); // other backslashes stay inside double quotes
  auto unterminated = splitShellWords("-D'A=1");
  REQUIRE_FALSE(unterminated);
  CHECK(unterminated.error() == "compiler_flags: unterminated single quote");
  CHECK_FALSE(splitShellWords("-D\"A=1"));
}

TEST_CASE("flags -D, -U, -I and -cl-std reach clang, joined or separate", "[frontend][flags]") {
  auto flags =
      parseCompilerFlags("-DN=4 -D M -UX -I inc -Iinc2 -cl-std=CL2.0 -cl-mad-enable -cl-ext=+cl_khr_fp64");
  REQUIRE(flags);
  CHECK(flags->clangArgs == Words{"-D", "N=4", "-D", "M", "-U", "X", "-I", "inc", "-I", "inc2",
                                  "-cl-std=CL2.0", "-cl-mad-enable", "-cl-ext=+cl_khr_fp64"});
  CHECK(flags->notes.empty());
}

TEST_CASE("meaningless and vendor-specific flags are dropped with a note, never an error",
          "[frontend][flags]") {
  auto flags = parseCompilerFlags("-cl-kernel-arg-info -cl-nv-verbose -cl-nv-maxrregcount=32 -w -Werror -O3 "
                                  "-cl-denorms-are-zero -x spir --bogus -D");
  REQUIRE(flags);
  CHECK(flags->clangArgs.empty());
  std::vector<std::string> notes;
  for (const auto &n : flags->notes)
    notes.push_back(n.str());
  CHECK(notes ==
        Words{
            "note: ignored compiler flag '-cl-kernel-arg-info': clcapture always generates argument "
            "information",
            "note: ignored compiler flag '-cl-nv-verbose': vendor-specific",
            "note: ignored compiler flag '-cl-nv-maxrregcount=32': vendor-specific",
            "note: ignored compiler flag '-w': warning options do not affect verification",
            "note: ignored compiler flag '-Werror': warning options do not affect verification",
            "note: ignored compiler flag '-O3': the verifier compiles unoptimised with debug locations",
            "note: ignored compiler flag '-cl-denorms-are-zero': denormal handling does not affect races or "
            "barriers",
            "note: ignored compiler flag '-x spir'",
            "note: ignored unknown compiler flag '--bogus'",
            "note: ignored compiler flag '-D': missing argument",
        });
}
