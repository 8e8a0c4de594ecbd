#include "ui/theme.h"

namespace diskref::ui {

Rgb state_color(const model::DiskTrack& track) {
  switch (track.state) {
    case model::TrackState::visible:
      return track.motion == model::Motion::moving ? colors::kMoving : colors::kVisible;
    case model::TrackState::stale:
      return colors::kStale;
    case model::TrackState::lost:
      return colors::kLost;
  }
  return colors::kLost;
}

}  // namespace diskref::ui
