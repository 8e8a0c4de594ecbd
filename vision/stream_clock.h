#pragma once
// A network camera's own frame times placed on the local clock (vision/network_stream.cpp): the
// stream's timestamps say when the camera took each frame; the first frame read fixes the offset
// between the two clocks, and the stream's times are trusted from then on.
//
// Trusted even when frames are read late: a referee that falls behind reads frames that waited in
// the network, and their own times are then the truth (placing them by the time they are read
// would run the game's clock slow and, once a second behind, make a jump the referee would call
// a camera gap). The offset is fixed again only when the stream's times break: they go back (the
// sender restarted) or leap further ahead than the local time that passed, by more than
// `kLeapS` (a sender that jumped its clock).

#include <optional>

namespace diskref::vision {

class StreamClock {
 public:
  static constexpr double kLeapS = 1.0;

  // The local time of a frame the stream stamped `stream_t`, read at local time `now` (seconds).
  double place(double stream_t, double now);

  // How many times the offset was fixed again after the first (the stream's times broke).
  int replaced() const { return replaced_; }

 private:
  std::optional<double> offset_;  // local time - stream time
  double last_stream_t_ = 0;
  double last_now_ = 0;
  int replaced_ = 0;
};

}  // namespace diskref::vision
