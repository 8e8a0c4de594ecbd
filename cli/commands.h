#pragma once
// Every subcommand, each defined in cli/<name>_command.cpp. Add a subcommand here and in the
// table in main.cpp only once it works: `diskref --help` lists exactly these.

#include "cli/command.h"

namespace diskref::cli {

RunFunction add_check_command(CLI::App& app);      // check_command.cpp (spec §6)
RunFunction add_photo_command(CLI::App& app);      // photo_command.cpp (spec §14: a dispute from one photo)
RunFunction add_calibrate_command(CLI::App& app);  // calibrate_command.cpp (spec §7)
RunFunction add_table_command(CLI::App& app);      // table_command.cpp (the table plane)
RunFunction add_track_command(CLI::App& app);      // track_command.cpp (spec §5)
RunFunction add_cameras_command(CLI::App& app);    // cameras_command.cpp (the cameras, their formats and rates)
RunFunction add_render_command(CLI::App& app);     // render_command.cpp (synthetic sessions with ground truth)
RunFunction add_tags_command(CLI::App& app);       // tags_command.cpp (printable tag sheets)
RunFunction add_plan_command(CLI::App& app);       // plan_command.cpp (where to put the camera)
RunFunction add_setup_command(CLI::App& app);      // setup_command.cpp (a first table, step by step)
RunFunction add_play_command(CLI::App& app);       // play_command.cpp (scripted Red Alert games)
RunFunction add_referee_command(CLI::App& app);    // referee_command.cpp (spec §9: a game from the table)
RunFunction add_hall_command(CLI::App& app);       // hall_command.cpp (spec §10.4: every table at a glance)
RunFunction add_report_command(CLI::App& app);     // report_command.cpp (a recorded game as a page, spec §11)
RunFunction add_serve_command(CLI::App& app);      // serve_command.cpp (spec §14: a dispute settled from a phone)

#ifdef DISKREF_HAS_UI
RunFunction add_ui_command(CLI::App& app);  // ui_command.cpp (only when built with the UI)
#endif

}  // namespace diskref::cli
