// `diskref check SCENE.json` (spec §6): answer a scene's geometry questions as JSON on stdout.

#include <cstdio>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "engine/model/scene_check.h"

namespace diskref::cli {
namespace {

struct CheckOptions {
  std::string scene;
};

int run_check(const CheckOptions& options) {
  model::Scene scene = model::load_scene(options.scene);
  std::string out = model::format_answers(model::answer_scene(scene));
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

}  // namespace

RunFunction add_check_command(CLI::App& app) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* sub = app.add_subcommand(
      "check", "Answer geometry questions about a scene (range, overlap, move, template_check) as JSON");
  sub->footer("Example:\n  diskref check data/scenes/spec-example.json     (answers as JSON on stdout, spec §6)");
  sub->add_option("scene", options->scene, "Scene file (JSON, spec §6)")->required();
  return [options] { return run_check(*options); };
}

}  // namespace diskref::cli
