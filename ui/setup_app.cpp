// The setup screen in three acts, as the companion screen (app.cpp): set up (the folder, the
// source and its worker, the window), loop (the newest picture, the panels, the script), shut down
// in reverse.

#include "ui/setup_app.h"

#include <chrono>
#include <cmath>
#include <thread>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "engine/io/atomic_write.h"
#include "ui/gl_texture.h"
#include "ui/setup_screen.h"
#include "ui/window.h"

namespace diskref::ui {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kDisplayFps = 30;
// ImGui lays out tables and wrapped text over a frame or two: a screenshot waits this many frames
// after what it shows has changed.
constexpr int kSettleFrames = 3;

}  // namespace

SetupOutcome run_setup_app(SetupAppOptions o) {
  SetupOutcome outcome;
  // --- Act 1: files first (bad input fails before any window opens).
  setup::SetupState state = setup::open_setup(o.dir, o.game);
  setup::save_setup(state);
  std::deque<SetupAction> script;
  if (o.script) script = load_setup_script(*o.script);

  Window window(o.width, o.height);
  ImGuiSession imgui(window.handle, o.script.has_value(), kFontPx);
  std::unique_ptr<SetupWorker> worker;
  if (o.source) worker = std::make_unique<SetupWorker>(std::move(o.source), o.live, o.realtime && !o.script);
  SetupScreen screen(state, worker.get(), o.camera_hint);

  // --- Act 2: the loop.
  int settle = 0;           // frames drawn since the script's last action
  double hold = -1;         // the source time the worker is held at (scripted runs)
  std::string waiting_why;  // why the front action cannot be done yet
  const auto frame_budget = std::chrono::duration<double>(1.0 / kDisplayFps);
  while (!glfwWindowShouldClose(window.handle)) {
    const auto frame_start = Clock::now();
    glfwPollEvents();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window.handle, &fb_w, &fb_h);
    screen.draw({static_cast<double>(fb_w), static_cast<double>(fb_h)});
    ImGui::Render();
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.08f, 0.09f, 0.10f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++settle;

    // The script: the front action once the source has reached its time and the screen can do it.
    while (!script.empty()) {
      SetupAction& a = script.front();
      if (worker && hold != a.t) {
        worker->hold_after(a.t);
        hold = a.t;
      }
      // Due once the source has reached its time: a frame at it, or the next frame past it held.
      // A step that takes no pictures (the play area, the camera, the kit, the end) holds the source
      // where it is: its actions are due at once.
      const bool idle = screen.step() == setup::Step::play_area || screen.step() == setup::Step::camera ||
                        screen.step() == setup::Step::kit || screen.step() == setup::Step::done;
      if (screen.source_t() + 1e-9 < a.t && !screen.source_held(a.t) && !screen.source_at_end() && worker && !idle)
        break;
      if (a.what == "screenshot") {
        if (settle < kSettleFrames) break;
        const cv::Mat shot = read_framebuffer_bgr(fb_w, fb_h);
        const std::filesystem::path file = a.args.at("file").get<std::string>();
        if (!cv::imwrite(file.string(), shot))
          throw std::runtime_error(file.string() + ": cannot write the screenshot");
        nlohmann::json shown = screen.describe();
        shown["window"] = {fb_w, fb_h};
        io::write_file_atomically(std::filesystem::path(file).replace_extension(".json"), shown.dump(2) + "\n");
        script.pop_front();
        continue;
      }
      std::string why;
      if (screen.try_action(a, why)) {
        script.pop_front();
        settle = 0;
        waiting_why.clear();
        continue;
      }
      // Not yet: let the source run on until it can be done, or say why it never was.
      if (worker && hold < 1e299) {
        worker->hold_after(1e300);
        hold = 1e300;
      }
      waiting_why = why;
      if (screen.busy()) settle = 0;  // never given up while work for it is under way
      if (screen.source_at_end() && settle > 30) {
        outcome.problems.push_back(a.where + ": \"" + a.what + "\" could not be done: " + why);
        script.pop_front();
      }
      break;
    }
    if (screen.start_requested() || screen.quit_requested()) break;
    if (o.script && script.empty()) break;  // a scripted run ends with its script
    glfwSwapBuffers(window.handle);
    std::this_thread::sleep_until(frame_start + std::chrono::duration_cast<Clock::duration>(frame_budget));
  }

  // --- Act 3: the worker stops first, then the window.
  outcome.start = screen.start_requested();
  outcome.frame = screen.source_frame();
  outcome.state = screen.state();
  worker.reset();
  return outcome;
}

}  // namespace diskref::ui
