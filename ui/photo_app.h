#pragma once
// The Photo tab's program pieces: its worker bound to the photo library (photo::load_photo,
// photo::rule_on_photo) and, when the screen has no camera or video (`diskref ui --disks
// disks.json`: a kitchen table and a phone), the screen that is the Photo tab alone.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "calibration/camera_model.h"
#include "engine/model/disk_registry.h"
#include "ui/photo_question.h"
#include "ui/photo_worker.h"

namespace diskref::ui {

// A worker that reads photos with the library's limits and rules on them against `registry` (kept
// by reference: it must outlive the worker), with the lens when one is known.
std::unique_ptr<PhotoWorker> make_photo_worker(const model::DiskRegistry& registry,
                                               std::optional<calib::CameraModel> lens);

struct PhotoAppOptions {
  std::filesystem::path disks;                       // the registry
  std::filesystem::path rules_data;                  // the rules' range template
  std::optional<std::filesystem::path> camera_file;  // a calibrated lens (--calib)
  std::optional<std::filesystem::path> photo;        // opened at the start (--photo)
  PhotoQuestion question;                            // preselected (--select A,B; --flip SHIP:N)
  int template_index = 0;
  // Write a screenshot once the photo opened at the start is answered (or refused), then stop.
  std::optional<std::filesystem::path> screenshot;
  std::optional<std::filesystem::path> views_json;  // with the screenshot: what the tab shows
  double run_seconds = 0;                           // close after this long (0: no limit)
  int width = 1280;
  int height = 800;
};

// Throws InputError for bad files (before any window), std::runtime_error without a display.
void run_photo_app(const PhotoAppOptions& options);

}  // namespace diskref::ui
