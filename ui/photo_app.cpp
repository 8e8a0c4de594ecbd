// The Photo tab alone, in three acts as the companion screen (app.cpp): set up (the registry, the
// worker, the window), loop (dropped files, the worker's newest outcome, the panel), shut down in
// reverse.

#include "ui/photo_app.h"

#include <chrono>
#include <thread>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <opencv2/imgcodecs.hpp>

#include "engine/io/atomic_write.h"
#include "engine/rules/data_loading.h"
#include "photo/photo_decode.h"
#include "photo/photo_ruling.h"
#include "ui/dropped_files.h"
#include "ui/gl_texture.h"
#include "ui/photo_panel.h"
#include "ui/window.h"

namespace diskref::ui {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kDisplayFps = 30;
// ImGui lays out wrapped text and child windows over a frame or two: a screenshot waits this many
// frames after the answer arrived.
constexpr int kSettleFrames = 3;

}  // namespace

std::unique_ptr<PhotoWorker> make_photo_worker(const model::DiskRegistry& registry,
                                               std::optional<calib::CameraModel> lens) {
  photo::PhotoOptions options;
  options.lens = std::move(lens);
  return std::make_unique<PhotoWorker>([](const std::filesystem::path& file) { return photo::load_photo(file); },
                                       [&registry, options](const photo::Photo& p, const nlohmann::json& questions) {
                                         return photo::rule_on_photo(p, registry, questions, options);
                                       });
}

void run_photo_app(const PhotoAppOptions& o) {
  // --- Act 1: files first (bad input fails before any window opens).
  const model::DiskRegistry registry = model::load_disk_registry(o.disks);
  std::optional<calib::CameraModel> lens;
  if (o.camera_file) lens = calib::load_camera_model(*o.camera_file);
  std::vector<RangeTemplateChoice> templates =
      range_template_choices(registry, rules::load_game_data({o.rules_data}).parameters.range_template);

  Window window(o.width, o.height);
  ImGuiSession imgui(window.handle, o.screenshot.has_value(), kFontPx);
  DroppedFiles dropped(window.handle);
  std::unique_ptr<PhotoWorker> worker = make_photo_worker(registry, lens);
  {
    PhotoDispute dispute(registry, std::move(templates), *worker);
    dispute.question() = o.question;
    dispute.template_index() = o.template_index;
    PhotoTab tab(dispute);  // its texture goes before the window's context
    if (o.photo) dispute.open(*o.photo);

    // --- Act 2: the loop.
    int settle = 0;
    const auto started = Clock::now();
    const auto frame_budget = std::chrono::duration<double>(1.0 / kDisplayFps);
    while (!glfwWindowShouldClose(window.handle)) {
      const auto frame_start = Clock::now();
      glfwPollEvents();
      for (const std::filesystem::path& f : dropped.take()) {
        dispute.open(f);  // the last one dropped is the one shown
      }
      refresh_photo_tab(tab);

      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      int fb_w = 0, fb_h = 0;
      glfwGetFramebufferSize(window.handle, &fb_w, &fb_h);
      draw_photo_panel(tab, {0, 0, static_cast<double>(fb_w), static_cast<double>(fb_h)});
      ImGui::Render();
      glViewport(0, 0, fb_w, fb_h);
      glClearColor(0.08f, 0.09f, 0.10f, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

      // A screenshot once what was opened at the start is answered: a condition, not a time.
      settle = dispute.busy() ? 0 : settle + 1;
      if (o.screenshot && settle >= kSettleFrames) {
        const cv::Mat shot = read_framebuffer_bgr(fb_w, fb_h);
        if (!cv::imwrite(o.screenshot->string(), shot))
          throw std::runtime_error(o.screenshot->string() + ": cannot write the screenshot");
        if (o.views_json) {
          nlohmann::json j = {{"window", {fb_w, fb_h}}, {"photo", photo_tab_json(tab)}};
          j["panels"]["photo"] = j["photo"]["panel"];
          io::write_file_atomically(*o.views_json, j.dump(2) + "\n");
        }
        break;
      }
      if (o.run_seconds > 0 && std::chrono::duration<double>(Clock::now() - started).count() >= o.run_seconds) break;
      glfwSwapBuffers(window.handle);
      std::this_thread::sleep_until(frame_start + std::chrono::duration_cast<Clock::duration>(frame_budget));
    }
  }
  // --- Act 3: the worker ends (after the ruling under way) before the window closes.
  worker.reset();
}

}  // namespace diskref::ui
