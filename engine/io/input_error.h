#pragma once
// The one error type for bad input files: it names the file, the place inside it and the problem,
// so that every loader (table, registry, scene, rules data, scripts, scenarios, camera files)
// reports bad input the same way: "scene.json: disks[2].shape.diameter_mm: must be > 0".

#include <stdexcept>
#include <string>

namespace diskref::io {

class InputError : public std::runtime_error {
 public:
  // `file` may be empty (input not from a file); `path` is a JSON path such as `disks[2].shape`,
  // or empty for the whole file.
  InputError(std::string file, std::string path, std::string problem);

  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string file_;
  std::string path_;
  std::string problem_;
};

}  // namespace diskref::io
