// `diskref tags` end to end, judged on what it prints: a sheet rendered at an odd resolution
// (237 DPI, not a whole number of pixels per millimetre) is measured in its pixels: the 100 mm bar,
// every disk's cut outline against the registry's shape, every tag (both faces, and the corner
// markers) through the AprilTag detector at the registry's size and heading offset, the
// calibration board through OpenCV's chessboard detector. Then the files themselves (the PNG's
// pHYs, the PDF's structure, pages and page size, read by us and by poppler when it is there),
// the warnings and the messages for bad input.

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/geometry/shape.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "print/tag_sheet.h"
#include "tests/calibration/command_runner.h"
#include "vision/apriltag_detector.h"

namespace diskref {
namespace {

namespace fs = std::filesystem;

constexpr double kDpi = 237;
constexpr double kPxPerMm = kDpi / 25.4;

// Every shape, faces with and without tags, and heading offsets other than 0.
const char* const kDisksJson = R"({"disks": [
  {"name": "kestrel", "kind": "ship", "color": "#3a6fd8",
   "shape": {"type": "flatted_circle", "diameter_mm": 63.5, "flat_to_flat_mm": 57.2},
   "tags": [{"id": 10, "face": "up", "size_mm": 22, "heading_offset_deg": 30},
            {"id": 11, "face": "down", "size_mm": 20, "heading_offset_deg": -90}]},
  {"name": "hawk", "kind": "ship", "color": "#a02020",
   "shape": {"type": "flatted_circle", "diameter_mm": 76.2, "flat_to_flat_mm": 68.6},
   "tags": [{"id": 12, "face": "up", "size_mm": 28},
            {"id": 13, "face": "down", "size_mm": 26, "heading_offset_deg": 180}]},
  {"name": "torpedo", "kind": "torpedo", "shape": {"type": "circle", "diameter_mm": 44.45},
   "tags": [{"id": 40, "size_mm": 15, "heading_offset_deg": 45}]},
  {"name": "range", "kind": "template", "shape": {"type": "rect", "length_mm": 88.9, "width_mm": 25.4},
   "tags": [{"id": 60, "size_mm": 12, "heading_offset_deg": 180}]},
  {"name": "moon", "kind": "planet", "shape": {"type": "circle", "diameter_mm": 108},
   "tags": [{"id": 70, "size_mm": 40, "heading_offset_deg": -120}]}
]})";

const char* const kTableJson = R"({"play_area_mm": [600, 400], "corner_markers": [
  {"id": 0, "center_mm": [-35, -35], "size_mm": 30}, {"id": 1, "center_mm": [635, -35], "size_mm": 30},
  {"id": 2, "center_mm": [635, 435], "size_mm": 30}, {"id": 3, "center_mm": [-35, 435], "size_mm": 30}]})";

void write_text(const fs::path& file, const std::string& text) {
  std::ofstream(file) << text;
}

std::vector<uint8_t> read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// FILE.png, FILE-2.png, ... as the command names its pages.
std::vector<fs::path> page_files(const fs::path& first) {
  std::vector<fs::path> files;
  for (int i = 1;; ++i) {
    fs::path f = i == 1 ? first : first.parent_path() / (first.stem().string() + "-" + std::to_string(i) + ".png");
    if (!fs::exists(f)) return files;
    files.push_back(f);
  }
}

double darkness(const cv::Mat& gray, int row, int col) {
  return (255.0 - gray.at<uint8_t>(row, col)) / 255.0;
}

// The centre of the first thin dark line met walking from `from` (pixel) in direction (du, dv)
// (one of the four axis directions) for at most `steps` pixels, as a distance in pixels from
// `from` along the walk; nullopt when there is none or the dark run is not a line (over 1 mm).
std::optional<double> first_line(const cv::Mat& gray, cv::Point from, int du, int dv, int steps) {
  auto dark_at = [&](int k) {
    int u = from.x + k * du, v = from.y + k * dv;
    if (u < 0 || v < 0 || u >= gray.cols || v >= gray.rows) return 0.0;
    return darkness(gray, v, u);
  };
  int k = 0;
  while (k < steps && dark_at(k) < 0.5) ++k;
  if (k == steps) return std::nullopt;
  int start = k;
  while (k < steps + 20 && dark_at(k) >= 0.5) ++k;
  if (k - start > kPxPerMm) return std::nullopt;
  // Ink-weighted centre over the run and one pixel either side (the anti-aliased edges).
  double sum = 0, weighted = 0;
  for (int j = start - 1; j <= k; ++j) {
    sum += dark_at(j);
    weighted += j * dark_at(j);
  }
  return weighted / sum;
}

