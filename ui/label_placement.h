#pragma once
// Where the names of many small things go on a view, so that no name covers another's: a drop's
// counters lie touching, and a label under each writes them over one another. No ImGui here.

#include <optional>
#include <vector>

#include "ui/view_transform.h"

namespace diskref::ui {

struct LabelWish {
  Vec2 anchor;        // the point the label names (a counter's centre on the screen)
  Vec2 size;          // the label's width and height, in pixels
  double reach = 12;  // how far from the anchor its nearest side goes, at the nearest
  long own = -1;      // the index in `keep_clear` of what it names: its label may lie over it
};

// The top-left corner of each label, in the order wished: for each, the first spot around its
// anchor (below, above, right, left, then the corners, then the same farther out) that overlaps no
// label placed before it, nothing in `keep_clear` and nothing outside `view`; when no spot is
// free, the one that covers least, a label weighing more than what is kept clear. The spots reach
// out to four label heights farther: a label that went farther than `reach` wants a line to its
// anchor.
std::vector<Vec2> place_labels(const std::vector<LabelWish>& wishes, const ScreenRect& view,
                               const std::vector<ScreenRect>& keep_clear);

// Of `spots` (top-left corners of a box of `size`), in order: the first wholly inside `view` that
// covers none of `keep_clear`, else the one inside it covering least; nothing when none is inside.
std::optional<Vec2> least_covering_spot(const std::vector<Vec2>& spots, Vec2 size, const ScreenRect& view,
                                        const std::vector<ScreenRect>& keep_clear);

// The area two rectangles share (0 when they do not meet).
double overlap_area(const ScreenRect& a, const ScreenRect& b);
// The smallest rectangle holding every point (empty at the origin when there is none).
ScreenRect bounding_rect(const std::vector<Vec2>& points);

}  // namespace diskref::ui
