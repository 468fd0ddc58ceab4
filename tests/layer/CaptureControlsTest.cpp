// CLCAPTURE_* settings: what each accepts, and the exact message for what it does not.
#include "process/CaptureControls.h"

#include "engine/FreeSpaceGuard.h"

#include <catch2/catch.hpp>

using clcapture::layer::parseControls;

TEST_CASE("controls: defaults capture everything", "[layer][controls]") {
  auto c = parseControls(nullptr, nullptr, nullptr, nullptr);
  CHECK(c.error.empty());
  CHECK(c.wantsLaunch(0, "k"));
  CHECK(c.wantsLaunch(1u << 30, "anything"));
  CHECK(c.captureData);
}

TEST_CASE("controls: kernel regex and launch ranges", "[layer][controls]") {
  auto c = parseControls("^(reduce|scan)$", "2-4", nullptr, nullptr);
  REQUIRE(c.error.empty());
  CHECK_FALSE(c.wantsLaunch(1, "reduce"));
  CHECK(c.wantsLaunch(2, "reduce"));
  CHECK(c.wantsLaunch(4, "scan"));
  CHECK_FALSE(c.wantsLaunch(5, "scan"));
  CHECK_FALSE(c.wantsLaunch(3, "reduce2"));
  auto open = parseControls(nullptr, "10-", nullptr, nullptr);
  CHECK(open.wantsLaunch(1000000, "k"));
  CHECK_FALSE(open.wantsLaunch(9, "k"));
  auto one = parseControls(nullptr, "7", nullptr, nullptr);
  CHECK(one.wantsLaunch(7, "k"));
  CHECK_FALSE(one.wantsLaunch(8, "k"));
}

TEST_CASE("controls: data modes and byte counts", "[layer][controls]") {
  CHECK_FALSE(parseControls(nullptr, nullptr, "none", nullptr).captureData);
  CHECK(parseControls(nullptr, nullptr, "1M", nullptr).perBufferCap == 1048576u);
  CHECK(parseControls(nullptr, nullptr, "4096", nullptr).perBufferCap == 4096u);
  CHECK(parseControls(nullptr, nullptr, nullptr, "2G").totalBudget == (2ull << 30));
}

TEST_CASE("controls: call sites on by default, off on request", "[layer][controls]") {
  CHECK(parseControls(nullptr, nullptr, nullptr, nullptr).callSites);
  CHECK(parseControls(nullptr, nullptr, nullptr, nullptr, "on").callSites);
  CHECK_FALSE(parseControls(nullptr, nullptr, nullptr, nullptr, "off").callSites);
  CHECK(parseControls(nullptr, nullptr, nullptr, nullptr, "yes").error ==
        "CLCAPTURE_CALL_SITES=yes: expected on or off");
}

TEST_CASE("controls: small blobs packed by default, loose files on request", "[layer][controls]") {
  auto pack = [](const char *value) {
    return parseControls(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                         value);
  };
  CHECK(pack(nullptr).pack);
  CHECK(pack("on").pack);
  CHECK_FALSE(pack("off").pack);
  CHECK(pack("off").error.empty());
  CHECK(pack("loose").error == "CLCAPTURE_PACK=loose: expected on or off");
}

TEST_CASE("controls: the program store's folder", "[layer][controls]") {
  using clcapture::layer::defaultStoreFolder;
  CHECK(parseControls(nullptr, nullptr, nullptr, nullptr).storeFolder == std::string()); // the default
  CHECK(parseControls(nullptr, nullptr, nullptr, nullptr, nullptr, "on").storeFolder == std::string());
  CHECK(parseControls(nullptr, nullptr, nullptr, nullptr, nullptr, "/tmp/s").storeFolder ==
        std::string("/tmp/s"));
  CHECK_FALSE(parseControls(nullptr, nullptr, nullptr, nullptr, nullptr, "off").storeFolder);
  CHECK(defaultStoreFolder("/x/cache", "/home/u") == std::string("/x/cache/clcapture/programs"));
  // XDG base-directory spec: a relative XDG_CACHE_HOME is invalid and ignored.
  CHECK(defaultStoreFolder("cache", "/home/u") == std::string("/home/u/.cache/clcapture/programs"));
  CHECK(defaultStoreFolder(nullptr, "/home/u") == std::string("/home/u/.cache/clcapture/programs"));
  CHECK_FALSE(defaultStoreFolder(nullptr, nullptr));
  CHECK_FALSE(defaultStoreFolder("", ""));
}

