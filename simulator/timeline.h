#pragma once
// The scenario's events turned into motion: where every disk, hand and board is at any moment.
// A pure function of the scenario and the time, so frames can be rendered in any order and a
// render is deterministic.
//
// Motions: a flip turns the disk over about its front edge (a line across the heading at half
// its flip length ahead of the centre, half its thickness up) by 180 degrees; it lands one flip
// length ahead with the other face up, facing the same way (rules: a landing faces the direction
// of travel). A turn rotates it in place. A place or remove carries it in or out under a hand.
// A template is placed between two disks, facing from the first to the second, and removed.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "simulator/counter_drop.h"
#include "simulator/scenario.h"
#include "simulator/scene.h"

namespace diskref::simulator {

struct RestState {
  bool present = false;
  double x = 0, y = 0, heading = 0;
  model::Face face = model::Face::up;
  double z = 0;  // height of its underside: 0 on the table; a template lies across the disks it measures
  // A counter lying tilted (against a disk, on its rim): its exact body pose (an index into the
  // timeline's tilted_rests()), which x, y, heading and z only approximate; -1 when flat.
  int tilted = -1;
};

// A dropped counter: released at `released`, still from `t` on, lying as `rest` says (a scenario's
// `drop` event; counter_drop.h).
struct CounterLanding {
  std::size_t disk = 0;  // registry index
  std::size_t drop = 0;  // which drop event (0, 1, ... in time order)
  double released = 0;
  double t = 0;
  RestState pose;
  CounterRestKind kind = CounterRestKind::flat;
  std::string on;  // the disk it rests on or against
};

// Where a flip put a disk down: it lies there from `t` until `rest_until` (its next motion, or
// infinity), between two flips of a run or at the end of one.
struct FlipLanding {
  std::size_t disk = 0;  // registry index
  double t = 0;
  double rest_until = 0;
  RestState pose;
};

class Timeline {
 public:
  // Throws InputError (scenario file, event path) for events that cannot happen: moving a disk
  // that is not on the table or is still moving, placing one already there, two boards at once.
  explicit Timeline(const Scenario& scenario);

  SceneInstant at(double t) const;
  // Every landing of every flip, in time order.
  const std::vector<FlipLanding>& flip_landings() const { return flip_landings_; }
  // Every dropped counter, by drop and then in the drop's order.
  const std::vector<CounterLanding>& counter_landings() const { return counter_landings_; }
  // The exact body poses of counters lying tilted (RestState::tilted).
  const std::vector<RigidPose>& tilted_rests() const { return tilted_rests_; }
  // The boards shown, in the order SceneInstant::board indexes them.
  const std::vector<print::BoardSpec>& boards() const { return board_specs_; }

 private:
  struct Key {
    double t, x, y, z, heading;
  };
  struct DiskMotion {
    double t0 = 0, t1 = 0;
    bool flip = false;
    bool on_table = false;               // a turn: the disk stays flat on the table throughout
    RestState before;                    // pose at t0 (flip: where it turns over from)
    model::Face face = model::Face::up;  // face up while it slides or is carried
    std::vector<Key> keys;               // slides and carries
    std::vector<RigidKey> tumble;        // a dropped counter's way down
  };
  struct DiskTrack {
    RestState initial;
    std::vector<DiskMotion> motions;                  // in time order, not overlapping
    std::vector<std::pair<double, RestState>> rests;  // state from each time on (after motions)
  };
  struct HandKey {
    double t;
    geom::Vec2 palm;
    double height;
  };
  struct HandTrack {
    int id = 0;
    double finger_heading = 90;
    cv::Vec3f skin, sleeve;
    std::vector<HandKey> keys;
  };
  struct BoardTrack {
    std::size_t board = 0;
    double t0 = 0, t1 = 0;
    std::vector<std::pair<cv::Matx33d, cv::Vec3d>> poses;  // camera_from_board, incl. away poses
    double hold_s = 0, move_s = 0;
  };

  RestState rest_at(const DiskTrack& track, double t) const;
  HandTrack& new_hand(double from_deg);
  double default_arm_direction(geom::Vec2 target) const;
  geom::Vec2 off_table(geom::Vec2 target, double from_deg) const;
  // A hand carries disk `index` in to `target` (lying flat when done) or out of the view.
  void carry_in(std::size_t index, const RestState& target, double t, double duration, ArmDirection from);
  void carry_out(std::size_t index, const RestState& current, double t, double duration, ArmDirection to);
  // A hand drops counters; another takes disks away together (the scenario's drop and gather).
  void drop_counters(const DropEvent& drop, double t, std::vector<RestState>& current, std::vector<double>& busy_until,
                     const std::function<void(const std::string&)>& fail);
  void gather(const GatherEvent& gather, double t, std::vector<RestState>& current, std::vector<double>& busy_until);

  Scenario scenario_;
  std::vector<DiskTrack> disks_;  // by registry index
  std::vector<HandTrack> hands_;
  std::vector<BoardTrack> board_tracks_;
  std::vector<print::BoardSpec> board_specs_;
  std::vector<FlipLanding> flip_landings_;
  std::vector<CounterLanding> counter_landings_;
  std::vector<RigidPose> tilted_rests_;
};

}  // namespace diskref::simulator
