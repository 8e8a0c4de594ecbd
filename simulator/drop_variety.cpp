#include "simulator/drop_variety.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>
#include <optional>

#include <nlohmann/json.hpp>

#include "engine/random/splitmix64.h"
#include "simulator/scenario.h"
#include "simulator/session_variety.h"

namespace diskref::simulator {
namespace {

using nlohmann::json;

constexpr double kTurn = 2 * std::numbers::pi;
constexpr double kArea = 914.4;
constexpr double kCounterR = 38.1 / 2;
constexpr int kCounters = 12;
const char* kTypes[] = {"bridge", "crit-2", "crit-3", "crit-4", "crit-5"};

json tag(int id, const char* face, double size_mm, double offset_deg) {
  return {{"id", id}, {"face", face}, {"size_mm", size_mm}, {"heading_offset_deg", offset_deg}};
}

struct Ship {
  const char* name;
  double x, y, heading;
  double inner_r;    // half its flat-to-flat (or its radius): any counter this close overlaps it
  double outer_r;    // its bounding radius
  const char* card;  // its ship card in data/rules (drop_variant_game)
  const char* player;
};
const Ship kShips[] = {{"enterprise", 300, 630, 30, 28.6, 31.75, "federation_cruiser", "diana"},
                       {"tderet", 610, 300, 200, 31.75, 31.75, "tderet", "owen"},
                       {"ktinga", 650, 660, 250, 34.3, 38.1, "escort", "owen"}};

json registry() {
  const json flatted = {{"type", "flatted_circle"}, {"diameter_mm", 63.5}, {"flat_to_flat_mm", 57.2}};
  json disks = json::array({
      {{"name", "enterprise"},
       {"kind", "ship"},
       {"shape", flatted},
       {"tags", {tag(10, "up", 24, 0), tag(11, "down", 24, 0)}}},
      {{"name", "tderet"},
       {"kind", "ship"},
       {"shape", {{"type", "circle"}, {"diameter_mm", 63.5}}},
       {"tags", {tag(12, "up", 24, 0), tag(13, "down", 24, 0)}}},
      {{"name", "ktinga"},
       {"kind", "ship"},
       {"shape", {{"type", "flatted_circle"}, {"diameter_mm", 76.2}, {"flat_to_flat_mm", 68.6}}},
       {"tags", {tag(18, "up", 28, 0), tag(19, "down", 28, 0)}}},
  });
  for (int i = 1; i <= kCounters; ++i) {
    json up = tag(98 + 2 * i, "up", 14.5, 0), down = tag(99 + 2 * i, "down", 14.5, 0);
    up["shows"] = "hit";
    down["shows"] = "critical";
    down["crit"] = kTypes[(i - 1) % 5];
    disks.push_back({{"name", "counter-" + std::to_string(i)},
                     {"kind", "counter"},
                     {"shape", {{"type", "circle"}, {"diameter_mm", 2 * kCounterR}}},
                     {"tags", {up, down}}});
  }
  return {{"disks", disks}};
}

json table() {
  return {{"play_area_mm", {kArea, kArea}},
          {"corner_markers",
           {{{"id", 0}, {"center_mm", {-45, -45}}, {"size_mm", 40}},
            {{"id", 1}, {"center_mm", {959.4, -45}}, {"size_mm", 40}},
            {{"id", 2}, {"center_mm", {959.4, 959.4}}, {"size_mm", 40}},
            {{"id", 3}, {"center_mm", {-45, 959.4}}, {"size_mm", 40}}}}};
}

json camera(const DropVariant& v) {
  if (!v.camera_file.empty()) {
    // A sample's camera as it is: its lens and its pose over this very table.
    const json c = json::parse(std::ifstream(v.camera_file));
    return {{"resolution", c["image_size"]},
            {"camera_matrix", c["camera_matrix"]},
            {"dist_coeffs", c["dist_coeffs"]},
            {"pose", {{"camera_from_table", c["camera_from_table"]}}}};
  }
  json cam = {{"resolution", {v.width, v.height}},
              {"horizontal_fov_deg", v.horizontal_fov_deg},
              {"pose", {{"height_mm", v.camera_height_mm}, {"tilt_deg", v.tilt_deg}, {"yaw_deg", 90}}}};
  if (v.k1 != 0) cam["dist_coeffs"] = {v.k1, -v.k1 / 3, 0.0008, -0.0006, 0.0};
  return cam;
}

// A counter lying on the table between drops (or placed in this one).
struct Lying {
  int counter = 0;
  double x = 0, y = 0;
  bool level = true;     // flat (on the table or on a disk): another may rest on it
  bool grounded = true;  // flat on the table itself: it may be left lying when the others are gathered
};

class DropPlanner {
 public:
  explicit DropPlanner(uint64_t seed) : rng_(seed * 7919 + 101) {}

