# Read by ctest (the tests folder's TEST_INCLUDE_FILES) before any test runs: the environment every test
# inherits, so that a verdict or a byte count never depends on the machine that runs the suite.
#
# The layer's safe default keeps 10 % of the capture folder's file system (at least 2 GiB) free and leaves
# buffers without bytes below it (layer/src/engine/FreeSpaceGuard.h). A CI machine whose disk is 90 % full
# would then capture launches without their data, and every test that reads those bytes would fail for a
# reason that is not in the code under test. The suite's captures are small: a floor of 64 MiB still keeps
# them from filling a disk. Tests of the floor itself set CLCAPTURE_MIN_FREE explicitly; a developer's own
# setting is kept.
if(NOT DEFINED ENV{CLCAPTURE_MIN_FREE})
  set(ENV{CLCAPTURE_MIN_FREE} "64M")
endif()
