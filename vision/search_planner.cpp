#include "vision/search_planner.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace diskref::vision {
namespace {

cv::Rect to_pixels(const cv::Rect2d& r) {
  const int x0 = static_cast<int>(std::floor(r.x));
  const int y0 = static_cast<int>(std::floor(r.y));
  const int x1 = static_cast<int>(std::ceil(r.x + r.width));
  const int y1 = static_cast<int>(std::ceil(r.y + r.height));
  return {x0, y0, x1 - x0, y1 - y0};
}

// A region before it is cut into tiles: the decimation its expected tags need (infinity when it
// holds none), and whether any tag at all may be in it (a change, the sweep), in which case each
// tile is decimated for the smallest tag at that tile's place too.
struct Planned {
  cv::Rect roi;
  double expected_decimate = std::numeric_limits<double>::infinity();
  bool anything = false;
};

// Merges overlapping regions whose union costs no more pixels than the two apart.
void merge_overlapping(std::vector<Planned>& regions) {
  bool merged = true;
  while (merged) {
    merged = false;
    for (std::size_t i = 0; i < regions.size() && !merged; ++i)
      for (std::size_t j = i + 1; j < regions.size() && !merged; ++j) {
        const cv::Rect& a = regions[i].roi;
        const cv::Rect& b = regions[j].roi;
        if ((a & b).area() == 0) continue;
        const cv::Rect u = a | b;
        if (u.area() > a.area() + b.area()) continue;
        regions[i] = {u, std::min(regions[i].expected_decimate, regions[j].expected_decimate),
                      regions[i].anything || regions[j].anything};
        regions.erase(regions.begin() + static_cast<std::ptrdiff_t>(j));
        merged = true;
      }
  }
}

}  // namespace

double TagScaleMap::min_in(const cv::Rect& roi, double fallback) const {
  if (min_pixels_per_cell.empty() || cell_px <= 0) return fallback;
  const cv::Rect blocks =
      cv::Rect(roi.x / cell_px, roi.y / cell_px, (roi.x + roi.width - 1) / cell_px - roi.x / cell_px + 1,
               (roi.y + roi.height - 1) / cell_px - roi.y / cell_px + 1) &
      cv::Rect(0, 0, min_pixels_per_cell.cols, min_pixels_per_cell.rows);
  if (blocks.area() <= 0) return fallback;
  double least = 0;
  cv::minMaxLoc(min_pixels_per_cell(blocks), &least);
  return std::isfinite(least) ? least : fallback;
}

cv::Rect grown(cv::Rect r, int by) {
  return {r.x - by, r.y - by, r.width + 2 * by, r.height + 2 * by};
}

double quad_decimate_for(double pixels_per_cell, double min_decimated) {
  for (double d : {4.0, 3.0, 2.0, 1.5})
    if (pixels_per_cell / d >= min_decimated) return d;
  return 1.0;
}

std::vector<cv::Rect> split_region(cv::Rect region, int max_area, int overlap) {
  // The fewest tiles (nx by ny, neighbours overlapping by `overlap`) that are each within
  // max_area; an axis is not cut below twice the overlap (such tiles would be mostly overlap).
  auto tile_side = [&](int length, int n) { return (length + (n - 1) * overlap + n - 1) / n; };
  int best_nx = 1, best_ny = 1;
  for (int n = 1; n <= 4096; ++n) {
    bool found = false;
    for (int nx = 1; nx <= n && !found; ++nx) {
      if (n % nx) continue;
      const int ny = n / nx;
      const int w = tile_side(region.width, nx), h = tile_side(region.height, ny);
      if ((nx > 1 && w < 2 * overlap) || (ny > 1 && h < 2 * overlap)) continue;
      if (static_cast<long long>(w) * h <= max_area) {
        best_nx = nx;
        best_ny = ny;
        found = true;
      }
    }
    if (found) break;
    // No split meets the area: settle for the finest one allowed.
    // (A side of (length + (n-1) overlap) / n stays >= 2 overlap while n <= length / overlap - 1.)
    const int max_nx = std::max(1, region.width / std::max(overlap, 1) - 1);
    const int max_ny = std::max(1, region.height / std::max(overlap, 1) - 1);
    if (n >= max_nx * max_ny) {
      best_nx = max_nx;
      best_ny = max_ny;
      break;
    }
  }
  const int w = tile_side(region.width, best_nx), h = tile_side(region.height, best_ny);
  std::vector<cv::Rect> out;
  for (int iy = 0; iy < best_ny; ++iy)
    for (int ix = 0; ix < best_nx; ++ix) {
      // Spread evenly: the first tile at the region's start, the last at its end.
      const int x =
          region.x + (best_nx > 1
                          ? static_cast<int>(std::lround(static_cast<double>(ix) * (region.width - w) / (best_nx - 1)))
                          : 0);
      const int y =
          region.y + (best_ny > 1
                          ? static_cast<int>(std::lround(static_cast<double>(iy) * (region.height - h) / (best_ny - 1)))
                          : 0);
      out.push_back(cv::Rect(x, y, w, h) & region);
    }
  return out;
}

