#include "pipeline/playback_schedule.h"

namespace diskref::pipeline {

double PlaybackSchedule::due(double frame_t, double speed, double now) {
  if (!anchor_ || anchor_->speed != speed) anchor_ = Anchor{now, frame_t, speed};
  return anchor_->wall + (frame_t - anchor_->frame_t) / speed;
}

void PlaybackSchedule::shown(double due_at, double now) {
  if (!options_.catch_up && now > due_at + options_.fall_behind_s) anchor_.reset();
}

}  // namespace diskref::pipeline
