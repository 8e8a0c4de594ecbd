#include "engine/io/input_error.h"

namespace diskref::io {
namespace {

std::string compose(const std::string& file, const std::string& path, const std::string& problem) {
  std::string text;
  if (!file.empty()) text += file + ": ";
  if (!path.empty()) text += path + ": ";
  return text + problem;
}

}  // namespace

InputError::InputError(std::string file, std::string path, std::string problem)
    : std::runtime_error(compose(file, path, problem)),
      file_(std::move(file)),
      path_(std::move(path)),
      problem_(std::move(problem)) {}

}  // namespace diskref::io
