// make_sample_photo REGISTRY OUT_DIR: the example photo shipped with diskref (sample_photos/dispute;
// installed as share/diskref/sample_photos/dispute), so that a user can try `diskref photo` and
// `diskref serve` before taking a photo of their own. Run by scripts/make-sample-photo.sh; the
// photo is made once and committed, like the sample videos.
//
// The table holds the sample skirmish's disks (REGISTRY: sample_videos/skirmish/disks.json), laid
// out for the two questions a dispute most often asks: the enterprise has the tderet in range by a
// few millimetres, and torpedo-1 lies a millimetre short of touching the tderet. Both are closer
// than a glance can settle and far enough from the call for one 12 Mpx photo to settle them. The
// range template stays off the table (the answer lists it as unseen). The phone is held as the
// guide (docs/guide/photo-disputes.md) tells a user to hold it.
//
// Writes OUT_DIR/photo.jpg (as a phone writes it: JPEG with an EXIF block), OUT_DIR/disks.json (the
// registry, as given) and OUT_DIR/truth.json (where every disk truly lies, and the true answers).

#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/geometry/distance.h"
#include "engine/geometry/range.h"
#include "engine/io/input_error.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "simulator/disk_placing.h"
#include "simulator/phone_photo.h"

namespace diskref::simulator {
namespace {

namespace fs = std::filesystem;

const geom::Rect kRangeTemplate{88.9, 25.4};  // the rules' template (spec §6)
constexpr double kRangeMarginMm = 3;          // enterprise to tderet: in range by this much
constexpr double kTorpedoGapMm = 1;           // torpedo-1 to tderet: this far from touching

PhoneScene dispute_scene(const model::DiskRegistry& registry) {
  PhoneScene scene;
  scene.table = model::table_with_markers({914.4, 914.4}, 40);
  scene.registry = registry;
  scene.seed = 7;
  PlacedDisk enterprise{"enterprise", 380, 420, 35};
  PlacedDisk tderet{"tderet", 0, 0, 200};
  // The gap grows as they part, so the margin (reach - gap) is measured with its sign turned.
  place_apart(registry, enterprise, tderet, 15, -kRangeMarginMm,
              [](const geom::PlacedShape& a, const geom::PlacedShape& b) {
                return -geom::range_check(a, b, kRangeTemplate).margin_mm;
              });
  PlacedDisk torpedo_1{"torpedo-1", 0, 0, 120};
  place_apart(
      registry, tderet, torpedo_1, 100, kTorpedoGapMm,
      [](const geom::PlacedShape& a, const geom::PlacedShape& b) { return geom::signed_distance(a, b).distance; });
  PlacedDisk torpedo_2{"torpedo-2", 360, 520, 300};
  scene.disks = {enterprise, tderet, torpedo_1, torpedo_2};
  return scene;
}

PhoneShot dispute_shot(const PhoneScene& scene) {
  PhoneShot shot;
  shot.megapixels = 12;
  shot.focal_35mm = 26;
  shot.tilt_deg = 30;
  shot.distance_mm = 420;
  shot.yaw_deg = 80;
  shot.roll_deg = 4;
  double mx = 0, my = 0;
  for (const PlacedDisk& d : scene.disks) {
    mx += d.x / static_cast<double>(scene.disks.size());
    my += d.y / static_cast<double>(scene.disks.size());
  }
  shot.look_at_mm = {mx, my};
  shot.blur_length_px = 1.5;
  shot.blur_angle_deg = 30;
  shot.noise_sigma = 2;
  shot.seed = 11;
  return shot;
}

// To a thousandth: the file is read by people, and the photo cannot tell more.
double rounded(double value) {
  return std::round(value * 1000) / 1000;
}

nlohmann::json truth_json(const PhoneScene& scene, const PhonePhoto& photo) {
  nlohmann::json disks = nlohmann::json::array();
  for (const PhotoDiskTruth& d : photo.disks)
    disks.push_back({{"name", d.name},
                     {"x", rounded(d.x)},
                     {"y", rounded(d.y)},
                     {"heading", rounded(d.heading)},
                     {"in_view", d.in_view},
                     {"tag_px", rounded(d.tag_px)}});
  const geom::PlacedShape enterprise = placed(scene.registry, scene.disks[0]);
  const geom::PlacedShape tderet = placed(scene.registry, scene.disks[1]);
  const geom::PlacedShape torpedo_1 = placed(scene.registry, scene.disks[2]);
  return {{"about",
           "where the disks of sample_photos/dispute/photo.jpg truly lie (table frame, mm) and the true "
           "answers; written by simulator/make_sample_photo.cpp"},
          {"disks", disks},
          {"answers",
           {{{"question", "--range enterprise tderet"},
             {"margin_mm", rounded(geom::range_check(enterprise, tderet, kRangeTemplate).margin_mm)},
             {"call", "yes"}},
            {{"question", "--overlap tderet torpedo-1"},
             {"separation_mm", rounded(geom::signed_distance(tderet, torpedo_1).distance)},
             {"call", "no"}}}}};
}

void write_bytes(const fs::path& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw io::InputError(file.string(), "", "cannot be written");
}

int run(const fs::path& registry_file, const fs::path& out_dir) {
  const model::DiskRegistry registry = model::load_disk_registry(registry_file);
  const PhoneScene scene = dispute_scene(registry);
  const PhonePhoto photo = take_phone_photo(scene, dispute_shot(scene));
  for (const PhotoDiskTruth& d : photo.disks)
    if (!d.in_view) throw std::logic_error("make_sample_photo: " + d.name + "'s tag is not wholly in the photo");
  fs::create_directories(out_dir);
  write_bytes(out_dir / "photo.jpg", std::string(photo.jpeg.begin(), photo.jpeg.end()));
  fs::copy_file(registry_file, out_dir / "disks.json", fs::copy_options::overwrite_existing);
  write_bytes(out_dir / "truth.json", truth_json(scene, photo).dump(2) + "\n");
  const cv::Size size = photo.rig.camera.image_size;
  std::printf("%s: %dx%d, %.2f MB; disks.json, truth.json\n", (out_dir / "photo.jpg").c_str(), size.width, size.height,
              static_cast<double>(photo.jpeg.size()) / 1e6);
  return 0;
}

}  // namespace
}  // namespace diskref::simulator

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_sample_photo REGISTRY OUT_DIR (scripts/make-sample-photo.sh runs it)\n");
    return 2;
  }
  try {
    return diskref::simulator::run(argv[1], argv[2]);
  } catch (const diskref::io::InputError& e) {
    std::fprintf(stderr, "make_sample_photo: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_sample_photo: %s\n", e.what());
    return 1;
  }
}
