#pragma once
// The live feed's messages (spec §10, version 1), as JSON built from what the referee holds: the
// table as the tracker sees it, the books as anyone at the table may see them, and each ruling as
// it is made. Only public information: an order is "face down" until revealed, and a ruling
// carries its text and its evidence from the table, never the action entered (a Step Two entry
// holds the orders placed).
//
// Every message has "feed" (the version), "type" and "table" (the table's name); the hub adds
// "seq" and "sent_ms" when it publishes one.

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/model/track_frame.h"
#include "net/feed_hub.h"
#include "referee/referee.h"

namespace diskref::net {

// {"type": "setup"}: the play area and every disk of the registry (name, kind, shape, colour,
// tags): what a page needs to draw the table before the first frame.
nlohmann::json setup_message(const std::string& table_name, const model::TableSpec& table,
                             const model::DiskRegistry& registry);
// {"type": "table"}: one tracked frame (spec §5's members: frame, t, disks, settled, landings).
nlohmann::json table_message(const std::string& table_name, const model::TrackFrame& frame);
// {"type": "game"}: the ship panels and the turn (referee/books_shown.h), at video time t.
nlohmann::json game_message(const std::string& table_name, const referee::Referee& referee, double t);
// {"type": "ruling"}: log entry `number`: its t, one line of text (referee::entry_text), its tone
// (info, warning, refusal, correction, setup) and "observed" when it was read from the table.
nlohmann::json ruling_message(const std::string& table_name, std::size_t number, const referee::Entry& entry);
// {"type": "status"}: the feed's own state, e.g. {"mqtt": "lost"}: what the screen says about it.
nlohmann::json status_message(const std::string& table_name, const nlohmann::json& status);

}  // namespace diskref::net
