#pragma once
// What the referee is given and never changes (referee.h): the game file, the table, the disk
// registry, the options, and whether drops are read from counters on the table. Owned by the
// Referee; every job reads it, none changes it, and a replay after a correction starts from it.

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "referee/game_file.h"
#include "referee/referee_options.h"

namespace diskref::referee {

struct Fixed {
  GameFile game;
  model::TableSpec table;
  model::DiskRegistry registry;
  RefereeOptions options;
  bool has_counters = false;  // the registry has counters: drops are read from the table
};

}  // namespace diskref::referee
