//===- LaunchEnvironment.h - The variables that put libclcapture.so in front of a driver -*- C++ -*-===//
//
// One recipe, shared by `clcapture -- COMMAND` (which runs the command under it) and `clcapture doctor`
// (which loads the loader under it). As a shim ICD (docs/drivers-and-loaders.md): a private folder holding
// only clcapture.icd for ocl-icd's OCL_ICD_VENDORS, and OCL_ICD_FILENAMES for the Khronos loader; the real
// driver is whatever --icd or CLCAPTURE_ICD names, else what the user's own OCL_ICD_VENDORS named, else the
// system vendors folder. As an OPENCL_LAYERS layer the loader keeps finding the drivers itself; --icd (or
// CLCAPTURE_ICD) then becomes OCL_ICD_VENDORS, and its library OCL_ICD_FILENAMES for the Khronos loader.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace clcapture::launcher {

/// Where the loader looks for drivers when nothing else is named.
inline constexpr const char *kSystemVendors = "/etc/OpenCL/vendors";

/// libclcapture.so: CLCAPTURE_LIBRARY when set (a library moved elsewhere, tests), else beside the launcher's
/// installation (PREFIX/bin/clcapture → PREFIX/lib/libclcapture.so). Empty when there is none.
std::filesystem::path findLibrary();

/// Where the real drivers come from, and who named them.
struct DriverSource {
  std::string spec; ///< a library, an .icd file or a folder of .icd files (DriverSet's CLCAPTURE_ICD forms)
  std::string namedBy; ///< "--icd", "CLCAPTURE_ICD", "OCL_ICD_VENDORS" or "the system vendors folder"
};

class LaunchEnvironment {
public:
  /// Works out the variables (nothing is set yet); the shim recipe makes its private vendors folder now.
  LaunchEnvironment(std::filesystem::path library, bool layer, const std::string &icd);
  /// Removes the private vendors folder (a forked child that execs or _exits never gets here).
  ~LaunchEnvironment();
  LaunchEnvironment(const LaunchEnvironment &) = delete;
  LaunchEnvironment &operator=(const LaunchEnvironment &) = delete;

  /// Non-empty: the recipe could not be made (the folder could not be created).
  const std::string &error() const { return m_error; }
  /// Adds (or replaces) a variable, e.g. a CLCAPTURE_* control mirrored from a flag.
  void set(const std::string &name, const std::string &value);
  /// setenv()s every variable in this process, so that children inherit them.
  void apply() const;

  const std::vector<std::pair<std::string, std::string>> &variables() const { return m_variables; }
  const std::filesystem::path &library() const { return m_library; }
  bool layer() const { return m_layer; }
  const DriverSource &drivers() const { return m_drivers; }

private:
  std::filesystem::path m_library;
  bool m_layer = false;
  std::string m_vendorsFolder; ///< the shim recipe's private folder; empty as a layer
  std::vector<std::pair<std::string, std::string>> m_variables;
  DriverSource m_drivers;
  std::string m_error;
};

} // namespace clcapture::launcher
