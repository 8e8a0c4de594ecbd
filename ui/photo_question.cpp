#include "ui/photo_question.h"

#include <algorithm>

#include <fmt/format.h>

namespace diskref::ui {

std::optional<nlohmann::json> photo_questions_json(const PhotoQuestion& q, std::string& missing) {
  missing.clear();
  const bool pair = q.kind != PhotoQuestion::Kind::move;
  if (!q.a)
    missing = pair ? "choose disk A" : "choose the ship that flips";
  else if (pair && !q.b)
    missing = "choose disk B";
  else if (pair && *q.a == *q.b)
    missing = "choose two different disks";
  else if (!pair && q.flips < 1)
    missing = "a ship flips at least once";
  if (!missing.empty()) return std::nullopt;

  nlohmann::json question = {{"id", "q1"}};
  switch (q.kind) {
    case PhotoQuestion::Kind::range:
      question["range"] = {
          {"from", *q.a},
          {"to", *q.b},
          {"template", {{"length_mm", q.range_template.length_mm}, {"width_mm", q.range_template.width_mm}}}};
      break;
    case PhotoQuestion::Kind::overlap:
      question["overlap"] = {{"a", *q.a}, {"b", *q.b}};
      break;
    case PhotoQuestion::Kind::move:
      question["move"] = {{"disk", *q.a}, {"flips", q.flips}};
      break;
  }
  return nlohmann::json::array({question});
}

std::string question_text(const PhotoQuestion& q) {
  const std::string a = q.a.value_or("?"), b = q.b.value_or("?");
  switch (q.kind) {
    case PhotoQuestion::Kind::range:
      return fmt::format("range {} to {} ({})", a, b, q.template_label);
    case PhotoQuestion::Kind::overlap:
      return fmt::format("overlap {} / {}", a, b);
    case PhotoQuestion::Kind::move:
      return fmt::format("move {} {} flip{}", a, q.flips, q.flips == 1 ? "" : "s");
  }
  return {};
}

std::vector<std::string> question_disk_choices(const model::DiskRegistry& registry,
                                               const std::optional<std::vector<std::string>>& seen, bool ships_only) {
  std::vector<std::string> out;
  auto allowed = [&](const std::string& name) {
    const model::DiskSpec* d = registry.find(name);
    return d != nullptr && (!ships_only || d->kind == model::DiskKind::ship);
  };
  if (seen) {
    for (const std::string& name : *seen)
      if (allowed(name) && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    return out;
  }
  for (const model::DiskSpec& d : registry.disks())
    if (allowed(d.name)) out.push_back(d.name);
  return out;
}

}  // namespace diskref::ui
