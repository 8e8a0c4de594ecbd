#pragma once
// Test support for running the real program's screens as a user does (under xvfb-run): quoting
// paths for the shell, the exit status, and the JSON files the screens write (--views-json, the
// setup's screenshots).

#include <sys/wait.h>

#include <algorithm>
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

// The area two screen rectangles of a --views-json file ([x, y, w, h]) share.
inline double rect_overlap(const nlohmann::json& a, const nlohmann::json& b) {
  const double w = std::min(a[0].get<double>() + a[2].get<double>(), b[0].get<double>() + b[2].get<double>()) -
                   std::max(a[0].get<double>(), b[0].get<double>());
  const double h = std::min(a[1].get<double>() + a[3].get<double>(), b[1].get<double>() + b[3].get<double>()) -
                   std::max(a[1].get<double>(), b[1].get<double>());
  return w > 0 && h > 0 ? w * h : 0.0;
}

}  // namespace diskref::ui::testing
