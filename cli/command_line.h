#pragma once
// The command line diskref was started with and its version, kept for what a recording says made
// it (spec §11's session.json).

#include <string>
#include <vector>

namespace diskref::cli {

void remember_command_line(int argc, char** argv);
const std::vector<std::string>& command_line();
// The release (project version) and what it was built from ("commit 0123abcd4567", or "built from
// a source tree without .git"): cli/build_version.cpp.in, filled in when the build is configured.
const char* diskref_version();
const char* diskref_built_from();
// The date of that commit (YYYY-MM-DD; the configure date without .git): the man pages' date.
const char* diskref_build_date();

}  // namespace diskref::cli