SearchPlanner::SearchPlanner(SearchPlannerOptions options) : options_(options) {}

std::vector<SearchRegion> SearchPlanner::plan(const SearchScene& scene, bool search_everything) {
  const cv::Rect image(0, 0, scene.image_size.width, scene.image_size.height);
  const cv::Rect table = scene.table_px.area() > 0 ? (scene.table_px & image) : image;
  // The coarsest decimation that still finds the smallest tag wherever it may be within `roi`.
  auto decimate_at = [&](const cv::Rect& roi) {
    return quad_decimate_for(scene.tag_scale.min_in(roi, scene.min_pixels_per_cell),
                             options_.min_decimated_pixels_per_cell);
  };
  // Anything a whole tag wide lies whole in one of two tiles overlapping by this much; for changes
  // and the sweep only the disks' tags matter (the markers have their own windows).
  const int overlap = static_cast<int>(std::ceil(scene.max_tag_px)) + 2 * options_.min_margin_px;
  const int disk_overlap =
      static_cast<int>(std::ceil(std::min(scene.max_disk_tag_px, scene.max_tag_px))) + 2 * options_.min_margin_px;

  std::vector<Planned> regions;
  // Nothing known about the table: the whole image at full resolution, in one piece (tags of any
  // size may be anywhere, so no tiling is safe).
  if (scene.table_px.area() == 0) return {{image, 1.0, SearchRegion::Purpose::anything}};
  if (search_everything) {
    // Tiled first, so that each tile takes the decimation its own place allows.
    std::vector<SearchRegion> out;
    for (const auto& piece : split_region(table, options_.max_region_area, overlap))
      out.push_back({piece, decimate_at(piece), SearchRegion::Purpose::anything});
    return out;
  } else {
    for (const auto& e : scene.expected) {
      const cv::Rect box = to_pixels(e.box_px);
      const int margin = options_.min_margin_px +
                         static_cast<int>(std::ceil(options_.expected_margin * std::max(box.width, box.height)));
      const cv::Rect roi = grown(box, margin) & image;
      if (roi.area() > 0)
        regions.push_back({roi, quad_decimate_for(e.pixels_per_cell, options_.min_decimated_pixels_per_cell), false});
    }
    for (const auto& c : scene.changed) {
      const cv::Rect roi = grown(c, static_cast<int>(std::ceil(options_.changed_margin_tags * disk_overlap))) & table;
      if (roi.area() > 0) regions.push_back({roi, std::numeric_limits<double>::infinity(), true});
    }
    // A tile of the sweep: the table cut into sweep_frames / sweep_every_frames tiles, row by row.
    const int every = std::max(1, options_.sweep_every_frames);
    if (frame_index_++ % every == 0) {
      const int tiles = std::max(1, options_.sweep_frames / every);
      const double aspect = static_cast<double>(table.width) / std::max(1, table.height);
      const int cols = std::max(1, static_cast<int>(std::lround(std::sqrt(tiles * aspect))));
      const int rows = std::max(1, tiles / cols);  // cols * rows <= tiles: a cycle is never longer
      const int index = static_cast<int>(sweep_index_++ % (static_cast<long long>(cols) * rows));
      const int cx = index % cols, cy = index / cols;
      const cv::Rect tile(table.x + table.width * cx / cols, table.y + table.height * cy / rows, table.width / cols + 1,
                          table.height / rows + 1);
      const cv::Rect roi = grown(tile, disk_overlap / 2) & table;
      if (roi.area() > 0) regions.push_back({roi, std::numeric_limits<double>::infinity(), true});
    }
  }

  merge_overlapping(regions);
  std::vector<SearchRegion> out;
  for (const auto& r : regions)
    for (const auto& piece : split_region(r.roi, options_.max_region_area, overlap))
      out.push_back({piece, r.anything ? std::min(r.expected_decimate, decimate_at(piece)) : r.expected_decimate,
                     r.anything ? SearchRegion::Purpose::anything : SearchRegion::Purpose::expected});
  return out;
}

}  // namespace diskref::vision
