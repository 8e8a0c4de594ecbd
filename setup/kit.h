#pragma once
// The kit for a game: from the game file alone (spec §9's GAME.json), everything to print and the
// files that describe it. The table file (spec §3) with corner markers sized for the camera; a disk
// registry (spec §4) with every ship of the game and every terrain piece, the torpedoes its ships
// can launch and the range template, tag ids assigned and each tag as large as its disk takes;
// the calibration board; and the camera planner's verdict on all of it.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/camera_plan.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "print/board_pattern.h"
#include "print/tag_sheet.h"
#include "setup/advice.h"

namespace diskref::setup {

// A ship with no shape in the game file is the game's usual disk: 2.5 in across, flats 2.25 in
// apart (spec §4's example).
inline const geom::Shape kDefaultShipShape = geom::FlattedCircle{63.5, 57.2};
// The board the kit prints by default: ChArUco (seen in part, found fast: what live feedback
// needs), 7 x 5 squares of 30 mm with 22 mm markers, DICT_5X5_100, on A4.
print::BoardSpec default_kit_board();

struct KitOptions {
  std::optional<geom::Vec2> play_area_mm;      // default: the game's (its parameters or its table file)
  std::optional<model::PinholeCamera> camera;  // the planned camera: checks every tag, sizes the markers
  int first_tag_id = 10;
  int torpedoes_per_ship = 3;  // of each ship that carries torpedoes
  print::BoardSpec board = default_kit_board();
};

struct Kit {
  std::filesystem::path game_file;
  model::TableSpec table;
  model::DiskRegistry registry;
  print::BoardSpec board;
  std::optional<model::PinholeCamera> camera;
  std::optional<model::CameraPlan> plan;  // with a camera
  std::vector<Advice> advice;             // what was assumed, and the plan's problems with their fixes
};

// The game's play area without a table file: its parameters' (docs/rules.md open parameter 6) or
// the game file's own table. Throws InputError naming the game file.
geom::Vec2 game_play_area(const std::filesystem::path& game_file);

// Throws InputError naming the game file, the JSON path and the problem (a terrain piece without a
// shape, a card the game data lacks, what the referee would refuse of this game with this kit).
Kit make_kit(const std::filesystem::path& game_file, const KitOptions& options);

struct KitFiles {
  std::filesystem::path table, disks, pdf;
  int pages = 0;
};
// Writes table.json, disks.json and kit.pdf (a page of instructions, then the sheets) into `dir`,
// each atomically.
KitFiles write_kit(const Kit& kit, const std::filesystem::path& dir, const print::SheetOptions& sheet);

// The kit's pages (instructions first, ending with `next_command`), as write_kit prints them.
// `placements` (may be null): where the sheets put each item (pages counted with the guide's).
std::vector<cv::Mat> kit_pages(const Kit& kit, const print::SheetOptions& sheet, const std::string& next_command,
                               std::vector<print::SheetPlacement>* placements = nullptr);

}  // namespace diskref::setup
