#include "pipeline/game_replay.h"

#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "pipeline/pipeline.h"
#include "referee/game_file.h"

namespace diskref::pipeline {

referee::RefereeOptions recorded_referee_options(const recording::GameRecording& rec, referee::RefereeOptions base) {
  const nlohmann::json& parameters = rec.session.provenance.parameters;
  if (parameters.contains("off_path_mm") && parameters["off_path_mm"].is_number())
    base.off_path_tolerance_mm = parameters["off_path_mm"].get<double>();
  if (parameters.contains("camera_gap_s") && parameters["camera_gap_s"].is_number())
    base.camera_gap_s = parameters["camera_gap_s"].get<double>();
  return base;
}

ReplayedGame replay_game(const recording::GameRecording& rec) {
  if (!rec.game_file)
    throw io::InputError(rec.session.dir.string(), "",
                         "holds no game (no game/game.json): it was recorded without --game");
  ReplayedGame out;
  out.table = model::load_table(rec.session.files.table);
  out.registry = model::load_disk_registry(rec.session.files.disks);
  if (rec.session.files.camera) out.lens = calib::load_camera_model(*rec.session.files.camera);
  referee::GameFile game = referee::load_game_file(*rec.game_file, out.table, out.registry);
  out.data = game.data;
  out.initial = game.initial;
  auto played = std::make_shared<RefereedGame>(
      referee::Referee(std::move(game), out.table, out.registry, recorded_referee_options(rec)), rec.inputs);
  Pipeline pipe(nullptr, played, nullptr);
  pipe.run_tracks(rec.session.frames);
  pipe.finish();
  played->read_referee([&](const referee::Referee& ref) {
    out.log = ref.log();
    for (const referee::TableSettle& settle : ref.settles()) out.settles.push_back(settle.snapshot);
    out.final_state = ref.state();
    out.expecting_at_end = ref.expecting();
    out.waiting = ref.waiting();
    out.log_json = ref.log_json();
  });
  // The entries only: a recording cut short has the log of its last ruling, without the end's notes.
  if (rec.log && rec.log->contains("log")) out.matches_recorded_log = (*rec.log)["log"] == out.log_json["log"];
  return out;
}

}  // namespace diskref::pipeline
