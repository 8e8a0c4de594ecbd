#include "ui/theme.h"

namespace diskref::ui {

Rgb state_color(const DiskTrack& track) {
  switch (track.state) {
    case TrackState::visible:
      return track.motion == Motion::moving ? colors::kMoving : colors::kVisible;
    case TrackState::stale: return colors::kStale;
    case TrackState::lost: return colors::kLost;
  }
  return colors::kLost;
}

}  // namespace diskref::ui
