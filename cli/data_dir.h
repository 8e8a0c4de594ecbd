#pragma once
// Where diskref's own data lies (the rules data, the sample games and videos): found the way an
// installed program finds it, never through a path compiled into the program, so that the same
// binary works installed (/usr/bin/diskref), unpacked anywhere (a .deb extracted into a folder),
// and in the build tree it was built in.
//
// The data root mirrors the source tree: <root>/data/rules, <root>/sample_videos/<game>/… (a sample
// game names its rules data as ../../data/rules, so that relation must hold wherever it lies).
// Looked for, in this order (docs/reference/data-files.md):
//   1. $DISKREF_DATA, when set (an error if it is not a data root: a set variable is never ignored);
//   2. <the executable's folder>/../share/diskref (installed: /usr/bin/../share/diskref);
//   3. the source tree of the build tree the executable lies in (its CMakeCache.txt names it).

#include <filesystem>
#include <optional>
#include <string>

namespace diskref::cli {

struct DataRoot {
  std::filesystem::path root;  // empty when none was found
  std::string how;             // where it came from: "DISKREF_DATA", "installed", "build tree"
  std::string problem;         // why none was found (every place tried), when root is empty
};

// The places above, for the executable at `executable` and the environment's `data_variable`
// (nullptr: not set). Pure apart from looking at the file system.
DataRoot find_data_root(const std::filesystem::path& executable, const char* data_variable);

// The running program's (from /proc/self/exe and $DISKREF_DATA).
const DataRoot& data_root();

// <root>/<relative> of the running program's data root; throws io::InputError naming every place
// tried when there is none.
std::filesystem::path data_path(const std::filesystem::path& relative);

}  // namespace diskref::cli
