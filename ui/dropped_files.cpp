#include "ui/dropped_files.h"

namespace diskref::ui {

DroppedFiles::DroppedFiles(GLFWwindow* window) : window_(window) {
  glfwSetWindowUserPointer(window_, this);
  glfwSetDropCallback(window_, &DroppedFiles::on_drop);
}

DroppedFiles::~DroppedFiles() {
  glfwSetDropCallback(window_, nullptr);
  glfwSetWindowUserPointer(window_, nullptr);
}

std::vector<std::filesystem::path> DroppedFiles::take() {
  std::vector<std::filesystem::path> out;
  out.swap(dropped_);
  return out;
}

// Called by glfwPollEvents on the screen's thread: no lock needed.
void DroppedFiles::on_drop(GLFWwindow* window, int count, const char** paths) {
  auto* self = static_cast<DroppedFiles*>(glfwGetWindowUserPointer(window));
  if (self == nullptr) return;
  for (int i = 0; i < count; ++i) self->dropped_.emplace_back(paths[i]);
}

}  // namespace diskref::ui