TEST_CASE("controls: malformed settings are named", "[layer][controls]") {
  CHECK(parseControls("(", nullptr, nullptr, nullptr)
            .error.rfind("CLCAPTURE_KERNELS=(: not a regular expression", 0) == 0);
  CHECK(parseControls(nullptr, "5-2", nullptr, nullptr).error ==
        "CLCAPTURE_LAUNCHES=5-2: expected A-B, A- or N (launch numbers from 0, A <= B)");
  CHECK(parseControls(nullptr, "x", nullptr, nullptr).error ==
        "CLCAPTURE_LAUNCHES=x: expected A-B, A- or N (launch numbers from 0, A <= B)");
  CHECK(parseControls(nullptr, nullptr, "some", nullptr).error ==
        "CLCAPTURE_DATA=some: expected all, none or a byte count (e.g. 1048576 or 1M)");
  CHECK(parseControls(nullptr, nullptr, nullptr, "-1").error ==
        "CLCAPTURE_MAX_BYTES=-1: expected a byte count (e.g. 1073741824 or 1G) or unlimited");
}

TEST_CASE("controls: safe defaults for data: a 4 GiB budget and the default free-space floor",
          "[layer][controls]") {
  auto c = parseControls(nullptr, nullptr, nullptr, nullptr);
  CHECK(c.totalBudget == (4ull << 30));
  CHECK_FALSE(c.minFree.has_value());
  CHECK(parseControls(nullptr, nullptr, nullptr, "unlimited").totalBudget == UINT64_MAX);
  CHECK(parseControls(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, "10G").minFree == (10ull << 30));
  CHECK(parseControls(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, "off").minFree == 0u);
  auto bad = parseControls(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, "lots");
  CHECK(bad.error.find("CLCAPTURE_MIN_FREE=lots") != std::string::npos);
}

TEST_CASE("free space: the default floor is 10 % or 2 GiB, whichever is larger", "[layer][controls]") {
  using clcapture::layer::FreeSpaceGuard;
  CHECK(FreeSpaceGuard::defaultFloor(10ull << 30) == (2ull << 30));     // 10 GiB disk: 2 GiB
  CHECK(FreeSpaceGuard::defaultFloor(1000ull << 30) == (100ull << 30)); // 1000 GiB disk: 100 GiB
}

TEST_CASE("free space: takes stop at the floor of the folder's real file system", "[layer][controls]") {
  using clcapture::layer::FreeSpaceGuard;
  FreeSpaceGuard unlimited;
  unlimited.configure(".", 0); // off
  CHECK(unlimited.take(UINT64_MAX / 2));
  FreeSpaceGuard huge;
  huge.configure(".", UINT64_MAX / 2); // a floor larger than any disk: nothing fits
  CHECK_FALSE(huge.take(1));
  CHECK(huge.floor() == UINT64_MAX / 2);
  FreeSpaceGuard none;
  none.configure(".", 1); // a 1-byte floor: a small take fits, one larger than the disk does not
  CHECK(none.take(4096));
  CHECK_FALSE(none.take(UINT64_MAX / 2));
  FreeSpaceGuard missing;
  missing.configure("/nonexistent/folder/for/clcapture", std::nullopt);
  CHECK_FALSE(missing.take(1)); // no answer from statvfs: no bytes
}

TEST_CASE("controls: data after each launch, off by default", "[layer][controls]") {
  CHECK_FALSE(parseControls(nullptr, nullptr, nullptr, nullptr).dataAfter);
  CHECK(parseControls(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, "on").dataAfter);
  CHECK_FALSE(parseControls(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, "off").dataAfter);
  CHECK(parseControls(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, "yes").error ==
        "CLCAPTURE_DATA_AFTER=yes: expected on or off");
}

TEST_CASE("controls: CLCAPTURE_DATA_PER_SHAPE: 64 by default, a count or all", "[layer][controls]") {
  auto perShape = [](const char *v) {
    return parseControls(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, v);
  };
  CHECK(perShape(nullptr).dataPerShape == 64);
  CHECK(perShape("1000").dataPerShape == 1000);
  CHECK(perShape("0").dataPerShape == 0);
  CHECK(perShape("all").dataPerShape == UINT64_MAX);
  for (const char *bad : {"-1", "many", "1M", "6.5"})
    CHECK(perShape(bad).error == std::string("CLCAPTURE_DATA_PER_SHAPE=") + bad +
                                     ": expected a number of launches (e.g. 64) or all");
}
