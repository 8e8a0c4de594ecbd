#pragma once
// A frame source that decodes ahead on its own thread: while the tracker works on one frame, the
// next ones are being decoded (video decoding is a large share of a frame's cost at 1080p).
//
// Wraps any FrameSource. Its next() is called from one thread (the consumer); the wrapped source is
// read only by the prefetching thread, which keeps at most `depth` decoded frames waiting. An
// exception thrown by the wrapped source is rethrown by next(). Destroying it stops the thread. A
// seek (when the wrapped source can) drops what was decoded ahead and starts again from there.

#include <memory>

#include "vision/frame_source.h"

namespace diskref::vision {

std::unique_ptr<FrameSource> prefetching(std::unique_ptr<FrameSource> source, std::size_t depth = 3);

}  // namespace diskref::vision