// Distance in pixels between the cut lines on either side of `centre` along a row (horizontal)
// or column, at `offset_px` across it, searched up to `half_px` + 1.5 mm out; also the midpoint's
// shift from `centre` along the line.
struct Span {
  double length_px = 0, centre_shift_px = 0;
};
std::optional<Span> cut_span(const cv::Mat& gray, cv::Point2d centre, bool horizontal, double offset_px,
                             double half_px) {
  int reach = static_cast<int>(std::ceil(half_px + 1.5 * kPxPerMm));
  cv::Point2d o = horizontal ? cv::Point2d(centre.x - reach, centre.y + offset_px)
                             : cv::Point2d(centre.x + offset_px, centre.y - reach);
  cv::Point start(static_cast<int>(std::lround(o.x)), static_cast<int>(std::lround(o.y)));
  cv::Point end = horizontal ? cv::Point(start.x + 2 * reach, start.y) : cv::Point(start.x, start.y + 2 * reach);
  int du = horizontal ? 1 : 0, dv = horizontal ? 0 : 1;
  auto near = first_line(gray, start, du, dv, reach);
  auto far = first_line(gray, end, -du, -dv, reach);
  if (!near || !far) return std::nullopt;
  double a = (horizontal ? start.x : start.y) + *near, b = (horizontal ? end.x : end.y) - *far;
  return Span{b - a, (a + b) / 2 - (horizontal ? centre.x : centre.y)};
}

double edge_length(const vision::TagDetection& d, int i) {
  cv::Point2d e = d.corners[static_cast<std::size_t>((i + 1) % 4)] - d.corners[static_cast<std::size_t>(i)];
  return std::hypot(e.x, e.y);
}

// Difference of two angles in degrees, in (-180, 180].
double angle_difference(double a, double b) {
  double d = std::fmod(a - b, 360.0);
  if (d > 180) d -= 360;
  if (d <= -180) d += 360;
  return d;
}

// The sheet is rendered once for the tests that measure it.
class TagSheet : public testing::CommandTest {
 protected:
  static inline fs::path sheet_dir_;
  static inline std::vector<cv::Mat> pages_;         // grey, as measured
  static inline std::vector<cv::Mat> colour_pages_;  // BGR, as written
  static inline std::string output_;
  static inline int status_ = -1;

  static void TearDownTestSuite() {
    if (!sheet_dir_.empty()) fs::remove_all(sheet_dir_);
  }

  void SetUp() override {
    CommandTest::SetUp();
    if (!sheet_dir_.empty()) return;
    sheet_dir_ = fs::temp_directory_path() / ("diskref-tag-sheet-" + std::to_string(::getpid()));
    fs::create_directories(sheet_dir_);
    write_text(sheet_dir_ / "disks.json", kDisksJson);
    write_text(sheet_dir_ / "table.json", kTableJson);
    auto r = run("tags --disks " + (sheet_dir_ / "disks.json").string() + " --table " +
                 (sheet_dir_ / "table.json").string() + " --out " + (sheet_dir_ / "sheet.png").string() +
                 " --dpi 237 --board chessboard:5x4:15");
    status_ = r.status;
    output_ = r.out + r.err;
    for (const fs::path& f : page_files(sheet_dir_ / "sheet.png")) {
      colour_pages_.push_back(cv::imread(f.string(), cv::IMREAD_COLOR));
      cv::Mat gray;
      cv::cvtColor(colour_pages_.back(), gray, cv::COLOR_BGR2GRAY);
      pages_.push_back(gray);
    }
  }

  void expect_rendered() const {
    ASSERT_EQ(status_, 0) << output_;
    ASSERT_FALSE(pages_.empty());
  }

  static model::DiskRegistry registry() { return model::load_disk_registry(sheet_dir_ / "disks.json"); }
  static model::TableSpec table() { return model::load_table(sheet_dir_ / "table.json"); }

  // Every tag on every page: (page, detection).
  static const std::vector<std::pair<std::size_t, vision::TagDetection>>& detections() {
    static std::vector<std::pair<std::size_t, vision::TagDetection>> all = [] {
      std::vector<std::pair<std::size_t, vision::TagDetection>> found;
      vision::AprilTagDetector detector;
      for (std::size_t p = 0; p < pages_.size(); ++p)
        for (const auto& d : detector.detect(pages_[p])) found.emplace_back(p, d);
      return found;
    }();
    return all;
  }
};

TEST_F(TagSheet, SaysHowManyPagesItWroteAndEachIsThePageSizeAtTheDpi) {
  ASSERT_NO_FATAL_FAILURE(expect_rendered());
  EXPECT_NE(output_.find(std::to_string(pages_.size()) + " page(s) at 237 DPI (210 x 297 mm"), std::string::npos)
      << output_;
  for (const cv::Mat& page : pages_) {
    EXPECT_EQ(page.cols, std::lround(210 * kPxPerMm));
    EXPECT_EQ(page.rows, std::lround(297 * kPxPerMm));
  }
}

