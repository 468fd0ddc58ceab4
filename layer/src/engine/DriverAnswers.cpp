//===- DriverAnswers.cpp - What the driver said about devices and queues, asked once -===//

#include "engine/DriverAnswers.h"

#include "engine/DriverQueries.h"

namespace clcapture::layer {

const format::DeviceFacts &DriverAnswers::device(const cl_icd_dispatch &d, cl_device_id device) {
  auto it = m_devices.find(device);
  if (it == m_devices.end())
    it = m_devices.emplace(device, askDeviceFacts(d, device)).first;
  return it->second;
}

cl_device_id DriverAnswers::queueDevice(const cl_icd_dispatch &d, cl_command_queue queue) {
  auto known = m_queueDevices.find(queue);
  if (known != m_queueDevices.end())
    return known->second;
  cl_device_id device = nullptr;
  if (d.clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) != CL_SUCCESS)
    return nullptr;
  m_queueDevices.emplace(queue, device);
  return device;
}

bool DriverAnswers::queueOutOfOrder(const cl_icd_dispatch &d, cl_command_queue queue) {
  auto known = m_queueOutOfOrder.find(queue);
  if (known != m_queueOutOfOrder.end())
    return known->second;
  bool result = true; // when in doubt, wait explicitly
  cl_command_queue_properties props = 0;
  if (d.clGetCommandQueueInfo &&
      d.clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr) == CL_SUCCESS)
    result = (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
  m_queueOutOfOrder.emplace(queue, result);
  return result;
}

void DriverAnswers::queueReleased(cl_command_queue queue) {
  m_queueDevices.erase(queue);
  m_queueOutOfOrder.erase(queue);
}

} // namespace clcapture::layer
