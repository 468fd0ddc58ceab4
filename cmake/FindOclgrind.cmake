# Oclgrind's interpreter as a library (Debian 'liboclgrind-dev', 21.10): no CMake config or pkg-config file.
# Defines Oclgrind::Oclgrind, which brings what its public headers include: LLVM 14's headers (Debian
# 'llvm-14-dev') and libLLVM-14, which the debugger also calls for debug information. Never link it into a
# target that links LLVM 16 (debugger/README.md).
find_path(Oclgrind_INCLUDE_DIR NAMES oclgrind/Context.h)
find_library(Oclgrind_LIBRARY NAMES oclgrind)
find_path(Oclgrind_LLVM_INCLUDE_DIR NAMES llvm/IR/Instruction.h PATHS /usr/lib/llvm-14/include NO_DEFAULT_PATH)
find_library(Oclgrind_LLVM_LIBRARY NAMES LLVM-14 PATHS /usr/lib/llvm-14/lib NO_DEFAULT_PATH)

if(Oclgrind_INCLUDE_DIR AND EXISTS "${Oclgrind_INCLUDE_DIR}/oclgrind/Program.h")
  # 21.10 is the version whose headers this module was written against (Debian 12).
  set(Oclgrind_VERSION 21.10)
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Oclgrind
  REQUIRED_VARS Oclgrind_LIBRARY Oclgrind_INCLUDE_DIR Oclgrind_LLVM_INCLUDE_DIR Oclgrind_LLVM_LIBRARY
  VERSION_VAR Oclgrind_VERSION)

if(Oclgrind_FOUND AND NOT TARGET Oclgrind::Oclgrind)
  add_library(Oclgrind::Oclgrind UNKNOWN IMPORTED)
  # Oclgrind's headers include <CL/cl.h> and "common.h"-style siblings: both folders are system includes
  # (third-party warnings are not ours).
  set_target_properties(Oclgrind::Oclgrind PROPERTIES
    IMPORTED_LOCATION "${Oclgrind_LIBRARY}"
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${Oclgrind_INCLUDE_DIR}/oclgrind;${Oclgrind_LLVM_INCLUDE_DIR}"
    INTERFACE_INCLUDE_DIRECTORIES "${Oclgrind_INCLUDE_DIR}/oclgrind;${Oclgrind_LLVM_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${Oclgrind_LLVM_LIBRARY}")
endif()
mark_as_advanced(Oclgrind_INCLUDE_DIR Oclgrind_LIBRARY Oclgrind_LLVM_INCLUDE_DIR Oclgrind_LLVM_LIBRARY)
