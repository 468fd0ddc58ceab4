//===- Replayer.h - Runs launch plans on one device -------------*- C++ -*-===//
//
// One context and in-order queue on the chosen device for the whole session; each launch builds its
// program from the captured source and compiler_flags (+ -cl-kernel-arg-info, so that the driver says
// which arguments are const), creates its memory objects from the plan (COPY_HOST_PTR from the captured
// bytes; a sub-buffer whose origin the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN does not allow is reported),
// sets the arguments, launches with the captured sizes and offset, waits, and reads back every buffer the
// kernel may write. With repeat K the buffers get their starting bytes again before each later run.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/replay/LaunchPlan.h"
#include "clcapture/replay/OpenClDriver.h"
#include "clcapture/replay/ReplayResult.h"

#include <filesystem>
#include <map>
#include <string>
#include <utility>

namespace clcapture::replay {

struct ReplaySettings {
  std::filesystem::path folder; ///< the capture folder (data_after paths are relative to it)
  bool compare = false;
  std::uint64_t ulp = 0;
  std::uint32_t repeat = 1;
};

class Replayer {
public:
  Replayer(const OpenClDriver &driver, ReplaySettings settings);
  ~Replayer();
  Replayer(const Replayer &) = delete;
  Replayer &operator=(const Replayer &) = delete;

  LaunchResult replay(const LaunchPlan &plan);

private:
  format::Status ensureQueue();
  format::Expected<cl_program> program(const LaunchPlan &plan);
  void compareOutputs(LaunchResult &result, const LaunchPlan &plan) const;

  const OpenClDriver &m_driver;
  ReplaySettings m_settings;
  cl_context m_context = nullptr;
  cl_command_queue m_queue = nullptr;
  /// Programs built so far, by kernel file and options (launches of one program share it).
  std::map<std::pair<std::string, std::string>, cl_program> m_programs;
};

/// "CL_INVALID_VALUE (-30)" for the codes a replay meets, else the number.
std::string errorName(cl_int code);

} // namespace clcapture::replay
