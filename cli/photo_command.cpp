// `diskref photo IMAGE --disks disks.json` (spec §14): a dispute settled from one phone photo, any
// table, no rig, no calibration. JSON on stdout; exit status as `diskref check`.

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <opencv2/imgcodecs.hpp>

#include "calibration/camera_model.h"
#include "cli/commands.h"
#include "engine/io/input_error.h"
#include "engine/io/json_cursor.h"
#include "engine/model/disk_registry.h"
#include "photo/photo_decode.h"
#include "photo/photo_ruling.h"

namespace diskref::cli {
namespace {

struct PhotoCommandOptions {
  std::string image;
  std::string disks;
  std::string questions;
  // Each occurrence adds two words (CLI11's expected(2)): A B, A B, ...
  std::vector<std::string> ranges;
  std::vector<std::string> overlaps;
  std::vector<std::string> moves;
  std::string calib;
  double precision_mm = 0.5;
  std::string annotated;
};

// A questions file is spec §6's "questions" array, or any object that has one (a scene).
nlohmann::json read_questions(const std::string& file) {
  nlohmann::json doc = io::read_json_file(file);
  if (doc.is_array()) return doc;
  if (doc.is_object() && doc.contains("questions") && doc["questions"].is_array()) return doc["questions"];
  throw io::InputError(file, "", "must be a questions array (spec §6) or an object with \"questions\"");
}

nlohmann::json all_questions(const PhotoCommandOptions& options) {
  nlohmann::json questions = options.questions.empty() ? nlohmann::json::array() : read_questions(options.questions);
  // The rules' range template: 88.9 x 25.4 mm (docs/rules.md).
  for (std::size_t i = 0; i + 1 < options.ranges.size(); i += 2) {
    questions.push_back({{"id", fmt::format("range-{}", i / 2 + 1)},
                         {"range",
                          {{"from", options.ranges[i]},
                           {"to", options.ranges[i + 1]},
                           {"template", {{"length_mm", 88.9}, {"width_mm", 25.4}}}}}});
  }
  for (std::size_t i = 0; i + 1 < options.overlaps.size(); i += 2) {
    questions.push_back({{"id", fmt::format("overlap-{}", i / 2 + 1)},
                         {"overlap", {{"a", options.overlaps[i]}, {"b", options.overlaps[i + 1]}}}});
  }
  for (std::size_t i = 0; i + 1 < options.moves.size(); i += 2) {
    const std::string& flips = options.moves[i + 1];
    std::size_t used = 0;
    int n = -1;
    try {
      n = std::stoi(flips, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != flips.size() || n < 0) {
      throw io::InputError("", "--move",
                           fmt::format("\"{}\" is no number of flips (a whole number, 0 or more)", flips));
    }
    questions.push_back(
        {{"id", fmt::format("move-{}", i / 2 + 1)}, {"move", {{"disk", options.moves[i]}, {"flips", n}}}});
  }
  return questions;
}

int run_photo(const PhotoCommandOptions& options) {
  const model::DiskRegistry registry = model::load_disk_registry(options.disks);
  photo::PhotoOptions photo_options;
  photo_options.precision_mm = options.precision_mm;
  photo_options.questions_source = options.questions.empty() ? "the command line" : options.questions;
  if (!options.calib.empty()) photo_options.lens = calib::load_camera_model(options.calib);
  const nlohmann::json questions = all_questions(options);
  photo::PhotoRuling ruling;
  try {
    const photo::Photo photo = photo::load_photo(options.image);
    ruling = photo::rule_on_photo(photo, registry, questions, photo_options);
  } catch (const photo::PhotoRefused& refused) {
    std::fprintf(stderr, "diskref photo: %s\n", refused.what());
    return kExitBadInput;
  }
  if (!options.annotated.empty()) {
    bool written = false;
    try {
      written = cv::imwrite(options.annotated, ruling.annotated);
    } catch (const cv::Exception&) {
      written = false;
    }
    if (!written) throw std::runtime_error(fmt::format("{}: cannot write the annotated photo", options.annotated));
  }
  const std::string out = ruling.answer.dump(2) + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return ruling.exit_code;
}

}  // namespace

RunFunction add_photo_command(CLI::App& app) {
  auto options = std::make_shared<PhotoCommandOptions>();
  CLI::App* sub = app.add_subcommand(
      "photo",
      "Settle a dispute from one phone photo: the disks placed from their tags, spec §6's answers with their sigma");
  sub->footer(
      "Examples:\n"
      "  diskref photo table.jpg --disks disks.json --range enterprise tderet --annotated answer.png\n"
      "  diskref photo table.jpg --disks disks.json --questions scene.json --precision-mm 0.3\n"
      "Any table, no rig, no calibration: the tags are the rulers (spec §14).");
  sub->add_option("image", options->image, "The photo (JPEG, PNG or WebP)")->required()->check(CLI::ExistingFile);
  sub->add_option("--disks", options->disks, "Disk registry (JSON, spec §4)")->required()->check(CLI::ExistingFile);
  sub->add_option("--questions", options->questions,
                  "Questions (JSON): spec §6's questions array, or a scene-like object with \"questions\"")
      ->check(CLI::ExistingFile);
  sub->add_option("--range", options->ranges,
                  "Is B in range of A with the rules' template (88.9 x 25.4 mm)? (repeatable)")
      ->expected(2)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->type_name("A B");
  sub->add_option("--overlap", options->overlaps, "Do A and B overlap? (repeatable)")
      ->expected(2)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->type_name("A B");
  sub->add_option("--move", options->moves, "Disk A flips N times along its heading (repeatable)")
      ->expected(2)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->type_name("A N");
  sub->add_option("--calib", options->calib, "Camera file (JSON, spec §7): fixes the lens instead of fitting it")
      ->check(CLI::ExistingFile);
  sub->add_option("--precision-mm", options->precision_mm,
                  "The 1-sigma precision asked of every answer; a note says why when the photo cannot give it")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--annotated", options->annotated,
                  "Write the photo with the disks, templates and margins drawn (PNG/JPEG)");
  return [options] { return run_photo(*options); };
}

}  // namespace diskref::cli
