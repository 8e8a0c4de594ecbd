// A table pose file (`diskref track --table-pose`), checked against the duel sample's table.
#include <nlohmann/json.hpp>
#include "calibration/camera_pose.h"

#include "engine/model/table_spec.h"
#include "fuzz/fuzz_files.h"
#include "fuzz/fuzz_target.h"

DISKREF_FUZZ_TARGET(table_pose) {
  using namespace diskref;
  static const model::TableSpec table = model::load_table(fuzz::source_file("sample_videos/duel/table.json"));
  const calib::CameraPose pose = calib::load_camera_pose(fuzz::place_input("pose.json", input));
  (void)calib::camera_pose_fits_table_problem(pose, table);
}
