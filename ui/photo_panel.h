#pragma once
// The Photo tab's panel: a dispute settled from one photo (spec §14). The picture on the left,
// scaled to fit; on the right the file (typed, pasted, or dropped on the window), the question,
// the worker's progress and the answer as the live dispute panel gives one. Drawn over the views
// on the companion screen, or as the whole window when the screen has no camera or video
// (`diskref ui --disks disks.json`).

#include <optional>

#include <nlohmann/json.hpp>

#include "ui/photo_dispute.h"
#include "ui/view_transform.h"

namespace diskref::ui {

struct PhotoTab {
  explicit PhotoTab(PhotoDispute& d) : dispute(d) {}
  PhotoTab(const PhotoTab&) = delete;
  PhotoTab& operator=(const PhotoTab&) = delete;
  ~PhotoTab();  // deletes the texture (needs the OpenGL context still current)

  PhotoDispute& dispute;
  unsigned texture = 0;  // the newest outcome's preview
  Vec2 texture_size;
  // Where the panel drew, for --views-json.
  std::optional<ScreenRect> panel_drawn, image_drawn, banner_drawn;
};

// Takes the worker's newest outcome and uploads its picture. Each frame, before drawing.
void refresh_photo_tab(PhotoTab& tab);

// `open`: a close button in the title bar that clears it (null: the panel cannot be closed).
void draw_photo_panel(PhotoTab& tab, const ScreenRect& rect, bool* open = nullptr);

// What the panel shows, for --views-json and the screen tests: the file, the stage, the call's
// words, the margin, the notes, the refusal, and where the picture and the banner were drawn.
nlohmann::json photo_tab_json(const PhotoTab& tab);

}  // namespace diskref::ui
