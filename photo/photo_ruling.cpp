#include "photo/photo_ruling.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/geometry/distance.h"
#include "engine/geometry/range.h"
#include "engine/io/input_error.h"
#include "engine/model/call_band.h"
#include "engine/model/scene_check.h"
#include "engine/model/shape_json.h"
#include "photo/photo_drawing.h"
#include "photo/photo_tags.h"
#include "photo/question_margins.h"
#include "photo/table_from_tags.h"

namespace diskref::photo {
namespace {

using Json = nlohmann::ordered_json;

// Below these a tag's corners are found less well (spec §2: about 2.5 px per cell is the least
// that reads; the corners want more): the reasons a note gives for a sigma too large.
constexpr double kSmallTagPx = 60;
constexpr double kWeakDecisionMargin = 40;
constexpr double kObliqueTiltDeg = 60;

double round2(double v) {
  return std::round(v * 100) / 100;
}

std::vector<int> disks_of(const model::SceneQuestion& question) {
  return std::visit(
      [](const auto& q) -> std::vector<int> {
        using T = std::decay_t<decltype(q)>;
        if constexpr (std::is_same_v<T, model::RangeQuestion>) return {q.from, q.to};
        if constexpr (std::is_same_v<T, model::OverlapQuestion>) return {q.a, q.b};
        if constexpr (std::is_same_v<T, model::MoveQuestion>) return {q.disk};
        if constexpr (std::is_same_v<T, model::TemplateCheckQuestion>) return {q.placed_template, q.from, q.to};
      },
      question.question);
}

// The same question with its disks renumbered (`index` maps the full scene's to the seen scene's).
model::SceneQuestion renumbered(model::SceneQuestion question, const std::vector<int>& index) {
  std::visit(
      [&](auto& q) {
        using T = std::decay_t<decltype(q)>;
        if constexpr (std::is_same_v<T, model::RangeQuestion>) {
          q.from = index[std::size_t(q.from)];
          q.to = index[std::size_t(q.to)];
        } else if constexpr (std::is_same_v<T, model::OverlapQuestion>) {
          q.a = index[std::size_t(q.a)];
          q.b = index[std::size_t(q.b)];
        } else if constexpr (std::is_same_v<T, model::MoveQuestion>) {
          q.disk = index[std::size_t(q.disk)];
        } else {
          q.placed_template = index[std::size_t(q.placed_template)];
          q.from = index[std::size_t(q.from)];
          q.to = index[std::size_t(q.to)];
        }
      },
      question.question);
  return question;
}

const char* question_word(const model::SceneQuestion& question) {
  switch (question.question.index()) {
    case 0:
      return "range";
    case 1:
      return "overlap";
    case 2:
      return "move";
    default:
      return "template check";
  }
}

// The questions checked against the registry's names (spec §6's schema and messages).
model::Scene parse_questions(const model::DiskRegistry& registry, const nlohmann::json& questions,
                             const std::string& source) {
  nlohmann::json doc;
  doc["disks"] = nlohmann::json::array();
  for (const model::DiskSpec& disk : registry.disks()) {
    doc["disks"].push_back({{"name", disk.name},
                            {"kind", std::string(model::to_string(disk.kind))},
                            {"shape", model::shape_to_json(disk.shape)},
                            {"x", 0},
                            {"y", 0},
                            {"heading", 0}});
  }
  doc["questions"] = questions.is_null() ? nlohmann::json::array() : questions;
  return model::parse_scene(io::JsonCursor(doc, source));
}

// Why a margin's sigma is larger than asked, and what to do about it, from the tags it rests on.
std::string precision_note(const std::string& id, const char* word, double sigma,
                           const std::vector<const SeenTag*>& tags, const TablePlacement& placement) {
  double smallest_px = 1e9, weakest = 1e9;
  for (const SeenTag* tag : tags) {
    smallest_px = std::min(smallest_px, tag_side_px(tag->detection));
    weakest = std::min(weakest, tag->detection.decision_margin);
  }
  std::string reason, remedy;
  if (placement.tilt_deg > kObliqueTiltDeg) {
    reason = fmt::format("the photo is taken {:.0f} degrees from straight above", placement.tilt_deg);
    remedy = "take it more from above";
  } else if (smallest_px < kSmallTagPx) {
    reason = fmt::format("the tags are {:.0f} px wide", smallest_px);
    remedy = "hold the phone closer";
  } else if (weakest < kWeakDecisionMargin) {
    reason = fmt::format("the tags read weakly (decision margin {:.0f}): the photo is blurred or dark", weakest);
    remedy = "hold the phone still, with more light";
  } else {
    reason = fmt::format("the camera is {:.0f} mm away and the corners scatter by {:.2f} px", placement.distance_mm,
                         placement.corner_sigma_px);
    remedy = "hold the phone closer and still";
  }
  return fmt::format("{}: {}: {} known only to +- {:.1f} mm (1 sigma); {}", id, reason, word, sigma, remedy);
}

}  // namespace

PhotoRuling rule_on_photo(const Photo& photo, const model::DiskRegistry& registry, const nlohmann::json& questions,
                          const PhotoOptions& options) {
  // The questions first: a question that names no disk is bad input whatever the photo shows.
  const model::Scene asked = parse_questions(registry, questions, options.questions_source);

  const FoundTags found = find_registry_tags(photo.image, registry, options.tag_family);
  const std::string registry_name = registry.source().empty() ? "the registry" : registry.source();
  if (found.tags.empty()) {
    throw PhotoRefused(fmt::format("{}: no tag of {} in the photo{}{}", photo.source, registry_name,
                                   found.notes.empty() ? "" : "; ", fmt::join(found.notes, "; ")));
  }

  const cv::Size size = photo.image.size();
  TagsFitOptions fit_options;
  if (options.lens) {
    try {
      calib::check_camera_fits_image(*options.lens, size, "the calibration", "the photo");
    } catch (const io::InputError& e) {
      throw PhotoRefused(fmt::format("{}: {}", photo.source, e.what()));
    }
    fit_options.lens = options.lens;
  } else if (photo.exif.focal_length_35mm) {
    fit_options.focal_px = *photo.exif.focal_length_35mm * std::hypot(size.width, size.height) / kFullFrameDiagonalMm;
  }
  TablePlacement placement;
  try {
    placement = fit_table(found.tags, size, fit_options);
  } catch (const std::runtime_error& e) {
    throw PhotoRefused(fmt::format("{}: {}", photo.source, e.what()));
  }

  // The seen disks, placed; the questions renumbered onto them.
  model::Scene scene;
  std::vector<int> seen_index(registry.disks().size(), -1);
  std::vector<DrawnDisk> drawn;
  for (std::size_t t = 0; t < found.tags.size(); ++t) {
    const model::DiskSpec& disk = registry.disks()[found.refs[t].disk_index];
    const cv::Vec3d& pose = placement.tag_poses[t];
    const double heading = pose[2] * 180 / std::numbers::pi + registry.tag(found.refs[t]).heading_offset_deg;
    seen_index[found.refs[t].disk_index] = static_cast<int>(scene.disks.size());
    model::SceneDisk placed{disk.name, disk.kind, {disk.shape, geom::Pose::from_degrees(pose[0], pose[1], heading)}};
    scene.disks.push_back(placed);
    drawn.push_back({disk.name, placed.placed, disk.thickness_mm, disk.kind == model::DiskKind::template_, false});
  }

  Json answer;
  Json notes = Json::array();
  for (const std::string& note : found.notes) notes.push_back(note);

  Json disks = Json::array();
  double smallest_px = 1e9;
  for (std::size_t t = 0; t < found.tags.size(); ++t) {
    const int row = static_cast<int>(3 * t);
    const cv::Mat xy = placement.pose_covariance(cv::Rect(row, row, 2, 2));
    cv::Mat eigenvalues;
    cv::eigen(xy, eigenvalues);
    const double side = tag_side_px(found.tags[t].detection);
    smallest_px = std::min(smallest_px, side);
    const model::SceneDisk& d = scene.disks[t];
    disks.push_back(Json{
        {"name", d.name},
        {"kind", std::string(model::to_string(d.kind))},
        {"x", round2(d.placed.pose.position.x)},
        {"y", round2(d.placed.pose.position.y)},
        {"heading", round2(d.placed.pose.heading_deg())},
        {"sigma_mm", round2(std::sqrt(std::max(0.0, eigenvalues.at<double>(0))))},
        {"heading_sigma_deg", round2(std::sqrt(std::max(0.0, placement.pose_covariance.at<double>(row + 2, row + 2))) *
                                     180 / std::numbers::pi)},
        {"tag_px", round2(side)},
        {"reference", t == placement.reference}});
  }
  Json unseen = Json::array();
  for (std::size_t i = 0; i < registry.disks().size(); ++i) {
    if (seen_index[i] < 0) unseen.push_back(registry.disks()[i].name);
  }

  // Each question on the seen disks; one that needs an unseen disk cannot be told.
  std::vector<std::size_t> answerable;
  for (std::size_t k = 0; k < asked.questions.size(); ++k) {
    const auto needed = disks_of(asked.questions[k]);
    if (std::all_of(needed.begin(), needed.end(), [&](int i) { return seen_index[std::size_t(i)] >= 0; })) {
      answerable.push_back(k);
      scene.questions.push_back(renumbered(asked.questions[k], seen_index));
    }
  }
  const Json scene_answers = model::answer_scene(scene)["answers"];
  Json answers = Json::array();
  std::vector<DrawnTemplate> templates;
  std::vector<DrawnMargin> margins;
  std::size_t next = 0;
  for (std::size_t k = 0; k < asked.questions.size(); ++k) {
    const model::SceneQuestion& original = asked.questions[k];
    if (next >= answerable.size() || answerable[next] != k) {
      Json missing = Json::array();
      for (int i : disks_of(original)) {
        if (seen_index[std::size_t(i)] < 0) missing.push_back(asked.disks[std::size_t(i)].name);
      }
      answers.push_back(Json{{"id", original.id}, {"call", "cannot tell"}, {"unseen", missing}});
      notes.push_back(fmt::format("{}: {} not in the photo", original.id, fmt::join(missing, ", ")));
      continue;
    }
    const model::SceneQuestion& question = scene.questions[next];
    Json a = scene_answers[next];
    ++next;
    a.erase("leaves_play_area");  // a photo shows no play area's edge
    a.erase("play_area_margin_mm");
    const std::optional<DecisiveMargin> margin = decisive_margin(scene, question);
    std::vector<const SeenTag*> involved;
    for (int i : disks_of(question)) involved.push_back(&found.tags[std::size_t(i)]);
    if (!margin) {
      a["call"] = "no";
      answers.push_back(a);
      continue;
    }
    const double sigma = margin_sigma(scene, question, placement.pose_covariance);
    const bool too_close = std::abs(margin->margin_mm) < model::kCallSigmas * sigma;
    a["decisive_margin_mm"] = round2(margin->margin_mm);
    a["sigma_mm"] = round2(sigma);
    a["call"] = too_close ? "too close to call" : (margin->yes ? "yes" : "no");
    if (sigma > options.precision_mm)
      notes.push_back(precision_note(original.id, question_word(question), sigma, involved, placement));
    const std::string label =
        fmt::format("{} {:+.1f} +- {:.1f} mm ({:g} sigma): {}", original.id, margin->margin_mm,
                    model::kCallSigmas * sigma, model::kCallSigmas, a["call"].get<std::string>());
    if (const auto* range = std::get_if<model::RangeQuestion>(&question.question)) {
      const geom::RangeOutput r =
          geom::range_check(scene.disks[std::size_t(range->from)].placed, scene.disks[std::size_t(range->to)].placed,
                            range->range_template, range->reach_multiplier);
      templates.push_back({{geom::Rect{r.template_length_mm, range->range_template.width_mm}, r.template_pose}});
      margins.push_back({label, r.point_a, r.point_b, too_close});
    } else if (const auto* overlap = std::get_if<model::OverlapQuestion>(&question.question)) {
      const geom::DistanceOutput d = geom::signed_distance(scene.disks[std::size_t(overlap->a)].placed,
                                                           scene.disks[std::size_t(overlap->b)].placed);
      margins.push_back({label, d.point_a, d.point_b, too_close});
    } else if (const auto* move = std::get_if<model::MoveQuestion>(&question.question)) {
      const model::SceneDisk& mover = scene.disks[std::size_t(move->disk)];
      const double height = found.tags[std::size_t(move->disk)].height_mm;
      geom::Vec2 last = mover.placed.pose.position;
      for (const auto& landing : a["landings"]) {
        const geom::Pose pose = geom::Pose::from_degrees(landing["x"].get<double>(), landing["y"].get<double>(),
                                                         landing["heading"].get<double>());
        drawn.push_back({mover.name, {mover.placed.shape, pose}, height, false, true});
        last = pose.position;
      }
      margins.push_back({label, mover.placed.pose.position, last, too_close});
    } else {
      const geom::Vec2 at = scene.disks[std::size_t(disks_of(question).front())].placed.pose.position;
      margins.push_back({label, at, at, too_close});
    }
    answers.push_back(a);
  }
  if (found.tags.size() == 1) {
    notes.push_back("one tag only: the table's plane rests on one tag's four corners; more tags in view make it surer");
  }
  if (placement.focal_source == FocalSource::fitted &&
      placement.focal_sigma_px > 0.05 * placement.camera_matrix(0, 0)) {
    notes.push_back(
        fmt::format("the focal length is fitted from the tags ({:.0f} +- {:.0f} px): the photo has no EXIF "
                    "focal length; the sigmas include it",
                    placement.camera_matrix(0, 0), placement.focal_sigma_px));
  }

  Json camera{{"focal_px", round2(placement.camera_matrix(0, 0))},
              {"focal_from", placement.focal_source == FocalSource::calibration ? "calibration"
                             : placement.focal_source == FocalSource::exif      ? "exif"
                                                                                : "fitted"},
              {"focal_sigma_px", round2(placement.focal_sigma_px)},
              {"tilt_deg", round2(placement.tilt_deg)},
              {"distance_mm", round2(placement.distance_mm)},
              {"rms_px", round2(placement.rms_px)},
              {"corner_sigma_px", round2(placement.corner_sigma_px)}};
  if (placement.radial_k1) camera["radial_k1"] = std::round(*placement.radial_k1 * 1e4) / 1e4;
  if (!photo.exif.camera.empty()) camera["model"] = photo.exif.camera;
  answer["photo"] = Json{{"source", photo.source},
                         {"size", Json::array({size.width, size.height})},
                         {"camera", camera},
                         {"tags_px_smallest", round2(smallest_px)},
                         {"quad_decimate", found.quad_decimate},
                         {"frame", fmt::format("origin at {}'s centre, +x along its tag's +x, mm",
                                               scene.disks[placement.reference].name)}};
  answer["disks"] = disks;
  answer["unseen"] = unseen;
  answer["answers"] = answers;
  answer["call_sigmas"] = model::kCallSigmas;
  answer["notes"] = notes;

  PhotoRuling ruling;
  ruling.answer = std::move(answer);
  ruling.annotated = annotate_photo(photo.image, placement, drawn, templates, margins);
  return ruling;
}

}  // namespace diskref::photo
