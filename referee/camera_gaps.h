#pragma once
// A camera that went away and came back (spec §9, "Camera gaps"): a cable tugged, a USB hub reset,
// a phone's Wi-Fi dropping. The frame source reopens the camera on its own; the referee notices the
// gap from the frames' times alone (so a recording or a track file replays it the same), and reads
// the table again before anything is ruled:
//
//   frames  -> GapWatch -> a GapSpan when a frame comes more than `gap_s` after the one before
//   frames after a gap, until the table settles -> where the camera first found each disk lying
//   the settle after the gap -> AfterGap (on the TableSettle): the referee compares where each disk
//              lay at the last settle before the gap with where the camera found it (gap_reading.cpp)
//
// Where the camera found a disk is its first sighting after the gap that is seen (not stale) and
// lying still, or seen at the very place the last settle had it: a player who starts a move once
// the camera is back is found where the move starts, never where it went (so the move is read as
// a move). Library code: no I/O; one thread at a time.

#include <optional>
#include <vector>

#include "engine/model/track_frame.h"
#include "referee/settle_watch.h"

namespace diskref::referee {

struct GapWatchOptions {
  double gap_s = 1.0;       // frames further apart than this are a gap
  double moved_mm = 1.5;    // a disk within this (and 3 sigma) of its last settled pose is where it was
  double turned_deg = 2.0;  // ...and turned less than this
};

class GapWatch {
 public:
  explicit GapWatch(GapWatchOptions options = {}) : options_(options) {}

  // Frame by frame, in time order, before the settle watch sees it. `last_settled`: the table at
  // the last settle before it (empty before the first). Returns the gap this frame ends, if any.
  std::optional<GapSpan> feed(const model::TrackFrame& frame, const model::TrackFrame& last_settled);
  // The table settled: what the camera found since the gaps (nullopt when there was none since the
  // last settle). Closes them.
  std::optional<AfterGap> settled();
  // Gaps with no table settle after them yet (the first's start to the last's end).
  std::optional<GapSpan> open() const;

 private:
  GapWatchOptions options_;
  std::optional<double> last_t_;
  std::optional<AfterGap> open_;
};

}  // namespace diskref::referee
