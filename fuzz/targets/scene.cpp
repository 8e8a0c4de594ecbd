// A scene for `diskref check`: loaded, and every question answered.
#include <nlohmann/json.hpp>
#include "engine/model/scene_check.h"

#include "fuzz/fuzz_files.h"
#include "fuzz/fuzz_target.h"

DISKREF_FUZZ_TARGET(scene) {
  using namespace diskref;
  const model::Scene scene = model::load_scene(fuzz::place_input("scene.json", input).string());
  (void)model::format_answers(model::answer_scene(scene));
}
