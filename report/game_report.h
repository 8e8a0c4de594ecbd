#pragma once
// The game report (`diskref report DIR --out report.html`): one page a person reads after the game.
// The players and ships; turn by turn every ruling with its picture (the still of the settle it was
// read at, cropped to the disks concerned and drawn on, beside a top-down diagram), its numbers
// (margin ± σ, drift per flip) and its outcome; each drop read from the damage counters with the
// picture it was read from, what each counter was read as, and why any was asked about; the
// damage and criticals as they fell; the final state; and the tracking's health as plots. Images
// go in a folder beside the page (report_files/ for report.html), so the page and its folder are
// the whole report; it prints.
//
// A damaged recording still gives a report: what is missing is said at the top and everything else
// is shown.

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace diskref::report {

struct ReportResult {
  std::size_t rulings = 0;            // entries shown
  std::size_t pictures = 0;           // rulings shown with their photo
  std::vector<std::string> warnings;  // what the page says is missing or damaged
  std::filesystem::path files_dir;
};

// `progress(done, total)` is called as the rulings are drawn.
ReportResult write_game_report(const std::filesystem::path& recording_dir, const std::filesystem::path& out_html,
                               const std::function<void(std::size_t, std::size_t)>& progress = {});

}  // namespace diskref::report
