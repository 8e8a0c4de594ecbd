#pragma once
// A network camera (a phone on a stand serving MJPEG over HTTP, an IP camera's RTSP) as a
// LiveStream, through OpenCV's FFmpeg backend.
//
// Opening first checks that the host answers on its port (so that "nothing there" and "something
// there that sends no video" get different messages), then opens the stream with FFmpeg's open and
// read timeouts (CAP_PROP_OPEN_TIMEOUT_MSEC, CAP_PROP_READ_TIMEOUT_MSEC: a silent stream makes a
// read fail instead of blocking). Low-latency demuxer options are given through
// OPENCV_FFMPEG_CAPTURE_OPTIONS for the opening only, unless the user set that variable.
//
// Frame times: the stream's own timestamps (RTSP's), placed on the clock at the first frame and
// trusted from then on, also when frames are read late (vision/stream_clock.h); an
// MJPEG stream over HTTP carries none (FFmpeg numbers its frames at an assumed 25 fps), so its
// frames are timed when they are received (before they are decoded), and its rate is not known in
// advance (nominal_fps() 0). Received is arrived only when read as they come: open_live_camera()
// reads a network stream on a thread of its own (arrival_reader.h).

#include <memory>

#include "vision/camera_address.h"
#include "vision/live_stream.h"

namespace diskref::vision {

struct NetworkStreamOptions {
  double open_timeout_s = 10;
  double read_timeout_s = 3;
};

// Throws InputError naming the camera (its URL without a password) when it does not answer or
// sends nothing FFmpeg reads as video.
std::unique_ptr<LiveStream> open_network_stream(const CameraAddress& address, const NetworkStreamOptions& options,
                                                std::shared_ptr<LiveClock> clock);

}  // namespace diskref::vision
