#pragma once
// Checks of the command line's numbers, the same for every subcommand: a number that CLI11 takes
// ("nan", "inf", 1e308) but no setting can be is refused as bad input (exit 2), with the range.

#include <string>

#include <CLI/CLI.hpp>

namespace diskref::cli {

// A finite number between lo and hi (both included).
CLI::Validator finite_between(double lo, double hi);

}  // namespace diskref::cli
