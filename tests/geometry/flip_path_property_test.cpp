// Flip movement against brute force: landings recomputed from the spec's rule, contacts and end
// overlaps from the brute-force signed distance, the play-area verdict from the landing centres.

#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "brute_force.h"
#include "engine/geometry/flip_path.h"

namespace diskref::geom {
namespace {

TEST(FlipPathProperty, ContactsOverlapsAndPlayAreaAgreeWithBruteForce) {
  brute::ShapeSampler s(314);
  const int configurations = 10000;
  int contacts = 0, end_overlaps = 0, leaving = 0, touching_built = 0;
  for (int i = 0; i < configurations; ++i) {
    FlipInput in;
    in.play_area_mm = {s.uniform(300, 1200), s.uniform(300, 1200)};
    in.mover = {s.disk(), Pose{{s.uniform(-20, in.play_area_mm.x + 20), s.uniform(-20, in.play_area_mm.y + 20)},
                               Rot::from_degrees(s.uniform(0, 360))}};
    in.flips = static_cast<int>(s.uniform(0, 6));
    if (s.uniform(0, 1) < 0.5) in.heading_deg = s.uniform(0, 360);

    // The spec's rule, written out: landing k is k flip lengths along the travel direction.
    double heading = in.heading_deg ? *in.heading_deg : in.mover.pose.heading_deg();
    Vec2 dir{std::cos(deg_to_rad(heading)), std::sin(deg_to_rad(heading))};
    double step = std::holds_alternative<Circle>(in.mover.shape)
                      ? std::get<Circle>(in.mover.shape).diameter_mm
                      : std::get<FlattedCircle>(in.mover.shape).flat_to_flat_mm;
    auto landing_at = [&](int k) { return in.mover.pose.position + (k * step) * dir; };

    // Others: torpedoes and ships near random landings (or the start), a few built to touch one
    // exactly or to miss it by a hair.
    int count = 1 + static_cast<int>(s.uniform(0, 5));
    for (int o = 0; o < count; ++o) {
      bool torpedo = s.uniform(0, 1) < 0.6;
      Shape shape = torpedo ? Shape{Circle{s.uniform(10, 30)}} : s.disk();
      int near = static_cast<int>(s.uniform(0, in.flips + 1));
      PlacedShape placed{shape,
                         s.pose_near(landing_at(near), bounding_radius(in.mover.shape) + bounding_radius(shape) + 5)};
      if (near > 0 && o % 3 == 0) {
        PlacedShape at_landing{in.mover.shape, Pose{landing_at(near), Rot::from_degrees(heading)}};
        DistanceOutput d = signed_distance(at_landing, placed);
        double target = (o % 2 == 0 ? 1 : -1) * (i % 3 == 0 ? 0.0 : 1e-6);
        if (d.distance >= target) {  // moving out along the normal is exact (distance_property_test)
          placed.pose.position = placed.pose.position + (target - d.distance) * d.normal;
          ++touching_built;
        }
      }
      std::string name(1, 'd');  // (not "d" + ...: GCC 12's -Wrestrict false positive)
      name.append(std::to_string(o));
      in.others.push_back({name, placed, torpedo});
    }

    FlipOutput out = flip_path(in);
    ASSERT_EQ(static_cast<int>(out.landings.size()), in.flips);
    bool outside = false;
    std::size_t next_contact = 0;
    for (int k = 1; k <= in.flips; ++k) {
      const Pose& l = out.landings[k - 1];
      ASSERT_NEAR(distance(l.position, landing_at(k)), 0, 1e-9);
      ASSERT_NEAR(std::fabs(angle_difference_deg(l.heading_deg(), heading)), 0, 1e-9);
      Vec2 p = landing_at(k);
      outside = outside || p.x < 0 || p.y < 0 || p.x > in.play_area_mm.x || p.y > in.play_area_mm.y;
      PlacedShape mover{in.mover.shape, l};
      for (const Obstacle& other : in.others) {
        if (!other.is_torpedo) continue;
        double bf = brute::signed_distance_by_directions(mover, other.placed);
        bool listed = next_contact < out.torpedo_contacts.size() && out.torpedo_contacts[next_contact].flip == k &&
                      out.torpedo_contacts[next_contact].disk == other.name;
        if (listed) {
          ASSERT_NEAR(out.torpedo_contacts[next_contact].separation_mm, bf, brute::kTolerance);
          ++next_contact;
          ++contacts;
        }
        if (std::fabs(bf) > brute::kTolerance) {
          ASSERT_EQ(listed, bf < 0) << "#" << i << " flip " << k << " " << other.name << " " << bf;
        }
      }
    }
    ASSERT_EQ(next_contact, out.torpedo_contacts.size()) << "#" << i;
    ASSERT_EQ(out.leaves_play_area, outside) << "#" << i;
    leaving += outside;

    PlacedShape end{in.mover.shape, in.flips > 0 ? out.landings.back() : in.mover.pose};
    std::size_t next_overlap = 0;
    for (const Obstacle& other : in.others) {
      double bf = brute::signed_distance_by_directions(end, other.placed);
      bool listed = next_overlap < out.end_overlaps.size() && out.end_overlaps[next_overlap].disk == other.name;
      if (listed) {
        ASSERT_NEAR(out.end_overlaps[next_overlap].separation_mm, bf, brute::kTolerance);
        ++next_overlap;
        ++end_overlaps;
      }
      if (std::fabs(bf) > brute::kTolerance) {
        ASSERT_EQ(listed, bf < 0) << "#" << i << " end " << other.name << " " << bf;
      }
    }
    ASSERT_EQ(next_overlap, out.end_overlaps.size());
  }
  std::printf("torpedo contacts %d, end overlaps %d, leaving the play area %d, built touching %d\n", contacts,
              end_overlaps, leaving, touching_built);
  EXPECT_GT(contacts, configurations / 5);
  EXPECT_GT(end_overlaps, configurations / 5);
  EXPECT_GT(leaving, configurations / 20);
  EXPECT_GT(touching_built, configurations / 5);
}

}  // namespace
}  // namespace diskref::geom
