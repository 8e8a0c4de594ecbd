// The source (playback of a video, or the live camera), the calibration's quality, and the event
// log.

#include <algorithm>
#include <cstdio>

#include "ui/calibration_quality.h"
#include "ui/imgui_draw.h"
#include "ui/panels.h"

namespace diskref::ui {
namespace {

// A replayed game's rulings: a mark on the timeline for each (under the seek bar), and stepping
// from ruling to ruling ([ and ] too), the screen then as it was at that ruling.
void ruling_timeline(Screen& s, SourceWorker& w, long long index) {
  const ImVec2 bar_min = ImGui::GetItemRectMin(), bar_max = ImGui::GetItemRectMax();
  const double frames = static_cast<double>(std::max<long long>(1, w.frame_count() - 1));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (const Screen::RulingMark& m : s.ruling_marks) {
    const float x = bar_min.x + static_cast<float>(static_cast<double>(m.frame) / frames) * (bar_max.x - bar_min.x);
    draw->AddLine(ImVec2(x, bar_max.y - 6), ImVec2(x, bar_max.y + 3),
                  ImGui::GetColorU32(im_color4(m.warning ? colors::kStale : colors::kVisible)), 3.0f);
  }
  ImGui::Dummy(ImVec2(1, 4));
  // The ruling shown: the last taken at or before this frame.
  const Screen::RulingMark* shown = nullptr;
  const Screen::RulingMark* next = nullptr;
  const Screen::RulingMark* previous = nullptr;
  for (const Screen::RulingMark& m : s.ruling_marks) {
    if (m.frame <= index) {
      previous = shown;
      shown = &m;
    } else if (next == nullptr) {
      next = &m;
    }
  }
  // GLFW's key codes for [ and ] are their characters (as the turn panel's shortcuts).
  const bool typing = ImGui::GetIO().WantTextInput;
  const bool back = ImGui::Button("< ruling") || (!typing && ImGui::IsKeyPressed('[', false));
  ImGui::SameLine();
  const bool forward = ImGui::Button("ruling >") || (!typing && ImGui::IsKeyPressed(']', false));
  ImGui::SameLine();
  ImGui::Text("%zu rulings", s.ruling_marks.size());
  const Screen::RulingMark* go = back      ? (shown != nullptr && shown->frame < index ? shown : previous)
                                 : forward ? next
                                           : nullptr;
  if (go != nullptr) {
    w.set_paused(true);
    w.seek(go->frame);
  }
  if (shown != nullptr) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(im_color4(shown->warning ? colors::kStale : colors::kVisible), "#%zu  %.2f s  %s", shown->entry,
                       shown->t, shown->text.c_str());
    ImGui::PopTextWrapPos();
  }
}

void playback(Screen& s) {
  SourceWorker* w = s.worker;
  if (w == nullptr) return;
  bool paused = w->paused();
  if (ImGui::Button(paused ? "Play" : "Pause")) w->set_paused(!paused);
  ImGui::SameLine();
  if (ImGui::Button("Step")) {
    w->set_paused(true);
    w->step();
  }
  ImGui::SameLine();
  float speed = static_cast<float>(w->speed());
  ImGui::SetNextItemWidth(110);
  if (ImGui::SliderFloat("speed", &speed, 0.1f, 4.0f, "%.2fx", ImGuiSliderFlags_Logarithmic)) w->set_speed(speed);

  long long index = s.snap ? s.snap->source.index : 0;
  if (w->can_seek() && w->frame_count() > 0) {
    int frame = static_cast<int>(index);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderInt("##seek", &frame, 0, static_cast<int>(w->frame_count() - 1), "frame %d")) w->seek(frame);
    if (!s.ruling_marks.empty()) ruling_timeline(s, *w, index);
  }
  ImGui::Checkbox("camera view: fit the table", &s.fit_camera_to_table);
  ImGui::SameLine();
  ImGui::Checkbox("tag outlines", &s.show_detections);
  WorkerStats st = w->stats();
  ImGui::TextDisabled("%s", w->source_description().c_str());
  ImGui::TextDisabled("tracks: %s", w->producer_description().c_str());
  ImGui::TextDisabled("display %.0f fps, tracking %.1f ms/frame", static_cast<double>(s.display_fps),
                      st.mean_process_ms);
  if (s.recorder && s.recorder->failed()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(im_color4(colors::kContact), "RECORDING STOPPED: %s", s.recorder->failure().c_str());
    ImGui::PopTextWrapPos();
  } else if (s.recorder) {
    ImGui::TextDisabled("recording to %s", s.recorder->dir().c_str());
  }
}

void calibration(const Screen& s) {
  const std::optional<calib::CameraPose>& pose = s.snap ? s.snap->result.table_pose : std::nullopt;
  std::optional<double> lens_rms = s.lens_rms();
  if (pose && !pose->lens_calibrated) {
    ImGui::TextColored(im_color4(colors::kStale), "lens: not calibrated (pinhole from the markers)");
  } else if (lens_rms) {
    bool poor = *lens_rms > kPoorLensRmsPx;
    ImGui::TextColored(im_color4(poor ? colors::kStale : colors::kVisible), "lens RMS %.3f px%s", *lens_rms,
                       poor ? "  POOR: recalibrate" : "");
  } else {
    ImGui::TextDisabled("lens RMS unknown");
  }
  if (!pose) {
    ImGui::TextColored(im_color4(colors::kStale), "table: not found yet");
    return;
  }
  bool poor = pose->reprojection_rms_px > kPoorTableRmsPx || pose->reprojection_rms_mm > kPoorTableRmsMm;
  ImGui::TextColored(im_color4(poor ? colors::kStale : colors::kVisible), "table error %.2f px, %.2f mm%s",
                     pose->reprojection_rms_px, pose->reprojection_rms_mm, poor ? "  POOR" : "");
  std::string used;
  for (int id : pose->markers_used) used.append(" ").append(std::to_string(id));
  ImGui::TextDisabled("corner markers used:%s", used.c_str());
  if (!pose->markers_missing.empty()) {
    std::string missing;
    for (int id : pose->markers_missing) missing.append(" ").append(std::to_string(id));
    ImGui::TextColored(im_color4(colors::kStale), "missing:%s", missing.c_str());
  }
}

void event_log(const Screen& s) {
  ImGui::BeginChild("log", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  for (const Event& e : s.log.events()) {
    std::string line = format_event(e);
    if (e.severity == Severity::warning) {
      ImGui::TextColored(im_color4(colors::kStale), "%s", line.c_str());
    } else {
      ImGui::TextUnformatted(line.c_str());
    }
  }
  if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 4) ImGui::SetScrollHereY(1.0f);  // follow the newest
  ImGui::EndChild();
}

}  // namespace

void draw_side_panel(Screen& s, const ScreenRect& rect) {
  if (!begin_panel(s.game_view ? "Game log and source###side" : "Source###side", rect)) {
    ImGui::End();
    return;
  }
  playback(s);
  ImGui::Separator();
  if (ImGui::BeginTabBar("side_tabs")) {
    if (s.game_view && ImGui::BeginTabItem("Game log")) {
      draw_game_log(s);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Event log")) {
      event_log(s);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Calibration")) {
      calibration(s);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::End();
}

}  // namespace diskref::ui
