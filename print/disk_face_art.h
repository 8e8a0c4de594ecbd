#pragma once
// What a printed disk carries beyond its look (disk_appearance.h), so that a cut-out disk can be
// put together and told apart:
//   - its name printed inside the cut line (FaceLabel), clear of the tag and of the outline;
//   - for a disk with a tag on each face, the two faces joined by a hinge as long as the disk is
//     thick, to be folded around the disk's front edge (FoldPair). Folded so, the down face lies
//     under the up face exactly as a flip over the front edge shows it (spec §4, and the renderer:
//     a flip turns the disk over its front edge and keeps its heading), so both faces' headings
//     agree by construction.
//
// Face-local frame as DiskAppearance: millimetres, centred on the face, +x the heading, +y to its
// left, seen from above with that face up.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/geometry/vec2.h"
#include "print/disk_appearance.h"

namespace diskref::print {

// Cap heights a label inside a face is printed at: as large as fits, at most this, and not below
// the smallest that is still read on paper.
inline constexpr double kMaxFaceLabelMm = 2.4;
inline constexpr double kMinFaceLabelMm = 1.0;
// Clearances around a label: from the outline (the cut line and a hand's cutting), from the tag's
// printed 9 x 9 cells (in cells: the white margin a detector needs, within the tag's wider margin).
inline constexpr double kLabelOutlineClearanceMm = 0.6;
inline constexpr double kLabelTagClearanceCells = 0.5;

// An axis-aligned box in the face-local frame.
struct FaceBox {
  geom::Vec2 min, max;
  std::array<geom::Vec2, 4> corners() const { return {min, geom::Vec2{max.x, min.y}, max, geom::Vec2{min.x, max.y}}; }
};

// Text laid inside a face.
class FaceLabel {
 public:
  // The largest text (cap height kMaxFaceLabelMm down to kMinFaceLabelMm in 0.1 mm steps) that fits
  // on `face` below the tag, above it or beside it, inside the outline and clear of the tag's white
  // square, of the ship's arrow, of a template's ticks and of the boxes in `taken`; nullopt when
  // none does.
  // `above_first`: look above the tag before below it (a second label, the first being below).
  static std::optional<FaceLabel> fit(const DiskAppearance& look, model::Face face, const std::string& text,
                                      const std::vector<FaceBox>& taken = {}, bool above_first = false);

  const std::string& text() const { return text_; }
  double cap_height_mm() const { return cap_height_mm_; }
  const FaceBox& box() const { return box_; }
  // Whether the text inks a face-local point.
  bool ink(double x_mm, double y_mm) const;

 private:
  std::string text_;
  double cap_height_mm_ = 0;
  FaceBox box_;
  cv::Mat mask_;  // 8-bit, row 0 at the box's top (max y), kLabelMaskPxPerMm
};

// A disk's two faces joined for folding. Pair-local frame: the up face's frame (its centre at the
// origin); the down face, drawn as seen from above after a flip (heading +x), is centred at
// (down_offset_mm, 0).
struct FoldPair {
  double front_mm = 0;        // the face's extent along +x from its centre (the front edge)
  double hinge_mm = 0;        // the hinge's length: the disk's thickness (at least 0.5 mm)
  double hinge_width_mm = 0;  // across the heading
  double down_offset_mm = 0;  // 2 front + hinge
  // Where the faces meet the hinge: fold here (pair-local x), across |y| <= hinge_width / 2.
  double fold_up_x() const { return front_mm; }
  double fold_down_x() const { return front_mm + hinge_mm; }
};

// The hinge for a disk: as wide as the outline is at its front (a flat), but at least 0.4 of the
// disk's width (a round disk touches the hinge in one point).
FoldPair fold_pair(const model::DiskSpec& disk);
// Whether a pair-local point lies on the folding sheet: either face or the hinge.
bool pair_contains(const DiskAppearance& look, const FoldPair& pair, double x_mm, double y_mm);

}  // namespace diskref::print
