//===- Unpack.h - clcapture unpack: packed blobs back to loose files -*- C++ -*-===//
//
// A capture packs small blobs (common/…/BlobPack.h); clcapture's own tools resolve them, GPUVerify's loader
// reads data/<hash>.bin files only. `clcapture unpack DIR` writes every packed blob out as its
// data/<hash>.bin file, then removes the packs: the folder is then what docs/contract.md §3 lists, file for
// file.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace clcapture::launcher {

/// `clcapture unpack DIR|DIR/captures.json`; argv[0] is "unpack". Returns the exit status: 0 done, 1 bad
/// arguments or a failure (the message names it; packs are removed only once every blob is loose).
int runUnpack(int argc, char **argv);

} // namespace clcapture::launcher
