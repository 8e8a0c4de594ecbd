#pragma once
// The table between two settled moments, as the referee reads it: the tracker's frames in, one
// TableSettle out each time the table settles again (spec §9: "no disk moving and no hand over the
// play area, and has for 0.5 s": the tracker's `settled`). A settle carries the table as it now
// lies and, for every disk that moved in the stretch before, when it started and the landings
// the tracker saw.
//
// A drop of damage counters is read sooner (referee/counter_reading.h): once a counter has moved
// and the play area has then been still for a moment (`counter_still_s`: the tracker's `still_s`,
// nothing changing in the picture, no disk moving or tilted) with nothing large and unexplained
// over it (a hand held still), a settle of kind `counters` is given, before the table's own settle.
// It can never come while a counter tumbles (that changes the picture); it reads the counters only.

#include <optional>
#include <string>
#include <vector>

#include "engine/model/track_frame.h"

namespace diskref::referee {

struct DiskMotion {
  std::string name;
  double first_motion_t = 0;             // when it first moved (or went unseen while moving)
  std::vector<model::Landing> landings;  // in time order
};

// A time without frames (referee/camera_gaps.h): from the last frame before it to the first after.
struct GapSpan {
  double from = 0;
  double to = 0;
};

// Where the camera first found a disk lying after a gap (camera_gaps.h), and when.
struct FoundDisk {
  model::DiskTrack track;
  double t = 0;
};

// The first table settle after one or more camera gaps: from the first gap's start to the last
// one's end, and where the camera found the disks after the last (a disk not found before the
// settle is taken where the settle has it).
struct AfterGap {
  GapSpan span;
  std::vector<FoundDisk> found;
};

struct TableSettle {
  // `table`: the table settled (spec §9). `counters`: counters came to rest and the play area is
  // still, the table not yet settled; only a drop is read from it.
  enum class Kind { table, counters };
  Kind kind = Kind::table;
  double t = 0;  // the moment the table settled (its first settled frame)
  long long frame = 0;
  double unsettled_since = 0;  // when the stretch before began (== t for the first settle)
  // The last settled frame before that stretch (the referee applied inputs up to it): so that a
  // replay from the settles alone applies every input where the live referee did.
  double still_until = 0;
  model::TrackFrame snapshot;  // the settled frame: every disk as it lies
  std::vector<DiskMotion> moved;
  bool first = false;  // the video's first settle: the table as the game starts
  // The first table settle after a camera gap: set by the referee (camera_gaps.h), which reads the
  // table again from it (spec §9, "Camera gaps").
  std::optional<AfterGap> after_gap;
};

struct SettleWatchOptions {
  // Counters are read once the play area has been still this long (s) after one moved; 0: never
  // before the table's settle.
  double counter_still_s = 0;
  // ...and while nothing unexplained larger than this (mm, either side) lies over the play area.
  double max_foreign_mm = 0;
};

class SettleWatch {
 public:
  explicit SettleWatch(SettleWatchOptions options = {}) : options_(options) {}

  // Feeds one frame (in time order). Returns a settle when this frame is the first settled one
  // after a stretch that was not (or the first settled frame of all).
  std::optional<TableSettle> feed(const model::TrackFrame& frame);

  // The camera went away and is back (camera_gaps.h): the table is vouched for across the gap by
  // no frame, so the next settled frame is a settle of its own, and the table is read again there.
  void interrupt();

  bool settled() const { return settled_; }
  // When the current settled stretch began (meaningful while settled()).
  double settled_since() const { return settled_since_; }
  // Disks moving now or since the last settle, for "the video ended mid-move".
  const std::vector<DiskMotion>& moving() const { return motions_; }
  double last_t() const { return last_t_; }
  // While not settled after a settle: the last settled frame before this stretch.
  double still_until() const { return still_until_; }

 private:
  DiskMotion& motion_of(const std::string& name, double t);

  struct CounterPlace {
    double x = 0, y = 0, heading = 0;
    model::Face face = model::Face::up;
  };
  // Whether the counters lie as they did at the last settle (of either kind).
  bool counters_changed(const model::TrackFrame& frame) const;
  void remember_counters(const model::TrackFrame& frame);

  SettleWatchOptions options_;
  std::vector<std::pair<std::string, CounterPlace>> counters_at_settle_;
  bool settled_ = false;
  bool seen_settle_ = false;
  double settled_since_ = 0;
  double unsettled_since_ = 0;
  double still_until_ = 0;
  double last_t_ = 0;
  std::vector<DiskMotion> motions_;
};

}  // namespace diskref::referee
