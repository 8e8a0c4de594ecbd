#pragma once
// The Photo tab's state, between its panel (ui/photo_panel.cpp) and its worker: the file named,
// the question chosen, and the newest ruling as it is shown. The panel edits the choices and calls
// open() and question_changed(); refresh() each frame takes what the worker has finished.
//
// A photo is ruled on as soon as it is opened, with the question when one is chosen and without
// (the disks it shows) when not; choosing the question afterwards asks the kept photo again.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/disk_registry.h"
#include "ui/photo_question.h"
#include "ui/photo_result.h"
#include "ui/photo_worker.h"
#include "ui/screen.h"

namespace diskref::ui {

class PhotoDispute {
 public:
  // `templates`: the range templates to measure with (Screen::templates' choices).
  PhotoDispute(const model::DiskRegistry& registry, std::vector<RangeTemplateChoice> templates, PhotoWorker& worker);

  // A photo dropped on the window or named in the file field. Says at once when there is no such
  // file; otherwise the worker reads it.
  void open(const std::filesystem::path& file);
  // After the panel changed the question: asks the photo again when it makes a whole question.
  void question_changed();
  // Takes the worker's newest outcome; true when it is new (the panel uploads its picture).
  bool refresh();

  const model::DiskRegistry& registry() const { return registry_; }
  const std::vector<RangeTemplateChoice>& templates() const { return templates_; }
  PhotoQuestion& question() { return question_; }
  const PhotoQuestion& question() const { return question_; }
  int& template_index() { return template_index_; }
  std::string& path_typed() { return path_typed_; }
  // Why the question is not asked yet ("choose disk B"); empty when it is whole.
  const std::string& question_missing() const { return question_missing_; }

  bool busy() const;  // a request not yet answered
  PhotoWorkStatus status() const { return worker_.status(); }
  const std::filesystem::path& file() const { return file_; }  // the photo opened last
  // The newest outcome and what it shows (null / empty before the first).
  const std::shared_ptr<const PhotoOutcome>& outcome() const { return outcome_; }
  const PhotoShown& shown() const { return shown_; }
  // Said at once, without the worker: "no such file".
  const std::string& problem() const { return problem_; }
  // The disks the question may name: those the last ruling saw (the registry's before one).
  std::vector<std::string> disk_choices(bool ships_only) const;
  // The outcome answers the question as it is chosen now (not an older one still shown).
  bool answers_current_question() const;
  std::uint64_t last_request() const { return last_request_; }

 private:
  std::optional<nlohmann::json> current_questions();

  const model::DiskRegistry& registry_;
  std::vector<RangeTemplateChoice> templates_;
  PhotoWorker& worker_;
  PhotoQuestion question_;
  int template_index_ = 0;
  std::string path_typed_;
  std::string question_missing_;
  std::string problem_;
  std::filesystem::path file_;
  nlohmann::json asked_;  // the questions of the last request
  std::uint64_t last_request_ = 0;
  std::shared_ptr<const PhotoOutcome> outcome_;
  PhotoShown shown_;
};

}  // namespace diskref::ui
