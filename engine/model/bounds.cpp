#include "engine/model/bounds.h"

#include <cmath>

#include <fmt/format.h>

namespace diskref::model::bounds {
namespace {

double read_within(const io::JsonCursor& c, double lo, double hi, const char* unit, const char* what) {
  const double v = c.number();
  if (!within(v, lo, hi))
    c.fail(fmt::format("must be between {:g} and {:g}{}, what {} can physically be (got {:g})", lo, hi, unit, what, v));
  return v;
}

}  // namespace

double coordinate_mm(const io::JsonCursor& c) {
  return read_within(c, -kMaxCoordinateMm, kMaxCoordinateMm, " mm", "a place on or around a table");
}
double play_area_side_mm(const io::JsonCursor& c) {
  return read_within(c, kMinPlayAreaMm, kMaxPlayAreaMm, " mm", "a play area's side");
}
double size_mm(const io::JsonCursor& c) {
  return read_within(c, kMinSizeMm, kMaxSizeMm, " mm", "a disk's or a template's size");
}
double thickness_mm(const io::JsonCursor& c) {
  return read_within(c, 0, kMaxThicknessMm, " mm", "a disk's thickness");
}
double tag_size_mm(const io::JsonCursor& c) {
  return read_within(c, kMinTagMm, kMaxTagMm, " mm", "a printed tag's size");
}
double angle_deg(const io::JsonCursor& c) {
  return read_within(c, -kMaxAngleDeg, kMaxAngleDeg, " degrees", "an angle on the table (100 turns either way)");
}
double sigma_mm(const io::JsonCursor& c) {
  return read_within(c, 0, kMaxSigmaMm, " mm", "a position's uncertainty");
}
double tolerance_mm(const io::JsonCursor& c) {
  return read_within(c, 0, kMaxToleranceMm, " mm", "a tolerance on the table");
}
double time_s(const io::JsonCursor& c) {
  return read_within(c, 0, kMaxTimeS, " s", "a time into a session (115 days)");
}
double quality_figure(const io::JsonCursor& c) {
  return read_within(c, 0, kMaxQualityFigure, "", "a fit's error");
}

long long frame_index(const io::JsonCursor& c) {
  const long long v = c.integer();
  if (v < 0 || v > kMaxFrameIndex)
    c.fail(fmt::format("must be a frame number between 0 and {} (got {})", kMaxFrameIndex, v));
  return v;
}

int image_side_px(const io::JsonCursor& c) {
  return c.int_in(kMinImageSidePx, kMaxImageSidePx);
}

}  // namespace diskref::model::bounds
