//===- InterpreterRecorder.h - The instrumented launch run in Oclgrind: the reference recording -*- C++
//-*-===//
//
// `--diff` compares the device's recording with one made the same way in Oclgrind's interpreter (this
// process's liboclgrind): the same instrumented source, the same captured inputs, the trace buffer read back
// after the run. Local memory the kernel has not written reads as 0xA5 bytes here (Oclgrind itself zeroes
// it), so a read of uninitialised local memory differs from what a device leaves there, and the difference
// names that statement. With `--repeat`, the interpreter also runs each group's work-items in the reverse
// order, which shows a race as a divergence between two schedules. With `--repeat`, the interpreter also runs
// each group's work-items in the reverse order, which shows a race as a divergence between two schedules.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CapturedLaunch.h"
#include "DeviceRecorder.h"
#include "Recording.h"
#include "clcapture/format/Expected.h"

#include <cstdint>

namespace clcapture::debug {

/// The byte the interpreter fills fresh local memory with.
constexpr std::uint8_t kUninitialisedLocalByte = 0xA5;

/// The order in which a group's ready work-items run: Oclgrind's (the lowest local id first, each until it
/// waits at a barrier or ends), or the reverse. Two schedules that give different recordings show an
/// outcome that depends on the order: a race.
enum class Schedule { Oclgrind, Reversed };

format::Expected<Recording> recordInInterpreter(const CapturedLaunch &launch,
                                                const Instrumented &instrumented, std::uint64_t traceBytes,
                                                Schedule schedule = Schedule::Oclgrind);

} // namespace clcapture::debug
