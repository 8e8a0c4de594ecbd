#include "simulator/timeline.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include <opencv2/calib3d.hpp>

#include "engine/geometry/shape.h"
#include "engine/io/input_error.h"
#include "engine/random/splitmix64.h"

namespace diskref::simulator {
namespace {

constexpr double kPi = std::numbers::pi;

double smoothstep(double s) {
  s = std::clamp(s, 0.0, 1.0);
  return s * s * (3 - 2 * s);
}

std::string seconds(double t) {
  std::ostringstream out;
  out.precision(3);
  out << t << " s";
  return out.str();
}

const cv::Vec3f kSkins[] = {{0.45f, 0.58f, 0.80f}, {0.36f, 0.48f, 0.70f}, {0.24f, 0.34f, 0.52f}, {0.16f, 0.22f, 0.34f}};
const cv::Vec3f kSleeves[] = {
    {0.45f, 0.22f, 0.10f}, {0.12f, 0.12f, 0.14f}, {0.20f, 0.45f, 0.20f}, {0.15f, 0.15f, 0.55f}, {0.60f, 0.60f, 0.60f}};

}  // namespace

Timeline::Timeline(const Scenario& scenario) : scenario_(scenario) {
  const model::DiskRegistry& registry = scenario_.registry;
  disks_.resize(registry.disks().size());
  std::vector<RestState> current(disks_.size());
  std::vector<double> busy_until(disks_.size(), 0.0);
  for (const StartPlacement& p : scenario_.start) {
    std::size_t i = *registry.index_of(p.disk);
    disks_[i].initial = {true, p.x, p.y, geom::wrap_degrees(p.heading), p.face, 0.0, -1};
    current[i] = disks_[i].initial;
  }

  for (const ScenarioEvent& ev : scenario_.events) {
    auto fail = [&](const std::string& problem) { throw io::InputError(scenario_.file, ev.path, problem); };
    auto disk_index = [&](const std::string& name) { return *registry.index_of(name); };
    auto require_still = [&](std::size_t i) {
      if (ev.t < busy_until[i] - 1e-9)
        fail("disk \"" + registry.disks()[i].name + "\" is still moving until t = " + seconds(busy_until[i]));
    };
    auto require_present = [&](std::size_t i) {
      require_still(i);
      if (!current[i].present)
        fail("disk \"" + registry.disks()[i].name + "\" is not on the table at t = " + seconds(ev.t) +
             " (place it first, or list it in \"start\")");
    };

    if (const auto* flip = std::get_if<FlipEvent>(&ev.what)) {
      std::size_t i = disk_index(flip->disk);
      require_present(i);
      const model::DiskSpec& spec = registry.disks()[i];
      double step = geom::flip_length(spec.shape);
      RestState state = current[i];
      double t = ev.t;
      for (int k = 0; k < flip->count; ++k) {
        DiskMotion m;
        m.t0 = t;
        m.t1 = t + flip->seconds_per_flip;
        m.flip = true;
        m.before = state;
        disks_[i].motions.push_back(m);
        double h = state.heading * kPi / 180;
        state.x += step * std::cos(h);
        state.y += step * std::sin(h);
        state.face = model::other_face(state.face);
        disks_[i].rests.emplace_back(m.t1, state);
        flip_landings_.push_back({i, m.t1, 0.0, state});
        t = m.t1 + (k + 1 < flip->count ? flip->pause_s : 0.0);
      }
      current[i] = state;
      busy_until[i] = t;
    } else if (const auto* rotate = std::get_if<RotateEvent>(&ev.what)) {
      std::size_t i = disk_index(rotate->disk);
      require_present(i);
      RestState state = current[i];
      double target = geom::wrap_degrees(rotate->heading);
      DiskMotion m;
      m.t0 = ev.t;
      m.t1 = ev.t + rotate->duration_s;
      m.on_table = true;
      m.face = state.face;
      double turn = geom::angle_difference_deg(target, state.heading);
      m.keys = {{m.t0, state.x, state.y, 0, state.heading}, {m.t1, state.x, state.y, 0, state.heading + turn}};
      disks_[i].motions.push_back(m);
      state.heading = target;
      disks_[i].rests.emplace_back(m.t1, state);
      current[i] = state;
      busy_until[i] = m.t1;
    } else if (const auto* place = std::get_if<PlaceEvent>(&ev.what)) {
      std::size_t i = disk_index(place->disk);
      require_still(i);
      if (current[i].present) fail("disk \"" + place->disk + "\" is already on the table at t = " + seconds(ev.t));
      RestState target{true, place->x, place->y, geom::wrap_degrees(place->heading), place->face, 0.0, -1};
      carry_in(i, target, ev.t, place->duration_s, place->from);
      current[i] = target;
      busy_until[i] = disks_[i].motions.back().t1;
    } else if (const auto* remove = std::get_if<RemoveEvent>(&ev.what)) {
      std::size_t i = disk_index(remove->disk);
      require_present(i);
      carry_out(i, current[i], ev.t, remove->duration_s, remove->to);
      current[i].present = false;
      busy_until[i] = disks_[i].motions.back().t1;
    } else if (const auto* hand = std::get_if<HandEvent>(&ev.what)) {
      geom::Vec2 target;
      if (hand->at_mm) {
        target = *hand->at_mm;
      } else {
        for (const std::string& name : hand->over) {
          std::size_t i = disk_index(name);
          if (!current[i].present) fail("disk \"" + name + "\" is not on the table at t = " + seconds(ev.t));
          target = target + geom::Vec2{current[i].x, current[i].y} / static_cast<double>(hand->over.size());
        }
      }
      double from = hand->from ? *hand->from : default_arm_direction(target);
      HandTrack& track = new_hand(from);
      geom::Vec2 away = off_table(target, from);
      double t = ev.t;
      track.keys = {{t, away, 170},
                    {t + hand->enter_s, target, hand->height_mm},
                    {t + hand->enter_s + hand->hold_s, target, hand->height_mm},
                    {t + hand->enter_s + hand->hold_s + hand->leave_s, away, 170}};
    } else if (const auto* tmpl = std::get_if<TemplateEvent>(&ev.what)) {
      std::size_t i = disk_index(tmpl->disk), a = disk_index(tmpl->from_disk), b = disk_index(tmpl->to_disk);
      require_still(i);
      if (current[i].present) fail("template \"" + tmpl->disk + "\" is already on the table at t = " + seconds(ev.t));
      for (std::size_t end : {a, b}) require_present(end);
      double dx = current[b].x - current[a].x, dy = current[b].y - current[a].y;
      if (std::hypot(dx, dy) < 1e-6) fail("the two disks are at the same place");
      // Laid across the two disks it measures, so it rests on the thicker one's top.
      double on_top = std::max(registry.disks()[a].thickness_mm, registry.disks()[b].thickness_mm);
      RestState laid{true,
                     (current[a].x + current[b].x) / 2,
                     (current[a].y + current[b].y) / 2,
                     geom::wrap_degrees(std::atan2(dy, dx) * 180 / kPi),
                     model::Face::up,
                     on_top,
                     -1};
      carry_in(i, laid, ev.t, tmpl->lay_s, tmpl->from);
      carry_out(i, laid, ev.t + tmpl->lay_s + tmpl->hold_s, tmpl->lift_s, tmpl->from);
      current[i].present = false;
      busy_until[i] = disks_[i].motions.back().t1;
    } else if (const auto* drop = std::get_if<DropEvent>(&ev.what)) {
      drop_counters(*drop, ev.t, current, busy_until, fail);
    } else if (const auto* g = std::get_if<GatherEvent>(&ev.what)) {
      for (const std::string& name : g->disks) require_present(disk_index(name));
      gather(*g, ev.t, current, busy_until);
    } else if (const auto* board = std::get_if<BoardEvent>(&ev.what)) {
      BoardTrack track;
      track.board = board_specs_.size();
      track.t0 = ev.t;
      track.hold_s = board->hold_s;
      track.move_s = board->move_s;
      // Comes up from below the image, shows each pose, goes back down.
      auto away = [](std::pair<cv::Matx33d, cv::Vec3d> pose) {
        pose.second += cv::Vec3d(0, 0.9 * pose.second[2] + 300, 0);
        return pose;
      };
      track.poses.push_back(away(board->poses.front()));
      for (const auto& p : board->poses) track.poses.push_back(p);
      track.poses.push_back(away(board->poses.back()));
      auto n = static_cast<double>(board->poses.size());
      track.t1 = track.t0 + (n + 1) * board->move_s + n * board->hold_s;
      if (!board_tracks_.empty() && track.t0 < board_tracks_.back().t1)
        fail("a board is still shown until t = " + seconds(board_tracks_.back().t1));
      board_tracks_.push_back(track);
      board_specs_.push_back(board->board);
    }
  }

  // Each landing rests until its disk's next motion begins.
  std::stable_sort(flip_landings_.begin(), flip_landings_.end(),
                   [](const FlipLanding& a, const FlipLanding& b) { return a.t < b.t; });
  for (FlipLanding& landing : flip_landings_) {
    landing.rest_until = std::numeric_limits<double>::infinity();
    for (const DiskMotion& m : disks_[landing.disk].motions)
      if (m.t0 >= landing.t - 1e-12 && m.t0 < landing.rest_until) landing.rest_until = m.t0;
  }
}

double Timeline::default_arm_direction(geom::Vec2 target) const {
  geom::Vec2 size = scenario_.table.play_area_mm;
  double distances[] = {size.x - target.x, size.y - target.y, target.x, target.y};  // east, north, west, south
  auto nearest = std::min_element(std::begin(distances), std::end(distances)) - std::begin(distances);
  return 90.0 * static_cast<double>(nearest);
}

geom::Vec2 Timeline::off_table(geom::Vec2 target, double from_deg) const {
  // Far enough along the arm's direction to be beyond the table top's edge.
  geom::Vec2 size = scenario_.table.play_area_mm;
  double reach = std::hypot(size.x, size.y) + scenario_.surface.table_margin_mm + 250;
  return target + reach * geom::Rot::from_degrees(from_deg).axis_x();
}

Timeline::HandTrack& Timeline::new_hand(double from_deg) {
  HandTrack track;
  track.id = static_cast<int>(hands_.size());
  track.finger_heading = from_deg + 180;
  random::SplitMix64 rng = random::SplitMix64(scenario_.seed).fork(1000 + static_cast<uint64_t>(track.id));
  track.skin = kSkins[rng.uniform_int(0, static_cast<int>(std::size(kSkins)) - 1)];
  track.sleeve = kSleeves[rng.uniform_int(0, static_cast<int>(std::size(kSleeves)) - 1)];
  hands_.push_back(track);
  return hands_.back();
}

void Timeline::carry_in(std::size_t i, const RestState& target, double t, double duration, ArmDirection from) {
  double thickness = scenario_.registry.disks()[i].thickness_mm;
  geom::Vec2 spot{target.x, target.y};
  double arm = from ? *from : default_arm_direction(spot);
  geom::Vec2 away = off_table(spot, arm);
  DiskMotion m;
  m.t0 = t;
  m.t1 = t + 0.7 * duration;
  m.face = target.face;
  m.keys = {{t, away.x, away.y, 110, target.heading},
            {t + 0.55 * duration, spot.x, spot.y, 30, target.heading},
            {m.t1, spot.x, spot.y, target.z, target.heading}};
  disks_[i].motions.push_back(m);
  disks_[i].rests.emplace_back(m.t1, target);
  HandTrack& hand = new_hand(arm);
  double grip = target.z + thickness + 12;  // the palm's underside just over the disk
  hand.keys = {{t, away, 110 + grip},
               {t + 0.55 * duration, spot, 30 + grip},
               {m.t1, spot, grip},
               {t + 0.82 * duration, spot, grip + 60},
               {t + duration, away, 170}};
}

void Timeline::carry_out(std::size_t i, const RestState& current, double t, double duration, ArmDirection to) {
  double thickness = scenario_.registry.disks()[i].thickness_mm;
  geom::Vec2 spot{current.x, current.y};
  double arm = to ? *to : default_arm_direction(spot);
  geom::Vec2 away = off_table(spot, arm);
  DiskMotion m;
  m.t0 = t + 0.3 * duration;
  m.t1 = t + duration;
  m.face = current.face;
  m.keys = {{m.t0, spot.x, spot.y, current.z, current.heading},
            {t + 0.42 * duration, spot.x, spot.y, current.z + 30, current.heading},
            {m.t1, away.x, away.y, 120, current.heading}};
  disks_[i].motions.push_back(m);
  RestState gone = current;
  gone.present = false;
  disks_[i].rests.emplace_back(m.t1, gone);
  HandTrack& hand = new_hand(arm);
  double grip = current.z + thickness + 12;
  hand.keys = {{t, away, 170}, {m.t0, spot, grip}, {t + 0.42 * duration, spot, 30 + grip}, {m.t1, away, 120 + grip}};
}

void Timeline::drop_counters(const DropEvent& drop, double t, std::vector<RestState>& current,
                             std::vector<double>& busy_until, const std::function<void(const std::string&)>& fail) {
  const model::DiskRegistry& registry = scenario_.registry;
  geom::Vec2 centre;
  for (const DroppedCounter& c : drop.counters)
    centre = centre + geom::Vec2{c.x, c.y} / static_cast<double>(drop.counters.size());
  // The hand comes over the spot, opens, and goes.
  const double arm = drop.from ? *drop.from : default_arm_direction(centre);
  HandTrack& hand = new_hand(arm);
  const geom::Vec2 away = off_table(centre, arm);
  const double palm = drop.height_mm + 30;
  const double release = t + 0.5;
  hand.keys = {{t, away, 170}, {t + 0.45, centre, palm}, {release + 0.1, centre, palm}, {release + 0.65, away, 170}};
  const std::size_t drop_index = counter_landings_.empty() ? 0 : counter_landings_.back().drop + 1;
  random::SplitMix64 rng = random::SplitMix64(scenario_.seed).fork(5000 + static_cast<uint64_t>(hands_.size()));
  for (std::size_t k = 0; k < drop.counters.size(); ++k) {
    const DroppedCounter& c = drop.counters[k];
    const std::size_t i = *registry.index_of(c.disk);
    if (release < busy_until[i] - 1e-9) fail("counter \"" + c.disk + "\" is still moving");
    if (current[i].present) fail("counter \"" + c.disk + "\" is on the table: gather it before dropping it");
    std::optional<CounterSupport> support;
    if (!c.on.empty()) {
      const std::size_t j = *registry.index_of(c.on);
      const RestState& under = current[j];
      if (!under.present) fail("\"" + c.on + "\", which counter \"" + c.disk + "\" is to rest on, is not on the table");
      if (under.tilted >= 0) fail("\"" + c.on + "\" is not lying flat: counter \"" + c.disk + "\" cannot rest on it");
      support = CounterSupport{
          registry.disks()[j].shape, registry.disks()[j].thickness_mm, under.x, under.y, under.heading, under.z};
    }
    std::string problem;
    std::optional<CounterRest> rest = counter_rest(c, registry.disks()[i], support, problem);
    if (!rest) fail("counter \"" + c.disk + "\" " + problem + " (\"" + c.on + "\")");
    // Let go one after another from under the palm, a little apart.
    const double let_go = release + 0.02 * static_cast<double>(k);
    const cv::Vec3d from(centre.x + rng.uniform(-18, 18), centre.y + rng.uniform(-18, 18), drop.height_mm);
    DiskMotion m;
    m.t0 = let_go;
    m.face = c.face;
    m.tumble = tumble(rest->pose, registry.disks()[i], from, let_go, drop.settle_s, rng.next_u64());
    m.t1 = m.tumble.back().t;
    disks_[i].motions.push_back(m);
    RestState lying{true, c.x, c.y, geom::wrap_degrees(c.heading), c.face, rest->pose.translation[2], -1};
    if (!rest->level) {
      lying.tilted = static_cast<int>(tilted_rests_.size());
      tilted_rests_.push_back(rest->pose);
    }
    disks_[i].rests.emplace_back(m.t1, lying);
    current[i] = lying;
    busy_until[i] = m.t1;
    counter_landings_.push_back({i, drop_index, let_go, m.t1, lying, rest->kind, c.on});
  }
}

void Timeline::gather(const GatherEvent& g, double t, std::vector<RestState>& current,
                      std::vector<double>& busy_until) {
  const model::DiskRegistry& registry = scenario_.registry;
  geom::Vec2 centre;
  for (const std::string& name : g.disks) {
    const RestState& r = current[*registry.index_of(name)];
    centre = centre + geom::Vec2{r.x, r.y} / static_cast<double>(g.disks.size());
  }
  const double arm = g.to ? *g.to : default_arm_direction(centre);
  const geom::Vec2 away = off_table(centre, arm);
  const double grab = t + 0.4 * g.duration_s, end = t + g.duration_s;
  HandTrack& hand = new_hand(arm);
  hand.keys = {{t, away, 170}, {grab, centre, 16}, {t + 0.55 * g.duration_s, centre, 50}, {end, away, 170}};
  for (const std::string& name : g.disks) {
    const std::size_t i = *registry.index_of(name);
    const RestState r = current[i];
    // Taken up into the palm, and away with it.
    DiskMotion m;
    m.t0 = grab;
    m.t1 = end;
    m.face = r.face;
    const geom::Vec2 offset = 0.3 * (geom::Vec2{r.x, r.y} - centre);
    m.keys = {{grab, r.x, r.y, r.z, r.heading},
              {t + 0.55 * g.duration_s, centre.x + offset.x, centre.y + offset.y, 30, r.heading},
              {end, away.x + offset.x, away.y + offset.y, 150, r.heading}};
    disks_[i].motions.push_back(m);
    RestState gone = r;
    gone.present = false;
    gone.tilted = -1;
    disks_[i].rests.emplace_back(end, gone);
    current[i] = gone;
    busy_until[i] = end;
  }
}

RestState Timeline::rest_at(const DiskTrack& track, double t) const {
  RestState state = track.initial;
  for (const auto& [since, rest] : track.rests) {
    if (since > t) break;
    state = rest;
  }
  return state;
}

SceneInstant Timeline::at(double t) const {
  SceneInstant instant;
  instant.t = t;
  const auto& specs = scenario_.registry.disks();
  for (std::size_t i = 0; i < disks_.size(); ++i) {
    const DiskTrack& track = disks_[i];
    DiskInstant d;
    d.disk = i;
    const DiskMotion* active = nullptr;
    for (const DiskMotion& m : track.motions) {
      // Moving while its pose changes: not while it lies still between two flips of a run.
      d.moving = d.moving || (t >= m.t0 && t < m.t1);
      if (t < m.t1 && (t > m.t0 || (t == m.t0 && !m.flip))) active = &m;  // a flip at its start still lies flat
    }
    if (active && !active->tumble.empty()) {
      const RigidPose p = pose_between(active->tumble, t);
      d.rotation = p.rotation;
      d.translation = p.translation;
      d.top_face = active->face;
      d.resting = false;
    } else if (active && active->flip) {
      // Turn over about the front edge: pivot (f, 0, thickness / 2) in the body frame.
      double f = geom::flip_length(specs[i].shape) / 2, half = specs[i].thickness_mm / 2;
      double phi = kPi * (t - active->t0) / (active->t1 - active->t0);
      set_flat_pose(d, active->before.x, active->before.y, active->before.heading, active->before.z);
      cv::Matx33d turn(std::cos(phi), 0, std::sin(phi), 0, 1, 0, -std::sin(phi), 0, std::cos(phi));
      cv::Vec3d pivot(f, 0, half);
      d.translation += d.rotation * (pivot - turn * pivot);
      d.rotation = d.rotation * turn;
      d.top_face = active->before.face;
      d.resting = false;
    } else if (active) {
      std::size_t k = 0;
      while (k + 2 < active->keys.size() && t >= active->keys[k + 1].t) ++k;
      const Key& a = active->keys[k];
      const Key& b = active->keys[k + 1];
      double s = smoothstep((t - a.t) / std::max(b.t - a.t, 1e-9));
      set_flat_pose(d, a.x + s * (b.x - a.x), a.y + s * (b.y - a.y), a.heading + s * (b.heading - a.heading),
                    a.z + s * (b.z - a.z));
      d.top_face = active->face;
      d.resting = active->on_table;
    } else {
      RestState rest = rest_at(track, t);
      if (!rest.present) continue;
      set_flat_pose(d, rest.x, rest.y, rest.heading, rest.z);
      if (rest.tilted >= 0) {
        // Tilted: lying still, but not flat (its tag not square to the table).
        const RigidPose& body = tilted_rests_[static_cast<std::size_t>(rest.tilted)];
        d.rotation = body.rotation;
        d.translation = body.translation;
        d.resting = false;
      }
      d.top_face = rest.face;
    }
    instant.disks.push_back(d);
  }

  for (const HandTrack& track : hands_) {
    if (t < track.keys.front().t || t > track.keys.back().t) continue;
    std::size_t k = 0;
    while (k + 2 < track.keys.size() && t >= track.keys[k + 1].t) ++k;
    const HandKey& a = track.keys[k];
    const HandKey& b = track.keys[k + 1];
    double s = smoothstep((t - a.t) / std::max(b.t - a.t, 1e-9));
    HandPose pose;
    pose.palm_mm = a.palm + s * (b.palm - a.palm);
    pose.palm_height_mm = a.height + s * (b.height - a.height);
    pose.finger_heading_deg = track.finger_heading;
    pose.skin = track.skin;
    pose.sleeve = track.sleeve;
    instant.hands.push_back(HandInstant{track.id, make_hand(pose)});
  }

  for (const BoardTrack& track : board_tracks_) {
    if (t < track.t0 || t >= track.t1) continue;
    // Keyframes: away, pose 0, ..., pose n-1, away; a move between each, a hold at each pose.
    double local = t - track.t0;
    std::size_t from = 0;
    double s = 0;
    for (;;) {
      if (local < track.move_s || from + 2 >= track.poses.size()) {
        s = smoothstep(local / track.move_s);
        break;
      }
      local -= track.move_s;
      ++from;
      if (local < track.hold_s) break;  // holding at pose `from`
      local -= track.hold_s;
    }
    std::size_t to = std::min(from + 1, track.poses.size() - 1);
    cv::Matx33d r = slerp(track.poses[from].first, track.poses[to].first, s);
    cv::Vec3d tr = track.poses[from].second + s * (track.poses[to].second - track.poses[from].second);
    const CameraRig& rig = scenario_.rig;
    BoardInstant b;
    b.board = track.board;
    b.rotation = rig.rotation.t() * r;  // table_from_board
    b.translation = rig.rotation.t() * (tr - rig.translation);
    instant.board = b;
  }
  return instant;
}

}  // namespace diskref::simulator
