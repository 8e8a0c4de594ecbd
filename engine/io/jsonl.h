#pragma once
// JSON lines: one JSON value per line (track files, recordings' logs, the referee's inputs).
// Errors name the file and "line N".

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "engine/io/json_cursor.h"

namespace diskref::io {

// Reads `file` and hands every non-blank line, parsed, to `on_line` (a cursor whose file is
// "FILE: line N", so that errors found in it name the line). Throws InputError for a file that
// cannot be read or a line that is not JSON.
//
// With `cut_short` given, a last line without its newline that does not parse was cut short by a
// program stopping while it wrote (a crash, a kill): it is dropped and described there instead of
// refused. Files written line by line and flushed (recordings) are read this way.
void read_jsonl(const std::filesystem::path& file, const std::function<void(const JsonCursor&)>& on_line,
                std::vector<std::string>* cut_short = nullptr);

// For a recording looked at afterwards (a replay, a report): a line that is not JSON, or that
// `on_line` refuses (InputError), is skipped and described in `skipped` ("FILE: line 12: not
// JSON ...; skipped"), and the rest is read: one damaged line never hides a session. A file that
// cannot be read still throws.
void read_jsonl_skipping_bad_lines(const std::filesystem::path& file,
                                   const std::function<void(const JsonCursor&)>& on_line,
                                   std::vector<std::string>& skipped);

}  // namespace diskref::io