  // One drop's counters among `lying`; appends what it places to `lying`.
  json plan(std::vector<int> available, std::vector<Lying>& lying) {
    shuffle(available);
    const int k = std::min(static_cast<int>(available.size()), rng_.uniform_int(5, 11));
    // Where the hand lets go: mostly the middle, sometimes beside a ship or the play area's edge.
    const double mode = rng_.uniform();
    near_edge_ = mode >= 0.82;
    const Ship& ship = kShips[rng_.uniform_int(0, 2)];
    if (mode < 0.62) {
      centre_ = {rng_.uniform(230, 690), rng_.uniform(230, 690)};
    } else if (!near_edge_) {
      const double a = rng_.uniform(0, kTurn);
      centre_ = {ship.x + 85 * std::cos(a), ship.y + 85 * std::sin(a)};
    } else {
      const int side = rng_.uniform_int(0, 3);
      const double along = rng_.uniform(200, 700), in = 45;
      centre_ = side == 0   ? std::pair{along, in}
                : side == 1 ? std::pair{kArea - in, along}
                : side == 2 ? std::pair{along, kArea - in}
                            : std::pair{in, along};
    }
    json counters = json::array();
    for (int i = 0; i < k; ++i) {
      const int c = available[static_cast<std::size_t>(i)];
      std::optional<json> placed = place(c, lying);
      if (placed) counters.push_back(*placed);
    }
    return counters;
  }

  std::pair<double, double> centre() const { return centre_; }
  random::SplitMix64& rng() { return rng_; }

 private:
  void shuffle(std::vector<int>& v) {
    for (std::size_t i = v.size(); i > 1; --i)
      std::swap(v[i - 1], v[static_cast<std::size_t>(rng_.uniform_int(0, static_cast<int>(i) - 1))]);
  }

  // Whether a counter at (x, y) keeps clear of the ships and the counters lying (but `except`).
  bool clear(double x, double y, const std::vector<Lying>& lying, int except_counter, const char* except_ship) const {
    for (const Ship& s : kShips)
      if ((except_ship == nullptr || std::string(s.name) != except_ship) &&
          std::hypot(x - s.x, y - s.y) < s.outer_r + kCounterR + 1.0)
        return false;
    for (const Lying& l : lying)
      if (l.counter != except_counter && std::hypot(x - l.x, y - l.y) < 2 * kCounterR + 0.5) return false;
    return true;
  }

  bool on_play_area(double x, double y) const {
    // Near an edge a counter may come to lie across it; elsewhere wholly on the play area.
    const double margin = near_edge_ ? -kCounterR * 0.7 : kCounterR + 2;
    return x > margin && y > margin && x < kArea - margin && y < kArea - margin;
  }

