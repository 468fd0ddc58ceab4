//===- DriverAnswers.h - What the driver said about devices and queues, asked once -*- C++ -*-===//
//
// Launches are a hot path, so each question about a device or a queue goes to the driver once
// (DriverQueries.h) and its answer is kept while the handle lives: the one cache of the driver's answers
// (a kernel's parameters live with the kernel's mirror, KernelInfo::params, and go with it). Guarded by the
// engine's lock.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clcapture/format/Sidecar.h"

#include <CL/cl_icd.h>
#include <map>

namespace clcapture::layer {

class DriverAnswers {
public:
  /// Name, vendor, versions, address bits and byte order of the device.
  const format::DeviceFacts &device(const cl_icd_dispatch &d, cl_device_id device);
  /// The queue's device; null when the driver cannot say (asked again next time).
  cl_device_id queueDevice(const cl_icd_dispatch &d, cl_command_queue queue);
  /// Whether the queue runs commands out of order; true when the driver cannot say (then the capture waits
  /// explicitly).
  bool queueOutOfOrder(const cl_icd_dispatch &d, cl_command_queue queue);
  /// The queue's last reference is gone: the driver may hand its handle out again for another queue.
  void queueReleased(cl_command_queue queue);

private:
  std::map<cl_device_id, format::DeviceFacts> m_devices;
  std::map<cl_command_queue, cl_device_id> m_queueDevices;
  std::map<cl_command_queue, bool> m_queueOutOfOrder;
};

} // namespace clcapture::layer
