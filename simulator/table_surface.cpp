#include "simulator/table_surface.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "engine/random/splitmix64.h"
#include "print/board_pattern.h"
#include "simulator/procedural_noise.h"

namespace diskref::simulator {
namespace {

cv::Mat to_texture(const cv::Mat& reflectance_f32c3) {
  cv::Mat out;
  reflectance_f32c3.convertTo(out, CV_8UC3, 255.0);
  return out;
}

// Mix of two colours by a field t in [0, 1] (CV_32F), per pixel.
cv::Mat blend(const cv::Mat& t, cv::Vec3f a, cv::Vec3f b) {
  cv::Mat out(t.size(), CV_32FC3);
  for (int r = 0; r < t.rows; ++r) {
    const float* tr = t.ptr<float>(r);
    auto* o = out.ptr<cv::Vec3f>(r);
    for (int c = 0; c < t.cols; ++c) {
      float k = std::clamp(tr[c], 0.0f, 1.0f);
      o[c] = a * (1 - k) + b * k;
    }
  }
  return out;
}

// Green baize: slow mottling and fine fibres.
cv::Mat cloth(cv::Size size, double texels_per_mm, random::SplitMix64& rng) {
  double across_mm = std::max(size.width, size.height) / texels_per_mm;
  cv::Mat mottle = fractal_noise(size, across_mm / 180.0, 3, 0.5, rng);
  cv::Mat fibres(size, CV_32F);
  cv::RNG fill(rng.next_u64());
  fill.fill(fibres, cv::RNG::NORMAL, 0.0, 1.0);
  cv::GaussianBlur(fibres, fibres, cv::Size(), 0.35 * texels_per_mm);
  cv::Mat t = 0.5 + 0.35 * mottle + 0.6 * fibres;  // stays CV_32F: OpenCV scales a float Mat by a double
  return blend(t, {0.10f, 0.30f, 0.09f}, {0.16f, 0.42f, 0.15f});
}

// Planks of wood with grain along x.
cv::Mat wood(cv::Size size, double texels_per_mm, random::SplitMix64& rng) {
  double across_mm = std::max(size.width, size.height) / texels_per_mm;
  cv::Mat warp = fractal_noise(size, across_mm / 90.0, 3, 0.5, rng);
  cv::Mat fine = fractal_noise(size, across_mm / 3.0, 2, 0.5, rng);
  const double plank_mm = 140;
  cv::Mat t(size, CV_32F);
  std::vector<double> plank_phase(static_cast<std::size_t>(across_mm / plank_mm) + 2);
  for (double& p : plank_phase) p = rng.uniform(0, 100);
  for (int r = 0; r < size.height; ++r) {
    double y_mm = r / texels_per_mm;
    auto plank = static_cast<std::size_t>(y_mm / plank_mm);
    double in_plank = y_mm - static_cast<double>(plank) * plank_mm;
    for (int c = 0; c < size.width; ++c) {
      double x_mm = c / texels_per_mm;
      double u = y_mm + 9.0 * static_cast<double>(warp.at<float>(r, c)) + 0.004 * x_mm * std::sin(plank_phase[plank]);
      double grain = 0.5 + 0.5 * std::sin(2 * std::numbers::pi * (u / 5.5 + plank_phase[plank]));
      double v = 0.55 * grain * grain * grain + 0.25 * static_cast<double>(fine.at<float>(r, c)) + 0.2;
      if (in_plank < 1.2 || in_plank > plank_mm - 1.2) v = 1.3;  // the gap between planks
      t.at<float>(r, c) = static_cast<float>(v);
    }
  }
  cv::Mat out = blend(t, {0.26f, 0.45f, 0.62f}, {0.10f, 0.20f, 0.32f});
  return out;
}

// A space mat: black-blue, faint nebulae, stars of many sizes.
cv::Mat starfield(cv::Size size, double texels_per_mm, random::SplitMix64& rng) {
  double across_mm = std::max(size.width, size.height) / texels_per_mm;
  cv::Mat nebula_a = fractal_noise(size, across_mm / 300.0, 4, 0.55, rng);
  cv::Mat nebula_b = fractal_noise(size, across_mm / 250.0, 4, 0.55, rng);
  cv::Mat out(size, CV_32FC3);
  for (int r = 0; r < size.height; ++r) {
    auto* o = out.ptr<cv::Vec3f>(r);
    const float* a = nebula_a.ptr<float>(r);
    const float* b = nebula_b.ptr<float>(r);
    for (int c = 0; c < size.width; ++c) {
      float pa = std::max(0.0f, a[c] - 0.1f), pb = std::max(0.0f, b[c] - 0.15f);
      o[c] =
          cv::Vec3f(0.045f, 0.025f, 0.02f) + pa * cv::Vec3f(0.16f, 0.05f, 0.12f) + pb * cv::Vec3f(0.10f, 0.10f, 0.03f);
    }
  }
  double area_mm2 = size.area() / (texels_per_mm * texels_per_mm);
  auto stars = static_cast<int>(area_mm2 / 900.0);  // about one star per 3 x 3 cm
  for (int i = 0; i < stars; ++i) {
    cv::Point2d p(rng.uniform(0, size.width), rng.uniform(0, size.height));
    double brightness = std::pow(rng.uniform(), 3.0);
    double radius_mm = 0.25 + 1.1 * brightness;
    double level = 0.25 + 0.65 * brightness;
    cv::Scalar color(level, level * rng.uniform(0.85, 1.0), level * rng.uniform(0.8, 1.0));
    constexpr int kShift = 4;
    cv::circle(out, cv::Point(static_cast<int>(p.x * 16), static_cast<int>(p.y * 16)),
               std::max(1, static_cast<int>(radius_mm * texels_per_mm * 16)), color, cv::FILLED, cv::LINE_AA, kShift);
  }
  return out;
}

cv::Mat make_texture(SurfaceKind kind, cv::Size size, double texels_per_mm, random::SplitMix64& rng) {
  switch (kind) {
    case SurfaceKind::cloth:
      return to_texture(cloth(size, texels_per_mm, rng));
    case SurfaceKind::wood:
      return to_texture(wood(size, texels_per_mm, rng));
    case SurfaceKind::starfield:
      return to_texture(starfield(size, texels_per_mm, rng));
  }
  return {};
}

}  // namespace

std::optional<SurfaceKind> surface_kind_from_string(const std::string& name) {
  if (name == "starfield") return SurfaceKind::starfield;
  if (name == "cloth") return SurfaceKind::cloth;
  if (name == "wood") return SurfaceKind::wood;
  return std::nullopt;
}

TableSurface::TableSurface(const model::TableSpec& table, const SurfaceSpec& surface, double texels_per_mm,
                           uint64_t seed)
    : table_(table), surface_(surface), texels_per_mm_(texels_per_mm) {
  random::SplitMix64 rng(seed);
  double w = table.play_area_mm.x, h = table.play_area_mm.y;
  top_ = cv::Rect2d(-surface.table_margin_mm, -surface.table_margin_mm, w + 2 * surface.table_margin_mm,
                    h + 2 * surface.table_margin_mm);
  mat_ = cv::Rect2d(-surface.mat_margin_mm, -surface.mat_margin_mm, w + 2 * surface.mat_margin_mm,
                    h + 2 * surface.mat_margin_mm);
  auto texels = [&](const cv::Rect2d& r) {
    return cv::Size(static_cast<int>(std::ceil(r.width * texels_per_mm)) + 2,
                    static_cast<int>(std::ceil(r.height * texels_per_mm)) + 2);
  };
  random::SplitMix64 mat_rng = rng.fork(1), table_rng = rng.fork(2);
  mat_texture_ = make_texture(surface.mat, texels(mat_), texels_per_mm, mat_rng);
  table_texture_ = make_texture(surface.table, texels(top_), texels_per_mm, table_rng);
  for (const auto& m : table.corner_markers)
    marker_cells_[static_cast<std::size_t>(m.id)] = &print::tag_bitmaps().cells(m.id);
}

cv::Vec3f TableSurface::texture_at(const cv::Mat& texture, double u, double v) const {
  // Texel (i, j) covers [i, i + 1) / texels_per_mm from the texture's origin: centres at i + 0.5.
  u = u * texels_per_mm_ - 0.5;
  v = v * texels_per_mm_ - 0.5;
  int iu = std::clamp(static_cast<int>(std::floor(u)), 0, texture.cols - 2);
  int iv = std::clamp(static_cast<int>(std::floor(v)), 0, texture.rows - 2);
  auto fu = static_cast<float>(std::clamp(u - iu, 0.0, 1.0)), fv = static_cast<float>(std::clamp(v - iv, 0.0, 1.0));
  const auto* r0 = texture.ptr<cv::Vec3b>(iv) + iu;
  const auto* r1 = texture.ptr<cv::Vec3b>(iv + 1) + iu;
  cv::Vec3f out;
  for (int k = 0; k < 3; ++k) {
    float top = (1 - fu) * r0[0][k] + fu * r0[1][k];
    float bottom = (1 - fu) * r1[0][k] + fu * r1[1][k];
    out[k] = ((1 - fv) * top + fv * bottom) * (1.0f / 255.0f);
  }
  return out;
}

bool TableSurface::marker_color(double x, double y, cv::Vec3f& color) const {
  for (const auto& m : table_.corner_markers) {
    double cell = m.size_mm / print::kTagBorderCells;
    double half_card = (print::kTagCells / 2.0 + print::kMarkerCardMarginCells) * cell;
    double dx = x - m.center_mm.x, dy = y - m.center_mm.y;
    if (std::fabs(dx) > half_card || std::fabs(dy) > half_card) continue;
    // The marker's +x is the table's +x and its bitmap's up is table +y (spec §3, table_spec.h).
    int bit = print::tag_cell_at(*marker_cells_[static_cast<std::size_t>(m.id)], m.size_mm, dx, dy);
    float v = bit == 0 ? print::kInkBlack : print::kPaperWhite;
    color = cv::Vec3f(v, v, v);
    return true;
  }
  return false;
}

bool TableSurface::table_color(double x, double y, cv::Vec3f& color) const {
  if (!(x >= top_.x && y >= top_.y && x < top_.x + top_.width && y < top_.y + top_.height)) return false;
  if (marker_color(x, y, color)) return true;
  if (x >= mat_.x && y >= mat_.y && x < mat_.x + mat_.width && y < mat_.y + mat_.height)
    color = texture_at(mat_texture_, x - mat_.x, y - mat_.y);
  else
    color = texture_at(table_texture_, x - top_.x, y - top_.y);
  return true;
}

cv::Vec3f TableSurface::floor_color(double x, double y) const {
  // Large dull tiles, a little different each.
  auto tx = static_cast<uint64_t>(static_cast<long long>(std::floor(x / 400))),
       ty = static_cast<uint64_t>(static_cast<long long>(std::floor(y / 400)));
  uint64_t h = (tx * 0x9E3779B97F4A7C15ull) ^ (ty * 0xC2B2AE3D27D4EB4Full);
  h ^= h >> 29;
  auto v = static_cast<float>(0.10 + 0.04 * static_cast<double>(h % 1000) / 1000.0);
  return {v * 0.9f, v, v * 1.1f};
}

}  // namespace diskref::simulator
