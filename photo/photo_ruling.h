#pragma once
// A dispute settled from one photograph (spec §14, `diskref photo`): the tags on the disks are
// the rulers. From one photo taken by hand, at any angle, the table plane and the camera are
// fitted from the tags themselves (their known sizes, their disks' thicknesses, all lying flat
// on one table; the focal length from EXIF when the photo has it), every disk is placed in
// millimetres with its sigma, and spec §6's questions are answered with margin +- sigma and
// "too close to call" when |margin| < 2 sigma.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "engine/model/disk_registry.h"
#include "photo/photo_decode.h"

namespace diskref::photo {

struct PhotoOptions {
  // The margin a question must be answered within (1 sigma, mm); a photo that cannot is answered
  // with its sigma and the reason ("the tags are 14 px wide: ... hold the phone closer").
  double precision_mm = 0.5;
  // A calibrated lens, when the user has one (`--calib`); otherwise the camera is fitted.
  std::optional<calib::CameraModel> lens;
  std::string tag_family = "tagStandard41h12";
  // Where the questions came from, for messages about them ("questions.json"; "the command line").
  std::string questions_source = "questions";
};

struct PhotoRuling {
  // {"photo": {source, size, camera: {...}, tags_px_smallest, ...},
  //  "disks": [{name, kind, x, y, heading, sigma_mm, tag_px}, ...],
  //  "unseen": [names in the registry whose tag is not in the photo],
  //  "answers": [spec §6's answers, each with "sigma_mm" and "call": "yes"|"no"|"too close to call"],
  //  "notes": ["the tags are 14 px wide: range known only to +- 2.3 mm; hold the phone closer"]}
  nlohmann::ordered_json answer;
  cv::Mat annotated;  // the photo with the disks' outlines, the template and each margin drawn
  int exit_code = 0;  // as `diskref check`: 0 answered (whatever the answers), 2 bad input
};

// `questions` is spec §6's "questions" array (disks named as in the registry). Throws
// io::InputError for a question that names an unknown disk or breaks §6's schema, and
// PhotoRefused for a photo with too few tags to fit a table.
PhotoRuling rule_on_photo(const Photo& photo, const model::DiskRegistry& registry, const nlohmann::json& questions,
                          const PhotoOptions& options = {});

}  // namespace diskref::photo
