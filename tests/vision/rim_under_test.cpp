// Whether a part against a flat counter could be a counter under it (vision/rim_under.h), on
// masks drawn from exact solids seen by a tilted camera at about a pixel a millimetre: the rim of
// a counter under it could; a counter standing on its edge touching it, pointing away or along
// it, could not; and where the picture cannot tell, it could.
#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include <numbers>

#include "engine/geometry/outline.h"
#include "vision/foreign_shapes.h"
#include "vision/rim_under.h"
#include "vision_test_support.h"

namespace diskref::vision {
namespace {

constexpr double kUnderCounterMm = 25.4;
constexpr double kUnderThicknessMm = 2.0;
const geom::Vec2 kUpperAt{300, 300};

class RimUnder : public ::testing::Test {
 protected:
  // About 1 px/mm, looking 25 degrees off straight down: the counters' sides and shadows show.
  calib::CameraPose camera = test::camera_looking_at({1280, 960}, 1000, {300, 300}, 1000, 25);
  cv::Rect roi;
  cv::Mat hidden, drawn;  // what known disks explain; everything unexplained drawn
  std::vector<CounterBody> bodies = {{geom::Circle{kUnderCounterMm}, kUnderThicknessMm}};  // the registry's counters

  void SetUp() override {
    std::vector<cv::Point3d> corners;
    for (double x : {230.0, 370.0})
      for (double y : {230.0, 370.0}) corners.emplace_back(x, y, 0.0);
    std::vector<cv::Point> px;
    for (const cv::Point2d& p : calib::image_from_table(camera, corners)) px.emplace_back(cvRound(p.x), cvRound(p.y));
    roi = cv::boundingRect(px);
    hidden = cv::Mat::zeros(roi.size(), CV_8U);
    drawn = cv::Mat::zeros(roi.size(), CV_8U);
    known(kUpperAt);
  }

  // The image of a solid: the convex hull of its outline at the heights given.
  void fill(cv::Mat& mask, const std::vector<geom::Vec2>& outline, std::vector<double> heights) {
    std::vector<cv::Point3d> solid;
    for (double h : heights)
      for (const geom::Vec2& p : outline) solid.emplace_back(p.x, p.y, h);
    std::vector<cv::Point> px, hull;
    for (const cv::Point2d& p : calib::image_from_table(camera, solid))
      px.emplace_back(cvRound(p.x) - roi.x, cvRound(p.y) - roi.y);
    cv::convexHull(px, hull);
    cv::fillConvexPoly(mask, hull, cv::Scalar(255));
  }
  static std::vector<geom::Vec2> circle(geom::Vec2 c, double radius) {
    std::vector<geom::Vec2> out;
    for (int k = 0; k < 96; ++k) {
      const double a = 2 * std::numbers::pi * k / 96;
      out.push_back({c.x + radius * std::cos(a), c.y + radius * std::sin(a)});
    }
    return out;
  }
  // A known flat counter: what the tracker's footprints explain (its outline grown as
  // tracker_foreign.cpp grows it: margin, half its thickness, 2 sigma of 0.1 mm, a pixel).
  void known(geom::Vec2 at) {
    const double grow = kForeignFootprintMarginMm + kUnderThicknessMm / 2 + 0.2 + 1.0;
    fill(hidden, circle(at, kUnderCounterMm / 2 + grow), {0.0, kUnderThicknessMm});
  }
  // A counter lying flat somewhere (under the known ones, where they lie over it).
  void flat_counter(geom::Vec2 at) { fill(drawn, circle(at, kUnderCounterMm / 2), {0.0, kUnderThicknessMm}); }
  void flat_counter(const geom::PlacedShape& counter) {
    fill(drawn, geom::outline_polygon(counter, 1.0), {0.0, kUnderThicknessMm});
  }
  // A counter standing on its edge: its footprint from `a` to `b` (its diameter), standing up.
  void standing_counter(geom::Vec2 a, geom::Vec2 b) {
    const geom::Vec2 d = (b - a) / geom::length(b - a), n{-d.y * kUnderThicknessMm / 2, d.x * kUnderThicknessMm / 2};
    fill(drawn, {a + n, b + n, b - n, a - n}, {0.0, kUnderCounterMm});
  }

