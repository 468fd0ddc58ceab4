# FindCVC5: Debian 12's libcvc5-dev (1.0.3) ships headers and libcvc5.so but no CMake package.
# Defines CVC5_FOUND, CVC5_VERSION (asked of the library itself: the headers carry no version macro) and
# the imported target cvc5::cvc5.
find_path(CVC5_INCLUDE_DIR cvc5/cvc5.h)
find_library(CVC5_LIBRARY NAMES cvc5)

if(CVC5_INCLUDE_DIR AND CVC5_LIBRARY AND NOT CVC5_VERSION)
  set(_cvc5_probe_dir "${CMAKE_BINARY_DIR}/CMakeFiles/cvc5-version")
  file(WRITE "${_cvc5_probe_dir}/probe.cpp" [=[
#include <cvc5/cvc5.h>
#include <iostream>
int main() { cvc5::Solver solver; std::cout << solver.getVersion(); return 0; }
]=])
  try_run(_cvc5_run_result _cvc5_compile_result
    "${_cvc5_probe_dir}" "${_cvc5_probe_dir}/probe.cpp"
    CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${CVC5_INCLUDE_DIR}"
    LINK_LIBRARIES "${CVC5_LIBRARY}"
    CXX_STANDARD 17
    COMPILE_OUTPUT_VARIABLE _cvc5_compile_output
    RUN_OUTPUT_VARIABLE _cvc5_version_output)
  if(_cvc5_compile_result AND _cvc5_run_result EQUAL 0)
    string(REGEX MATCH "[0-9]+\\.[0-9]+(\\.[0-9]+)?" _cvc5_version "${_cvc5_version_output}")
    set(CVC5_VERSION "${_cvc5_version}" CACHE INTERNAL "cvc5 version reported by the library")
  else()
    message(WARNING "FindCVC5: could not run a cvc5 probe program:\n${_cvc5_compile_output}")
  endif()
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CVC5 REQUIRED_VARS CVC5_LIBRARY CVC5_INCLUDE_DIR VERSION_VAR CVC5_VERSION)
if(CVC5_FOUND AND NOT TARGET cvc5::cvc5)
  add_library(cvc5::cvc5 UNKNOWN IMPORTED)
  set_target_properties(cvc5::cvc5 PROPERTIES
    IMPORTED_LOCATION "${CVC5_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${CVC5_INCLUDE_DIR}")
endif()
mark_as_advanced(CVC5_INCLUDE_DIR CVC5_LIBRARY)
