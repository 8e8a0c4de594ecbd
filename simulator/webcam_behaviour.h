#pragma once
// What a webcam does on its own, beyond the optics and the sensor's noise (image_effects.h): the
// scenario's "webcam" member (docs/spec.md §13, "Rendered sessions: what a webcam does").
//
//   flicker        the light of a lamp on the mains swings at twice the mains frequency; a
//                  rolling shutter exposes row after row over the frame's readout, each row for
//                  the exposure time, so every row integrates its own stretch of the swing: a
//                  ripple through the rows whose phase moves from frame to frame (or stands still
//                  when the frame rate divides the light's frequency). An exposure a whole number
//                  of the light's periods long sees no ripple at all (what a camera's anti-flicker
//                  setting does).
//   auto_exposure  a hand comes into view: after a delay the camera's gain steps towards a new
//                  level, a step every so often, and back when no hand is in view any more.
//   knock          the camera's boom is knocked at a moment: the camera turns about its own centre
//                  in a damped swing and stays a little off (offset) for the rest of the session.
//   repeated/lost  a frame delivered twice (the same picture, byte for byte, as the one before) or
//                  lost (its place in a constant-rate video taken by the next one).
//
// Every one is a pure function of the scenario and the frame: frames render in any order.

#include <cstdint>
#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"

namespace diskref::simulator {

struct MainsFlicker {
  double mains_hz = 50;  // 50 or 60: the light swings at twice this
  double depth = 0.2;    // the light swings between 1 - depth and 1 + depth (0..1)
  double readout = 0.9;  // the rows are read out over this fraction of the frame interval
  double phase_deg = 0;  // the light's phase at t = 0
};

struct AutoExposure {
  double step = -0.1;            // the gain's whole change while a hand is in view (-0.5..0.5)
  double delay_s = 0.15;         // from the hand coming into view to the first step
  int steps = 3;                 // the change is made in this many equal steps ...
  double step_interval_s = 0.1;  // ... this far apart
};

struct BoomKnock {
  double t = 0;              // when the boom is knocked (s)
  double swing_deg = 0.4;    // the swing's first amplitude
  double frequency_hz = 4;   // of the swing
  double decay_s = 0.3;      // the swing's amplitude falls by e in this time
  double offset_deg = 0.06;  // where the camera stays, turned from where it was
  double axis_deg = 0;       // the turn's axis, in the image plane (0: the image's x axis, tilting)
};

struct WebcamBehaviour {
  std::optional<MainsFlicker> flicker;
  std::optional<AutoExposure> auto_exposure;
  std::optional<BoomKnock> knock;
  double repeated_frames = 0;  // share of frames delivered twice (0..0.5)
  double lost_frames = 0;      // share of frames lost (0..0.5)

  bool any() const { return flicker || auto_exposure || knock || repeated_frames > 0 || lost_frames > 0; }
};

// Each row's light relative to the mean (size `rows`) for a frame whose middle row is exposed
// around `t_s`: the light's swing integrated over each row's exposure (`exposure_s`; 0 = an
// instant), the rows read out over `readout * frame_interval_s`.
std::vector<float> flicker_row_gains(const MainsFlicker& flicker, int rows, double t_s, double frame_interval_s,
                                     double exposure_s);

// The camera turned by `angle_deg` about `axis_deg` (in the image plane) around its own centre:
// the image it sees, resampled from `image` (any type remap takes), through the lens.
cv::Mat turned_view(const cv::Mat& image, const calib::CameraModel& camera, double angle_deg, double axis_deg);

// The knocked camera's turn at time `t_s` (degrees; 0 before the knock).
double knock_angle_deg(const BoomKnock& knock, double t_s);

// Which moment each delivered frame shows (repeated and lost frames drawn from the seed), and the
// gain auto-exposure gives each moment.
class WebcamFrames {
 public:
  WebcamFrames(const WebcamBehaviour& behaviour, int frame_count, uint64_t seed);

  // The frame whose moment (and picture) frame `k` delivers: k, the one before (repeated), or the
  // one after (lost in its place).
  int shown(int k) const { return shown_.empty() ? k : shown_[static_cast<std::size_t>(k)]; }
  // The auto-exposure gain of moment `k`, given whether a hand was in view at each moment
  // (hand_in_view, indexed by frame); 1 without auto-exposure.
  static std::vector<double> exposure_gains(const AutoExposure& ae, const std::vector<bool>& hand_in_view, double fps);

 private:
  std::vector<int> shown_;
};

}  // namespace diskref::simulator
