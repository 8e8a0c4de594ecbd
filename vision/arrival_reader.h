#pragma once
// A network camera read on its own thread, so that each frame is timed when it arrives, not when
// the referee gets round to it.
//
// An MJPEG stream over HTTP carries no frame times: a frame's time is the moment it was received.
// Read from the consumer's thread, a frame that waited in the socket while the tracker worked on
// the one before would be timed late, and a referee that falls behind would see the game slow
// down. Here a thread takes each frame as the camera sends it, times it then, and keeps at most
// `depth` frames waiting; when the consumer falls further behind, the oldest waiting frame is
// dropped and counted on the frame after it (StreamFrame::dropped_before), so that the frames the
// consumer gets keep their true times and the ones it never saw are counted as lost.
//
// A failed read is handed on in its turn, and the thread then waits until the consumer has taken
// it before reading again: the consumer's retries and reopening (live_camera.h) decide whether
// this connection is read any further, as without the thread. An exception the stream throws is
// handed on too: read() rethrows it once the frames before it are taken, and the thread ends.
//
// The wrapped stream is read only by the thread; lock_picture() is passed to it from the
// consumer's thread while a read may be under way, so only streams whose lock_picture() touches
// nothing a read uses are wrapped (a network camera's says it has no controls). Destroying the
// reader waits for the read under way, at most the stream's read timeout.

#include <cstddef>
#include <memory>

#include "vision/live_stream.h"

namespace diskref::vision {

// Frames kept waiting by default: a quarter of a second at 30 fps, enough to ride out a frame the
// tracker takes long over (a search of the whole table) without dropping any, and 200 MB at 4K.
inline constexpr std::size_t kArrivalReaderDepth = 8;

// `depth` 0 is taken as 1.
std::unique_ptr<LiveStream> read_on_arrival(std::unique_ptr<LiveStream> stream,
                                            std::size_t depth = kArrivalReaderDepth);

}  // namespace diskref::vision