TEST_F(TagSheet, TheScaleBarAndItsEndTicksSpanExactly100mm) {
  ASSERT_NO_FATAL_FAILURE(expect_rendered());
  for (std::size_t p = 0; p < pages_.size(); ++p) {
    const cv::Mat& page = pages_[p];
    // The bar: the longest dark run in any row of the header (the top 30 mm).
    int bar_row = -1, bar_start = 0, bar_length = 0;
    for (int v = 0; v < static_cast<int>(30 * kPxPerMm); ++v) {
      for (int u = 0, run = 0; u < page.cols; ++u) {
        run = darkness(page, v, u) >= 0.5 ? run + 1 : 0;
        if (run > bar_length) bar_row = v, bar_length = run, bar_start = u - run + 1;
      }
    }
    SCOPED_TRACE("page " + std::to_string(p + 1));
    EXPECT_NEAR(bar_length, 100 * kPxPerMm, 1.0);
    // Ticks: 1 mm above the bar's first row, 11 of them, every 10 mm, the outer ones flush with its ends.
    int v = bar_row - static_cast<int>(std::lround(1.0 * kPxPerMm));
    std::vector<std::pair<int, int>> ticks;  // first and last column of each
    for (int u = 0; u < page.cols; ++u) {
      if (darkness(page, v, u) < 0.5) continue;
      if (!ticks.empty() && ticks.back().second == u - 1)
        ticks.back().second = u;
      else
        ticks.emplace_back(u, u);
    }
    ASSERT_EQ(ticks.size(), 11u);
    EXPECT_EQ(ticks.front().first, bar_start);
    EXPECT_EQ(ticks.back().second, bar_start + bar_length - 1);
    for (std::size_t k = 1; k + 1 < ticks.size(); ++k)
      EXPECT_NEAR((ticks[k].first + ticks[k].second) / 2.0 - (bar_start - 0.5),
                  10.0 * static_cast<double>(k) * kPxPerMm, 1.0)
          << k;
  }
}

TEST_F(TagSheet, EveryTagOfBothFacesAndEveryCornerMarkerIsReadAtItsSizeAndHeading) {
  ASSERT_NO_FATAL_FAILURE(expect_rendered());
  struct Expected {
    double size_mm, tag_x_angle_deg;  // the tag's +x in the page (y down), degrees
    int found = 0;
  };
  std::map<int, Expected> expected;
  const model::DiskRegistry disks = registry();
  const model::TableSpec markers = table();
  for (const model::DiskSpec& d : disks.disks())
    for (const model::TagSpec& t : d.tags)
      // Heading = page +x; the tag's +x is the heading turned by -offset seen from above (y up),
      // which is +offset in the page's y-down angles.
      expected[t.id] = {t.size_mm, t.heading_offset_deg};
  for (const model::CornerMarker& m : markers.corner_markers) expected[m.id] = {m.size_mm, 0.0};
  ASSERT_EQ(expected.size(), 11u);

  for (const auto& [page, d] : detections()) {
    auto it = expected.find(d.id);
    ASSERT_NE(it, expected.end()) << "tag " << d.id << " is not in the registry or the table";
    ++it->second.found;
    SCOPED_TRACE("tag " + std::to_string(d.id));
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(edge_length(d, i) / kPxPerMm, it->second.size_mm, 0.5) << "edge " << i;
    // corners[0] -> corners[1] runs along the upright bitmap's +x (apriltag corner order).
    cv::Point2d x_axis = d.corners[1] - d.corners[0];
    double angle = std::atan2(x_axis.y, x_axis.x) * 180 / std::numbers::pi;
    EXPECT_NEAR(angle_difference(angle, it->second.tag_x_angle_deg), 0.0, 1.0);
  }
  for (const auto& [id, e] : expected) EXPECT_EQ(e.found, 1) << "tag " << id;
}

TEST_F(TagSheet, CutOutlinesHaveTheDisksRealSizeAndAreCentredOnTheirTags) {
  ASSERT_NO_FATAL_FAILURE(expect_rendered());
  model::DiskRegistry disks = registry();
  int measured = 0;
  for (const auto& [page, d] : detections()) {
    auto ref = disks.find_tag(d.id);
    if (!ref) continue;  // a corner marker
    const model::DiskSpec& disk = disks.disks()[ref->disk_index];
    SCOPED_TRACE(disk.name + " tag " + std::to_string(d.id));
    const cv::Mat& gray = pages_[page];
    // Across the heading (the page's y) and along it (x) at an offset that misses a ship's arrow
    // and a template's ticks; `along_mm` / `across_mm` are the expected lengths.
    double across_mm = 0, along_mm = 0, along_offset_mm = 0, across_offset_mm = 0;
    if (auto c = std::get_if<geom::Circle>(&disk.shape)) {
      across_mm = along_mm = c->diameter_mm;
    } else if (auto f = std::get_if<geom::FlattedCircle>(&disk.shape)) {
      across_mm = f->diameter_mm;
      along_mm = f->flat_to_flat_mm;
      // Half the length of a flat: the row stays on the flats.
      along_offset_mm = 0.5 * std::sqrt(f->diameter_mm * f->diameter_mm - f->flat_to_flat_mm * f->flat_to_flat_mm) / 2;
    } else if (auto r = std::get_if<geom::Rect>(&disk.shape)) {
      across_mm = r->width_mm;
      along_mm = r->length_mm;
      across_offset_mm = 35;  // beyond the tag, between two 10 mm ticks
    }
    auto across = cut_span(gray, d.center, false, across_offset_mm * kPxPerMm, across_mm / 2 * kPxPerMm);
    // A face joined to its other face: the hinge side ends at the dashed fold line, which lies on
    // the flat; the row is moved along the flat until it meets a dash.
    std::optional<Span> along;
    for (int k = 0; k <= 12 && !along; ++k)
      for (int sign : {1, -1})
        if (!along)
          along =
              cut_span(gray, d.center, true, (along_offset_mm + sign * 0.25 * k) * kPxPerMm, along_mm / 2 * kPxPerMm);
    ASSERT_TRUE(across && along);
    EXPECT_NEAR(across->length_px, across_mm * kPxPerMm, 1.0);
    EXPECT_NEAR(along->length_px, along_mm * kPxPerMm, 1.0);
    EXPECT_NEAR(across->centre_shift_px, 0.0, 1.0);
    EXPECT_NEAR(along->centre_shift_px, 0.0, 1.0);
    ++measured;
  }
  EXPECT_EQ(measured, 7);
}

