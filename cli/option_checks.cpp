#include "cli/option_checks.h"

#include <cerrno>
#include <cstdlib>

#include <fmt/format.h>

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

}  // namespace diskref::cli
