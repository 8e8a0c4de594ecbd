#include "ui/layout.h"

#include <cmath>

namespace diskref::ui {

const ScreenRect& Layout::rect(Panel p) const {
  switch (p) {
    case Panel::camera:
      return camera;
    case Panel::table:
      return table;
    case Panel::dispute:
      return dispute;
    case Panel::disks:
      return disks;
    case Panel::side:
      return side;
  }
  return camera;
}

namespace {

// Both screens tile the window alike: two views side by side on top, three panels below; only the
// shares differ.
struct Tiles {
  ScreenRect top_left, top_right, bottom_left, bottom_mid, bottom_right;
};
Tiles five_tiles(Vec2 window_size_px, double top_share, double top_left_share, double bottom_left_share,
                 double bottom_mid_share) {
  double w = std::max(0.0, std::floor(window_size_px.x));
  double h = std::max(0.0, std::floor(window_size_px.y));
  double top_h = std::round(h * top_share);
  double left_w = std::round(w * top_left_share);
  double bottom_h = h - top_h;
  double first_w = std::round(w * bottom_left_share);
  double mid_w = std::round(w * bottom_mid_share);
  return {{0, 0, left_w, top_h},
          {left_w, 0, w - left_w, top_h},
          {0, top_h, first_w, bottom_h},
          {first_w, top_h, mid_w, bottom_h},
          {first_w + mid_w, top_h, w - first_w - mid_w, bottom_h}};
}

}  // namespace

Layout compute_layout(Vec2 window_size_px) {
  // The views get the upper 60 % (they are what people look at); the camera view is the wider
  // one because camera images are wider than the square table.
  Tiles t = five_tiles(window_size_px, 0.60, 0.60, 0.36, 0.32);
  Layout l;
  l.camera = t.top_left;
  l.table = t.top_right;
  l.dispute = t.bottom_left;
  l.disks = t.bottom_mid;
  l.side = t.bottom_right;
  return l;
}

const ScreenRect& GameLayout::rect(GamePanel p) const {
  switch (p) {
    case GamePanel::camera:
      return camera;
    case GamePanel::table:
      return table;
    case GamePanel::ships:
      return ships;
    case GamePanel::turn:
      return turn;
    case GamePanel::side:
      return side;
  }
  return camera;
}

const char* panel_name(GamePanel p) {
  static const char* const kNames[] = {"camera", "table", "ships", "turn", "side"};
  return kNames[static_cast<int>(p)];
}

GameLayout compute_game_layout(Vec2 window_size_px) {
  // The books need more room than the dispute tool did: the views keep a little over half.
  Tiles t = five_tiles(window_size_px, 0.54, 0.58, 0.34, 0.33);
  GameLayout l;
  l.camera = t.top_left;
  l.table = t.top_right;
  l.ships = t.bottom_left;
  l.turn = t.bottom_mid;
  l.side = t.bottom_right;
  return l;
}

}  // namespace diskref::ui