// A disk with a tag on each face is one piece: the down face lies beside the up face, heading the
// same way, one flip length plus the hinge (the disk's thickness) along the heading, with the two
// dashed fold lines across the hinge at the up face's front and the down face's back. Folded so,
// the down face lies under the up face as a flip over the front edge shows it: both faces' tags
// then give the same heading (the test above reads each at its offset).
TEST_F(TagSheet, FoldingPairsPutTheDownFaceOneFlipAndTheHingeAheadWithFoldLinesAtTheEdges) {
  ASSERT_NO_FATAL_FAILURE(expect_rendered());
  const model::DiskRegistry disks = registry();
  int pairs = 0;
  for (const model::DiskSpec& disk : disks.disks()) {
    if (disk.tags.size() < 2) continue;
    SCOPED_TRACE(disk.name);
    const vision::TagDetection* up = nullptr;
    const vision::TagDetection* down = nullptr;
    std::size_t up_page = 0, down_page = 1;
    for (const auto& [page, d] : detections())
      for (const model::TagSpec& t : disk.tags)
        if (t.id == d.id) (t.face == model::Face::up ? (up = &d, up_page = page) : (down = &d, down_page = page));
    ASSERT_TRUE(up && down);
    ASSERT_EQ(up_page, down_page);
    const double front = geom::support_local(disk.shape, {1, 0}).x;
    const cv::Point2d offset = down->center - up->center;
    EXPECT_NEAR(offset.x / kPxPerMm, 2 * front + disk.thickness_mm, 1.0 / kPxPerMm);
    EXPECT_NEAR(offset.y, 0.0, 1.0);
    // The fold lines: dashed (ink on part of the column across the hinge), on the flat's length.
    const cv::Mat& gray = pages_[up_page];
    const double flat_half = std::sqrt(std::pow(geom::bounding_radius(disk.shape), 2) - front * front);
    for (double x_mm : {front, front + disk.thickness_mm}) {
      const int u = static_cast<int>(std::lround(up->center.x + x_mm * kPxPerMm - 0.5));
      int inked = 0, rows = 0;
      for (double y = -0.8 * flat_half; y <= 0.8 * flat_half; y += 1 / kPxPerMm, ++rows) {
        const int v = static_cast<int>(std::lround(up->center.y + y * kPxPerMm));
        double dark = 0;
        for (int du = -1; du <= 1; ++du) dark = std::max(dark, darkness(gray, v, u + du));
        inked += dark >= 0.5;
      }
      EXPECT_GT(inked, rows / 3) << "fold line at " << x_mm << " mm";
      EXPECT_LT(inked, rows * 4 / 5) << "fold line at " << x_mm << " mm is not dashed";
    }
    ++pairs;
  }
  EXPECT_EQ(pairs, 2);
}

