// Choosing calibration views: the blur measure against known blurs, the board's motion against a
// known shift, near-duplicates, coverage, and the selection's reasons.
#include "calibration/view_selection.h"

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "calibration/view_quality.h"

namespace diskref::calib {
namespace {

const BoardSpec kBoard = ChessboardSpec{{9, 6}, 25.0};

// A flat chessboard of 9x6 inner corners, 40 px squares, drawn 8x larger and reduced (area
// averaging) so that its edges are as sharp as a camera's can be.
cv::Mat sharp_chessboard(cv::Point2d top_left = {80, 60}) {
  constexpr int kScale = 8;
  cv::Mat big(480 * kScale, 640 * kScale, CV_8UC1, cv::Scalar(200));
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 10; ++c)
      if ((r + c) % 2 == 0) {
        cv::Point p0(static_cast<int>((top_left.x + c * 40) * kScale),
                     static_cast<int>((top_left.y + r * 40) * kScale));
        cv::rectangle(big, cv::Rect(p0, cv::Size(40 * kScale, 40 * kScale)), cv::Scalar(30), cv::FILLED);
      }
  cv::Mat out;
  cv::resize(big, out, cv::Size(640, 480), 0, 0, cv::INTER_AREA);
  return out;
}

BoardView view_of(const cv::Mat& gray, const std::string& name = "view") {
  auto view = detect_board(gray, kBoard, name);
  EXPECT_TRUE(view) << name;
  return view.value_or(BoardView{});
}

TEST(EdgeWidth, GrowsWithBlurAsAGaussianEdgeShould) {
  cv::Mat sharp = sharp_chessboard();
  BoardView view = view_of(sharp);
  auto w0 = edge_width_px(sharp, view, kBoard);
  ASSERT_TRUE(w0);
  EXPECT_LT(*w0, 1.6);  // a box-filtered step: about 1 px
  for (double sigma : {1.0, 2.0, 3.0}) {
    cv::Mat blurred;
    cv::GaussianBlur(sharp, blurred, cv::Size(0, 0), sigma);
    auto w = edge_width_px(blurred, view, kBoard);
    ASSERT_TRUE(w);
    // 10-90 % of a Gaussian edge is 2.56 sigma (plus the step's own width, in quadrature).
    EXPECT_NEAR(*w, std::hypot(2.56 * sigma, *w0), 0.35) << "sigma " << sigma;
  }
}

TEST(EdgeWidth, SeesMotionBlurInOneDirection) {
  cv::Mat sharp = sharp_chessboard();
  BoardView view = view_of(sharp);
  cv::Mat kernel = cv::Mat::ones(1, 9, CV_32F) / 9.0;  // 9 px of horizontal motion
  cv::Mat smeared;
  cv::filter2D(sharp, smeared, -1, kernel);
  auto w = edge_width_px(smeared, view, kBoard);
  ASSERT_TRUE(w);
  EXPECT_GT(*w, 5.0);  // a 9 px box smear: 0.8 x 9 = 7.2 px from 10 to 90 %
}

TEST(BoardMotion, MeasuresAShiftBetweenFrames) {
  cv::Mat before = sharp_chessboard({80, 60});
  cv::Mat after = sharp_chessboard({83, 61.5});
  BoardView view = view_of(after);
  auto moved = board_motion_px(before, after, view);
  ASSERT_TRUE(moved);
  EXPECT_NEAR(*moved, std::hypot(3.0, 1.5), 0.1);
  auto still = board_motion_px(after, after, view);
  ASSERT_TRUE(still);
  EXPECT_LT(*still, 0.01);
}

TEST(ViewDistance, IsTheMeanCornerDistanceOfSharedCorners) {
  BoardView a = view_of(sharp_chessboard({80, 60}));
  BoardView b = view_of(sharp_chessboard({90, 60}));
  auto d = view_distance_px(a, b);
  ASSERT_TRUE(d);
  EXPECT_NEAR(*d, 10.0, 0.05);
  BoardView few = a;
  few.corner_ids.resize(3);
  few.image_points.resize(3);
  EXPECT_FALSE(view_distance_px(few, b));  // fewer than 4 shared corners: different parts
}

TEST(Coverage, AreaAndCellsOfTheBoardsOutlines) {
  BoardView a = view_of(sharp_chessboard({80, 60}));
  // Inner corners span (120..440) x (100..300): 320 x 200 px of a 640 x 480 image.
  EXPECT_NEAR(image_coverage({a}, {640, 480}), 320.0 * 200.0 / (640 * 480), 0.015);
  // Corners in columns 0..2 and rows 0..2 of a 4x4 grid (160 x 120 px cells): 9 of 16.
  EXPECT_NEAR(corner_cell_coverage({a}, {640, 480}, 4), 9.0 / 16, 1e-9);
}

ViewCandidate candidate(const BoardView& view, const std::string& name, double width, std::optional<double> motion) {
  ViewCandidate c{view, width, motion};
  c.view.name = name;
  return c;
}

TEST(SelectViews, DropsMovingAndDuplicateViewsAndSaysWhyButKeepsSoftOnes) {
  BoardView a = view_of(sharp_chessboard({80, 60}));
  BoardView b = view_of(sharp_chessboard({160, 120}));
  BoardView c = view_of(sharp_chessboard({20, 20}));
  BoardView a_again = view_of(sharp_chessboard({82, 61}));  // 2.2 px from a: a duplicate at 640x480
  std::vector<ViewCandidate> candidates{
      candidate(a, "a", 1.2, 0.1),
      candidate(b, "b", 1.3, 0.2),
      candidate(c, "c", 4.5, 0.1),         // soft: kept (its corners are judged by the calibration)
      candidate(c, "c-moving", 1.2, 2.5),  // moving
      candidate(a_again, "a-again", 1.4, 0.0),
  };
  ViewSelection s = select_views(candidates, {640, 480});
  ASSERT_EQ(s.kept.size(), 3u);
  EXPECT_EQ(s.kept[0].name, "a");  // in the candidates' order
  EXPECT_EQ(s.kept[1].name, "b");
  EXPECT_EQ(s.kept[2].name, "c");
  std::map<std::string, std::string> why;
  for (const auto& d : s.dropped) why[d.name] = d.reason;
  ASSERT_EQ(why.size(), 2u);
  EXPECT_NE(why["c-moving"].find("moving"), std::string::npos) << why["c-moving"];
  EXPECT_NE(why["a-again"].find("near-duplicate of a"), std::string::npos) << why["a-again"];
}

TEST(SelectViews, BlurAloneDropsNoViewButTheSharperTwinIsKept) {
  // Soft views (a webcam at 1-3 m) and one very soft: all kept; of two views of one pose, the
  // sharper.
  BoardView a = view_of(sharp_chessboard({80, 60}));
  std::vector<ViewCandidate> candidates;
  for (int i = 0; i < 8; ++i) {
    BoardView v = a;
    for (auto& p : v.image_points) p.x += static_cast<float>(30 * i);
    candidates.push_back(
        candidate(v, std::string("v").append(std::to_string(i)), i == 5 ? 7.0 : 3.5 + 0.05 * i, std::nullopt));
  }
  candidates.push_back(candidate(candidates[5].view, "v5-sharper", 3.0, std::nullopt));
  ViewSelection s = select_views(candidates, {640, 480});
  EXPECT_EQ(s.kept.size(), 8u);
  ASSERT_EQ(s.dropped.size(), 1u);
  EXPECT_EQ(s.dropped[0].name, "v5");
  EXPECT_EQ(s.dropped[0].kind, "near-duplicate");
}

TEST(SelectViews, KeepsAtMostMaxViewsThinningTheMostAlike) {
  BoardView a = view_of(sharp_chessboard({80, 60}));
  std::vector<ViewCandidate> candidates;
  for (int i = 0; i < 6; ++i) {
    BoardView v = a;
    // Pairs of close views: 0-1, 2-3, 4-5 (12 px apart within a pair, 100 px between pairs).
    for (auto& p : v.image_points) p.x += static_cast<float>(100 * (i / 2) + 12 * (i % 2));
    candidates.push_back(candidate(v, std::string("v").append(std::to_string(i)), 1.2 + 0.01 * i, std::nullopt));
  }
  ViewSelectionOptions options;
  options.max_views = 3;
  ViewSelection s = select_views(candidates, {640, 480}, options);
  std::vector<std::string> kept;
  for (const auto& v : s.kept) kept.push_back(v.name);
  EXPECT_EQ(kept, (std::vector<std::string>{"v0", "v2", "v4"}));  // the sharper of each pair
  EXPECT_EQ(s.dropped.size(), 3u);
}

}  // namespace
}  // namespace diskref::calib
