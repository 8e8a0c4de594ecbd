#pragma once
// The printed look of diskref's tags (tagStandard41h12, spec §2), for rendering and printing.
//
// A tag's printed square is 9 x 9 cells; its size_mm is the 5-cell square whose corners the
// detector returns, so one cell is size_mm / 5 and the print is 1.8 x size_mm wide. Tag frame:
// centred, x to the right and y up of the upright bitmap (row 0 at the top), in millimetres;
// apriltag's corners (-1,1), (1,1), (1,-1), (-1,-1) are (±size/2, ±size/2) in it.

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>

namespace diskref::print {

inline constexpr int kTagCells = 9;        // printed width in cells
inline constexpr int kTagBorderCells = 5;  // the detector's corner square, in cells
// White card around each printed corner marker: the tag's 9 cells plus this many cells each side.
inline constexpr double kMarkerCardMarginCells = 1.5;

// Cell bitmap of one tag: 255 white, 0 black; row 0 at the top of the upright tag.
using TagCells = std::array<std::array<uint8_t, kTagCells>, kTagCells>;

// Every code of tagStandard41h12, made once. Thread-safe.
class TagBitmaps {
 public:
  TagBitmaps();
  ~TagBitmaps();
  TagBitmaps(const TagBitmaps&) = delete;
  TagBitmaps& operator=(const TagBitmaps&) = delete;

  int code_count() const { return static_cast<int>(cells_.size()); }
  // Throws std::out_of_range for an id the family does not have.
  const TagCells& cells(int id) const;

 private:
  std::vector<TagCells> cells_;
};

// The one shared table (the family has 2115 codes; building it takes a few milliseconds).
const TagBitmaps& tag_bitmaps();

// Whether a tag-frame point (mm) lies on the printed tag, and if so whether it is white.
// Returns 1 (white), 0 (black) or -1 (outside the printed square).
inline int tag_cell_at(const TagCells& cells, double size_mm, double x_mm, double y_mm) {
  double cell = size_mm / kTagBorderCells;
  double cx = x_mm / cell + kTagCells / 2.0;
  double cy = kTagCells / 2.0 - y_mm / cell;
  if (!(cx >= 0 && cy >= 0 && cx < kTagCells && cy < kTagCells)) return -1;
  return cells[static_cast<std::size_t>(cy)][static_cast<std::size_t>(cx)] ? 1 : 0;
}

}  // namespace diskref::print
