#include "simulator/table_renderer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "engine/geometry/shape.h"
#include "simulator/supersample_pattern.h"

namespace diskref::simulator {
namespace {

constexpr int kTile = 8;
constexpr int kHandKeyBase = 100000;
constexpr int kBoardKey = 200000;

uint64_t mix(uint64_t h, double v) {
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  h ^= bits + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xBF58476D1CE4E5B9ull;
}

uint64_t mix(uint64_t h, const cv::Matx33d& r, const cv::Vec3d& t) {
  for (int i = 0; i < 9; ++i) h = mix(h, r.val[i]);
  for (int i = 0; i < 3; ++i) h = mix(h, t[i]);
  return h;
}

// The 8 corners and points along the 12 edges of a box [lo, hi] given in some frame, mapped
// into the table frame by (rotation, translation).
void box_points(const cv::Vec3d& lo, const cv::Vec3d& hi, const cv::Matx33d& rotation, const cv::Vec3d& translation,
                std::vector<cv::Vec3d>& out) {
  constexpr int kSteps = 4;
  for (int axis = 0; axis < 3; ++axis) {
    int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    for (int corner = 0; corner < 4; ++corner) {
      for (int s = 0; s <= kSteps; ++s) {
        cv::Vec3d p;
        p[axis] = lo[axis] + (hi[axis] - lo[axis]) * s / kSteps;
        p[a1] = (corner & 1) ? hi[a1] : lo[a1];
        p[a2] = (corner & 2) ? hi[a2] : lo[a2];
        out.push_back(rotation * p + translation);
      }
    }
  }
}

// The spread of the samples' luminances, kept as they come.
struct Spread {
  float lo = std::numeric_limits<float>::infinity();
  float hi = -std::numeric_limits<float>::infinity();
  void add(const cv::Vec3f& c) {
    const float l = luminance(c);
    lo = std::min(lo, l);
    hi = std::max(hi, l);
  }
  bool edge() const { return hi - lo > kEdgeContrast; }
};

// Which of `instants` moments each of `samples` samples sees: sample k sees (k * stride) mod
// instants, the stride coprime to the count, so that time and place within the pixel are not
// correlated.
std::vector<int> spread_moments(std::size_t samples, int instants) {
  int stride = 1;
  for (int candidate : {7, 5, 11, 13, 3}) {
    if (std::gcd(candidate, instants) == 1) {
      stride = candidate;
      break;
    }
  }
  std::vector<int> out;
  for (std::size_t k = 0; k < samples; ++k)
    out.push_back(static_cast<int>((static_cast<long long>(k) * stride) % instants));
  return out;
}

}  // namespace

TableRenderer::TableRenderer(const SceneModel& model, const CameraRig& rig, int supersample)
    : model_(model), rig_(rig), rays_(rig.camera), offsets_(supersample_offsets(supersample)) {
  table_from_camera_ = rig.rotation.t();
  camera_center_ = rig.center_table();
  grid_w_ = rig.camera.image_size.width + 2;
  grid_h_ = rig.camera.image_size.height + 2;
  directions_.assign(static_cast<std::size_t>(grid_w_) * static_cast<std::size_t>(grid_h_) * 3,
                     std::numeric_limits<float>::quiet_NaN());
  for (int gv = 0; gv < grid_h_; ++gv) {
    for (int gu = 0; gu < grid_w_; ++gu) {
      double x = 0, y = 0;
      if (!rays_.ray(gu - 1.0, gv - 1.0, x, y)) continue;
      cv::Vec3d d = table_from_camera_ * cv::Vec3d(x, y, 1.0);
      float* out = &directions_[(static_cast<std::size_t>(gv) * static_cast<std::size_t>(grid_w_) +
                                 static_cast<std::size_t>(gu)) *
                                3];
      for (int k = 0; k < 3; ++k) out[k] = static_cast<float>(d[k]);
    }
  }
  time_of_sample_ = spread_moments(offsets_.size(), samples_per_pixel());
  fine_time_of_sample_ = spread_moments(edge_supersample_offsets().size(), samples_per_pixel());
  radiance_ = cv::Mat::zeros(rig.camera.image_size, CV_32FC3);
  // The rays of the image's border, and a margin: beyond it the lens polynomial is meaningless
  // (it can fold far-away points back into the image).
  double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
  cv::Size size = rig.camera.image_size;
  for (int i = 0; i <= 64; ++i) {
    double f = i / 64.0;
    for (cv::Point2d p : {cv::Point2d(f * (size.width - 1), 0), cv::Point2d(f * (size.width - 1), size.height - 1),
                          cv::Point2d(0, f * (size.height - 1)), cv::Point2d(size.width - 1, f * (size.height - 1))}) {
      double x = 0, y = 0;
      if (!rays_.ray(p.x, p.y, x, y)) continue;
      x0 = std::min(x0, x);
      x1 = std::max(x1, x);
      y0 = std::min(y0, y);
      y1 = std::max(y1, y);
    }
  }
  double mx = 0.1 * (x1 - x0), my = 0.1 * (y1 - y0);
  field_ = cv::Rect2d(x0 - mx, y0 - my, x1 - x0 + 2 * mx, y1 - y0 + 2 * my);

  bare_table_ = cv::Mat::zeros(size, CV_32FC3);
  cv::parallel_for_(cv::Range(0, size.height), [&](const cv::Range& rows) {
    for (int v = rows.start; v < rows.end; ++v) {
      auto* row = bare_table_.ptr<cv::Vec3f>(v);
      for (int u = 0; u < size.width; ++u) {
        // The pixel's samples, and again finely where an edge (a marker's) runs through it.
        auto average = [&](const std::vector<cv::Point2d>& offsets, Spread& spread) {
          cv::Vec3f sum(0, 0, 0);
          for (const cv::Point2d& o : offsets) {
            cv::Vec3d direction;
            cv::Vec3f c(0, 0, 0);
            if (ray_at(u + o.x, v + o.y, direction)) c = surface_color(model_, camera_center_, direction);
            spread.add(c);
            sum += c;
          }
          return sum * (1.0f / static_cast<float>(offsets.size()));
        };
        Spread spread, unused;
        row[u] = average(offsets_, spread);
        if (spread.edge()) row[u] = average(edge_supersample_offsets(), unused);
      }
    }
  });
}

bool TableRenderer::ray_at(double u, double v, cv::Vec3d& direction_table) const {
  // Bilinear between the pixel-centre rays (rays vary smoothly on the scale of a pixel).
  double gu = u + 1.0, gv = v + 1.0;
  int iu = static_cast<int>(gu), iv = static_cast<int>(gv);
  if (iu < 0 || iv < 0 || iu >= grid_w_ - 1 || iv >= grid_h_ - 1) return false;
  auto fu = static_cast<float>(gu - iu), fv = static_cast<float>(gv - iv);
  const float* p =
      &directions_[(static_cast<std::size_t>(iv) * static_cast<std::size_t>(grid_w_) + static_cast<std::size_t>(iu)) *
                   3];
  const float* q = p + static_cast<std::size_t>(grid_w_) * 3;
  float d[3];
  for (int k = 0; k < 3; ++k)
    d[k] = (1 - fv) * ((1 - fu) * p[k] + fu * p[k + 3]) + fv * ((1 - fu) * q[k] + fu * q[k + 3]);
  float n2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  if (!(n2 > 0)) return false;                           // NaN (outside the lens model) fails this too: black
  auto inv = static_cast<double>(1.0f / std::sqrt(n2));  // float: 1e-7, far below a micrometre
  direction_table =
      cv::Vec3d(static_cast<double>(d[0]) * inv, static_cast<double>(d[1]) * inv, static_cast<double>(d[2]) * inv);
  return true;
}

cv::Rect TableRenderer::project_points(const std::vector<cv::Vec3d>& points) const {
  cv::Rect image(cv::Point(0, 0), rig_.camera.image_size);
  double u0 = 1e18, v0 = 1e18, u1 = -1e18, v1 = -1e18;
  for (const cv::Vec3d& p : points) {
    cv::Vec3d c = rig_.rotation * p + rig_.translation;
    if (c[2] < 1.0) return image;  // near or behind the camera: be conservative
    // Outside the lens's field a point is only "somewhere beyond that side of the image": clamp
    // its ray to the field's edge, which projects just outside the image on the right side.
    double x = std::clamp(c[0] / c[2], field_.x, field_.x + field_.width);
    double y = std::clamp(c[1] / c[2], field_.y, field_.y + field_.height);
    cv::Point2d px = pixel_from_ray(rig_.camera, {x, y});
    u0 = std::min(u0, px.x);
    v0 = std::min(v0, px.y);
    u1 = std::max(u1, px.x);
    v1 = std::max(v1, px.y);
  }
  // Margin for the box filter, soft shadows' rounding and lens curvature between sampled points.
  double margin = 3 + 0.02 * std::max(u1 - u0, v1 - v0);
  u0 = std::clamp(u0 - margin, -1.0, rig_.camera.image_size.width + 1.0);
  v0 = std::clamp(v0 - margin, -1.0, rig_.camera.image_size.height + 1.0);
  u1 = std::clamp(u1 + margin, -1.0, rig_.camera.image_size.width + 1.0);
  v1 = std::clamp(v1 + margin, -1.0, rig_.camera.image_size.height + 1.0);
  cv::Rect box(cv::Point(static_cast<int>(std::floor(u0)), static_cast<int>(std::floor(v0))),
               cv::Point(static_cast<int>(std::ceil(u1)) + 1, static_cast<int>(std::ceil(v1)) + 1));
  return box & image;
}

std::map<int, TableRenderer::ObjectBox> TableRenderer::object_boxes(const std::vector<SceneInstant>& instants) const {
  std::map<int, ObjectBox> boxes;
  std::map<int, std::vector<cv::Vec3d>> points;
  for (const SceneInstant& instant : instants) {
    for (const DiskInstant& d : instant.disks) {
      const model::DiskSpec& spec = model_.disks[d.disk].spec();
      double r = geom::bounding_radius(spec.shape);
      box_points({-r, -r, 0}, {r, r, spec.thickness_mm}, d.rotation, d.translation, points[static_cast<int>(d.disk)]);
      ObjectBox& b = boxes[static_cast<int>(d.disk)];
      b.signature = mix(mix(b.signature, d.rotation, d.translation), d.top_face == model::Face::up ? 1.0 : 2.0);
    }
    for (const HandInstant& h : instant.hands) {
      // The solids, and the soft shadow they cast on the table (and on disks).
      const cv::Rect2d& shadow = h.shape.shadow_bounds;
      cv::Vec3d lo(shadow.x, shadow.y, 0);
      cv::Vec3d hi(shadow.x + shadow.width, shadow.y + shadow.height, h.shape.max_corner[2]);
      box_points(lo, hi, cv::Matx33d::eye(), cv::Vec3d(0, 0, 0), points[kHandKeyBase + h.id]);
      ObjectBox& b = boxes[kHandKeyBase + h.id];
      b.signature = mix(mix(b.signature, h.shape.min_corner[0]), h.shape.max_corner[0]);
      for (const Ellipsoid& e : h.shape.ellipsoids)
        for (int k = 0; k < 3; ++k) b.signature = mix(b.signature, e.center[k]);
    }
    if (instant.board) {
      const BoardInstant& bd = *instant.board;
      cv::Rect2d card = model_.boards[bd.board].card_mm();
      box_points({card.x, card.y, 0}, {card.x + card.width, card.y + card.height, 0}, bd.rotation, bd.translation,
                 points[kBoardKey]);
      ObjectBox& b = boxes[kBoardKey];
      b.signature = mix(b.signature, bd.rotation, bd.translation);
    }
  }
  for (auto& [key, b] : boxes) b.box = project_points(points[key]);
  return boxes;
}

std::vector<std::vector<std::vector<cv::Rect>>> TableRenderer::hand_part_boxes(
    const std::vector<SceneInstant>& instants) const {
  std::vector<std::vector<std::vector<cv::Rect>>> out(instants.size());
  std::vector<cv::Vec3d> points;
  for (std::size_t j = 0; j < instants.size(); ++j) {
    for (const HandInstant& h : instants[j].hands) {
      std::vector<cv::Rect> parts;
      for (int p = 0; p < part_count(h.shape); ++p) {
        cv::Vec3d lo, hi;
        part_bounds(h.shape, p, lo, hi);
        points.clear();
        box_points(lo, hi, cv::Matx33d::eye(), cv::Vec3d(0, 0, 0), points);
        parts.push_back(project_points(points));
      }
      out[j].push_back(std::move(parts));
    }
  }
  return out;
}

const cv::Mat& TableRenderer::render(const std::vector<SceneInstant>& instants) {
  CV_Assert(instants.size() == 1 || static_cast<int>(instants.size()) == samples_per_pixel());
  std::map<int, ObjectBox> boxes = object_boxes(instants);

  // Tiles to trace: everything the first time; then the old and new boxes of changed objects.
  cv::Size size = rig_.camera.image_size;
  cv::Size tiles((size.width + kTile - 1) / kTile, (size.height + kTile - 1) / kTile);
  cv::Mat dirty(tiles, CV_8U, cv::Scalar(first_ ? 1 : 0));
  auto mark = [&](const cv::Rect& r) {
    if (r.empty()) return;
    cv::Rect t(cv::Point(r.x / kTile, r.y / kTile),
               cv::Point((r.x + r.width - 1) / kTile + 1, (r.y + r.height - 1) / kTile + 1));
    dirty(t & cv::Rect(cv::Point(0, 0), tiles)).setTo(1);
  };
  if (!first_) {
    for (const auto& [key, b] : boxes) {
      auto old = previous_.find(key);
      if (old == previous_.end()) {
        mark(b.box);
      } else if (old->second.signature != b.signature) {
        mark(b.box);
        mark(old->second.box);
      }
    }
    for (const auto& [key, b] : previous_)
      if (!boxes.count(key)) mark(b.box);
  }
  std::vector<cv::Rect> work;
  for (int ty = 0; ty < tiles.height; ++ty)
    for (int tx = 0; tx < tiles.width; ++tx)
      if (dirty.at<uint8_t>(ty, tx))
        work.emplace_back(cv::Rect(tx * kTile, ty * kTile, kTile, kTile) & cv::Rect(cv::Point(0, 0), size));

  auto part_boxes = hand_part_boxes(instants);
  cv::parallel_for_(cv::Range(0, static_cast<int>(work.size())), [&](const cv::Range& range) {
    for (int i = range.start; i < range.end; ++i)
      trace_tile(work[static_cast<std::size_t>(i)], instants, boxes, part_boxes);
  });
  last_traced_ = 0;
  for (const cv::Rect& r : work) last_traced_ += r.area();
  previous_ = std::move(boxes);
  first_ = false;
  return radiance_;
}

void TableRenderer::trace_tile(const cv::Rect& tile, const std::vector<SceneInstant>& instants,
                               const std::map<int, ObjectBox>& boxes,
                               const std::vector<std::vector<std::vector<cv::Rect>>>& part_boxes) {
  // The objects of each instant whose screen box meets this tile.
  std::vector<Candidates> candidates(instants.size());
  for (std::size_t j = 0; j < instants.size(); ++j) {
    const SceneInstant& instant = instants[j];
    auto overlaps = [&](int key) {
      auto it = boxes.find(key);
      return it != boxes.end() && !(it->second.box & tile).empty();
    };
    for (std::size_t i = 0; i < instant.disks.size(); ++i)
      if (overlaps(static_cast<int>(instant.disks[i].disk))) candidates[j].disks.push_back(static_cast<int>(i));
    for (std::size_t i = 0; i < instant.hands.size(); ++i) {
      if (!overlaps(kHandKeyBase + instant.hands[i].id)) continue;
      // The hand's shadow may fall here even where none of its parts is seen.
      uint32_t parts = 0;
      const auto& boxes_of_parts = part_boxes[j][i];
      for (std::size_t p = 0; p < boxes_of_parts.size(); ++p)
        if (!(boxes_of_parts[p] & tile).empty()) parts |= 1u << p;
      candidates[j].hands.push_back(static_cast<int>(i));
      candidates[j].hand_parts.push_back(parts);
    }
    candidates[j].board = instant.board && overlaps(kBoardKey);
  }
  bool any_solid = false;  // anything a ray can meet here (as opposed to a shadow only)
  for (const Candidates& c : candidates) {
    any_solid = any_solid || !c.disks.empty() || c.board;
    for (uint32_t parts : c.hand_parts) any_solid = any_solid || parts != 0;
  }
  // Shadows are soft: once per pixel, at the exposure's middle.
  const std::size_t middle = instants.size() / 2;
  const bool shadows = !candidates[middle].hands.empty();
  if (!any_solid && !shadows) {
    bare_table_(tile).copyTo(radiance_(tile));
    return;
  }
  for (int v = tile.y; v < tile.y + tile.height; ++v) {
    auto* row = radiance_.ptr<cv::Vec3f>(v);
    const auto* bare = bare_table_.ptr<cv::Vec3f>(v);
    for (int u = tile.x; u < tile.x + tile.width; ++u) {
      float shade = 1.0f;
      cv::Vec3d centre;
      if (shadows && ray_at(u, v, centre))
        if (auto p = table_hit(camera_center_, centre)) shade = hand_shadows(instants[middle], *p, &candidates[middle]);
      if (!any_solid) {
        row[u] = bare[u] * shade;
        continue;
      }
      // The pixel's samples (each at its moment of the exposure); where they differ, an edge runs
      // through the pixel and it is sampled again finely, as a real pixel integrates it.
      auto average = [&](const std::vector<cv::Point2d>& offsets, const std::vector<int>& moments, Spread& spread) {
        cv::Vec3f sum(0, 0, 0);
        const cv::Vec3f table = bare[u] * shade;
        for (std::size_t k = 0; k < offsets.size(); ++k) {
          std::size_t j = instants.size() == 1 ? 0 : static_cast<std::size_t>(moments[k]);
          cv::Vec3d direction;
          cv::Vec3f c(0, 0, 0);
          if (ray_at(u + offsets[k].x, v + offsets[k].y, direction)) {
            auto hit = cast_objects(model_, instants[j], camera_center_, direction,
                                    std::numeric_limits<double>::infinity(), &candidates[j], true);
            c = !hit ? table : hit->kind == ObjectHit::Kind::disk ? hit->color * shade : hit->color;
          }
          spread.add(c);
          sum += c;
        }
        return sum * (1.0f / static_cast<float>(offsets.size()));
      };
      Spread spread, unused;
      row[u] = average(offsets_, time_of_sample_, spread);
      if (spread.edge()) row[u] = average(edge_supersample_offsets(), fine_time_of_sample_, unused);
    }
  }
}

}  // namespace diskref::simulator
