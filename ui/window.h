#pragma once
// The screen's window and its Dear ImGui context, shared by the companion screen (app.cpp) and the
// setup screen (setup_app.cpp): GLFW with OpenGL 3.3 core (Mesa's llvmpipe under Xvfb gives it),
// placed at the screen's corner (no window manager under Xvfb), the font and the style.

#include <GLFW/glfw3.h>

namespace diskref::ui {

inline constexpr float kFontPx = 15.0f;

struct Window {
  GLFWwindow* handle = nullptr;
  // Throws std::runtime_error when no window can be opened (no display, no OpenGL 3.3).
  Window(int width, int height);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;
};

struct ImGuiSession {
  // `ignore_mouse`: screenshots must not depend on where the pointer happens to be.
  ImGuiSession(GLFWwindow* window, bool ignore_mouse, float font_px);
  ~ImGuiSession();
  ImGuiSession(const ImGuiSession&) = delete;
  ImGuiSession& operator=(const ImGuiSession&) = delete;
};

}  // namespace diskref::ui
