// diskref: the camera referee for flip-disk tabletop games. This file only wires subcommands;
// each lives in cli/<name>_command.cpp over the libraries.

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <new>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/command_docs.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"

namespace {

using diskref::cli::SetupFunction;

// In the order `diskref --help` lists them.
const SetupFunction kCommands[] = {
    diskref::cli::add_check_command,
    diskref::cli::add_photo_command,
    diskref::cli::add_calibrate_command,
    diskref::cli::add_table_command,
    diskref::cli::add_track_command,
    diskref::cli::add_cameras_command,
    diskref::cli::add_render_command,
    diskref::cli::add_tags_command,
    diskref::cli::add_plan_command,
    diskref::cli::add_setup_command,
    diskref::cli::add_play_command,
    diskref::cli::add_referee_command,
    diskref::cli::add_report_command,
    diskref::cli::add_hall_command,
    diskref::cli::add_serve_command,
#ifdef DISKREF_HAS_UI
    diskref::cli::add_ui_command,
#endif
    nullptr,
};

// A standard stream closed when diskref starts (`>&-`) is held open on /dev/null, so that no file
// diskref opens later takes its number (a track file would receive the summary meant for stdout).
// Standard output is held read-only: writing to it then fails, and the failure is reported.
void hold_closed_standard_streams() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int held = ::open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY);
    if (held >= 0 && held != fd) {
      ::dup2(held, fd);
      ::close(held);
    }
  }
}

// What a command printed must have reached standard output: a verdict that could not be written
// (a closed stdout, a full disk) is a failure, said on stderr, never an exit 0.
int checked_stdout(const std::string& command, int status) {
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  std::cout.flush();
  // What went to stderr (the referee's summary, track's figures) must have arrived too; when it
  // could not, there is nowhere to say so but the exit status.
  const bool said = std::fflush(stderr) == 0 && !std::ferror(stderr);
  if (flushed && !std::ferror(stdout) && std::cout.good())
    return said || status != 0 ? status : diskref::cli::kExitFailure;
  std::fprintf(stderr, "diskref%s%s: error: standard output could not be written%s%s: what it should show is lost\n",
               command.empty() ? "" : " ", command.c_str(), error != 0 ? ": " : "",
               error != 0 ? std::strerror(error) : "");
  return diskref::cli::kExitFailure;
}

// Edits (insertions, deletions, substitutions) between two words.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// "diskref chek ...": which subcommands exist, and the one meant.
int unknown_subcommand(const std::string& given, const std::vector<std::string>& names) {
  std::string list, nearest;
  std::size_t best = std::string::npos;
  for (const std::string& n : names) {
    list += (list.empty() ? "" : ", ") + n;
    const std::size_t d = edit_distance(given, n);
    if (d < best) {
      best = d;
      nearest = n;
    }
  }
  std::fprintf(stderr, "diskref: ");
  if (given.empty())
    std::fprintf(stderr, "give a subcommand");
  else
    std::fprintf(stderr, "there is no subcommand \"%s\"", given.c_str());
  if (!given.empty() && best <= std::max<std::size_t>(2, given.size() / 3))
    std::fprintf(stderr, " (did you mean \"%s\"?)", nearest.c_str());
  std::fprintf(stderr, "\nsubcommands: %s (diskref --help says what each does)\n", list.c_str());
  return diskref::cli::kExitBadInput;
}

// `diskref --write-man-pages DIR` and `diskref --write-bash-completion FILE`: what the build installs
// (cli/command_docs.h), written from the command line built above. Not listed in --help: they are
// for the build, not for users.
bool write_command_docs(const CLI::App& app, int argc, char** argv, int& status) {
  if (argc != 3) return false;
  const std::string what = argv[1];
  if (what != "--write-man-pages" && what != "--write-bash-completion") return false;
  status = diskref::cli::kExitFailure;
  try {
    if (what == "--write-man-pages") {
      const std::filesystem::path dir = argv[2];
      std::filesystem::create_directories(dir);
      for (const auto& [page, text] :
           diskref::cli::man_pages(app, {diskref::cli::diskref_version(), diskref::cli::diskref_build_date()}))
        diskref::io::write_file_atomically(dir / (page + ".1"), text);
    } else {
      diskref::io::write_file_atomically(argv[2], diskref::cli::bash_completion(app));
    }
    status = 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "diskref %s: error: %s\n", what.c_str(), e.what());
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  hold_closed_standard_streams();
  diskref::cli::remember_command_line(argc, argv);
  // A file size limit (ulimit -f) makes a write fail with EFBIG, reported like a full disk,
  // instead of killing the program without a word.
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{"diskref: the camera referee for flip-disk tabletop games (Star Trek: Red Alert!)"};
  app.set_version_flag("--version", std::string("diskref ") + diskref::cli::diskref_version() + " (" +
                                        diskref::cli::diskref_built_from() + ")");
  app.footer(
      "Examples:\n"
      "  diskref ui                                              the companion screen on the bundled sample\n"
      "  diskref ui --setup mytable --game game.json --camera 0  a first table, step by step "
      "(docs/guide/first-table.md)\n"
      "  diskref setup kit mytable --game game.json              the same without a screen (diskref setup --help)\n"
      "  diskref SUBCOMMAND --help                               each subcommand's options, with an example");
  app.require_subcommand(1);
  app.fallthrough(false);

  std::map<CLI::App*, diskref::cli::RunFunction> runners;
  for (SetupFunction setup : kCommands) {
    if (setup == nullptr) continue;
    std::size_t before = app.get_subcommands({}).size();
    diskref::cli::RunFunction run = setup(app);
    auto subs = app.get_subcommands({});
    if (subs.size() == before + 1) runners[subs.back()] = std::move(run);
  }

  if (int status = 0; write_command_docs(app, argc, argv, status)) return status;

  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  if (argc < 2) return unknown_subcommand("", names);
  if (argv[1][0] != '-' && std::find(names.begin(), names.end(), argv[1]) == names.end())
    return unknown_subcommand(argv[1], names);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end successfully; every other command-line error is bad input (2),
    // as for bad files, whatever CLI11's own code for it.
    int status = app.exit(e);
    return checked_stdout("", status == 0 ? 0 : diskref::cli::kExitBadInput);
  }

  for (auto& [sub, run] : runners) {
    if (!sub->parsed()) continue;
    int status = diskref::cli::kExitFailure;
    try {
      status = run();
    } catch (const diskref::io::InputError& e) {
      std::fprintf(stderr, "diskref %s: %s\n", sub->get_name().c_str(), e.what());
      status = diskref::cli::kExitBadInput;
    } catch (const std::bad_alloc&) {
      std::fprintf(stderr, "diskref %s: error: out of memory\n", sub->get_name().c_str());
      status = diskref::cli::kExitFailure;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "diskref %s: error: %s\n", sub->get_name().c_str(), e.what());
      status = diskref::cli::kExitFailure;
    }
    return checked_stdout(sub->get_name(), status);
  }
  std::cerr << app.help();
  return diskref::cli::kExitBadInput;
}
