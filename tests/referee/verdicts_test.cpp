#include "referee/verdicts.h"
#include "engine/rules/parameters.h"

#include <gtest/gtest.h>

#include "tests/referee/test_table.h"

namespace diskref::referee {
namespace {

using geom::Vec2;
using testing::test_registry;
using testing::track;

TEST(CallMargin, TooCloseToCallInsideTheBand) {
  // sigma 0.5 mm, 2 sigma band = 1 mm.
  EXPECT_EQ(call_margin(1.5, 0.5), Call::yes);
  EXPECT_EQ(call_margin(1.0, 0.5), Call::yes);  // on the band's edge: called
  EXPECT_EQ(call_margin(0.99, 0.5), Call::too_close);
  EXPECT_EQ(call_margin(0.0, 0.5), Call::too_close);
  EXPECT_EQ(call_margin(-0.99, 0.5), Call::too_close);
  EXPECT_EQ(call_margin(-1.0, 0.5), Call::no);
  EXPECT_EQ(call_margin(-7.0, 0.5), Call::no);
  // Without uncertainty, touching counts (spec: in_range is margin >= 0).
  EXPECT_EQ(call_margin(0.0, 0.0), Call::yes);
  EXPECT_EQ(call_margin(-1e-9, 0.0), Call::no);
  // The number of sigmas is a parameter.
  EXPECT_EQ(call_margin(1.2, 0.5, 3.0), Call::too_close);
}

TEST(CallMargin, CombinedSigmaOfTwoIndependentDisks) {
  EXPECT_DOUBLE_EQ(combined_sigma(0.3, 0.4), 0.5);
  EXPECT_DOUBLE_EQ(combined_sigma(0, 0.4), 0.4);
}

TEST(EvaluatePair, SpecExampleIsInRange) {
  model::DiskRegistry reg = test_registry();
  TableSnapshot scene = make_snapshot(reg, testing::spec_example_frame(0.3));
  PairVerdict p = evaluate_pair(scene, 0, 1, rules::Parameters{}.range_template);
  // spec §6: gap 69.65, reach 92.46, margin 22.81.
  EXPECT_NEAR(p.range.gap_mm, 69.65, 0.01);
  EXPECT_NEAR(p.range.reach_mm, 92.46, 0.01);
  EXPECT_NEAR(p.range.margin_mm, 22.81, 0.01);
  EXPECT_EQ(p.in_range, Call::yes);
  EXPECT_NEAR(p.sigma_mm, std::hypot(0.3, 0.3), 1e-12);
  EXPECT_NEAR(p.separation.distance, 69.65, 0.01);
  EXPECT_EQ(p.overlapping, Call::no);
  EXPECT_TRUE(p.templates.empty());
}

TEST(EvaluatePair, MarginInsideTheUncertaintyIsTooCloseToCall) {
  model::DiskRegistry reg = test_registry();
  // Move tderet so that the margin is +0.5 mm: gap = reach - 0.5.
  double reach = std::hypot(88.9, 25.4);
  double gap = reach - 0.5;
  model::TrackFrame f;
  // enterprise heading 90: its front flat is 28.6 from its centre along +y; tderet's radius 31.75.
  f.disks.push_back(track("enterprise", model::DiskKind::ship, Vec2{100, 200}, 90, 0.4));
  f.disks.push_back(track("tderet", model::DiskKind::ship, Vec2{100, 200 + 28.6 + gap + 31.75}, 270, 0.4));
  TableSnapshot scene = make_snapshot(reg, f);
  PairVerdict p = evaluate_pair(scene, 0, 1, rules::Parameters{}.range_template);
  EXPECT_NEAR(p.range.margin_mm, 0.5, 1e-6);
  EXPECT_EQ(p.in_range, Call::too_close);  // 0.5 < 2 * 0.57
  // The same geometry measured precisely is called.
  f.disks[0].sigma_mm = f.disks[1].sigma_mm = 0.1;
  scene = make_snapshot(reg, f);
  EXPECT_EQ(evaluate_pair(scene, 0, 1, rules::Parameters{}.range_template).in_range, Call::yes);
  // +1 range doubles the template's length: now far inside.
  EXPECT_GT(evaluate_pair(scene, 0, 1, rules::Parameters{}.range_template, 2).range.margin_mm, 80);
}

TEST(EvaluatePair, OverlappingShipsAndATemplateOnTheTable) {
  model::DiskRegistry reg = test_registry();
  model::TrackFrame f;
  f.disks.push_back(track("enterprise", model::DiskKind::ship, Vec2{100, 200}, 0, 0.2));
  f.disks.push_back(track("tderet", model::DiskKind::ship, Vec2{150, 200}, 0, 0.2));
  // The template lies along +x from x = 60 to 148.9, across both ships.
  f.disks.push_back(track("range", model::DiskKind::template_, Vec2{104.45, 200}, 0, 0.2));
  TableSnapshot scene = make_snapshot(reg, f);
  PairVerdict p = evaluate_pair(scene, 0, 1, rules::Parameters{}.range_template);
  EXPECT_EQ(p.overlapping, Call::yes);
  EXPECT_NEAR(p.separation.distance, 50 - 28.6 - 31.75, 1e-6);  // enterprise's flat faces tderet
  ASSERT_EQ(p.templates.size(), 1u);
  EXPECT_EQ(p.templates[0].template_name, "range");
  EXPECT_EQ(p.templates[0].touches_both, Call::yes);

  // Slide the template away from tderet until it just misses, by 0.1 mm: too close to call.
  // Its right end is at x = centre + 44.45; tderet's left edge at 150 - 31.75 = 118.25.
  f.disks[2].x = 118.25 - 44.45 - 0.1;
  scene = make_snapshot(reg, f);
  p = evaluate_pair(scene, 0, 1, rules::Parameters{}.range_template);
  ASSERT_EQ(p.templates.size(), 1u);
  EXPECT_EQ(p.templates[0].touches_a, Call::yes);
  EXPECT_EQ(p.templates[0].touches_b, Call::too_close);
  EXPECT_EQ(p.templates[0].touches_both, Call::too_close);
  // Far away: a clear no.
  f.disks[2].x = 600;
  scene = make_snapshot(reg, f);
  EXPECT_EQ(evaluate_pair(scene, 0, 1, rules::Parameters{}.range_template).templates[0].touches_both, Call::no);
}

TEST(EvaluateFlip, SpecExampleEndsOnTderet) {
  model::DiskRegistry reg = test_registry();
  TableSnapshot scene = make_snapshot(reg, testing::spec_example_frame(0.3));
  FlipVerdict f = evaluate_flip(scene, model::default_table(), 0, 3);
  ASSERT_EQ(f.path.landings.size(), 3u);
  EXPECT_NEAR(f.path.landings[2].position.y, 371.6, 1e-6);
  ASSERT_EQ(f.at_end.size(), 1u);
  EXPECT_EQ(f.at_end[0].disk, "tderet");
  EXPECT_EQ(f.at_end[0].overlapping, Call::yes);
  EXPECT_EQ(f.leaves_play_area, Call::no);
  EXPECT_EQ(f.swept.size(), 3u);
  EXPECT_FALSE(f.nearest_torpedo);
}

TEST(EvaluateFlip, TorpedoesAreContactsTemplatesAreNotObstaclesAndTheEdgeIsCalled) {
  model::DiskRegistry reg = test_registry();
  model::TrackFrame f;
  f.disks.push_back(track("enterprise", model::DiskKind::ship, Vec2{100, 850}, 90, 0.5));
  f.disks.push_back(track("torpedo-1", model::DiskKind::torpedo, Vec2{100, 200 + 57.2}, 0, 0.5));
  f.disks.push_back(track("range", model::DiskKind::template_, Vec2{100, 907.2}, 0, 0.5));
  TableSnapshot scene = make_snapshot(reg, f);
  // One flip north: lands at y = 907.2, inside the 914.4 play area by 7.2 mm: a clear no.
  FlipVerdict one = evaluate_flip(scene, model::default_table(), 0, 1);
  EXPECT_EQ(one.leaves_play_area, Call::no);
  EXPECT_TRUE(one.at_end.empty()) << "a template is not an obstacle";
  // Start 0.5 mm further: lands 6.7 mm inside; with sigma 0.5 the band is 1 mm: still no. Start so
  // that it lands 0.3 mm inside: too close to call.
  f.disks[0].y = 914.4 - 0.3 - 57.2;
  scene = make_snapshot(reg, f);
  EXPECT_EQ(evaluate_flip(scene, model::default_table(), 0, 1).leaves_play_area, Call::too_close);
  // The torpedo is hit on flip 1 when flying south from y = 314.4.
  f.disks[0] = track("enterprise", model::DiskKind::ship, Vec2{100, 314.4}, 270, 0.5);
  scene = make_snapshot(reg, f);
  FlipVerdict south = evaluate_flip(scene, model::default_table(), 0, 2);
  ASSERT_FALSE(south.path.torpedo_contacts.empty());
  EXPECT_EQ(south.path.torpedo_contacts[0].flip, 1);
  ASSERT_TRUE(south.nearest_torpedo);
  EXPECT_EQ(south.nearest_torpedo->overlapping, Call::yes);
}

}  // namespace
}  // namespace diskref::referee