  std::optional<json> place(int c, std::vector<Lying>& lying) {
    const std::string name = "counter-" + std::to_string(c);
    const double heading = rng_.uniform(0, 360);
    const char* face = rng_.uniform() < 0.5 ? "up" : "down";
    for (int attempt = 0; attempt < 60; ++attempt) {
      const double u = attempt < 30 ? rng_.uniform() : 1.0;  // after many tries, just flat
      json j = {{"disk", name}, {"heading", heading}, {"face", face}};
      double x = 0, y = 0;
      bool level = true, grounded = true;
      if (u < 0.06) {
        // On or against the nearest ship.
        const Ship* ship = &kShips[0];
        for (const Ship& s : kShips)
          if (std::hypot(s.x - centre_.first, s.y - centre_.second) <
              std::hypot(ship->x - centre_.first, ship->y - centre_.second))
            ship = &s;
        if (std::hypot(ship->x - centre_.first, ship->y - centre_.second) > 150) continue;
        const double a = rng_.uniform(0, kTurn), q = rng_.uniform(-1.6, 0.7);
        x = ship->x + (ship->inner_r + kCounterR * q) * std::cos(a);
        y = ship->y + (ship->inner_r + kCounterR * q) * std::sin(a);
        if (!clear(x, y, lying, -1, ship->name)) continue;
        j["on"] = ship->name;
        level = q < -1;  // its centre over the ship: flat on top
        grounded = false;
      } else if (u < 0.13) {
        // On or against a counter lying level (this drop's first).
        std::vector<const Lying*> supports;
        for (std::size_t i = lying.size(); i-- > 0;)
          if (lying[i].level) supports.push_back(&lying[i]);
        if (supports.empty()) continue;
        const Lying& under = *supports[static_cast<std::size_t>(
            rng_.uniform_int(0, static_cast<int>(std::min<std::size_t>(supports.size(), 3)) - 1))];
        const double a = rng_.uniform(0, kTurn), d = rng_.uniform(5, 33);
        x = under.x + d * std::cos(a);
        y = under.y + d * std::sin(a);
        if (!clear(x, y, lying, under.counter, nullptr)) continue;
        j["on"] = "counter-" + std::to_string(under.counter);
        level = d < kCounterR;
        grounded = false;
      } else {
        const double a = rng_.uniform(0, kTurn), r = 95 * std::sqrt(rng_.uniform());
        x = centre_.first + r * std::cos(a);
        y = centre_.second + r * std::sin(a);
        if (!clear(x, y, lying, -1, nullptr)) continue;
        if (u < 0.17) {
          j["rest"] = "edge";
          level = grounded = false;
        }
      }
      if (!on_play_area(x, y)) continue;
      j["x"] = std::round(x * 100) / 100;
      j["y"] = std::round(y * 100) / 100;
      lying.push_back({c, x, y, level, grounded});
      return j;
    }
    return std::nullopt;
  }

