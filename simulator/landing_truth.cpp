#include "simulator/landing_truth.h"

#include <cmath>

namespace diskref::simulator {

LandingTruth::LandingTruth(const Timeline& timeline, const SceneModel& model, const GroundTruth& truth, double fps,
                           int frame_count)
    : timeline_(timeline), model_(model), truth_(truth), fps_(fps), frame_count_(frame_count) {}

bool LandingTruth::seen_while_resting(const FlipLanding& landing, int first_frame) const {
  for (int k = first_frame; k < frame_count_ && k / fps_ < landing.rest_until; ++k) {
    const SceneInstant instant = timeline_.at(k / fps_);
    for (const DiskInstant& d : instant.disks)
      if (d.disk == landing.disk && truth_.tag_visible(instant, d)) return true;
  }
  return false;
}

std::vector<model::Landing> LandingTruth::landings_of_frame(int frame) const {
  std::vector<model::Landing> out;
  for (const FlipLanding& landing : timeline_.flip_landings()) {
    // The first frame whose time is at or after the landing (a frame time equal to it included).
    const int first = static_cast<int>(std::ceil(landing.t * fps_ - 1e-9));
    if (first != frame) continue;
    model::Landing l;
    l.name = model_.disks[landing.disk].spec().name;
    l.x = landing.pose.x;
    l.y = landing.pose.y;
    l.heading = landing.pose.heading;
    l.face = landing.pose.face;
    l.t = landing.t;
    l.tag_visible = seen_while_resting(landing, first);
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace diskref::simulator
