#include "cli/data_dir.h"

#include <cstdlib>
#include <fstream>
#include <system_error>

#include "engine/io/input_error.h"

namespace diskref::cli {
namespace {

namespace fs = std::filesystem;

// A data root holds the rules data: what every game needs.
bool is_data_root(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "data" / "rules", ec);
}

// The source folder a CMake build tree was configured from ("CMAKE_HOME_DIRECTORY:INTERNAL=…" in
// its CMakeCache.txt), or empty.
fs::path source_of_build_tree(const fs::path& build_dir) {
  std::ifstream cache(build_dir / "CMakeCache.txt");
  const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
  for (std::string line; std::getline(cache, line);)
    if (line.rfind(key, 0) == 0) return fs::path(line.substr(key.size()));
  return {};
}

}  // namespace

DataRoot find_data_root(const fs::path& executable, const char* data_variable) {
  DataRoot out;
  if (data_variable != nullptr && *data_variable != '\0') {
    if (is_data_root(data_variable)) return {fs::path(data_variable), "DISKREF_DATA", ""};
    out.problem = "DISKREF_DATA is set to \"" + std::string(data_variable) + "\", which holds no data/rules";
    return out;
  }
  const fs::path exe_dir = executable.parent_path();
  const fs::path installed = (exe_dir / ".." / "share" / "diskref").lexically_normal();
  if (is_data_root(installed)) return {installed, "installed", ""};
  const fs::path source = source_of_build_tree(exe_dir);
  if (!source.empty() && is_data_root(source)) return {source, "build tree", ""};
  out.problem =
      "no data found: not in " + installed.string() + " (an installed diskref), " +
      (source.empty() ? exe_dir.string() + " is not a build tree"
                      : "nor in the source tree " + source.string() + " of the build tree " + exe_dir.string()) +
      ", and DISKREF_DATA is not set (set it to the folder holding data/rules)";
  return out;
}

const DataRoot& data_root() {
  static const DataRoot root = [] {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return find_data_root(ec ? fs::path() : exe, std::getenv("DISKREF_DATA"));
  }();
  return root;
}

fs::path data_path(const fs::path& relative) {
  const DataRoot& r = data_root();
  if (r.root.empty()) throw io::InputError("", "", "diskref's data: " + r.problem);
  return r.root / relative;
}

}  // namespace diskref::cli
