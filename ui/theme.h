#pragma once
// The screen's colours, in one place: the panels draw with them and the screenshot test looks for
// them. Chosen to read on a grey table photo and on the dark panels, and to tell states apart for
// colour-blind players by more than hue (stale is dimmer and dashed, lost is not drawn).

#include <cstdint>

#include "engine/model/track_frame.h"

namespace diskref::ui {

struct Rgb {
  std::uint8_t r = 0;
  std::uint8_t g = 0;
  std::uint8_t b = 0;
};

namespace colors {
inline constexpr Rgb kVisible{80, 230, 120};  // seen in this frame, still
inline constexpr Rgb kMoving{60, 200, 255};   // seen, moving
inline constexpr Rgb kStale{255, 176, 40};    // not seen now, last pose kept
inline constexpr Rgb kLost{150, 150, 150};
inline constexpr Rgb kPlayArea{255, 255, 255};
inline constexpr Rgb kSelectA{255, 90, 200};
inline constexpr Rgb kSelectB{170, 130, 255};
inline constexpr Rgb kTemplate{255, 230, 80};
inline constexpr Rgb kGhost{210, 210, 255};
inline constexpr Rgb kContact{255, 70, 60};
inline constexpr Rgb kDetection{255, 255, 0};
inline constexpr Rgb kGrid{70, 76, 86};
inline constexpr Rgb kTableCloth{38, 44, 52};
// Verdict banners in the dispute panel (filled, full width).
inline constexpr Rgb kVerdictYes{28, 128, 58};
inline constexpr Rgb kVerdictNo{168, 40, 40};
inline constexpr Rgb kVerdictTooClose{196, 122, 0};
}  // namespace colors

// The colour a disk's overlay is drawn in: moving beats visible; stale and lost by state.
Rgb state_color(const model::DiskTrack& track);

}  // namespace diskref::ui
