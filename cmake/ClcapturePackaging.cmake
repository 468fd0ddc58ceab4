# Packages (CPack): `cpack --config build/CPackConfig.cmake` in the build folder, or `bash tools/package.sh`.
#  - DEB: everything (launcher, capture library, clcapture-verify), its dependencies from dpkg-shlibdeps;
#  - TGZ: clcapture-<version>-linux-x86_64.tar.gz, the capture component only (launcher + libclcapture.so +
#    docs), which needs nothing beyond glibc and works unpacked anywhere (README.md, "Using a release tarball on a GPU machine").
# Components: `capture` (bin/clcapture, lib/libclcapture.so, share/doc/clcapture) and `verify`
# (bin/clcapture-verify, which needs LLVM 16, Clang 16 and CVC5 at run time).
set(CPACK_PACKAGE_NAME clcapture)
set(CPACK_PACKAGE_VENDOR "clcapture")
set(CPACK_PACKAGE_CONTACT "clcapture developers <clcapture@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Capture OpenCL kernel launches and verify them free of data races")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_FILE_NAME "clcapture-${PROJECT_VERSION}-linux-x86_64")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "clcapture-${PROJECT_VERSION}")
set(CPACK_GENERATOR "TGZ;DEB")
set(CPACK_SOURCE_GENERATOR "")
# Byte-stable archives: no build-machine owners.
set(CPACK_SET_DESTDIR OFF)
# Release binaries without debug info (the build tree keeps it).
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The capture needs a loader and some driver at run time, which the system chooses.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ocl-icd-libopencl1 | opencl-icd-loader, pocl-opencl-icd | opencl-icd")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libdw1, oclgrind")
set(CPACK_DEBIAN_FILE_NAME "clcapture_${PROJECT_VERSION}_amd64.deb")

# The tarball holds the capture component alone; the .deb holds every component in one package.
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_CURRENT_LIST_DIR}/ClcapturePackagingPerGenerator.cmake")
set(CPACK_COMPONENTS_ALL capture verify)
include(CPack)
cpack_add_component(capture DISPLAY_NAME "capture (launcher and libclcapture.so)" REQUIRED)
cpack_add_component(verify DISPLAY_NAME "clcapture-verify")
