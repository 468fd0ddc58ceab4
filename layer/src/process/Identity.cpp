//===- Identity.cpp - The marker that lets clcapture recognise itself ----===//
//
// A driver candidate that exports this symbol is a copy of clcapture (perhaps under another name or path),
// never a real driver: loading it as one would recurse forever.
//
//===----------------------------------------------------------------------===//

extern "C" __attribute__((visibility("default"))) const char clcaptureIdentity[] =
    "clcapture " CLCAPTURE_VERSION;
