#pragma once
// What the table reads at each settle: the disks that moved since the settle before (turned
// over, came, went, or lie elsewhere), as the referee is given them to rule on. For comparing two
// readings of one session (a render's truth and the tracker's output; the same session filmed by
// two cameras) without the referee's game: the same disks and faces in the same order, the same
// places within a tolerance.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/track_frame.h"

namespace diskref::vision {

struct SettleReading {
  std::string disk;
  std::optional<model::Face> face;  // empty: gone from the table
  double x = 0, y = 0;              // mm, when on the table
};

struct PlacedDisk {
  model::Face face = model::Face::up;
  double x = 0, y = 0;
};

using TableReading = std::map<std::string, PlacedDisk>;

// A disk counts as moved when it turned over, came, went, or lies this far from where it lay (mm).
inline constexpr double kReadingMovedMm = 5.0;

struct SettleReadings {
  std::vector<SettleReading> moves;  // at every settle after the first (the table as found)
  std::optional<TableReading> last;  // the table at the last settle
  int settles = 0;
};

// Over frames in time order: each frame that is settled after one that was not is a settle.
SettleReadings settle_readings(const std::vector<model::TrackFrame>& frames);

// Whether `a` and `b` read the same disks and faces in the same order; `max_mm` receives the
// largest distance between their places (0 when they differ).
bool same_moves(const std::vector<SettleReading>& a, const std::vector<SettleReading>& b, double& max_mm);

// The largest distance between the disks' places in two tables (infinity when they hold other
// disks or faces).
double table_difference_mm(const TableReading& a, const TableReading& b);

// "enterprise down, torpedo-2 up" ("none" for no moves).
std::string describe(const std::vector<SettleReading>& moves);

}  // namespace diskref::vision
