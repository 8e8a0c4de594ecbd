#include "print/tag_bitmaps.h"

#include <stdexcept>
#include <string>

extern "C" {
#include <apriltag/apriltag.h>
#include <apriltag/common/image_u8.h>
#include <apriltag/tagStandard41h12.h>
}

namespace diskref::print {

TagBitmaps::TagBitmaps() {
  apriltag_family_t* family = tagStandard41h12_create();
  if (family->total_width != kTagCells || family->width_at_border != kTagBorderCells) {
    tagStandard41h12_destroy(family);
    throw std::logic_error("tagStandard41h12 is not 9 cells wide with a 5-cell border in this apriltag");
  }
  cells_.resize(family->ncodes);
  for (uint32_t id = 0; id < family->ncodes; ++id) {
    image_u8_t* image = apriltag_to_image(family, static_cast<int>(id));
    for (int r = 0; r < kTagCells; ++r)
      for (int c = 0; c < kTagCells; ++c)
        cells_[id][static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] =
            image->buf[r * image->stride + c] ? 255 : 0;
    image_u8_destroy(image);
  }
  tagStandard41h12_destroy(family);
}

TagBitmaps::~TagBitmaps() = default;

const TagCells& TagBitmaps::cells(int id) const {
  if (id < 0 || id >= code_count())
    throw std::out_of_range("tagStandard41h12 has no tag id " + std::to_string(id) + " (ids 0.." +
                            std::to_string(code_count() - 1) + ")");
  return cells_[static_cast<std::size_t>(id)];
}

const TagBitmaps& tag_bitmaps() {
  static const TagBitmaps bitmaps;
  return bitmaps;
}

}  // namespace diskref::print
