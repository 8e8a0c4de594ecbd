// `diskref report DIR --out report.html [--pdf report.pdf]`: a recorded game (spec §11) as a page a
// person reads afterwards (report/game_report.h), and printed through Chromium when asked. The
// page's pictures go in a folder beside it (report_files/ for report.html).

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/progress.h"
#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "report/game_report.h"

extern char** environ;

namespace diskref::cli {
namespace {

struct ReportCommandOptions {
  std::string dir;
  std::string out;
  std::string pdf;
  std::string chromium = "chromium";
  bool quiet = false;
};

// Chromium prints the page as a person would (its print styles: a ruling is never cut across two
// pages). Returns chromium's exit status, or -1 when it could not be started.
int print_to_pdf(const std::string& chromium, const std::filesystem::path& html, const std::filesystem::path& pdf) {
  const std::string url = "file://" + std::filesystem::absolute(html).string();
  std::vector<std::string> args = {chromium,
                                   "--headless",
                                   "--no-sandbox",
                                   "--disable-gpu",
                                   "--no-pdf-header-footer",
                                   "--print-to-pdf=" + std::filesystem::absolute(pdf).string(),
                                   url};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // Chromium's own chatter is no concern of the user's.
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int started = posix_spawnp(&pid, chromium.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (started != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

int run_report(const ReportCommandOptions& o) {
  io::check_output_path(o.out);
  if (!o.pdf.empty()) io::check_output_path(o.pdf);
  std::optional<Progress> progress;  // the rulings are counted once the recording is read
  const report::ReportResult r = report::write_game_report(o.dir, o.out, [&](std::size_t done, std::size_t total) {
    if (!progress) progress.emplace(static_cast<long long>(total), o.quiet);
    progress->update(static_cast<long long>(done), 0.0);
  });
  if (progress) progress->finish();
  for (const std::string& w : r.warnings) std::fprintf(stderr, "diskref report: warning: %s\n", w.c_str());
  if (!o.quiet)
    std::fprintf(stderr, "diskref report: %zu rulings, %zu with their picture: %s (pictures in %s)\n", r.rulings,
                 r.pictures, o.out.c_str(), r.files_dir.c_str());
  if (!o.pdf.empty()) {
    const int status = print_to_pdf(o.chromium, o.out, o.pdf);
    if (status != 0 || !std::filesystem::exists(o.pdf)) {
      std::fprintf(
          stderr,
          "diskref report: error: %s could not print %s to %s (%s); the page itself is written. Install Debian's "
          "chromium (apt-get install chromium) or name it with --chromium\n",
          o.chromium.c_str(), o.out.c_str(), o.pdf.c_str(),
          status < 0 ? "it could not be started" : ("it ended with " + std::to_string(status)).c_str());
      return kExitFailure;
    }
    if (!o.quiet) std::fprintf(stderr, "diskref report: printed to %s\n", o.pdf.c_str());
  }
  return kExitOk;
}

}  // namespace

RunFunction add_report_command(CLI::App& app) {
  auto o = std::make_shared<ReportCommandOptions>();
  CLI::App* sub = app.add_subcommand("report", "Write a recorded game (made with --record) as a page a person reads");
  sub->add_option("dir", o->dir, "The recording's folder")->required();
  sub->add_option("--out", o->out, "The page (HTML); its pictures go in a folder beside it")->required();
  sub->add_option("--pdf", o->pdf, "Also print the page to this PDF (through Chromium)");
  sub->add_option("--chromium", o->chromium, "The Chromium program that prints the PDF")->capture_default_str();
  sub->add_flag("--quiet", o->quiet, "No progress or summary on stderr");
  sub->footer(
      "Example:\n  diskref referee sample_videos/skirmish/video.mp4 ... --record game-1/\n"
      "  diskref report game-1/ --out game-1.html --pdf game-1.pdf");
  return [o] { return run_report(*o); };
}

}  // namespace diskref::cli
