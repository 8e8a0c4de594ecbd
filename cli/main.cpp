// diskref: the camera referee for flip-disk tabletop games. This file only wires subcommands;
// each lives in cli/<name>_command.cpp over the libraries.

#include <cstdio>
#include <exception>
#include <iostream>
#include <map>

#include "cli/commands.h"
#include "engine/io/input_error.h"

namespace {

using diskref::cli::SetupFunction;

// In the order `diskref --help` lists them.
const SetupFunction kCommands[] = {
    diskref::cli::setup_check,
    diskref::cli::setup_calibrate,
    diskref::cli::setup_table,
    diskref::cli::setup_track,
    diskref::cli::setup_render,
    diskref::cli::setup_tags,
    diskref::cli::setup_play,
    diskref::cli::setup_referee,
#ifdef DISKREF_HAS_UI
    diskref::cli::setup_ui,
#endif
    nullptr,
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"diskref: the camera referee for flip-disk tabletop games (Star Trek: Red Alert!)"};
  app.set_version_flag("--version", "diskref " DISKREF_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);

  std::map<CLI::App*, diskref::cli::RunFunction> runners;
  for (SetupFunction setup : kCommands) {
    if (setup == nullptr) continue;
    std::size_t before = app.get_subcommands({}).size();
    diskref::cli::RunFunction run = setup(app);
    auto subs = app.get_subcommands({});
    if (subs.size() == before + 1) runners[subs.back()] = std::move(run);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end successfully; every other command-line error is bad input (2),
    // as for bad files, whatever CLI11's own code for it.
    int status = app.exit(e);
    return status == 0 ? 0 : diskref::cli::kExitBadInput;
  }

  for (auto& [sub, run] : runners) {
    if (!sub->parsed()) continue;
    try {
      return run();
    } catch (const diskref::io::InputError& e) {
      std::fprintf(stderr, "diskref %s: %s\n", sub->get_name().c_str(), e.what());
      return diskref::cli::kExitBadInput;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "diskref %s: error: %s\n", sub->get_name().c_str(), e.what());
      return diskref::cli::kExitFailure;
    }
  }
  std::cerr << app.help();
  return diskref::cli::kExitBadInput;
}
