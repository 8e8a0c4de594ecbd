#pragma once
// Writing a file so that a crash never leaves half of it: a temporary file beside it, then a rename.

#include <filesystem>
#include <string_view>

namespace diskref::io {

// Writes `contents` (text or bytes, as they are). Throws InputError naming `file` when it cannot be
// written.
void write_file_atomically(const std::filesystem::path& file, std::string_view contents);

}  // namespace diskref::io
