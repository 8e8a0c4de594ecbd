#include "bench/photo_dispute_sample.h"

#include <cmath>
#include <stdexcept>

#include "engine/geometry/distance.h"
#include "engine/geometry/range.h"
#include "engine/io/json_cursor.h"
#include "engine/random/splitmix64.h"
#include "simulator/disk_placing.h"

namespace diskref::bench {
namespace {

const geom::Rect kTemplate{88.9, 25.4};  // spec §6's range template

nlohmann::json ship(const std::string& name, int tag, double thickness) {
  return {{"name", name},
          {"kind", "ship"},
          {"thickness_mm", thickness},
          {"shape", {{"type", "flatted_circle"}, {"diameter_mm", 63.5}, {"flat_to_flat_mm", 57.2}}},
          {"tags", {{{"id", tag}, {"face", "up"}, {"size_mm", 24}, {"heading_offset_deg", 0}}}}};
}

}  // namespace

model::DiskRegistry dispute_registry() {
  const nlohmann::json disks = {
      {"disks",
       {ship("enterprise", 10, 2.0),
        ship("reliant", 12, 3.0),
        ship("defiant", 14, 2.0),
        ship("tderet", 16, 3.0),
        {{"name", "torpedo"},
         {"kind", "torpedo"},
         {"thickness_mm", 2.0},
         {"shape", {{"type", "circle"}, {"diameter_mm", 25.4}}},
         {"tags", {{{"id", 40}, {"face", "up"}, {"size_mm", 9.5}, {"heading_offset_deg", 0}}}}}}}};
  return model::parse_disk_registry(io::JsonCursor(disks, "photo_disputes registry"));
}

DisputePhoto draw_dispute_photo(const SampleSpace& space, uint64_t seed, int index) {
  random::SplitMix64 rng = random::SplitMix64(seed).fork(static_cast<uint64_t>(index));
  DisputePhoto photo;
  simulator::PhoneScene& scene = photo.scene;
  scene.table = model::table_with_markers({914.4, 914.4}, 40);
  scene.registry = dispute_registry();
  scene.seed = rng.next_u64();
  const double cx = 457.2, cy = 457.2;
  // Redrawn until no two disks touch except the pair meant to lie close.
  for (int attempt = 0;; ++attempt) {
    if (attempt > 1000) throw std::logic_error("photo_disputes: no layout without overlaps");
    auto heading = [&] { return rng.uniform(0, 360); };
    simulator::PlacedDisk enterprise{"enterprise", cx - 70 + rng.uniform(-10, 10), cy - 40 + rng.uniform(-10, 10),
                                     heading()};
    simulator::PlacedDisk reliant{"reliant", 0, 0, heading()};
    auto close = [&] { return std::exp(rng.uniform(std::log(space.close_lo_mm), std::log(space.close_hi_mm))); };
    const double margin = (rng.uniform() < 0.5 ? -1 : 1) * close();
    simulator::place_at_range_margin(scene.registry, enterprise, reliant, rng.uniform(-60, 60), margin, kTemplate);
    simulator::PlacedDisk defiant{"defiant", cx - 40 + rng.uniform(-10, 10), cy + 60 + rng.uniform(-10, 10), heading()};
    simulator::PlacedDisk tderet{"tderet", 0, 0, heading()};
    simulator::place_at_separation(scene.registry, defiant, tderet, rng.uniform(-45, 45), close());
    simulator::PlacedDisk torpedo{"torpedo", cx + 90 + rng.uniform(-15, 15), cy - 60 + rng.uniform(-15, 15), heading()};
    scene.disks = {enterprise, reliant, defiant, tderet, torpedo};
    bool clear = true;
    for (std::size_t i = 0; i < scene.disks.size(); ++i)
      for (std::size_t j = i + 1; j < scene.disks.size(); ++j) {
        const bool close_pair = i == 2 && j == 3;
        if (!close_pair && geom::signed_distance(simulator::placed(scene.registry, scene.disks[i]),
                                                 simulator::placed(scene.registry, scene.disks[j]))
                                   .distance < 5)
          clear = false;
      }
    if (clear) break;
  }

  simulator::PhoneShot& shot = photo.shot;
  shot.megapixels = space.megapixels[static_cast<std::size_t>(index) % space.megapixels.size()];
  shot.focal_35mm = rng.uniform(space.focal_35mm_lo, space.focal_35mm_hi);
  shot.crop_factor = rng.uniform(3.5, 5.0);
  shot.k1 = rng.uniform(-0.02, 0.02);
  shot.k2 = rng.uniform(-0.01, 0.01);
  shot.tilt_deg = rng.uniform(space.tilt_lo, space.tilt_hi);
  shot.distance_mm = rng.uniform(space.distance_lo, space.distance_hi);
  shot.yaw_deg = rng.uniform(0, 360);
  shot.roll_deg = rng.uniform(-10, 10);
  double mx = 0, my = 0;
  for (const auto& d : scene.disks) {
    mx += d.x / static_cast<double>(scene.disks.size());
    my += d.y / static_cast<double>(scene.disks.size());
  }
  shot.look_at_mm = {mx + rng.uniform(-15, 15), my + rng.uniform(-15, 15)};
  shot.jpeg_quality = rng.uniform_int(85, 92);
  shot.exif_focal_length = rng.uniform() < space.exif_share;
  shot.exif_orientation = rng.uniform() < 0.5 ? 1 : 6;
  shot.blur_length_px = rng.uniform(space.shake_lo_px, space.shake_hi_px) * std::sqrt(shot.megapixels / 12);
  shot.blur_angle_deg = rng.uniform(0, 180);
  shot.noise_sigma = rng.uniform(1.5, 3.0);
  shot.seed = rng.next_u64();
  return photo;
}

nlohmann::json dispute_questions(const simulator::PhoneScene& scene,
                                 const std::vector<simulator::PhotoDiskTruth>& truth) {
  nlohmann::json questions = nlohmann::json::array();
  for (std::size_t i = 0; i < truth.size(); ++i)
    for (std::size_t j = i + 1; j < truth.size(); ++j) {
      if (!truth[i].in_view || !truth[j].in_view) continue;
      const std::string a = scene.disks[i].name, b = scene.disks[j].name;
      questions.push_back({{"id", "range " + a + " " + b},
                           {"range",
                            {{"from", a},
                             {"to", b},
                             {"template", {{"length_mm", kTemplate.length_mm}, {"width_mm", kTemplate.width_mm}}}}}});
      if ((a == "enterprise" && b == "reliant") || (a == "defiant" && b == "tderet"))
        questions.push_back({{"id", "overlap " + a + " " + b}, {"overlap", {{"a", a}, {"b", b}}}});
    }
  return questions;
}

}  // namespace diskref::bench
