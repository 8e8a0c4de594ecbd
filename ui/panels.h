#pragma once
// The panels of the companion screen. Each draws one ImGui window at the rectangle the layout
// gives it (ui/layout.h), reads the Screen and edits only its choices.

#include "ui/layout.h"
#include "ui/screen.h"

namespace diskref::ui {

void draw_camera_view(Screen& screen, const ScreenRect& rect);
void draw_table_view(Screen& screen, const ScreenRect& rect);
void draw_dispute_panel(Screen& screen, const ScreenRect& rect);
void draw_disks_panel(Screen& screen, const ScreenRect& rect);
// Source (playback, camera), calibration and the event log.
void draw_side_panel(Screen& screen, const ScreenRect& rect);

// --game: the books, the turn, the game log (a tab of the side panel), and the move just made
// with the table's warnings, over either view.
void draw_ships_panel(Screen& screen, const ScreenRect& rect);
void draw_turn_panel(Screen& screen, const ScreenRect& rect);
void draw_game_log(Screen& screen);
// --game --serve beyond loopback: the feed's address with its token and its QR code, for phones,
// in a window over the top right of `over` (the table view) until closed.
void draw_feed_access(Screen& screen, const ScreenRect& over);

}  // namespace diskref::ui
