#pragma once
// Checks of the command line's numbers, the same for every subcommand: a number that CLI11 takes
// ("nan", "inf", 1e308) but no setting can be is refused as bad input (exit 2), with the range.

#include <string>
#include <utility>

#include <CLI/CLI.hpp>

namespace diskref::cli {

// A finite number between lo and hi (both included).
CLI::Validator finite_between(double lo, double hi);

// "1920x1080": a camera's resolution, each side an image's (engine/model/bounds.h). Throws InputError
// naming `option` otherwise.
std::pair<int, int> parse_resolution(const std::string& text, const std::string& option);
// "914.4x914.4": a play area in millimetres, each side one a play area can have. Throws InputError
// naming `option` otherwise.
std::pair<double, double> parse_play_area(const std::string& text, const std::string& option);

}  // namespace diskref::cli