// Every disk's name is printed inside its cut line (a cut disk is not anonymous), clear of its tag:
// the sheet library says where it put each name; the command's own pixels show ink there, enclosed
// by the cut line (a flood from the paper outside the piece never reaches it), and the detector's
// tag with its printed margin does not overlap it.
TEST_F(TagSheet, EveryDiskIsNamedInsideItsCutLineClearOfItsTag) {
  ASSERT_NO_FATAL_FAILURE(expect_rendered());
  print::SheetOptions options;
  options.dpi = kDpi;
  options.board = print::BoardSpec{print::BoardSpec::Type::chessboard, 5, 4, 15.0, 0, 0};
  options.title = (sheet_dir_ / "disks.json").string();
  const model::DiskRegistry disks = registry();
  const model::TableSpec markers = table();
  std::vector<print::SheetPlacement> placements;
  const std::vector<cv::Mat> library_pages = print::tag_sheets(disks, &markers, options, &placements);
  ASSERT_EQ(library_pages.size(), colour_pages_.size());
  for (std::size_t p = 0; p < library_pages.size(); ++p)
    EXPECT_EQ(cv::norm(library_pages[p], colour_pages_[p], cv::NORM_INF), 0.0);

  std::map<std::string, int> named;  // disk name -> labels found inside its piece
  for (const print::SheetPlacement& place : placements) {
    if (place.inside_labels.empty()) continue;
    SCOPED_TRACE(place.what);
    const cv::Mat& gray = pages_[place.page];
    // Paper outside the piece, flooded from the item's corner over everything that is not ink.
    cv::Rect area(static_cast<int>((place.rect_mm.x - 2) * kPxPerMm),
                  static_cast<int>((place.rect_mm.y - 2) * kPxPerMm),
                  static_cast<int>((place.rect_mm.width + 4) * kPxPerMm),
                  static_cast<int>((place.rect_mm.height + 4) * kPxPerMm));
    area &= cv::Rect(0, 0, gray.cols, gray.rows);
    cv::Mat open = gray(area) > 128, flooded = open.clone();
    cv::floodFill(flooded, cv::Point(0, 0), cv::Scalar(128));
    for (const print::SheetPlacement::InsideLabel& label : place.inside_labels) {
      SCOPED_TRACE(label.text);
      std::vector<cv::Point> box;
      for (const cv::Point2d& c : label.box_mm)
        box.emplace_back(static_cast<int>(c.x * kPxPerMm) - area.x, static_cast<int>(c.y * kPxPerMm) - area.y);
      cv::Mat in_box = cv::Mat::zeros(open.size(), CV_8U);
      cv::fillConvexPoly(in_box, box, cv::Scalar(255));
      const int box_px = cv::countNonZero(in_box);
      ASSERT_GT(box_px, 20);
      EXPECT_GT(cv::countNonZero(in_box & (gray(area) < 100)), box_px / 20) << "no ink where the label is";
      EXPECT_EQ(cv::countNonZero(in_box & (flooded == 128)), 0) << "the label is not enclosed by the cut line";
      // Clear of every tag's printed 9 x 9 cells (the detector's 5 x 5 corners, grown 1.8 times).
      for (const auto& [page, d] : detections()) {
        if (page != place.page) continue;
        std::vector<cv::Point2f> tag, label_poly, overlap;
        for (const cv::Point2d& c : d.corners)
          tag.push_back(cv::Point2f(d.center + (c - d.center) * 1.8) - cv::Point2f(area.tl()));
        for (const cv::Point& c : box) label_poly.emplace_back(static_cast<float>(c.x), static_cast<float>(c.y));
        EXPECT_LT(cv::intersectConvexConvex(tag, label_poly, overlap), 1.0) << "the label overlaps tag " << d.id;
      }
      ++named[label.text];
    }
  }
  for (const model::DiskSpec& d : disks.disks()) EXPECT_EQ(named[d.name], static_cast<int>(d.tags.size())) << d.name;
}

TEST_F(TagSheet, TheCalibrationBoardHasItsSquareSize) {
  ASSERT_NO_FATAL_FAILURE(expect_rendered());
  int boards = 0;
  for (const cv::Mat& page : pages_) {
    // Found at half size (quicker), refined at full size.
    std::vector<cv::Point2f> corners;
    cv::Mat half;
    cv::resize(page, half, {}, 0.5, 0.5, cv::INTER_AREA);
    if (!cv::findChessboardCorners(
            half, cv::Size(5, 4), corners,
            cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE | cv::CALIB_CB_FAST_CHECK))
      continue;
    ++boards;
    for (cv::Point2f& c : corners) c = c * 2.0f + cv::Point2f(0.5f, 0.5f);
    cv::cornerSubPix(page, corners, cv::Size(11, 11), cv::Size(-1, -1),
                     cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 50, 0.001));
    // Neighbours along rows and along columns (the board may be printed turned).
    double sum = 0;
    int n = 0;
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 5; ++c) {
        auto at = [&](int rr, int cc) { return corners[static_cast<std::size_t>(rr * 5 + cc)]; };
        if (c + 1 < 5) sum += cv::norm(at(r, c + 1) - at(r, c)), ++n;
        if (r + 1 < 4) sum += cv::norm(at(r + 1, c) - at(r, c)), ++n;
      }
    EXPECT_NEAR(sum / n / kPxPerMm, 15.0, 0.05);
  }
  EXPECT_EQ(boards, 1);
}

