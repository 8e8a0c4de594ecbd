#pragma once
// Drawing the table's contents in a view, the same way in the camera view and the table view:
// each view supplies only its map from table millimetres to the screen.

#include <functional>
#include <optional>
#include <vector>

#include <imgui.h>

#include "ui/imgui_draw.h"
#include "ui/screen.h"

namespace diskref::ui {

// Table-frame points (mm) at `height_mm` above the table -> screen points.
using TableToScreen = std::function<std::vector<Vec2>(const std::vector<Vec2>& table_mm, double height_mm)>;

struct OverlayStyle {
  bool fill_disks = false;  // the table view fills disks with their registry colour
  float line_px = 2.0f;
};

// What draw_scene drew where: each scene disk's outline on the screen (empty for lost disks), for
// picking and for keeping other labels off them, and the disks' name labels.
struct SceneDrawn {
  std::vector<std::vector<Vec2>> outlines;  // by index in Screen::scene.disks
  std::vector<NamedRect> labels;            // by the disk each names
  std::vector<ScreenRect> markers;          // the table's corner markers (drawn by the view, or its picture)
};
// The boxes of everything in the view that text laid over it keeps clear of where it can: the
// disks' outlines, their names and the corner markers (draw_scene), and a drop's labels and tally
// (draw_game_counters) when there is one.
std::vector<ScreenRect> drawn_boxes(const SceneDrawn& drawn, const std::optional<Screen::CountersDrawn>& counters = {});

// Draws every disk with a pose (outline by state colour, heading arrow, centre dot, name, the names
// placed so that none covers another or another disk: ui/label_placement.h), the dispute tool's
// marks (selection, template placement, gap, flip path ghosts).
SceneDrawn draw_scene(ImDrawList* dl, const Screen& screen, const TableToScreen& map, const OverlayStyle& style);

}  // namespace diskref::ui

namespace diskref::ui {

// --game: the move last read from the table (GameView::last_move): its legal landings as dashed
// ghosts, the landings observed (solid, numbered), the centre's track; and the last attack's range
// as a line between the two ships. Drawn as the referee logged it. Returns where its text belongs
// (where the move ended, else the middle of the attack's line), on the screen.
std::optional<Vec2> draw_game_move(ImDrawList* dl, const Screen& screen, const TableToScreen& map,
                                   const OverlayStyle& style);
// The text of what draw_game_move draws: the attack's verdict, the drift of each flip, the move's
// verdicts (margin ± sigma and the call), coloured by the call.
std::vector<ColoredLine> game_move_lines(const Screen& screen);
// --game: the counters of the drop being read, or read in the last seconds (shown_counter_reading):
// each outlined where it lies with what it shows, green when read, amber when the referee is asked
// about it, the labels placed so that none covers another (ui/label_placement.h); with `with_box`,
// beside them the drop's tally, the questions and the notes (counter_reading_lines). The labels
// and the box keep off the other disks and their names (`scene`) where they can. Returns what it
// drew, nothing when no drop is shown.
std::optional<Screen::CountersDrawn> draw_game_counters(ImDrawList* dl, const Screen& screen, const TableToScreen& map,
                                                        const OverlayStyle& style, bool with_box,
                                                        const SceneDrawn& scene);
// The drop's tally, the questions (amber) and the notes, wrapped to `wrap_px`; empty when no drop
// is shown.
std::vector<ColoredLine> counter_reading_lines(const Screen& screen, double wrap_px);
// --game: the table's warnings of the last seconds (off path, out of turn, ...), as a red band
// across the top of `area` that cannot be missed. Returns the height it took.
double draw_game_banner(ImDrawList* dl, const Screen& screen, const ScreenRect& area);

}  // namespace diskref::ui
