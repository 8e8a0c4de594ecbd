#pragma once
// The man pages and the bash completion, written from the command line's own definitions (the
// CLI11 tree main.cpp builds), so that they can never disagree with `diskref … --help`: one source
// of truth. CLI11 has no generator of its own; `diskref --write-man-pages DIR` and
// `diskref --write-bash-completion FILE` (hidden, used by the build) call these.

#include <map>
#include <string>

#include <CLI/CLI.hpp>

namespace diskref::cli {

struct ManPageInfo {
  std::string version;  // "0.1.0"
  std::string date;     // "2026-12-07": the commit's date, so that a rebuild writes the same pages
};

// One page per command: "diskref" for the program and "diskref-<sub>" (and "diskref-<sub>-<subsub>")
// for each subcommand, as roff (man(7)), keyed by page name. Hidden options (group "") are left out.
std::map<std::string, std::string> man_pages(const CLI::App& program, const ManPageInfo& info);

// A bash completion script for `diskref` (complete -F): subcommands at each level, each command's
// options, file names for an option's value and for positional arguments.
std::string bash_completion(const CLI::App& program);

}  // namespace diskref::cli
