#pragma once
// A table for the referee's tests, told what happens on it and giving the frames a perfect tracker
// would: every disk's pose, motion while it flips, a landing at every rest between flips, hands,
// and `settled` once nothing has moved and no hand has been over the table for the settle window.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "engine/geometry/shape.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/model/track_frame.h"

namespace diskref::referee::testing {

inline constexpr double kShipFlip = 57.2;
inline constexpr double kTorpedoFlip = 25.4;

// enterprise and reliant (ships), tderet (a round ship), photon-1..3 (torpedoes), vulcan (planet).
inline model::DiskRegistry game_registry() {
  std::vector<model::DiskSpec> disks;
  int tag = 10;
  auto add = [&](std::string name, model::DiskKind kind, geom::Shape shape) {
    model::DiskSpec d;
    d.name = std::move(name);
    d.kind = kind;
    d.shape = shape;
    d.tags.push_back({tag++, model::Face::up, 9.0, 0.0});
    d.tags.push_back({tag++, model::Face::down, 9.0, 0.0});
    disks.push_back(d);
  };
  add("enterprise", model::DiskKind::ship, geom::FlattedCircle{63.5, 57.2});
  add("reliant", model::DiskKind::ship, geom::FlattedCircle{63.5, 57.2});
  add("tderet", model::DiskKind::ship, geom::FlattedCircle{63.5, 57.2});
  for (const char* t : {"photon-1", "photon-2", "photon-3"}) add(t, model::DiskKind::torpedo, geom::Circle{25.4});
  add("vulcan", model::DiskKind::planet, geom::Circle{150});
  return model::DiskRegistry(std::move(disks));
}

// game_registry() and ten damage counters, 38.1 mm across: counter-1 ... counter-5 and counter-6 ...
// counter-10, each "HIT!" up and, down, one of the rules data's five critical types in turn.
inline model::DiskRegistry game_registry_with_counters() {
  std::vector<model::DiskSpec> disks = game_registry().disks();
  const char* types[] = {"bridge", "crit-2", "crit-3", "crit-4", "crit-5"};
  int tag = 100;
  for (int i = 1; i <= 10; ++i) {
    model::DiskSpec d;
    d.name = "counter-" + std::to_string(i);
    d.kind = model::DiskKind::counter;
    d.shape = geom::Circle{38.1};
    d.tags.push_back({tag++, model::Face::up, 14.5, 0.0});
    d.tags.push_back({tag++, model::Face::down, 14.5, 0.0});
    model::CounterFaces faces;
    faces.up.shows = model::CounterFace::Shows::hit;
    faces.down.shows = model::CounterFace::Shows::critical;
    faces.down.crit = types[(i - 1) % 5];
    d.faces = faces;
    disks.push_back(d);
  }
  return model::DiskRegistry(std::move(disks));
}

class FakeTable {
 public:
  explicit FakeTable(double fps = 30, double settle_s = 0.5, double sigma_mm = 0.1)
      : dt_(1.0 / fps), settle_s_(settle_s), sigma_(sigma_mm) {}

