#pragma once
// A file's checksum (64-bit FNV-1a, as 16 hex digits) and size: a recording that references a
// video file instead of copying its frames keeps both, so that a file moved, cut or changed since
// is noticed before a replay trusts it. Not a cryptographic hash: it guards against accidents.

#include <cstdint>
#include <filesystem>
#include <string>

namespace diskref::recording {

struct FileChecksum {
  std::uintmax_t bytes = 0;
  std::string fnv1a64;  // 16 lowercase hex digits
  bool operator==(const FileChecksum&) const = default;
};

// Reads the whole file. Throws io::InputError naming the file when it cannot be read.
FileChecksum checksum_file(const std::filesystem::path& file);

}  // namespace diskref::recording