// The pHYs chunk: right after IHDR, 4-byte x and y pixels per unit, unit 1 = metre, and a CRC
// over type and data.
TEST_F(TagSheet, EveryPngPageCarriesItsDpi) {
  ASSERT_NO_FATAL_FAILURE(expect_rendered());
  for (const fs::path& file : page_files(sheet_dir_ / "sheet.png")) {
    SCOPED_TRACE(file.string());
    std::vector<uint8_t> png = read_bytes(file);
    auto be32 = [&](std::size_t at) {
      return (uint32_t{png[at]} << 24) | (uint32_t{png[at + 1]} << 16) | (uint32_t{png[at + 2]} << 8) |
             uint32_t{png[at + 3]};
    };
    ASSERT_GT(png.size(), 33u + 21u);
    std::size_t at = 8 + 12 + be32(8);  // after the signature and IHDR
    ASSERT_EQ(std::string(png.begin() + static_cast<std::ptrdiff_t>(at + 4),
                          png.begin() + static_cast<std::ptrdiff_t>(at + 8)),
              "pHYs");
    EXPECT_EQ(be32(at), 9u);
    EXPECT_EQ(be32(at + 8), static_cast<uint32_t>(std::lround(kDpi / 0.0254)));
    EXPECT_EQ(be32(at + 12), static_cast<uint32_t>(std::lround(kDpi / 0.0254)));
    EXPECT_EQ(png[at + 16], 1);
    EXPECT_EQ(be32(at + 17), static_cast<uint32_t>(crc32(0, &png[at + 4], 13)));
  }
}

// Un-does the PNG row filters (PNG spec 9: None, Sub, Up, Average, Paeth) of 8-bit RGB rows.
std::vector<uint8_t> unfilter_rgb(const std::vector<uint8_t>& data, int width, int height) {
  const std::size_t stride = static_cast<std::size_t>(width) * 3;
  std::vector<uint8_t> out(stride * static_cast<std::size_t>(height));
  for (std::size_t y = 0; y < static_cast<std::size_t>(height); ++y) {
    uint8_t filter = data[y * (stride + 1)];
    const uint8_t* in = &data[y * (stride + 1) + 1];
    uint8_t* row = &out[y * stride];
    const uint8_t* up = y > 0 ? row - stride : nullptr;
    for (std::size_t i = 0; i < stride; ++i) {
      int a = i >= 3 ? row[i - 3] : 0, b = up ? up[i] : 0, c = (up && i >= 3) ? up[i - 3] : 0;
      int predictor = 0;
      switch (filter) {
        case 1:
          predictor = a;
          break;
        case 2:
          predictor = b;
          break;
        case 3:
          predictor = (a + b) / 2;
          break;
        case 4: {
          int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
          break;
        }
        default:
          break;
      }
      row[i] = static_cast<uint8_t>(in[i] + predictor);
    }
  }
  return out;
}

