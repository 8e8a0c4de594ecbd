#include "ui/photo_dispute.h"

#include <algorithm>

namespace diskref::ui {

PhotoDispute::PhotoDispute(const model::DiskRegistry& registry, std::vector<RangeTemplateChoice> templates,
                           PhotoWorker& worker)
    : registry_(registry), templates_(std::move(templates)), worker_(worker) {
  current_questions();
}

std::optional<nlohmann::json> PhotoDispute::current_questions() {
  if (!templates_.empty()) {
    template_index_ = std::clamp(template_index_, 0, static_cast<int>(templates_.size()) - 1);
    question_.range_template = templates_[static_cast<std::size_t>(template_index_)].rect;
    question_.template_label = templates_[static_cast<std::size_t>(template_index_)].label;
  }
  return photo_questions_json(question_, question_missing_);
}

void PhotoDispute::open(const std::filesystem::path& file) {
  problem_.clear();
  std::error_code ec;
  if (file.empty()) {
    problem_ = "name a photo (or drop one on the window)";
    return;
  }
  if (!std::filesystem::is_regular_file(file, ec)) {
    problem_ = file.string() + ": no such file";
    return;
  }
  file_ = file;
  path_typed_ = file.string();
  asked_ = current_questions().value_or(nlohmann::json::array());
  last_request_ = worker_.open(file, asked_);
}

void PhotoDispute::question_changed() {
  std::optional<nlohmann::json> q = current_questions();
  if (!q || file_.empty() || *q == asked_) return;
  asked_ = *q;
  last_request_ = worker_.ask(asked_);
}

bool PhotoDispute::refresh() {
  std::shared_ptr<const PhotoOutcome> newest = worker_.latest();
  if (!newest || newest == outcome_) return false;
  outcome_ = std::move(newest);
  shown_ = outcome_->ruling ? photo_shown(outcome_->ruling->answer) : PhotoShown{};
  return true;
}

bool PhotoDispute::busy() const {
  return last_request_ != 0 && (!outcome_ || outcome_->request < last_request_);
}

std::vector<std::string> PhotoDispute::disk_choices(bool ships_only) const {
  std::optional<std::vector<std::string>> seen;
  if (outcome_ && outcome_->ruling) seen = shown_.disks_seen;
  return question_disk_choices(registry_, seen, ships_only);
}

bool PhotoDispute::answers_current_question() const {
  if (!outcome_) return false;
  std::string missing;
  const std::optional<nlohmann::json> now = photo_questions_json(question_, missing);
  return now ? outcome_->questions == *now : outcome_->questions.empty();
}

}  // namespace diskref::ui
