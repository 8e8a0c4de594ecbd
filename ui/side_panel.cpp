// The source (playback of a video, or the live camera), the calibration's quality, and the event
// log.

#include <cstdio>

#include "ui/calibration_quality.h"
#include "ui/imgui_draw.h"
#include "ui/panels.h"

namespace diskref::ui {
namespace {

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
  }
  ImGui::Checkbox("camera view: fit the table", &s.fit_camera_to_table);
  ImGui::SameLine();
  ImGui::Checkbox("tag outlines", &s.show_detections);
  WorkerStats st = w->stats();
  ImGui::TextDisabled("%s", w->source_description().c_str());
  ImGui::TextDisabled("tracks: %s", w->producer_description().c_str());
  ImGui::TextDisabled("display %.0f fps, tracking %.1f ms/frame", static_cast<double>(s.display_fps), st.mean_process_ms);
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
