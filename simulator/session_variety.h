#pragma once
// A family of short table sessions for checking the tracker beyond the bundled samples: the same
// game moments — a ship flipped three times, a torpedo flipped once (it lands on its other face),
// a hand held still over a ship, a torpedo brought in by hand, the range template laid between
// two ships — filmed by different cameras (height, tilt, field of view, lens), in different light
// (dim and noisy, uneven, blurred) and with the disks in different places. Each variant is a
// scenario (simulator/scenario.h's JSON), a pure function of its parameters: rendering it gives
// frames and their exact truth.
//
// Used by the integration tests (settles never wrong, landings, sigma's coverage over many
// renders) and by the bench (the same figures, printed).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace diskref::simulator {

struct SessionVariant {
  std::string name;   // for messages, e.g. "tilted-strong-lens"
  uint64_t seed = 1;  // where the disks start, textures, noise
  int width = 1280, height = 720;
  double fps = 15;
  double camera_height_mm = 900;
  double tilt_deg = 0;
  double yaw_deg = 90;
  double horizontal_fov_deg = 65;
  double k1 = 0;          // radial distortion (k2 follows as -k1 / 3, as in real barrels)
  double exposure = 1.0;  // below 1: dim light
  double noise_sigma = 2.0;
  double blur_sigma_px = 0.5;
  double vignetting = 0.25;
  double light_gradient = 0.2;
  double shutter = 0.5;    // motion blur
  bool lens_known = true;  // whether the tracker is given the lens (camera.json) as --calib
};

// The disks of every variant (four ships, two torpedoes, the range template; every disk that
// flips carries a tag on each face) and their table (a 600 x 450 mm play area with 30 mm corner
// markers just outside its corners), as scenario members.
nlohmann::json varied_registry();
nlohmann::json varied_table();

// The scenario JSON for a variant (table, disks and events inline).
nlohmann::json varied_session(const SessionVariant& variant);

// A spread of variants: straight down and tilted up to 30 degrees, no lens distortion to a strong
// barrel, with the lens known and not, bright and dim, sharp and soft.
std::vector<SessionVariant> standard_variants();

// Renders the variant into `root`/name (simulator/session.h's files, and scenario.json) and
// returns that directory. A directory already holding this very scenario is kept as it is: a
// render takes tens of seconds, and the bench and the tests run on the same family.
std::filesystem::path render_variant(const SessionVariant& variant, const std::filesystem::path& root);

// A scenario's "effects" (scenario.h) at a supersampling of 2: the camera's noise, defocus, light
// and shutter, as both families of renders give them.
nlohmann::json camera_effects(double noise_sigma, double blur_sigma_px, double vignetting, double light_gradient,
                              double exposure, double shutter);

// Renders a scenario (JSON, inline) into `root`/name, unless that directory already holds a whole
// render of this very scenario (its scenario.json, written last, equal to it): returns the directory.
std::filesystem::path render_once(const nlohmann::json& scenario, const std::string& name,
                                  const std::filesystem::path& root);

}  // namespace diskref::simulator
