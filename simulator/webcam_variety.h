#pragma once
// A family of short table sessions, each with one thing a webcam does on its own (mains flicker
// at 50 and 60 Hz and 25, 30 and 60 frames a second, auto-exposure stepping when a hand comes in,
// a knocked boom, repeated and lost frames, heavy JPEG, dim light, 720p) or all of them at once,
// beside the same session filmed cleanly: the same game moments — a ship flipped, a hand coming
// in at the play area's edge and resting there, a torpedo brought in, a torpedo flipped — with
// quiet between them. What the tracker reads of them must not depend on the webcam (the bench
// bench/webcam_behaviours.cpp, the integration tests).

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace diskref::simulator {

struct WebcamVariant {
  std::string name;
  double fps = 30;
  int width = 1920, height = 1080;
  double shutter = 0.5;   // exposure time over the frame interval
  double exposure = 1.0;  // below 1: dim light
  double noise_sigma = 2.0;
  int jpeg_quality = 0;  // 0: none (the H.264 video's own compression only)
  // Mains flicker: the ripple through the rows (its amplitude, as a share of the light), made by a
  // lamp swinging as much as it takes at this exposure; 0 = steady light.
  double ripple = 0;
  double mains_hz = 50;
  bool auto_exposure = false;
  bool knock = false;
  double repeated_frames = 0, lost_frames = 0;
};

// The scenario JSON for a variant (table, disks and events inline; the same session for all).
nlohmann::json webcam_session(const WebcamVariant& variant);

// The light's swing that gives `ripple` through the rows of a camera exposing for `exposure_s`
// (the swing averaged over the exposure shrinks by sin(x)/x, x = pi * 2 * mains_hz * exposure_s);
// capped at 1. Exposures of whole periods of the light see no ripple whatever the swing.
double flicker_depth_for_ripple(double ripple, double mains_hz, double exposure_s);

// The clean session first, then each behaviour alone, then all together.
std::vector<WebcamVariant> webcam_variants();

}  // namespace diskref::simulator
