#pragma once
// Files dropped on the screen's window (a photo dragged from a file manager), collected by GLFW's
// drop callback while events are polled and taken by the loop afterwards.

#include <filesystem>
#include <vector>

#include <GLFW/glfw3.h>

namespace diskref::ui {

class DroppedFiles {
 public:
  // Listens on `window` (its user pointer is this) until destroyed.
  explicit DroppedFiles(GLFWwindow* window);
  ~DroppedFiles();
  DroppedFiles(const DroppedFiles&) = delete;
  DroppedFiles& operator=(const DroppedFiles&) = delete;

  // The files dropped since the last call, in the order they came.
  std::vector<std::filesystem::path> take();

 private:
  static void on_drop(GLFWwindow* window, int count, const char** paths);
  GLFWwindow* window_;
  std::vector<std::filesystem::path> dropped_;
};

}  // namespace diskref::ui