// The PDF as a reader sees it: the cross-reference table points at every object, one page per
// sheet with its MediaBox at the sheet's physical size, and each page's image decodes (Flate with
// PNG predictors) to exactly the pixels of the PNG page.
TEST_F(TagSheet, ThePdfHasOnePagePerSheetAtThePhysicalSizeWithTheSamePixels) {
  ASSERT_NO_FATAL_FAILURE(expect_rendered());
  auto r =
      run("tags --disks " + (sheet_dir_ / "disks.json").string() + " --table " + (sheet_dir_ / "table.json").string() +
          " --out " + path("sheet.pdf") + " --dpi 237 --board chessboard:5x4:15");
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<uint8_t> bytes = read_bytes(path("sheet.pdf"));
  std::string pdf(bytes.begin(), bytes.end());
  ASSERT_EQ(pdf.rfind("%PDF-1.", 0), 0u);
  ASSERT_GE(pdf.size(), 64u);

  // startxref -> the xref table -> every object where it says.
  std::string tail = pdf.substr(pdf.size() - 40);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(tail, m, std::regex(R"(startxref\n([0-9]+)\n%%EOF\n$)"))) << tail;
  std::size_t xref = std::stoul(m[1]);
  ASSERT_LT(xref, pdf.size());
  std::string table = pdf.substr(xref, pdf.size() - xref);
  ASSERT_TRUE(std::regex_search(table, m, std::regex(R"(^xref\n0 ([0-9]+)\n)"))) << table.substr(0, 40);
  std::size_t objects = std::stoul(m[1]);
  std::size_t entries = xref + static_cast<std::size_t>(m.length(0));
  for (std::size_t n = 1; n < objects; ++n) {
    std::size_t offset = std::stoul(pdf.substr(entries + 20 * n, 10));
    std::string start = std::to_string(n) + " 0 obj";
    EXPECT_EQ(pdf.compare(offset, start.size(), start), 0) << "object " << n;
  }
  EXPECT_NE(table.find("trailer\n<< /Size " + std::to_string(objects) + " /Root 1 0 R >>"), std::string::npos);

  // The object dictionaries (one line each; the image data follows "stream\n").
  auto dictionaries = [&](const std::string& key) {
    std::vector<std::pair<std::size_t, std::string>> found;  // offset after the line, the line
    for (std::size_t at = pdf.find(key); at != std::string::npos; at = pdf.find(key, at + 1)) {
      std::size_t begin = pdf.rfind("<<", at), end = pdf.find('\n', at);
      found.emplace_back(end + 1, pdf.substr(begin, end - begin));
    }
    return found;
  };
  auto page_objects = dictionaries("/Type /Page ");
  ASSERT_EQ(page_objects.size(), pages_.size());
  EXPECT_NE(pdf.find("/Count " + std::to_string(pages_.size()) + " "), std::string::npos);
  for (const auto& [after, line] : page_objects) {
    ASSERT_TRUE(std::regex_search(line, m, std::regex(R"(/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\])"))) << line;
    EXPECT_NEAR(std::stod(m[1]), pages_[0].cols / kDpi * 72, 0.001);
    EXPECT_NEAR(std::stod(m[2]), pages_[0].rows / kDpi * 72, 0.001);
  }
  auto images = dictionaries("/Subtype /Image ");
  ASSERT_EQ(images.size(), pages_.size());
  for (std::size_t page = 0; page < images.size(); ++page) {
    const auto& [after, line] = images[page];
    ASSERT_TRUE(std::regex_search(line, m, std::regex(R"(/Width ([0-9]+) /Height ([0-9]+) .*/Length ([0-9]+) >>$)")))
        << line;
    int width = std::stoi(m[1]), height = std::stoi(m[2]);
    ASSERT_EQ(width, pages_[page].cols);
    ASSERT_EQ(height, pages_[page].rows);
    ASSERT_EQ(pdf.compare(after, 7, "stream\n"), 0);
    const auto* stream = reinterpret_cast<const Bytef*>(pdf.data() + after + 7);
    std::vector<uint8_t> raw(static_cast<std::size_t>(height) * (static_cast<std::size_t>(width) * 3 + 1));
    uLongf raw_size = static_cast<uLongf>(raw.size());
    ASSERT_EQ(uncompress(raw.data(), &raw_size, stream, std::stoul(m[3])), Z_OK);
    ASSERT_EQ(raw_size, raw.size());
    std::vector<uint8_t> pixels = unfilter_rgb(raw, width, height);
    cv::Mat rgb(height, width, CV_8UC3, pixels.data()), bgr;
    cv::cvtColor(rgb, bgr, cv::COLOR_RGB2BGR);
    EXPECT_EQ(cv::norm(bgr, colour_pages_[page], cv::NORM_INF), 0.0) << "page " << page + 1;
  }

  // An independent reader, when poppler-utils is installed (scripts/install-deps.sh installs it).
  if (std::system("command -v pdfinfo > /dev/null 2>&1") != 0) GTEST_SKIP() << "pdfinfo (poppler-utils) not installed";
  int info = std::system(("pdfinfo " + path("sheet.pdf") + " > " + path("info.txt") + " 2>&1").c_str());
  std::string text = testing::slurp(path("info.txt"));
  EXPECT_EQ(info, 0) << text;
  EXPECT_EQ(text.find("rror"), std::string::npos) << text;  // poppler reports "Syntax Error", "Internal Error"
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(Pages:\s+([0-9]+)\n)"))) << text;
  EXPECT_EQ(std::stoul(m[1]), pages_.size());
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(Page size:\s+([0-9.]+) x ([0-9.]+) pts)"))) << text;
  EXPECT_NEAR(std::stod(m[1]), pages_[0].cols / kDpi * 72, 0.01);
  EXPECT_NEAR(std::stod(m[2]), pages_[0].rows / kDpi * 72, 0.01);
  // poppler renders page 1 at the DPI to the same pixels, up to its resampling of edges (measured:
  // 0.7 levels on average, 0.4 % of pixels off by more than 64; the same page 1 % too large would
  // give 14.6 levels and 6.7 %).
  ASSERT_EQ(std::system(("pdftoppm -r 237 -f 1 -l 1 " + path("sheet.pdf") + " " + path("poppler")).c_str()), 0);
  fs::path rendered;
  for (const auto& e : fs::directory_iterator(dir_))
    if (e.path().filename().string().rfind("poppler", 0) == 0) rendered = e.path();
  cv::Mat back = cv::imread(rendered.string(), cv::IMREAD_COLOR);
  // poppler rounds the page's pixel count up (2771.0 of them at 237 DPI give it 2772).
  ASSERT_NEAR(back.cols, pages_[0].cols, 1);
  ASSERT_NEAR(back.rows, pages_[0].rows, 1);
  cv::Rect common(0, 0, std::min(back.cols, pages_[0].cols), std::min(back.rows, pages_[0].rows));
  cv::Mat difference, grey_difference;
  cv::absdiff(back(common), colour_pages_[0](common), difference);
  EXPECT_LT(cv::mean(difference)[0], 3.0);
  cv::cvtColor(difference, grey_difference, cv::COLOR_BGR2GRAY);
  EXPECT_LT(cv::countNonZero(grey_difference > 64), common.area() / 50);
}

// Warnings and bad input: small registries, no board, so that nothing takes long.
using TagsCommand = testing::CommandTest;

