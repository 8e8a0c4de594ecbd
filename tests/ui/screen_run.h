#pragma once
// Test support for running the real program's screens as a user does (under xvfb-run): quoting
// paths for the shell, the exit status, and the JSON files the screens write (--views-json, the
// setup's screenshots).

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace diskref::ui::testing {

// Quoted for the shell. (A stream, not operator+: GCC 12 warns falsely about literal + string.)
inline std::string q(const std::filesystem::path& p) {
  std::ostringstream o;
  o << '"' << p.string() << '"';
  return o.str();
}

// The command's exit status (-1 when it did not exit).
inline int run(const std::string& cmd) {
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The file's JSON, or null when it is missing.
inline nlohmann::json read_json(const std::filesystem::path& file) {
  std::ifstream in(file);
  nlohmann::json j;
  if (in) in >> j;
  return j;
}

}  // namespace diskref::ui::testing
