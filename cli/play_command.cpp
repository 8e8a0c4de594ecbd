// `diskref play SCRIPT.json`: play a scripted game of Red Alert (docs/reference/commands/play.md)
// and print the event log and the final state as JSON. Refused actions are logged with their reason
// and the game goes on.

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "engine/io/input_error.h"
#include "engine/rules/action_json.h"
#include "engine/rules/script.h"
#include "engine/rules/state_queries.h"

namespace diskref::cli {
namespace {

struct PlayOptions {
  std::string script;
  std::string as_player;
  bool text = false;
  bool strict = false;
};

void print_text(const rules::PlayResult& result) {
  for (const rules::LogEntry& entry : result.log) {
    std::string head = "[" + std::to_string(entry.index) + "] turn " + std::to_string(entry.turn) + " " +
                       std::string(rules::to_string(entry.step)) +
                       (entry.phase > 0 ? " phase " + std::to_string(entry.phase) : std::string()) + ": " +
                       rules::action_to_json(entry.action).dump();
    std::printf("%s\n", head.c_str());
    if (entry.refusal) {
      std::printf("    REFUSED (%s): %s\n", std::string(rules::to_string(entry.refusal->kind)).c_str(),
                  entry.refusal->reason.c_str());
      continue;
    }
    for (const rules::Event& e : entry.events) std::printf("    %s\n", e.text.c_str());
  }
  const rules::GameState& s = result.final_state;
  std::printf("final: turn %d, %s%s; %d action(s) refused\n", s.turn, std::string(rules::to_string(s.step)).c_str(),
              s.winner ? (", winner: " + (s.winner->empty() ? std::string("nobody") : *s.winner)).c_str() : "",
              result.refused);
}

int run_play(const PlayOptions& options) {
  rules::Script script = rules::load_script(options.script);
  std::optional<std::string> viewer;
  if (!options.as_player.empty()) {
    if (rules::find_player(script.initial, options.as_player) == nullptr)
      throw io::InputError(options.script, "setup.players",
                           "no player \"" + options.as_player + "\" (given with --as)");
    viewer = options.as_player;
  }
  rules::PlayResult result = rules::run_script(script);
  if (options.text) {
    print_text(result);
  } else {
    std::string out = rules::play_result_to_json(result, viewer).dump(1) + "\n";
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  if (result.refused > 0)
    std::fprintf(stderr, "diskref play: %d action(s) refused (reasons in the log)\n", result.refused);
  return options.strict && result.refused > 0 ? kExitFailure : kExitOk;
}

}  // namespace

RunFunction add_play_command(CLI::App& app) {
  auto options = std::make_shared<PlayOptions>();
  CLI::App* sub =
      app.add_subcommand("play", "Play a scripted game of Red Alert: print the event log and the final state as JSON");
  sub->footer("Example:\n  diskref play data/scripts/diana_owen_duel.json");
  sub->add_option("script", options->script, "Play script (JSON; format in docs/reference/commands/play.md)")
      ->required();
  sub->add_option("--as", options->as_player, "Show the final state as this player sees it (opponents' orders hidden)");
  sub->add_flag("--text", options->text, "Print the log as readable text instead of JSON");
  sub->add_flag("--strict", options->strict, "Exit with status 1 when any action was refused");
  return [options] { return run_play(*options); };
}

}  // namespace diskref::cli
