#pragma once
// The books (referee.h): the game as it stands on one pass through the settles, and the table as
// the last settles showed it. A struct that the jobs of one pass (game_in_progress.h) are given by
// reference: the rulings (rulings.h) change the state by an action and write the log; the table's
// reading (table_reading.h) writes the start, and says which settle is being read; every job looks
// things up in it. A replay after a correction starts a fresh one.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/geometry/pose.h"
#include "engine/model/track_frame.h"
#include "engine/rules/actions.h"
#include "engine/rules/state.h"
#include "referee/move_reading.h"
#include "referee/referee_log.h"

namespace diskref::referee {

struct Books {
  rules::GameState state;
  rules::GameState initial_from_table;  // the start, with the poses the table gave
  std::vector<Entry> log;
  std::vector<rules::Action> actions;  // applied or refused, in order (as_play_script)
  int refused = 0;
  bool set_up = false;
  std::size_t settle_index = 0;        // the settle being read (a log entry's `reading`)
  model::TrackFrame last_settled;      // the table at the last settle
  model::TrackFrame previous_settled;  // ... and at the one before

  // Lookups (books.cpp).
  std::optional<geom::Pose> books_pose(const std::string& name) const;
  double sigma_of(const std::string& name) const;           // at the last settle
  double sigma_of_previous(const std::string& name) const;  // at the settle before (a move's start)
  std::string ship_to_act() const;
};

// Where the disk rests in the frame, if the frame has it.
std::optional<Rest> rest_of(const std::string& name, const model::TrackFrame& frame);

}  // namespace diskref::referee
