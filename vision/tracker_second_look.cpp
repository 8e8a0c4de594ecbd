// Tracker: a second look, in the picture enlarged, where a tag is likely but the search found none.
//
// apriltag decodes down to about 2.5 pixels a tag cell; a damage counter's small tag seen from a
// webcam high over the table has about that many, and a little softness of focus (a cheap lens,
// a camera that refocused) loses it at the camera's own resolution while the same pixels enlarged
// twice (bicubic) decode cleanly (measured on the soft-focus drop renders: every counter missed at
// rest there found at 2x). Enlarging the whole table would cost four times the search; these
// regions are a few counters' size.

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "vision/tracker.h"
#include "vision/tracker_geometry.h"

namespace diskref::vision {
namespace {

// Tags with fewer pixels a cell than this where a disk went out of sight are looked for enlarged.
constexpr double kEnlargeBelowPixelsPerCell = 4.0;
constexpr int kEnlargeFactor = 2;

}  // namespace

std::vector<int> Tracker::look_again_enlarged(const cv::Mat& image, const cv::Mat& grey,
                                              std::span<const std::size_t> unchanged, std::vector<TagDetection>& tags) {
  std::vector<int> ids;
  // Only once the picture is still: a counter is read lying still, and a tag in motion is smeared
  // (and looked for along its way by the search itself).
  if (!view_.pose || !view_.geometry || !settle_.last_frame_still) return ids;
  std::vector<cv::Rect> looks;
  for (const cv::Rect& part : foreign_.small_parts_px) looks.push_back(part & cv::Rect(cv::Point(), image.size()));
  // A disk looked for and not found (out of sight since, or just now) with a small tag: perhaps
  // only its tag is missed. (One found enlarged before is looked for at its own resolution first
  // every few frames, as every still disk is: missed so, it is looked for enlarged in that frame.)
  const double cells = search_.tags.cells_across_corners();
  const double printed = static_cast<double>(search_.tags.cells_across_tag()) / cells;
  for (std::size_t i = 0; i < registry_.disks().size(); ++i) {
    const DiskEstimate& e = disks_.tracker.estimates()[i];
    if (!e.ever_seen || e.state == model::TrackState::lost || e.motion != model::Motion::settled) continue;
    if (std::find(unchanged.begin(), unchanged.end(), i) != unchanged.end())
      continue;  // not looked for: seen as it was
    const model::DiskSpec& disk = registry_.disks()[i];
    if (std::any_of(tags.begin(), tags.end(), [&](const TagDetection& d) {
          return std::any_of(disk.tags.begin(), disk.tags.end(), [&](const auto& tag) { return tag.id == d.id; });
        }))
      continue;  // found
    const auto [smallest_mm, largest_mm] = tag_sizes_mm(disk);
    const geom::Vec2 at = e.last_observed.position;
    if (smallest_mm * pixels_per_mm_at(*view_.pose, at, disk.thickness_mm) / cells >= kEnlargeBelowPixelsPerCell)
      continue;
    // Where it was last seen, with room for the tag turned and for a slide of a tag's width after.
    const cv::Rect look =
        image_box_around(at, largest_mm * printed / std::sqrt(2.0) + largest_mm, disk.thickness_mm, image.size());
    if (look.area() == 0) continue;
    // Under a hand last frame: covered, most likely, not missed.
    if (std::any_of(foreign_.large_parts_px.begin(), foreign_.large_parts_px.end(),
                    [&](const cv::Rect& hand) { return (hand & look).area() > 0; }))
      continue;
    looks.push_back(look);
  }
  // Only tags not found already: the search's own detection of a tag is the one measured (its
  // corners' noise is what the tracker's sigma describes).
  const std::size_t found_before = tags.size();
  auto known = [&](int id) {
    return std::any_of(tags.begin(), tags.begin() + static_cast<std::ptrdiff_t>(found_before),
                       [&](const TagDetection& d) { return d.id == id; });
  };
  std::erase_if(looks, [](const cv::Rect& part) { return part.area() == 0; });
  if (image.type() != CV_8UC1)
    for (const cv::Rect& part : looks) {
      cv::Mat target = grey(part);  // grey shares the colour frame's grey buffer: converted in place
      grey_into(image(part), target);
    }
  std::vector<TagDetection> more = search_.tags.detect_enlarged(grey, looks, kEnlargeFactor);
  for (const cv::Rect& part : looks)
    stats_.pixels_searched += static_cast<long long>(kEnlargeFactor) * kEnlargeFactor * part.area();
  // One detection an id (they come sorted by id, the most certain first): two looks may overlap.
  bool found = false;
  for (const TagDetection& d : more) {
    if (known(d.id) || model::is_corner_marker(d.id) || std::find(ids.begin(), ids.end(), d.id) != ids.end()) continue;
    ids.push_back(d.id);
    tags.push_back(d);
    found = true;
  }
  if (found) tags = merge_duplicate_detections(std::move(tags), 2.0);
  return ids;
}

}  // namespace diskref::vision
