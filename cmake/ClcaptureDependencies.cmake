# Every third-party dependency, found through its own package, with a version floor and a clear error that
# names the Debian package to install (tools/setup.sh installs them all).

# clcapture_require(<Name> <MinVersion> <DebianPackage> [CONFIG|MODULE])
macro(clcapture_require name min_version debian_package mode)
  find_package(${name} ${mode} QUIET)
  if(NOT ${name}_FOUND)
    message(FATAL_ERROR "clcapture needs ${name} >= ${min_version} (Debian package '${debian_package}'); "
                        "run tools/setup.sh")
  endif()
  if(DEFINED ${name}_VERSION AND NOT "${${name}_VERSION}" STREQUAL "" AND ${name}_VERSION VERSION_LESS ${min_version})
    message(FATAL_ERROR "clcapture needs ${name} >= ${min_version}, found ${${name}_VERSION} "
                        "(Debian package '${debian_package}')")
  endif()
  message(STATUS "clcapture: ${name} ${${name}_VERSION}")
endmacro()

clcapture_require(nlohmann_json 3.10 nlohmann-json3-dev CONFIG)
clcapture_require(xxHash 0.8 libxxhash-dev MODULE)
clcapture_require(spdlog 1.10 libspdlog-dev CONFIG)
clcapture_require(CLI11 2.1 libcli11-dev CONFIG)

# elfutils' libdw (host call sites from DWARF) has no CMake config, only pkg-config.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(LIBDW QUIET IMPORTED_TARGET libdw>=0.176)
endif()
if(NOT LIBDW_FOUND)
  message(FATAL_ERROR "clcapture needs libdw >= 0.176 from elfutils (Debian package 'libdw-dev', found "
                      "through pkg-config); run tools/setup.sh")
endif()
message(STATUS "clcapture: libdw ${LIBDW_VERSION}")
if(CLCAPTURE_BUILD_TESTS)
  clcapture_require(Catch2 2.13 catch2 CONFIG)
  if(Catch2_VERSION VERSION_GREATER_EQUAL 3)
    message(FATAL_ERROR "clcapture's tests use Catch2 v2 (Debian 12 package 'catch2' 2.13), found ${Catch2_VERSION}")
  endif()
endif()
