#pragma once
// The command line diskref was started with and its version, kept for what a recording says made
// it (spec §11's session.json).

#include <string>
#include <vector>

namespace diskref::cli {

void remember_command_line(int argc, char** argv);
const std::vector<std::string>& command_line();
const char* diskref_version();

}  // namespace diskref::cli
