#pragma once
// Writing a file so that a crash never leaves half of it: a temporary file beside it, then a rename.

#include <filesystem>
#include <string>

namespace diskref {

// Throws InputError naming `file` when it cannot be written.
void write_text_atomically(const std::filesystem::path& file, const std::string& text);

}  // namespace diskref
