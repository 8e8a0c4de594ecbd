#include "ui/label_placement.h"

#include <cmath>
#include <optional>
#include <random>

#include <gtest/gtest.h>

namespace diskref::ui {
namespace {

ScreenRect rect_at(const Vec2& at, const LabelWish& w) {
  return {at.x, at.y, w.size.x, w.size.y};
}

TEST(PlaceLabels, ALabelAloneGoesUnderWhatItNames) {
  const std::vector<Vec2> at = place_labels({{{400, 300}, {60, 16}, 12}}, {0, 0, 800, 600}, {});
  ASSERT_EQ(at.size(), 1u);
  EXPECT_DOUBLE_EQ(at[0].x, 370);
  EXPECT_DOUBLE_EQ(at[0].y, 312);
}

TEST(PlaceLabels, ALabelStaysInTheViewAndOffWhatIsKeptClear) {
  // Under the anchor is the view's bottom edge; above it, something kept clear: it goes right.
  const LabelWish w{{400, 590}, {60, 16}, 12};
  const ScreenRect kept{340, 540, 120, 40};
  const std::vector<Vec2> at = place_labels({w}, {0, 0, 800, 600}, {kept});
  const ScreenRect r = rect_at(at[0], w);
  EXPECT_NEAR(overlap_area(r, {0, 0, 800, 600}), r.w * r.h, 1e-6);
  EXPECT_EQ(overlap_area(r, kept), 0.0);
  EXPECT_GT(r.x, 400);  // right of the anchor
}

TEST(PlaceLabels, ALabelMayLieOverWhatItNamesButNotOverItsNeighbour) {
  // Two counters side by side, 60 px wide: each label under its own counter, over it.
  const std::vector<ScreenRect> counters{{300, 270, 60, 60}, {360, 270, 60, 60}};
  const std::vector<Vec2> at =
      place_labels({{{330, 300}, {40, 16}, 12, 0}, {{390, 300}, {40, 16}, 12, 1}}, {0, 0, 800, 600}, counters);
  EXPECT_DOUBLE_EQ(at[0].x, 310);
  EXPECT_DOUBLE_EQ(at[0].y, 312);
  EXPECT_DOUBLE_EQ(at[1].x, 370);
  // Under and above a point near the second counter's edge lie over that counter: a label naming
  // something else goes left of the point; one naming that counter stays under the point.
  const std::vector<Vec2> other = place_labels({{{350, 300}, {40, 16}, 12, -1}}, {0, 0, 800, 600}, {counters[1]});
  EXPECT_DOUBLE_EQ(other[0].x, 298);
  EXPECT_DOUBLE_EQ(other[0].y, 292);
  const std::vector<Vec2> own = place_labels({{{350, 300}, {40, 16}, 12, 0}}, {0, 0, 800, 600}, {counters[1]});
  EXPECT_DOUBLE_EQ(own[0].x, 330);
  EXPECT_DOUBLE_EQ(own[0].y, 312);
}

TEST(LeastCoveringSpot, TheFirstInTheViewCoveringNothingElseTheOneCoveringLeast) {
  const ScreenRect view{0, 0, 400, 300};
  const Vec2 size{100, 40};
  const std::vector<ScreenRect> kept{{0, 0, 150, 100}, {250, 200, 150, 100}};
  // Outside the view, over the first kept, clear, clear: the first clear one.
  std::optional<Vec2> at = least_covering_spot({{350, 0}, {50, 50}, {200, 100}, {0, 150}}, size, view, kept);
  ASSERT_TRUE(at);
  EXPECT_DOUBLE_EQ(at->x, 200);
  EXPECT_DOUBLE_EQ(at->y, 100);
  // None clear: the one covering least (10 x 40 against 50 x 40).
  at = least_covering_spot({{100, 0}, {140, 60}}, size, view, kept);
  ASSERT_TRUE(at);
  EXPECT_DOUBLE_EQ(at->x, 140);
  // None inside the view: nothing.
  EXPECT_FALSE(least_covering_spot({{350, 0}, {-1, 10}}, size, view, kept));
}

// Drops as the camera view draws them: counters of about 20 px, touching or nearly, in a cluster,
// each with a label of a few letters. Labels written under each counter cover one another; placed,
// none covers another, and each stays near its counter.
TEST(PlaceLabels, TheCountersOfACrowdedDropGetLabelsThatCoverNoOther) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  int crowded = 0;
  for (int drop = 0; drop < 200; ++drop) {
    const ScreenRect view{0, 0, 900, 500};
    const int n = 5 + drop % 8;
    std::vector<LabelWish> wishes;
    std::vector<ScreenRect> counters;
    const Vec2 middle{100 + 700 * u(rng), 80 + 340 * u(rng)};
    while (static_cast<int>(wishes.size()) < n) {
      const Vec2 p = middle + Vec2{(u(rng) - 0.5) * 140, (u(rng) - 0.5) * 100};
      bool apart = true;  // counters do not lie on each other's centres
      for (const LabelWish& w : wishes) apart = apart && std::hypot(w.anchor.x - p.x, w.anchor.y - p.y) > 18;
      if (!apart) continue;
      wishes.push_back({p, {30 + 30 * u(rng), 16}, 12, static_cast<long>(wishes.size())});
      counters.push_back({p.x - 10, p.y - 10, 20, 20});
    }
    // Under each counter, as before: some cover another.
    for (std::size_t i = 0; i < wishes.size() && crowded <= drop; ++i)
      for (std::size_t j = 0; j < i; ++j) {
        const auto under = [](const LabelWish& w) {
          return ScreenRect{w.anchor.x - w.size.x / 2, w.anchor.y + 12, w.size.x, w.size.y};
        };
        if (overlap_area(under(wishes[i]), under(wishes[j])) > 0) {
          ++crowded;
          break;
        }
      }
    const std::vector<Vec2> at = place_labels(wishes, view, counters);
    ASSERT_EQ(at.size(), wishes.size());
    for (std::size_t i = 0; i < at.size(); ++i) {
      const ScreenRect r = rect_at(at[i], wishes[i]);
      EXPECT_NEAR(overlap_area(r, view), r.w * r.h, 1e-6) << "drop " << drop << " label " << i;
      for (std::size_t j = 0; j < i; ++j)
        EXPECT_EQ(overlap_area(r, rect_at(at[j], wishes[j])), 0.0) << "drop " << drop << " labels " << j << ", " << i;
      // Near its counter: its nearest point within three label heights of the anchor's reach.
      const double dx = std::max({r.x - wishes[i].anchor.x, 0.0, wishes[i].anchor.x - (r.x + r.w)});
      const double dy = std::max({r.y - wishes[i].anchor.y, 0.0, wishes[i].anchor.y - (r.y + r.h)});
      EXPECT_LE(std::hypot(dx, dy), 12 + 4 * 18 + 1e-9);
    }
  }
  EXPECT_GT(crowded, 100) << "the drops drawn must be ones where labels under the counters collide";
}

}  // namespace
}  // namespace diskref::ui