  random::SplitMix64 rng_;
  std::pair<double, double> centre_{kArea / 2, kArea / 2};
  bool near_edge_ = false;
};

}  // namespace

json varied_drops(const DropVariant& v) {
  DropPlanner planner(v.seed);
  json events = json::array();
  std::vector<Lying> lying;
  double t = 0.6;
  for (int d = 0; d < v.drops; ++d) {
    std::vector<int> available;
    for (int c = 1; c <= kCounters; ++c)
      if (std::none_of(lying.begin(), lying.end(), [&](const Lying& l) { return l.counter == c; }))
        available.push_back(c);
    const std::size_t before = lying.size();
    json counters = planner.plan(available, lying);
    const auto [cx, cy] = planner.centre();
    events.push_back({{"t", std::round(t * 1000) / 1000},
                      {"drop", {{"counters", counters}, {"height_mm", std::round(planner.rng().uniform(120, 200))}}}});
    // Now and then a hand comes over the counters as they fall and rests there: nothing is read
    // until it has gone.
    const bool hand = d % 5 == 2;
    if (hand)
      events.push_back(
          {{"t", std::round((t + 0.75) * 1000) / 1000},
           {"hand",
            {{"at_mm", {cx + 30, cy}}, {"height_mm", 40}, {"enter_s", 0.4}, {"hold_s", 3.0}, {"leave_s", 0.5}}}});
    t += hand ? 5.6 : 2.6;
    // Gathered: those of earlier drops, and this drop's but now and then a few lying level.
    json gather = json::array();
    std::vector<Lying> kept;
    const bool keep_some = planner.rng().uniform() < 0.35;
    for (std::size_t i = 0; i < lying.size(); ++i) {
      const bool this_drop = i >= before;
      if (this_drop && keep_some && lying[i].grounded && kept.size() < 3 && planner.rng().uniform() < 0.5) {
        kept.push_back(lying[i]);
        continue;
      }
      gather.push_back("counter-" + std::to_string(lying[i].counter));
    }
    lying = kept;
    if (!gather.empty())
      events.push_back({{"t", std::round(t * 1000) / 1000}, {"gather", {{"disks", gather}, {"duration_s", 1.0}}}});
    t += 1.8;
  }
  json start = json::array();
  for (const Ship& s : kShips) start.push_back({{"disk", s.name}, {"x", s.x}, {"y", s.y}, {"heading", s.heading}});
  return {{"duration_s", std::round(t * 1000) / 1000},
          {"fps", v.fps},
          {"seed", v.seed},
          {"camera", camera(v)},
          {"table", table()},
          {"disks", registry()},
          {"surface", {{"mat", v.mat}, {"table", "wood"}}},
          {"start", start},
          {"events", events},
          {"effects",
           camera_effects(v.noise_sigma, v.blur_sigma_px, v.vignetting, v.light_gradient, v.exposure, v.shutter)}};
}

std::vector<DropVariant> standard_drop_variants(const std::filesystem::path& samples) {
  return {
      {.name = "sample-game-camera",
       .seed = 1,
       .camera_height_mm = 1260,
       .tilt_deg = 5,
       .horizontal_fov_deg = 78,
       .k1 = -0.07},
      {.name = "crowded-tilted-barrel",
       .seed = 2,
       .camera_file = (samples / "crowded" / "camera.json").string(),
       .noise_sigma = 2.5,
       .blur_sigma_px = 0.6,
       .vignetting = 0.35,
       .light_gradient = 0.3,
       .mat = "cloth"},
      {.name = "qhd-webcam-high",
       .seed = 3,
       .width = 2560,
       .height = 1440,
       .camera_height_mm = 1500,
       .tilt_deg = 8,
       .horizontal_fov_deg = 78,
       .k1 = -0.12},
      {.name = "dim-noisy",
       .seed = 4,
       .camera_height_mm = 1250,
       .tilt_deg = 12,
       .horizontal_fov_deg = 78,
       .k1 = -0.1,
       .exposure = 0.4,
       .noise_sigma = 3.5},
      {.name = "soft-uneven-light",
       .seed = 5,
       .camera_height_mm = 1350,
       .tilt_deg = 15,
       .horizontal_fov_deg = 75,
       .blur_sigma_px = 1.0,
       .vignetting = 0.45,
       .light_gradient = 0.45,
       .mat = "cloth"},
      {.name = "low-wide-steep",
       .seed = 6,
       .camera_height_mm = 950,
       .tilt_deg = 28,
       .horizontal_fov_deg = 95,
       .k1 = -0.2,
       .shutter = 0.8},
  };
}

json drop_variant_game(const std::filesystem::path& rules_data) {
  json ships = json::array();
  for (const Ship& ship : kShips)
    ships.push_back({{"id", ship.name},
                     {"card", ship.card},
                     {"player", ship.player},
                     {"speed", 2},
                     {"pose", {{"x", ship.x}, {"y", ship.y}, {"heading", ship.heading}}}});
  return {{"about",
           "The ships of a rendered set of drops (simulator/drop_variety.h), for watching its drops on the "
           "companion screen: no drop is asked for, so each is read as counters dropped, anywhere on the "
           "table"},
          {"data", {rules_data.string()}},
          {"drops", {{"mode", "table"}}},
          {"players", {{{"id", "diana"}, {"team", "federation"}}, {{"id", "owen"}, {"team", "romulans"}}}},
          {"ships", ships}};
}

std::filesystem::path render_drop_variant(const DropVariant& variant, const std::filesystem::path& root) {
  return render_once(varied_drops(variant), variant.name, root);
}

}  // namespace diskref::simulator
