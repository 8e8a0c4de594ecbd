#pragma once
// How a dropped counter falls, tumbles and comes to rest (a scenario's `drop` event), for the
// timeline: where it ends as the scenario says — flat on the table, flat on top of a disk, leaning
// against a disk with one side on the table, or standing on its rim — and a tumbling way down to
// there. Pure functions of their inputs and a seed, so that a render is deterministic.
//
// Frames: a counter's body frame is every disk's (scene.h): origin at the centre of its bottom
// face, +z up through its top face.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/geometry/shape.h"
#include "engine/model/disk_registry.h"
#include "simulator/scenario.h"

namespace diskref::simulator {

struct RigidPose {
  cv::Matx33d rotation = cv::Matx33d::eye();  // table_from_body
  cv::Vec3d translation{0, 0, 0};
};

struct RigidKey {
  double t = 0;
  RigidPose pose;
};

// How a counter lies once still: `level` when it lies flat (on the table, or on top of a disk).
enum class CounterRestKind { flat, on_disk, leaning, edge };
const char* to_string(CounterRestKind kind);

struct CounterRest {
  RigidPose pose;
  CounterRestKind kind = CounterRestKind::flat;
  bool level = true;  // flat on the table or on a disk: its top face horizontal
};

// A disk a counter may rest on or against: lying flat at (x, y, heading), its bottom at z.
struct CounterSupport {
  geom::Shape shape;
  double thickness_mm = 0;
  double x = 0, y = 0, heading = 0, z = 0;
};

// Where `counter` (its registry entry) comes to rest as `drop` says. With `drop.on`, `support` is
// that disk: the counter lies flat on top of it when its centre is over it, and leans against it
// (one side on the table, the other on its top edge) when only their outlines overlap; it must
// touch it. Returns the problem instead when the counter cannot lie so.
std::optional<CounterRest> counter_rest(const DroppedCounter& drop, const model::DiskSpec& counter,
                                        const std::optional<CounterSupport>& support, std::string& problem);

// The way down: released at `t0` with its centre at `release` (table frame, mm), it falls, spins
// about a tumbling axis, hits the table near its resting place, bounces upright and slides to
// `rest`, friction stopping it (constant deceleration); still from the returned keys' last time on
// (at most `settle_s` after hitting the table, 0.45 s at most). Keys every 5 ms; the counter never
// dips below the table.
std::vector<RigidKey> tumble(const RigidPose& rest, const model::DiskSpec& counter, const cv::Vec3d& release, double t0,
                             double settle_s, std::uint64_t seed);

// The pose at `t` between the keys (rotations along the shortest arc).
RigidPose pose_between(const std::vector<RigidKey>& keys, double t);

// The rotation a fraction `s` of the way from `a` to `b`, along the shortest arc.
cv::Matx33d slerp(const cv::Matx33d& a, const cv::Matx33d& b, double s);

}  // namespace diskref::simulator
