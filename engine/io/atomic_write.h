#pragma once
// Writing a file so that a crash never leaves half of it: a temporary file beside it (FILE.tmp),
// every write, the fsync and the close checked, then a rename over FILE.

#include <filesystem>
#include <string_view>

namespace diskref::io {

// Writes `contents` (text or bytes, as they are).
//
// Throws InputError naming `file` (exit 2) when the path cannot be a file diskref writes: it
// exists and is not a regular file (a directory, a device such as /dev/null, a pipe, a socket), or
// its folder is missing or not writable. Throws WriteError (exit 1) when writing fails on the way
// (a full disk, a file size limit, an I/O error); FILE is then as it was, and FILE.tmp is removed.
// A symbolic link to a regular file is written through (the link stays, its target is replaced).
void write_file_atomically(const std::filesystem::path& file, std::string_view contents);

// Throws InputError (as above) when `file` exists and is not a regular file, for outputs written
// in place rather than atomically (a screenshot, a PNG page) and for checking the command line
// before any work is done.
void check_output_path(const std::filesystem::path& file);

}  // namespace diskref::io
