#include "cli/command_line.h"

namespace diskref::cli {
namespace {
std::vector<std::string>& remembered() {
  static std::vector<std::string> line;
  return line;
}
}  // namespace

void remember_command_line(int argc, char** argv) {
  remembered().assign(argv, argv + argc);
}
const std::vector<std::string>& command_line() {
  return remembered();
}

}  // namespace diskref::cli
