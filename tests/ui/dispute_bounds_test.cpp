// The table view's zoom (dispute_bounds): with nothing chosen it goes to the drop the views show —
// one waiting, or one read in the last seconds whether a drop was asked for or not — and lets go of
// a drop read long ago.

#include <memory>

#include <gtest/gtest.h>

#include "ui/screen.h"

namespace diskref::ui {
namespace {

referee::CounterReading reading_at(std::initializer_list<Vec2> where) {
  referee::CounterReading r;
  int n = 0;
  for (const Vec2& p : where) {
    referee::CounterSeen c;
    c.name = "counter-" + std::to_string(++n);
    c.pose = geom::Pose::from_degrees(p.x, p.y, 0);
    r.counters.push_back(c);
  }
  return r;
}

Screen screen_with(const GameView& v) {
  Screen s;
  s.game_view = std::make_shared<const GameView>(v);
  return s;
}

TEST(DisputeBounds, ADropNotAskedForIsZoomedToWhileItIsShown) {
  GameView v;
  v.t = 20;
  v.counters = referee::CountersSeen{reading_at({{100, 100}, {160, 130}}), false, 3, 18};
  const Screen s = screen_with(v);
  ASSERT_EQ(shown_counter_reading(s), &s.game_view->counters->reading);
  const std::optional<TableBox> box = dispute_bounds(s, 5);
  ASSERT_TRUE(box);
  for (const Vec2& p : {Vec2{100, 100}, Vec2{160, 130}}) {
    EXPECT_LT(box->min.x, p.x - 19);
    EXPECT_LT(box->min.y, p.y - 19);
    EXPECT_GT(box->max.x, p.x + 19);
    EXPECT_GT(box->max.y, p.y + 19);
  }
  EXPECT_LT(box->max.x - box->min.x, 200) << "the drop, not the table";

  // Read long ago and no drop waiting: not shown, not zoomed to.
  v.t = 18 + LiveGame::kAlertShowS + 1;
  const Screen later = screen_with(v);
  EXPECT_EQ(shown_counter_reading(later), nullptr);
  EXPECT_FALSE(dispute_bounds(later, 5));
}

TEST(DisputeBounds, ADropWaitingShowsItsLatestReadingHoweverOld) {
  GameView v;
  v.t = 100;
  v.counters = referee::CountersSeen{reading_at({{100, 100}}), true, 3, 18};
  v.expecting.need = referee::Expectation::Need::drops;
  v.expecting.counters = reading_at({{500, 400}, {540, 420}});
  const Screen s = screen_with(v);
  ASSERT_EQ(shown_counter_reading(s), &*s.game_view->expecting.counters);
  const std::optional<TableBox> box = dispute_bounds(s, 0);
  ASSERT_TRUE(box);
  EXPECT_GT(box->min.x, 400);
  EXPECT_LT(box->max.x, 640);
}

}  // namespace
}  // namespace diskref::ui
