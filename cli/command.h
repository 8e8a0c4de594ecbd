#pragma once
// The shape of a diskref subcommand (one file per subcommand, in the manner of CLI11's
// subcom_in_files example): setup_<name>(app) adds the subcommand and its options to `app` and
// returns the function that runs it once the command line is parsed. The run function returns
// the exit status; it may throw diskref::io::InputError for bad input (printed, exit status 2).

#include <functional>

#include <CLI/CLI.hpp>

namespace diskref::cli {

// Exit statuses shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;   // something went wrong while running
inline constexpr int kExitBadInput = 2;  // bad command line, missing or malformed input file

using RunFunction = std::function<int()>;
using SetupFunction = RunFunction (*)(CLI::App& app);

}  // namespace diskref::cli