  void place(const std::string& name, double x, double y, double heading, model::Face face = model::Face::up) {
    disks_[name] = {x, y, heading, face, true, false, kind_of(name)};
    last_change_ = t_;
  }
  // Damage counters dropped: they tumble for `tumble_s` (the picture changes all the while), then
  // lie where given; a counter not `visible` lies where its tag is not seen (on its edge, covered).
  struct Counter {
    std::string name;
    double x = 0, y = 0, heading = 0;
    model::Face face = model::Face::up;
    bool visible = true;
    // Seen tilted at rest where it lies (x, y: its tag's place), this far from flat; not visible.
    std::optional<double> tilt_deg = std::nullopt;
  };
  void drop(const std::vector<Counter>& counters, double tumble_s = 0.4) {
    tumbling_ = true;
    run(tumble_s);
    tumbling_ = false;
    for (const Counter& c : counters) {
      Disk d{c.x, c.y, c.heading, c.face, c.visible && !c.tilt_deg, false, model::DiskKind::counter};
      if (c.tilt_deg) d.tilted = model::TiltedRest{c.x, c.y, 12, *c.tilt_deg, c.face, t_};
      disks_[c.name] = d;
    }
    last_change_ = t_;
  }
  // Counters picked up: gone from sight, where the tracker keeps them stale at their last place.
  void pick_up(const std::vector<std::string>& names) {
    hand_ = true;
    for (const std::string& n : names) disks_.at(n).visible = false;
    run(0.5);
    hand_ = false;
    for (const std::string& n : names) disks_.erase(n);
    last_change_ = t_;
  }
  // A disk's tag is no longer seen (another landed on it): stale where it lies.
  void hide(const std::string& name) { disks_.at(name).visible = false; }
  // Something the tracker cannot explain lies still over the play area (from now on).
  void foreign(model::ForeignBox box) { foreign_.push_back(box); }
  void clear_foreign() {
    foreign_.clear();
    last_change_ = t_;
  }
  void remove(const std::string& name) {
    disks_.erase(name);
    last_change_ = t_;
  }
  // Nothing happens for `seconds`.
  void still(double seconds) { run(seconds); }
  // A hand over the table, nothing moving.
  void hand(double seconds) {
    hand_ = true;
    run(seconds);
    hand_ = false;
    last_change_ = t_;
  }
  // The disk flips to each of `landings` in turn (its face changes each time), `flip_s` a flip,
  // resting `rest_s` at each landing; `seen[i]` false: that landing is covered by a hand.
  void flips(const std::string& name, const std::vector<std::array<double, 3>>& landings, double flip_s = 0.5,
             double rest_s = 0.3, std::vector<bool> seen = {}) {
    for (std::size_t i = 0; i < landings.size(); ++i) {
      Disk& d = disks_.at(name);
      d.moving = true;
      d.visible = false;
      run(flip_s);
      d.x = landings[i][0];
      d.y = landings[i][1];
      d.heading = landings[i][2];
      d.face = d.face == model::Face::up ? model::Face::down : model::Face::up;
      d.moving = false;
      d.visible = true;
      bool covered = !seen.empty() && !seen[i];
      if (covered) {
        d.visible = false;
        hand_ = true;
      } else {
        pending_landing_ = name;
      }
      run(rest_s);
      hand_ = false;
      d.visible = true;
      last_change_ = t_;
    }
  }
  // Turned (or slid, or bumped) in place to this pose, without a flip.
  void set(const std::string& name, double x, double y, double heading, double seconds = 0.4) {
    Disk& d = disks_.at(name);
    d.moving = true;
    run(seconds);
    d.x = x;
    d.y = y;
    d.heading = heading;
    d.moving = false;
    last_change_ = t_;
  }
  // A disk put down on the table (a torpedo in the bay, a ship placed after a collision).
  void put(const std::string& name, double x, double y, double heading, model::Face face = model::Face::up) {
    hand_ = true;
    run(0.4);
    disks_[name] = {x, y, heading, face, true, false, kind_of(name)};
    hand_ = false;
    pending_landing_ = name;
    run(dt_);
    last_change_ = t_;
  }

  // The camera sees nothing for `seconds` (a cable tugged, a phone's Wi-Fi dropping): no frames.
  void camera_away(double seconds) { t_ += seconds; }
  // While the camera is away: the disk is put down elsewhere (on `face`). Seen again, the tracker
  // finds it jumped: moving in the first frame back, at rest from the next, where it reports a
  // landing (a rest half a flip or more from the last).
  void moved_unseen(const std::string& name, double x, double y, double heading,
                    std::optional<model::Face> face = std::nullopt) {
    Disk& d = disks_.at(name);
    d.x = x;
    d.y = y;
    d.heading = heading;
    if (face) d.face = *face;
    jumped_.push_back(name);
  }

