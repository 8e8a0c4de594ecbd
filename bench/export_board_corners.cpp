// Writes the board corners diskref finds in a folder of images as mrcal's corners.vnl
// ("# filename x y level", every corner of the grid row by row, "- - -" for one not found), so
// that mrcal is fed exactly the corners diskref's own calibration uses (examine_view: the same
// detection and sub-pixel refinement as `diskref calibrate` and calibration_bench). Used by
// scripts/mrcal_comparison.py (issue 37: diskref's lens fit measured against mrcal's on the same
// views). Images of another size than the folder's most common one are skipped, as the bench does.
//
// Usage: export_board_corners DIR chessboard COLSxROWS SQUARE_MM
//        export_board_corners DIR charuco COLSxROWS SQUARE_MM MARKER_MM DICTIONARY
// (chessboard: inner corners; charuco: squares, as `diskref calibrate` counts them).

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <opencv2/imgcodecs.hpp>

#include "calibration/calibration_board.h"
#include "calibration/view_selection.h"

namespace {

namespace fs = std::filesystem;
using namespace diskref;

int export_usage(const std::string& problem) {
  std::fprintf(stderr,
               "export_board_corners: %s\nusage: export_board_corners DIR chessboard COLSxROWS SQUARE_MM\n"
               "       export_board_corners DIR charuco COLSxROWS SQUARE_MM MARKER_MM DICTIONARY\n",
               problem.c_str());
  return 2;
}

bool parse_grid_size(const std::string& text, cv::Size& out) {
  int cols = 0, rows = 0;
  char x = 0;
  if (std::sscanf(text.c_str(), "%d%c%d", &cols, &x, &rows) != 3 || x != 'x' || cols < 2 || rows < 2) return false;
  out = cv::Size(cols, rows);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) return export_usage("too few arguments");
  const fs::path dir = argv[1];
  const std::string kind = argv[2];
  cv::Size grid;
  if (!parse_grid_size(argv[3], grid))
    return export_usage(std::string("board size '") + argv[3] + "' is not COLSxROWS");
  calib::BoardSpec board;
  try {
    if (kind == "chessboard" && argc == 5) {
      board = calib::ChessboardSpec{grid, std::stod(argv[4])};
    } else if (kind == "charuco" && argc == 7) {
      calib::CharucoSpec spec;
      spec.squares = grid;
      spec.square_mm = std::stod(argv[4]);
      spec.marker_mm = std::stod(argv[5]);
      spec.dictionary = argv[6];
      board = spec;
    } else {
      return export_usage(
          "board must be 'chessboard COLSxROWS SQUARE_MM' or 'charuco COLSxROWS SQUARE_MM MARKER_MM DICT'");
    }
    calib::validate_board(board);
  } catch (const std::exception& e) {
    return export_usage(e.what());
  }
  if (!fs::is_directory(dir)) return export_usage(dir.string() + ": not a folder");

  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string ext = e.path().extension().string();
    if (ext == ".jpg" || ext == ".png") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::map<std::pair<int, int>, int> sizes;
  std::vector<std::pair<fs::path, cv::Mat>> images;
  for (const auto& f : files) {
    cv::Mat gray = cv::imread(f.string(), cv::IMREAD_GRAYSCALE);
    if (gray.empty()) {
      std::fprintf(stderr, "%s: not an image OpenCV can read; skipped\n", f.string().c_str());
      continue;
    }
    ++sizes[{gray.cols, gray.rows}];
    images.emplace_back(f, std::move(gray));
  }
  if (sizes.empty()) return export_usage(dir.string() + ": no .jpg or .png image");
  const auto mode =
      std::max_element(sizes.begin(), sizes.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  const cv::Size image_size(mode->first.first, mode->first.second);
  const cv::Size corners = calib::corner_grid(board);
  const int n = corners.width * corners.height;

  std::printf("# filename x y level\n");
  int found = 0;
  for (const auto& [f, gray] : images) {
    if (gray.size() != image_size) continue;
    const auto c = calib::examine_view(gray, cv::Mat(), board, f.filename().string());
    if (!c) {
      std::fprintf(stderr, "%s: board not found\n", f.filename().string().c_str());
      continue;
    }
    ++found;
    std::vector<const cv::Point2f*> by_id(static_cast<std::size_t>(n), nullptr);
    for (std::size_t i = 0; i < c->view.corner_ids.size(); ++i)
      by_id[static_cast<std::size_t>(c->view.corner_ids[i])] = &c->view.image_points[i];
    for (const cv::Point2f* p : by_id) {
      if (p)
        std::printf("%s %.4f %.4f 0\n", f.filename().string().c_str(), static_cast<double>(p->x),
                    static_cast<double>(p->y));
      else
        std::printf("%s - - -\n", f.filename().string().c_str());
    }
  }
  std::fprintf(stderr, "%s: board found in %d of %d images of %dx%d\n", dir.string().c_str(), found,
               sizes[{image_size.width, image_size.height}], image_size.width, image_size.height);
  return 0;
}
