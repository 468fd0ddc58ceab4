# Build options shared by every target, and the warning set (errors under CLCAPTURE_WERROR, which CI turns on).
option(CLCAPTURE_BUILD_TESTS "Build the test suite" ON)
option(CLCAPTURE_BUILD_ANALYZER "Build what needs Clang/LLVM 16 and CVC5 (the analyzer and its toolchain tests)" ON)
option(CLCAPTURE_BUILD_BUGREPORT "Build the bug-report tools (bugreport/: pack, replay, export; need libarchive and the OpenCL loader)" ON)
option(CLCAPTURE_BUILD_DEBUGGER "Build clcapture-debug (debugger/: needs Oclgrind's library and LLVM 14's headers, and the bug-report tools)" ON)
option(CLCAPTURE_WERROR "Treat compiler warnings as errors (CI sets this)" OFF)
option(CLCAPTURE_FUZZ "Build the libFuzzer targets with clang (a separate sub-build when the main compiler is not clang)" ON)

# ccache, when present, makes rebuilds after a clean checkout cheap.
find_program(CLCAPTURE_CCACHE ccache)
if(CLCAPTURE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_C_COMPILER_LAUNCHER "${CLCAPTURE_CCACHE}")
  set(CMAKE_CXX_COMPILER_LAUNCHER "${CLCAPTURE_CCACHE}")
endif()

add_library(clcapture_warnings INTERFACE)
target_compile_options(clcapture_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
  -Woverloaded-virtual -Wconversion -Wsign-conversion -Wformat=2 -Wimplicit-fallthrough
  # GCC's -Wnull-dereference fires inside LLVM's inlined ilist and Value code whenever our code iterates IR: a
  # false positive from system headers that SYSTEM includes cannot silence (GCC warns after inlining). Targets
  # that work on LLVM IR set the property CLCAPTURE_LLVM_CODE to opt out of this one warning.
  $<$<NOT:$<BOOL:$<TARGET_PROPERTY:CLCAPTURE_LLVM_CODE>>>:-Wnull-dereference>)
if(CLCAPTURE_WERROR)
  target_compile_options(clcapture_warnings INTERFACE -Werror)
endif()
add_library(clcapture::warnings ALIAS clcapture_warnings)