  // The query as the tracker puts it: each part (a connected group of unexplained pixels) that
  // meets the known disk, its pixels that meet it, and its outline. Whether one could lie under it.
  bool could_lie_under_upper() {
    const cv::Mat unexplained = drawn & ~hidden;
    cv::Mat labels, meets;
    const int n = cv::connectedComponents(unexplained, labels, 8, CV_32S);
    cv::dilate(hidden, meets, cv::Mat());
    RimEvidence evidence{roi, cv::Mat(), hidden};
    cv::dilate(unexplained, evidence.shown, cv::Mat());
    int parts = 0;
    bool could = false;
    for (int label = 1; label < n; ++label) {
      const cv::Mat part = labels == label;
      cv::Mat at;
      cv::findNonZero(meets & part, at);
      if (at.total() == 0) continue;
      ++parts;
      UnderQuery q;
      for (int k = 0; k < static_cast<int>(at.total()); ++k) q.contact_px.emplace_back(at.at<cv::Point>(k) + roi.tl());
      std::vector<std::vector<cv::Point>> contours;
      cv::findContours(part.clone(), contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
      for (const auto& c : contours)
        for (const cv::Point& p : c) q.part_px.emplace_back(p + roi.tl());
      q.upper = {geom::Circle{kUnderCounterMm}, geom::Pose{kUpperAt, {}}};
      q.upper_sigma_mm = 0.1;
      could = could_lie_under(camera, q, bodies, evidence) || could;
    }
    EXPECT_EQ(parts, 1) << "the case this is for: one part meets the counter";
    return could;
  }
};

TEST_F(RimUnder, TheRimOfACounterUnderItCouldBe) {
  for (double angle_deg : {0.0, 90.0, 200.0, 300.0})
    for (double offset : {8.0, 14.0, 20.0}) {
      SetUp();
      const double a = angle_deg * std::numbers::pi / 180;
      flat_counter({kUpperAt.x + offset * std::cos(a), kUpperAt.y + offset * std::sin(a)});
      EXPECT_TRUE(could_lie_under_upper()) << angle_deg << " deg, " << offset << " mm";
    }
}

TEST_F(RimUnder, ACounterStandingOnItsEdgePointingAwayFromItCouldNotBe) {
  // Two millimetres from its edge (inside the footprint's grown margin, so touching it in the
  // picture), on every side of it: seen edge-on, and seen broad from the side.
  for (double angle_deg : {0.0, 90.0, 180.0, 270.0}) {
    SetUp();
    const double a = angle_deg * std::numbers::pi / 180;
    const geom::Vec2 out{std::cos(a), std::sin(a)};
    standing_counter(kUpperAt + (kUnderCounterMm / 2 + 2) * out,
                     kUpperAt + (kUnderCounterMm / 2 + 2 + kUnderCounterMm) * out);
    EXPECT_FALSE(could_lie_under_upper()) << angle_deg << " deg";
  }
}

// The limit, on the safe side: along its edge, a counter standing 2 mm from it shows, where it
// touches, a thin straight band, and so does a counter under it peeking out a millimetre or two
// (a short arc of its rim is nearly straight; at a pixel a millimetre they are one picture).
// That the band goes on beyond such a peek could also be a second thing lying against it.
TEST_F(RimUnder, ACounterStandingOnItsEdgeAlongItCannotBeToldFromOnePeekingOutFromUnderIt) {
  for (double angle_deg : {0.0, 90.0, 180.0, 270.0}) {
    SetUp();
    const double a = angle_deg * std::numbers::pi / 180;
    const geom::Vec2 out{std::cos(a), std::sin(a)}, along{-std::sin(a), std::cos(a)};
    const geom::Vec2 near = kUpperAt + (kUnderCounterMm / 2 + 2 + kUnderThicknessMm / 2) * out;
    standing_counter(near - kUnderCounterMm / 2 * along, near + kUnderCounterMm / 2 * along);
    EXPECT_TRUE(could_lie_under_upper()) << angle_deg << " deg";
  }
}

TEST_F(RimUnder, ACounterOfAnotherShapeUnderItCouldBeOneStandingOnItsEdgePointingAwayCouldNot) {
  // Counters with flats (the registry's only counter shape here), under it at any heading.
  const geom::Shape flatted = geom::FlattedCircle{kUnderCounterMm, 0.8 * kUnderCounterMm};
  for (double heading : {0.0, 37.0, 90.0}) {
    SetUp();
    bodies = {{flatted, kUnderThicknessMm}};
    flat_counter({flatted, geom::Pose::from_degrees(300 - 15, 300 + 4, heading)});
    EXPECT_TRUE(could_lie_under_upper()) << heading << " deg";
  }
  SetUp();
  bodies = {{flatted, kUnderThicknessMm}};
  standing_counter({300, 300 + kUnderCounterMm / 2 + 2}, {300, 300 + kUnderCounterMm / 2 + 2 + kUnderCounterMm});
  EXPECT_FALSE(could_lie_under_upper());
}

TEST_F(RimUnder, ACounterUnderItAndAnotherKnownDiskCouldBe) {
  // Its rim shows only between the two; the rest of it lies under them.
  known({300 - 27, 300});
  flat_counter({300 - 13.5, 300 + 6});
  EXPECT_TRUE(could_lie_under_upper());
}

TEST_F(RimUnder, TwoCountersUnderItInOnePartCouldBe) {
  // Side by side under it, one part in the picture, more than one counter could hold.
  flat_counter({300 - 16, 300 - 11});
  flat_counter({300 - 16, 300 + 11});
  EXPECT_TRUE(could_lie_under_upper());
}

TEST_F(RimUnder, AnEdgeStandersTipMeetingTheRimOfACounterUnderItCouldBe) {
  // One part: a counter under it and one on its edge beside that one.
  flat_counter({300 - 14, 300});
  standing_counter({300 - 14 - kUnderCounterMm / 2 - 1, 300 - 12}, {300 - 14 - kUnderCounterMm / 2 - 1, 300 + 13.4});
  EXPECT_TRUE(could_lie_under_upper());
}

TEST(CounterBodies, OneOfEachShapeAndThicknessOfTheRegistrysCounters) {
  std::vector<model::DiskSpec> disks;
  auto disk = [&](const std::string& name, model::DiskKind kind, geom::Shape shape, double thickness) {
    model::DiskSpec d;
    d.name = name;
    d.kind = kind;
    d.shape = shape;
    d.thickness_mm = thickness;
    d.tags = {{static_cast<int>(disks.size()) * 2, model::Face::up, 10, 0},
              {static_cast<int>(disks.size()) * 2 + 1, model::Face::down, 10, 0}};
    if (kind == model::DiskKind::counter)
      d.faces = model::CounterFaces{model::CounterFace{model::CounterFace::Shows::hit, ""},
                                    model::CounterFace{model::CounterFace::Shows::blank, ""}};
    disks.push_back(d);
  };
  disk("enterprise", model::DiskKind::ship, geom::FlattedCircle{63.5, 57.2}, 2);
  disk("counter-1", model::DiskKind::counter, geom::Circle{25.4}, 2);
  disk("counter-2", model::DiskKind::counter, geom::Circle{25.4}, 2);
  disk("counter-3", model::DiskKind::counter, geom::Circle{25.4}, 3);
  disk("counter-4", model::DiskKind::counter, geom::FlattedCircle{25.4, 22}, 2);
  disk("counter-5", model::DiskKind::counter, geom::FlattedCircle{25.4, 22}, 2);
  const std::vector<CounterBody> bodies = counter_bodies(model::DiskRegistry(disks));
  ASSERT_EQ(bodies.size(), 3u);
  EXPECT_TRUE(std::holds_alternative<geom::Circle>(bodies[0].shape));
  EXPECT_EQ(bodies[0].thickness_mm, 2);
  EXPECT_EQ(bodies[1].thickness_mm, 3);
  EXPECT_TRUE(std::holds_alternative<geom::FlattedCircle>(bodies[2].shape));
}

}  // namespace
}  // namespace diskref::vision
