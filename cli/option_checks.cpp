#include "cli/option_checks.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "engine/io/input_error.h"
#include "engine/model/bounds.h"

namespace diskref::cli {

CLI::Validator finite_between(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        const double v = std::strtod(text.c_str(), &end);
        const bool whole = end != text.c_str() && *end == '\0' && errno == 0;
        if (!whole || !(v >= lo && v <= hi))
          return fmt::format("must be a number between {:g} and {:g}, not \"{}\"", lo, hi, text);
        return {};
      },
      fmt::format("NUMBER in [{:g}, {:g}]", lo, hi));
}

std::pair<int, int> parse_resolution(const std::string& text, const std::string& option) {
  int w = 0, h = 0;
  char rest = 0;
  namespace b = model::bounds;
  if (std::sscanf(text.c_str(), "%dx%d%c", &w, &h, &rest) != 2 || w < b::kMinImageSidePx || h < b::kMinImageSidePx ||
      w > b::kMaxImageSidePx || h > b::kMaxImageSidePx)
    throw io::InputError("", option, "expected WIDTHxHEIGHT in pixels such as 1920x1080, not \"" + text + "\"");
  return {w, h};
}

std::pair<double, double> parse_play_area(const std::string& text, const std::string& option) {
  double w = 0, h = 0;
  char rest = 0;
  namespace b = model::bounds;
  if (std::sscanf(text.c_str(), "%lfx%lf%c", &w, &h, &rest) != 2 ||
      !b::within(w, b::kMinPlayAreaMm, b::kMaxPlayAreaMm) || !b::within(h, b::kMinPlayAreaMm, b::kMaxPlayAreaMm))
    throw io::InputError("", option, "expected WIDTHxHEIGHT in mm such as 914.4x914.4, not \"" + text + "\"");
  return {w, h};
}

}  // namespace diskref::cli
