#include "ui/window.h"

#include <filesystem>
#include <stdexcept>

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

namespace diskref::ui {
namespace {

constexpr const char* kFontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

void load_font(ImGuiIO& io, float px) {
  if (std::filesystem::is_regular_file(kFontFile)) {
    if (io.Fonts->AddFontFromFileTTF(kFontFile, px) != nullptr) return;
  }
  io.Fonts->AddFontDefault();  // ProggyClean, smaller but always there
}

void style_screen() {
  ImGui::StyleColorsDark();
  ImGuiStyle& st = ImGui::GetStyle();
  st.WindowRounding = 0;
  st.WindowBorderSize = 1;
  st.FrameRounding = 3;
  st.WindowPadding = ImVec2(8, 6);
  st.ItemSpacing = ImVec2(8, 5);
}

}  // namespace

Window::Window(int w, int h) {
  glfwSetErrorCallback(nullptr);
  if (!glfwInit()) throw std::runtime_error("cannot open a window: no display (run it under xvfb-run for screenshots)");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  handle = glfwCreateWindow(w, h, "diskref", nullptr, nullptr);
  if (handle == nullptr) {
    glfwTerminate();
    throw std::runtime_error("cannot open a window with OpenGL 3.3 (no display, or no OpenGL driver)");
  }
  // No window manager under Xvfb: put it at the screen's corner ourselves.
  glfwSetWindowPos(handle, 0, 0);
  glfwMakeContextCurrent(handle);
  glfwSwapInterval(0);
}

Window::~Window() {
  glfwDestroyWindow(handle);
  glfwTerminate();
}

ImGuiSession::ImGuiSession(GLFWwindow* window, bool ignore_mouse, float font_px) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is computed, nothing to save
  if (ignore_mouse) io.ConfigFlags |= ImGuiConfigFlags_NoMouse;
  style_screen();
  load_font(io, font_px);
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

ImGuiSession::~ImGuiSession() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

}  // namespace diskref::ui