  double now() const { return t_; }
  const std::vector<model::TrackFrame>& frames() const { return frames_; }

 private:
  struct Disk {
    double x, y, heading;
    model::Face face;
    bool visible;
    bool moving;
    model::DiskKind kind;
    std::optional<model::TiltedRest> tilted = std::nullopt;
  };
  static model::DiskKind kind_of(const std::string& name) {
    return name.rfind("counter-", 0) == 0 ? model::DiskKind::counter : model::DiskKind::ship;
  }

  void run(double seconds) {
    long long n = std::max<long long>(1, std::llround(seconds / dt_));
    for (long long i = 0; i < n; ++i) frame();
  }

  void frame() {
    model::TrackFrame f;
    f.frame = static_cast<long long>(frames_.size());
    f.t = t_;
    bool any_moving = hand_ || tumbling_;
    for (const std::string& name : jump_landings_) {
      const Disk& d = disks_.at(name);
      f.landings.push_back({name, d.x, d.y, d.heading, d.face, sigma_, t_, std::nullopt});
    }
    jump_landings_.clear();
    for (const std::string& name : jumped_) disks_.at(name).moving = true;
    for (auto& [name, d] : disks_) {
      model::DiskTrack track;
      track.name = name;
      track.kind = d.kind;
      track.state = d.visible ? model::TrackState::visible : model::TrackState::stale;
      if (seen_.count(name) || d.visible) {
        const auto& p = d.visible ? d : seen_.at(name);
        track.x = p.x;
        track.y = p.y;
        track.heading = p.heading;
        track.face = p.face;
      }
      if (d.visible) seen_[name] = d;
      track.tilted = d.tilted;
      if (!seen_.count(name) && !d.tilted) continue;
      if (!seen_.count(name)) track.state = model::TrackState::lost;  // never seen flat: no place but its tilted one
      track.sigma_mm = sigma_;
      track.motion = d.moving ? model::Motion::moving : model::Motion::settled;
      any_moving = any_moving || d.moving;
      f.disks.push_back(track);
    }
    if (pending_landing_ && disks_.count(*pending_landing_)) {
      const Disk& d = disks_.at(*pending_landing_);
      f.landings.push_back({*pending_landing_, d.x, d.y, d.heading, d.face, sigma_, t_, std::nullopt});
      pending_landing_.reset();
    }
    for (const std::string& name : jumped_) disks_.at(name).moving = false;
    jump_landings_ = std::move(jumped_);
    jumped_.clear();
    if (any_moving) last_change_ = t_;
    f.foreign = foreign_;
    f.still_s = t_ - last_change_;
    f.settled = !any_moving && foreign_.empty() && t_ - last_change_ >= settle_s_ - 1e-9;
    frames_.push_back(std::move(f));
    t_ += dt_;
  }

  double dt_;
  double settle_s_;
  double sigma_;
  double t_ = 0;
  double last_change_ = 0;
  bool hand_ = false;
  bool tumbling_ = false;
  std::vector<model::ForeignBox> foreign_;
  std::map<std::string, Disk> disks_;
  std::map<std::string, Disk> seen_;
  std::optional<std::string> pending_landing_;
  std::vector<std::string> jumped_;         // moved while the camera was away: seen jumping in the next frame
  std::vector<std::string> jump_landings_;  // ...and landing in the one after
  std::vector<model::TrackFrame> frames_;
};

// A game file on disk (the referee reads files): the setup JSON, its data the project's.
inline std::filesystem::path write_game(const nlohmann::json& setup, const std::string& name) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("diskref-referee-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  nlohmann::json s = setup;
  s["data"] = {std::string(DISKREF_SOURCE_DIR) + "/data/rules"};
  std::filesystem::path file = dir / (name + ".json");
  std::ofstream(file) << s.dump(1);
  return file;
}

}  // namespace diskref::referee::testing
