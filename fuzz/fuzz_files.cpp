#include "fuzz/fuzz_files.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <system_error>

namespace diskref::fuzz {
namespace fs = std::filesystem;

namespace {

const fs::path& scratch_root() {
  // Never destroyed: the exit handler that removes it runs after static objects are gone.
  static const fs::path* const root = [] {
    const fs::path base = fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    fs::path r = base / ("diskref-fuzz-" + std::to_string(::getpid()));
    fs::remove_all(r);
    fs::create_directories(r);
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(scratch_root(), ec);
    });
    return new fs::path(r);
  }();
  return *root;
}

// Makes `dir` (under the scratch root) a real folder whose entries are links to the source
// folder's, once.
void mirror_folder(const fs::path& relative) {
  static std::set<fs::path> mirrored;
  if (!mirrored.insert(relative).second) return;
  const fs::path dir = scratch_root() / relative;
  std::error_code ec;
  fs::remove(dir, ec);  // a link made by the folder above
  fs::create_directories(dir, ec);
  const fs::path source = fs::path(DISKREF_SOURCE_DIR) / relative;
  if (!fs::is_directory(source)) return;
  for (const auto& entry : fs::directory_iterator(source)) {
    const fs::path link = dir / entry.path().filename();
    if (!fs::exists(fs::symlink_status(link))) fs::create_symlink(entry.path(), link, ec);
  }
}

}  // namespace

fs::path source_file(const std::string& relative) {
  return fs::path(DISKREF_SOURCE_DIR) / relative;
}

fs::path place_input(const std::string& relative, std::string_view contents) {
  const fs::path rel(relative);
  fs::path folder;
  mirror_folder(folder);
  for (const auto& part : rel.parent_path()) {
    folder /= part;
    mirror_folder(folder);
  }
  const fs::path file = scratch_root() / rel;
  std::error_code ec;
  fs::remove(file, ec);  // a link to the source file: never write through it
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(contents.data(), static_cast<std::streamsize>(contents.size()));
  return file;
}

std::vector<std::string_view> split_input(std::string_view input, std::string_view separator, std::size_t parts) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (out.size() + 1 < parts) {
    std::size_t at = start;
    std::size_t found = std::string_view::npos;
    while ((at = input.find(separator, at)) != std::string_view::npos) {
      const bool line_start = at == 0 || input[at - 1] == '\n';
      const std::size_t end = at + separator.size();
      const bool line_end = end == input.size() || input[end] == '\n';
      if (line_start && line_end) {
        found = at;
        break;
      }
      at = end;
    }
    if (found == std::string_view::npos) break;
    out.push_back(input.substr(start, found - start));
    start = std::min(input.size(), found + separator.size() + 1);
  }
  out.push_back(input.substr(start));
  while (out.size() < parts) out.emplace_back();
  return out;
}

}  // namespace diskref::fuzz