TEST_F(TagsCommand, WarnsAboutATagTooSmallForTheCameraNamingTheDisk) {
  write_text(path("disks.json"), kDisksJson);
  // 640 px over 70 degrees from 1.5 m: f = 457 px, so a 12 mm tag has 0.73 px per cell.
  auto r = run("tags --disks " + path("disks.json") + " --board none --dpi 72 --out " + path("s.png") +
               " --camera-resolution 640x480 --camera-fov 70 --camera-height 1500");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("diskref tags: warning: range up: tag 60 (12 mm) has 0.73 px per cell"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("moon up: tag 70 (40 mm) has 2.44 px per cell"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("moon up: tag 70 (40 mm) has 2.44 px per cell seen from 1500 mm by a 640x480 camera with a 70 "
                       "degree field of view; it needs 2.5: a tag of at least 41.1 mm, or a closer or sharper camera"),
            std::string::npos)
      << r.err;
  // 12 mm x 0.73 -> 2.5 px needs a 41.1 mm tag, and the 25.4 mm wide template takes at most 14.1 mm.
  EXPECT_NE(
      r.err.find("range up: tag 60 (12 mm) has 0.73 px per cell seen from 1500 mm by a 640x480 camera with a 70 "
                 "degree field of view; it needs 2.5: a tag of at least 41.1 mm, larger than fits this disk (14.1 mm): "
                 "a closer or sharper camera"),
      std::string::npos)
      << r.err;
  EXPECT_TRUE(fs::exists(path("s.png")));
  // The same registry seen by a 4K camera from 60 cm: no warning about the camera; the torpedo's
  // one tagged face is said whatever the camera.
  r = run("tags --disks " + path("disks.json") + " --board none --dpi 72 --out " + path("s.png") +
          " --camera-resolution 3840x2160 --camera-fov 60 --camera-height 600");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(
      r.err,
      "diskref tags: warning: torpedo: a torpedo flips, but it has a tag on its up face only: after an odd number "
      "of flips it is not seen; give its other face a tag of its own (diskref setup kit makes both)\n");
}

TEST_F(TagsCommand, ATagTooBigForItsDiskIsRefusedNamingTheFileThePlaceAndTheProblem) {
  // The registry loader refuses it (spec §2: the tag must fit), so the sheet is never printed.
  std::string disks = std::regex_replace(std::string(kDisksJson), std::regex(R"("size_mm": 28)"), R"("size_mm": 31)");
  write_text(path("disks.json"), disks);
  auto r = run("tags --disks " + path("disks.json") + " --out " + path("s.png"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(path("disks.json") + ": disks[1].tags[0].size_mm: disk \"hawk\": printed tag (55.8 mm square = "
                                            "1.8 x size_mm 31.00) does not fit on the disk; the largest that fits is"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(path("s.png")));
}

TEST_F(TagsCommand, BadInputExitsWith2AndNamesTheFileOrOption) {
  write_text(path("disks.json"), kDisksJson);
  std::string disks = " --disks " + path("disks.json");
  struct Case {
    std::string arguments, message;
  };
  const Case cases[] = {
      {"tags --disks " + path("missing.json") + " --out " + path("s.png"), path("missing.json")},
      {"tags" + disks + " --out " + path("s.png") + " --page a5",
       "diskref tags: --page: expected a4, a3, letter or WIDTHxHEIGHT in mm, not \"a5\""},
      {"tags" + disks + " --out " + path("s.png") + " --page 50x297",
       "--page: each side must be between 100 and 2000 mm"},
      {"tags" + disks + " --out " + path("s.png") + " --page 1.2.3x297", "--page: expected"},
      {"tags" + disks + " --out " + path("s.png") + " --board chessboard:9x",
       "diskref tags: --board: expected none, chessboard:9x6:20"},
      {"tags" + disks + " --out " + path("s.png") + " --board charuco:5x5:20:25", "--board: "},
      {"tags" + disks + " --out " + path("s.png") + " --dpi 2000", "--dpi: must be between 72 and 1200, not 2000"},
      {"tags" + disks + " --out " + path("s.jpg"),
       "diskref tags: " + path("s.jpg") + ": the output must end in .pdf or .png"},
      {"tags" + disks + " --out " + path("s.png") + " --camera-resolution 640x480",
       "--camera-resolution/--camera-fov/--camera-height"},
      // A disk with two faces is one piece (both faces and the hinge between them).
      {"tags" + disks + " --out " + path("s.png") + " --page 100x150 --board none",
       path("disks.json") +
           ": \"kestrel: up | down\" (118 x 66 mm) does not fit on a 100 x 150 mm page with 10 mm margins"},
  };
  for (const Case& c : cases) {
    auto r = run(c.arguments);
    EXPECT_EQ(r.status, 2) << c.arguments << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.arguments << "\n" << r.err;
    EXPECT_FALSE(fs::exists(path("s.png")) || fs::exists(path("s.jpg"))) << c.arguments;
  }
}

}  // namespace
}  // namespace diskref
