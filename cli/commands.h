#pragma once
// Every subcommand, each defined in cli/<name>_command.cpp. Add a subcommand here and in the
// table in main.cpp only once it works: `diskref --help` lists exactly these.

#include "cli/command.h"

namespace diskref::cli {

RunFunction setup_check(CLI::App& app);  // check_command.cpp (spec §6)
RunFunction setup_photo(CLI::App& app);  // photo_command.cpp (spec §14: a dispute from one photo)
RunFunction setup_calibrate(CLI::App& app);  // calibrate_command.cpp (spec §7)
RunFunction setup_table(CLI::App& app);      // table_command.cpp (the table plane)
RunFunction setup_track(CLI::App& app);  // track_command.cpp (spec §5)
RunFunction setup_cameras(CLI::App& app);  // cameras_command.cpp (the cameras, their formats and rates)
RunFunction setup_render(CLI::App& app);  // render_command.cpp (synthetic sessions with ground truth)
RunFunction setup_tags(CLI::App& app);    // tags_command.cpp (printable tag sheets)
RunFunction setup_plan(CLI::App& app);    // plan_command.cpp (where to put the camera)
RunFunction setup_setup(CLI::App& app);   // setup_command.cpp (a first table, step by step)
RunFunction setup_play(CLI::App& app);    // play_command.cpp (scripted Red Alert games)
RunFunction setup_referee(CLI::App& app); // referee_command.cpp (spec §9: a game from the table)
RunFunction setup_hall(CLI::App& app);    // hall_command.cpp (spec §10.4: every table at a glance)
RunFunction setup_report(CLI::App& app);  // report_command.cpp (a recorded game as a page, spec §11)

#ifdef DISKREF_HAS_UI
RunFunction setup_ui(CLI::App& app);  // ui_command.cpp (only when built with the UI)
#endif

}  // namespace diskref::cli
