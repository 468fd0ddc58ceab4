# The analyzer's dependencies: Clang/LLVM 16 as libraries (through LLVM's own CMake package, never
# `llvm-config --cxxflags`, which forces -std=c++14 -fno-exceptions) and CVC5 (cmake/FindCVC5.cmake).

find_package(LLVM 16 CONFIG QUIET HINTS /usr/lib/llvm-16/lib/cmake/llvm)
if(NOT LLVM_FOUND OR NOT LLVM_VERSION_MAJOR EQUAL 16)
  message(FATAL_ERROR "clcapture-verify needs LLVM 16 (Debian package 'llvm-16-dev'), found '${LLVM_VERSION}'; "
                      "run tools/setup.sh")
endif()
# Without the version, find_package(Clang) picks up clang-14's package on Debian 12.
find_package(Clang 16 CONFIG QUIET HINTS "${LLVM_INSTALL_PREFIX}/lib/cmake/clang")
if(NOT Clang_FOUND)
  message(FATAL_ERROR "clcapture-verify needs Clang 16 libraries (Debian package 'libclang-16-dev'); run tools/setup.sh")
endif()
find_package(CVC5 1.0.3 MODULE QUIET)
if(NOT CVC5_FOUND)
  message(FATAL_ERROR "clcapture-verify needs CVC5 >= 1.0.3 (Debian package 'libcvc5-dev'), found '${CVC5_VERSION}'; "
                      "run tools/setup.sh")
endif()
message(STATUS "clcapture: LLVM ${LLVM_PACKAGE_VERSION}, Clang (${Clang_DIR}), CVC5 ${CVC5_VERSION}")

# Where -finclude-default-header finds opencl-c.h when Clang runs in-process.
set(CLCAPTURE_CLANG_RESOURCE_DIR "${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}" CACHE PATH
    "Clang resource directory used by the analyzer's frontend")
if(NOT EXISTS "${CLCAPTURE_CLANG_RESOURCE_DIR}/include/opencl-c.h")
  message(FATAL_ERROR "no opencl-c.h under ${CLCAPTURE_CLANG_RESOURCE_DIR}/include (package 'libclang-common-16-dev')")
endif()

# LLVM's headers and definitions, as an interface target; its headers are system headers so our warning set
# does not apply to them.
add_library(clcapture_llvm INTERFACE)
target_include_directories(clcapture_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
separate_arguments(_llvm_definitions NATIVE_COMMAND "${LLVM_DEFINITIONS}")
target_compile_definitions(clcapture_llvm INTERFACE ${_llvm_definitions})
target_link_libraries(clcapture_llvm INTERFACE clang-cpp LLVM)
add_library(clcapture::llvm ALIAS clcapture_llvm)
