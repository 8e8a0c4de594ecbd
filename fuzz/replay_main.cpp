// diskref_fuzz_replay TARGET PATH...: runs a fuzz target (fuzz_target.h) on each file given, and on
// every file in each folder given, as libFuzzer would on one input; prints how many it ran. Any
// compiler builds it, so that CTest replays the corpus and every input that ever crashed a target
// (fuzz/regressions/TARGET/) in every build, the sanitizer builds included.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz/fuzz_target.h"

namespace diskref::fuzz {
namespace {

std::map<std::string, TargetBody>& targets() {
  static std::map<std::string, TargetBody> table;
  return table;
}

}  // namespace

Registration::Registration(const char* name, TargetBody body) {
  targets()[name] = body;
}

}  // namespace diskref::fuzz

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  using diskref::fuzz::targets;
  if (argc < 2 || !targets().count(argv[1])) {
    std::fprintf(stderr, "usage: diskref_fuzz_replay TARGET [FILE|FOLDER]...\ntargets:");
    for (const auto& [name, body] : targets()) std::fprintf(stderr, " %s", name.c_str());
    std::fprintf(stderr, "\n");
    return 2;
  }
  const auto body = targets()[argv[1]];
  std::vector<fs::path> files;
  for (int i = 2; i < argc; ++i) {
    if (fs::is_directory(argv[i])) {
      for (const auto& e : fs::directory_iterator(argv[i]))
        if (e.is_regular_file() && e.path().filename().string()[0] != '.') files.push_back(e.path());
    } else if (fs::exists(argv[i])) {
      files.emplace_back(argv[i]);
    }
  }
  std::sort(files.begin(), files.end());
  std::size_t taken = 0;
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::string input(static_cast<std::size_t>(fs::file_size(f)), '\0');
    in.read(input.data(), static_cast<std::streamsize>(input.size()));
    // Which inputs are taken and which refused, and why: a seed refused reaches little code.
    try {
      body(input);
      std::fprintf(stderr, "%s: taken\n", f.c_str());
      ++taken;
    } catch (const diskref::io::InputError& e) {
      std::fprintf(stderr, "%s: refused: %s\n", f.c_str(), e.what());
    }
  }
  std::printf("%s: %zu input(s) run (%zu taken, %zu refused), none crashed\n", argv[1], files.size(), taken,
              files.size() - taken);
  return 0;
}
