//===- LaunchEnvironment.cpp - The variables that put libclcapture.so in front of a driver -===//

#include "LaunchEnvironment.h"

#include "dispatch/DriverSet.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace fs = std::filesystem;

namespace clcapture::launcher {

namespace {

/// A variable's value; unset and empty are the same here.
std::string envValue(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

} // namespace

fs::path findLibrary() {
  std::error_code ec;
  if (std::string forced = envValue("CLCAPTURE_LIBRARY"); !forced.empty())
    return fs::absolute(forced, ec);
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  for (const char *relative : {"../lib/libclcapture.so", "lib/libclcapture.so"}) {
    fs::path candidate = self.parent_path() / relative;
    if (fs::exists(candidate, ec))
      return fs::canonical(candidate, ec);
  }
  return {};
}

LaunchEnvironment::LaunchEnvironment(fs::path library, bool layer, const std::string &icd)
    : m_library(std::move(library)), m_layer(layer) {
  const std::string clcaptureIcd = envValue("CLCAPTURE_ICD");
  const std::string userVendors = envValue("OCL_ICD_VENDORS");
  if (m_layer) {
    // The loader finds the drivers; the library joins the user's own layers, last.
    std::string others = envValue("OPENCL_LAYERS");
    set("OPENCL_LAYERS", others.empty() ? m_library.string() : others + ":" + m_library.string());
    std::string chosen = !icd.empty() ? icd : clcaptureIcd;
    if (!chosen.empty()) {
      // ocl-icd reads OCL_ICD_VENDORS (a folder, an .icd file or a library); the Khronos loader of CUDA 13
      // ignores it and loads OCL_ICD_FILENAMES besides the system folder (docs/drivers-and-loaders.md).
      set("OCL_ICD_VENDORS", chosen);
      std::vector<std::string> problems; // the pre-flight reports them
      std::string drivers;
      for (const std::string &driver : layer::driverCandidates(chosen.c_str(), kSystemVendors, problems))
        drivers += (drivers.empty() ? "" : ":") + driver;
      if (!drivers.empty()) {
        std::string userFiles = envValue("OCL_ICD_FILENAMES");
        set("OCL_ICD_FILENAMES", userFiles.empty() ? drivers : userFiles + ":" + drivers);
      }
      m_drivers = {chosen, !icd.empty() ? "--icd" : "CLCAPTURE_ICD"};
    } else if (!userVendors.empty()) {
      m_drivers = {userVendors, "OCL_ICD_VENDORS"};
    } else {
      m_drivers = {kSystemVendors, "the system vendors folder"};
    }
    return;
  }
  char folder[] = "/tmp/clcapture-icd-XXXXXX";
  if (!::mkdtemp(folder)) {
    m_error = std::string("cannot create a temporary folder: ") + std::strerror(errno);
    return;
  }
  m_vendorsFolder = folder;
  std::ofstream(m_vendorsFolder + "/clcapture.icd") << m_library.string() << "\n";
  // The user's own driver choice becomes the real driver behind the capture (DriverSet reads CLCAPTURE_ICD).
  if (!icd.empty()) {
    set("CLCAPTURE_ICD", icd);
    m_drivers = {icd, "--icd"};
  } else if (!clcaptureIcd.empty()) {
    m_drivers = {clcaptureIcd, "CLCAPTURE_ICD"};
  } else if (!userVendors.empty()) {
    set("CLCAPTURE_ICD", userVendors);
    m_drivers = {userVendors, "OCL_ICD_VENDORS"};
  } else {
    m_drivers = {kSystemVendors, "the system vendors folder"};
  }
  set("OCL_ICD_VENDORS", m_vendorsFolder);
  set("OCL_ICD_FILENAMES", m_library.string());
}

LaunchEnvironment::~LaunchEnvironment() {
  std::error_code ec;
  if (!m_vendorsFolder.empty())
    fs::remove_all(m_vendorsFolder, ec);
}

void LaunchEnvironment::set(const std::string &name, const std::string &value) {
  for (auto &variable : m_variables)
    if (variable.first == name) {
      variable.second = value;
      return;
    }
  m_variables.emplace_back(name, value);
}

void LaunchEnvironment::apply() const {
  for (const auto &[name, value] : m_variables)
    ::setenv(name.c_str(), value.c_str(), 1);
}

} // namespace clcapture::launcher
