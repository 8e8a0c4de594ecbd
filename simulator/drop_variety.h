#pragma once
// A family of rendered drops of damage counters, for reading drops against exact truth (the bench
// `counter_drops`, and the tests): a hand drops a handful of counters (spec §4's addition, kind
// "counter"; docs/rules.md's default size) onto the table, they tumble and come to rest at random —
// most flat, some on or against a ship or another counter, some on their edge, some across the
// play area's edge, once in a while under a hand held still — and after each drop some or all
// are gathered up, so that the next drop falls among counters left lying. Filmed by different
// cameras (height, tilt, field of view, lens; the crowded sample's own camera) in different light.
// Each variant is a scenario (simulator/scenario.h's JSON), a pure function of its parameters.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace diskref::simulator {

struct DropVariant {
  std::string name;
  uint64_t seed = 1;
  int drops = 12;  // 6 cameras x 12 drops: over 500 counters (the least)
  int width = 1920, height = 1080;
  double fps = 30;
  double camera_height_mm = 1200;
  double tilt_deg = 0;
  double horizontal_fov_deg = 70;
  double k1 = 0;                 // radial distortion (k2 follows as -k1 / 3)
  std::string camera_file = "";  // a camera.json with camera_from_table (a sample's) instead of the above
  double exposure = 1.0;
  double noise_sigma = 2.0;
  double blur_sigma_px = 0.5;
  double vignetting = 0.25;
  double light_gradient = 0.2;
  double shutter = 0.5;
  std::string mat = "starfield";
};

// The scenario JSON for a variant (table, disks and events inline): the samples' 914.4 mm table,
// three ships, twelve counters 38.1 mm across (14.5 mm tags, "HIT!" up, a critical type down).
nlohmann::json varied_drops(const DropVariant& variant);

// The variants the bench runs: `samples` is the repository's sample_videos folder (the crowded
// sample's camera).
std::vector<DropVariant> standard_drop_variants(const std::filesystem::path& samples);

// A game file (spec §9) for watching a variant's drops on the companion screen (`diskref ui --game`):
// its three ships with sample cards from `rules_data` (data/rules), two players, drops read from
// the table anywhere on it. No drop is asked for: each drop shows as counters dropped.
nlohmann::json drop_variant_game(const std::filesystem::path& rules_data);

// Renders the variant into `root`/name (simulator/session.h's files, and scenario.json) and returns
// that directory; a directory already holding this very scenario is kept as it is.
std::filesystem::path render_drop_variant(const DropVariant& variant, const std::filesystem::path& root);

}  // namespace diskref::simulator
