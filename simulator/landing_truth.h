#pragma once
// The true landings of a session (the `landings` extension of spec §5, model::Landing), frame by
// frame, for truth.jsonl: every time a flip puts a disk down — between two flips of a run and at
// the end of one — with its exact pose and face, and whether the landed face's tag was visible (as
// GroundTruth judges it) in some frame while the disk lay there. A landing belongs to the first
// frame at or after the moment it landed. The tracker reports the landings it sees; these are
// what it should see.

#include <vector>

#include "engine/model/track_frame.h"
#include "simulator/scene.h"
#include "simulator/timeline.h"
#include "simulator/truth.h"

namespace diskref::simulator {

class LandingTruth {
 public:
  // `frame_count` frames at `fps`; the timeline, model and truth must outlive this.
  LandingTruth(const Timeline& timeline, const SceneModel& model, const GroundTruth& truth, double fps,
               int frame_count);

  // The landings that belong to frame `frame`.
  std::vector<model::Landing> landings_of_frame(int frame) const;

 private:
  bool seen_while_resting(const FlipLanding& landing, int first_frame) const;

  const Timeline& timeline_;
  const SceneModel& model_;
  const GroundTruth& truth_;
  double fps_;
  int frame_count_;
};

}  // namespace diskref::simulator
