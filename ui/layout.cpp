#include "ui/layout.h"

#include <cmath>

namespace diskref::ui {

const ScreenRect& Layout::rect(Panel p) const {
  switch (p) {
    case Panel::camera: return camera;
    case Panel::table: return table;
    case Panel::dispute: return dispute;
    case Panel::disks: return disks;
    case Panel::side: return side;
  }
  return camera;
}

Layout compute_layout(Vec2 window_size_px) {
  double w = std::max(0.0, std::floor(window_size_px.x));
  double h = std::max(0.0, std::floor(window_size_px.y));
  // The views get the upper 60 % (they are what people look at); the camera view is the wider
  // one because camera images are wider than the square table.
  double top_h = std::round(h * 0.60);
  double camera_w = std::round(w * 0.60);
  double bottom_h = h - top_h;
  double dispute_w = std::round(w * 0.36);
  double disks_w = std::round(w * 0.32);

  Layout l;
  l.camera = {0, 0, camera_w, top_h};
  l.table = {camera_w, 0, w - camera_w, top_h};
  l.dispute = {0, top_h, dispute_w, bottom_h};
  l.disks = {dispute_w, top_h, disks_w, bottom_h};
  l.side = {dispute_w + disks_w, top_h, w - dispute_w - disks_w, bottom_h};
  return l;
}

const ScreenRect& GameLayout::rect(GamePanel p) const {
  switch (p) {
    case GamePanel::camera: return camera;
    case GamePanel::table: return table;
    case GamePanel::ships: return ships;
    case GamePanel::turn: return turn;
    case GamePanel::side: return side;
  }
  return camera;
}

const char* panel_name(GamePanel p) {
  static const char* const kNames[] = {"camera", "table", "ships", "turn", "side"};
  return kNames[static_cast<int>(p)];
}

GameLayout compute_game_layout(Vec2 window_size_px) {
  double w = std::max(0.0, std::floor(window_size_px.x));
  double h = std::max(0.0, std::floor(window_size_px.y));
  // The books need more room than the dispute tool did: the views keep a little over half.
  double top_h = std::round(h * 0.54);
  double camera_w = std::round(w * 0.58);
  double bottom_h = h - top_h;
  double ships_w = std::round(w * 0.34);
  double turn_w = std::round(w * 0.33);

  GameLayout l;
  l.camera = {0, 0, camera_w, top_h};
  l.table = {camera_w, 0, w - camera_w, top_h};
  l.ships = {0, top_h, ships_w, bottom_h};
  l.turn = {ships_w, top_h, turn_w, bottom_h};
  l.side = {ships_w + turn_w, top_h, w - ships_w - turn_w, bottom_h};
  return l;
}

}  // namespace diskref::ui
