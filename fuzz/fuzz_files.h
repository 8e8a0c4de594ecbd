#pragma once
// Where a fuzz target puts its input: loaders read files, and several read other files named
// relative to theirs (a play script's "../rules", a scenario's "table.json"). Each process gets a
// scratch tree in /dev/shm (memory, not the disk: a fuzzer writes it hundreds of times a second)
// that mirrors the source tree through symbolic links, except along the input's own path, whose
// folders are real, so that writing the input never touches the source tree.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace diskref::fuzz {

// Writes `contents` at `relative` (e.g. "data/scripts/input.json") in this process's scratch
// tree, the rest of whose tree is the source tree's, and returns its path.
std::filesystem::path place_input(const std::string& relative, std::string_view contents);

// A source tree file (e.g. "sample_videos/duel/table.json").
std::filesystem::path source_file(const std::string& relative);

// `input` cut at lines that read exactly `separator`, into at most `parts` pieces (missing ones
// empty): one fuzz input for a folder of files (a recording).
std::vector<std::string_view> split_input(std::string_view input, std::string_view separator, std::size_t parts);

}  // namespace diskref::fuzz
