#pragma once
// Where each panel sits in the window. There is no window manager under Xvfb (and a referee's
// screen should not need one): the screen lays its panels out itself, as a function of the
// window's size, every frame.
//
//   +----------------------------+------------------+
//   |  camera view               |  table view      |
//   |                            |                  |
//   +-----------+----------------+------------------+
//   |  dispute  |  disks         |  source / calib. |
//   |           |                |  / event log     |
//   +-----------+----------------+------------------+

#include <array>

#include "ui/view_transform.h"

namespace diskref::ui {

enum class Panel { camera, table, dispute, disks, side };
inline constexpr std::array<Panel, 5> kAllPanels = {Panel::camera, Panel::table, Panel::dispute, Panel::disks,
                                                    Panel::side};

struct Layout {
  ScreenRect camera;
  ScreenRect table;
  ScreenRect dispute;
  ScreenRect disks;
  ScreenRect side;

  const ScreenRect& rect(Panel p) const;
};

// Tiles the window without gaps or overlaps; every rectangle has whole-pixel edges.
Layout compute_layout(Vec2 window_size_px);

// `diskref ui --game`: the game replaces the dispute tool and the disk list; the views keep the
// top, the books and the turn take the bottom, read from a metre away.
//
//   +----------------------------+------------------+
//   |  camera view (+ move)      |  table view      |
//   +-----------+----------------+------------------+
//   |  ships    |  turn: expected|  game log /      |
//   |           |  next, inputs  |  source          |
//   +-----------+----------------+------------------+
enum class GamePanel { camera, table, ships, turn, side };
inline constexpr std::array<GamePanel, 5> kAllGamePanels = {GamePanel::camera, GamePanel::table, GamePanel::ships,
                                                            GamePanel::turn, GamePanel::side};
struct GameLayout {
  ScreenRect camera;
  ScreenRect table;
  ScreenRect ships;
  ScreenRect turn;
  ScreenRect side;

  const ScreenRect& rect(GamePanel p) const;
};
GameLayout compute_game_layout(Vec2 window_size_px);
const char* panel_name(GamePanel p);

}  // namespace diskref::ui
