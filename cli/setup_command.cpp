// `diskref setup`: a first table without a screen, the same steps as `diskref ui --setup DIR`, one
// command each, all keeping their results in one folder (setup/setup_state.h):
//   setup kit DIR --game GAME.json [play area, camera]   the kit to print, table.json, disks.json
//   setup calibrate DIR VIDEO|IMAGES... | --camera N     the lens, from the printed board (camera.json)
//   setup table DIR VIDEO|IMAGE | --camera N             the table from its corner markers (table_pose.json)
//   setup disks DIR VIDEO | --camera N                   every disk seen, read and named
//   setup status DIR                                     what is done, and the next command
// Each prints what it found and, for every problem, what to do. Exit status 0 when the step is done,
// 1 when it is not (the problems said), 2 for bad input.

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "calibration/camera_model.h"
#include "calibration/camera_pose.h"
#include "cli/camera_settings.h"
#include "cli/commands.h"
#include "cli/image_input.h"
#include "cli/option_checks.h"
#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/model/bounds.h"
#include "setup/calibration_session.h"
#include "setup/disks_check.h"
#include "setup/kit.h"
#include "setup/setup_state.h"
#include "setup/table_check.h"
#include "vision/frame_source.h"

namespace diskref::cli {
namespace {

namespace fs = std::filesystem;
using setup::Advice;

struct SetupOptions {
  std::string dir;
  // kit
  std::string game;
  std::string play_area;
  std::string camera_resolution;
  double camera_fov_deg = 0;
  double camera_height_mm = 0;
  std::string board;
  std::string page = "a4";
  double dpi = 300;
  // calibrate, table, disks
  std::vector<std::string> inputs;
  std::string camera_device;
  CameraSettingsText camera_settings;
  double seconds = 0;  // a live camera: stop after this long
  bool apply_offsets = false;
};

void print_advice(const std::vector<Advice>& advice) {
  for (const Advice& a : advice) {
    const char* tag = a.level == Advice::Level::problem ? "PROBLEM" : a.level == Advice::Level::note ? "note" : "ok";
    std::printf("  %-7s %s\n", tag, a.text.c_str());
    if (!a.fix.empty()) std::printf("          -> %s\n", a.fix.c_str());
  }
}

print::SheetOptions sheet_options(const setup::SetupState& state, double dpi) {
  print::SheetOptions sheet;
  if (state.page == "a3")
    sheet.page_width_mm = 297, sheet.page_height_mm = 420;
  else if (state.page == "letter")
    sheet.page_width_mm = 215.9, sheet.page_height_mm = 279.4;
  else if (state.page != "a4")
    throw io::InputError("", "--page", "a4, a3 or letter, not \"" + state.page + "\"");
  sheet.dpi = dpi;
  return sheet;
}

// The step's frames: a live camera, or the inputs (videos and still images) one after another.
class Frames {
 public:
  Frames(const SetupOptions& o) : o_(o) {
    if (!o.camera_device.empty() && !o.inputs.empty())
      throw io::InputError("", "--camera", "give a camera or input files, not both");
    if (o.camera_device.empty() && o.inputs.empty())
      throw io::InputError("", "", "give the camera (--camera N) or videos or pictures of the table");
    if (!o.camera_device.empty()) {
      setup::SetupState where;
      where.dir = o.dir;
      source_ = vision::open_camera(
          camera_options(o.camera_device, o.camera_settings, "setup", where.camera_settings_file().string()));
      live_ = true;
    }
    if (live_ && o.seconds <= 0)
      throw io::InputError("", "--seconds", "a live camera needs --seconds (how long to look)");
  }
  bool live() const { return live_; }
  // The next frame (BGR or grey) with a time that keeps increasing across inputs.
  std::optional<vision::Frame> next() {
    for (;;) {
      if (source_) {
        if (auto f = source_->next()) {
          if (live_ && f->t > o_.seconds) return std::nullopt;
          f->t += offset_;
          f->index = count_++;
          last_t_ = f->t;
          return f;
        }
        source_.reset();
        if (live_) return std::nullopt;
        offset_ = last_t_ + 1;  // the next input starts a second later
      }
      if (next_input_ >= o_.inputs.size()) return std::nullopt;
      const std::string& input = o_.inputs[next_input_++];
      if (is_image_file(input)) {
        vision::Frame f{read_gray_image(input), count_++, offset_, nullptr};
        last_t_ = offset_;
        offset_ += 1;
        return f;
      }
      source_ = vision::open_video_file(input);
    }
  }

 private:
  const SetupOptions& o_;
  std::unique_ptr<vision::FrameSource> source_;
  bool live_ = false;
  std::size_t next_input_ = 0;
  double offset_ = 0, last_t_ = 0;
  long long count_ = 0;
};

setup::SetupState open_existing(const SetupOptions& o) {
  return setup::open_setup(o.dir, std::nullopt);
}

void require_done(const setup::SetupState& s, setup::Step step) {
  if (!s.is_done(step))
    throw io::InputError(s.state_file().string(), "",
                         std::string("the ") + std::string(setup::step_title(step)) +
                             " step is not done yet (diskref setup status " + s.dir.string() +
                             " says what comes next)");
}

int run_kit(const SetupOptions& o) {
  setup::SetupState s = setup::open_setup(o.dir, o.game.empty() ? std::nullopt : std::optional<fs::path>(o.game));
  if (!o.play_area.empty()) {
    const auto [w, h] = parse_play_area(o.play_area, "--play-area");
    s.play_area_mm = geom::Vec2{w, h};
  } else if (!s.play_area_mm) {
    s.play_area_mm = setup::game_play_area(s.game_file);
  }
  const bool camera_given = !o.camera_resolution.empty() || o.camera_fov_deg > 0 || o.camera_height_mm > 0;
  if (camera_given) {
    if (o.camera_resolution.empty() || !(o.camera_fov_deg > 0) || !(o.camera_height_mm > 0))
      throw io::InputError("", "--camera-resolution/--camera-fov/--camera-height",
                           "give all three, e.g. --camera-resolution 1920x1080 --camera-fov 70 --camera-height 1000");
    auto [w, h] = parse_resolution(o.camera_resolution, "--camera-resolution");
    s.camera = model::PinholeCamera{w, h, o.camera_fov_deg, o.camera_height_mm};
  }
  if (!o.board.empty()) {
    try {
      setup::parse_board_text(o.board);
    } catch (const std::invalid_argument& e) {
      throw io::InputError("", "--board", e.what());
    }
    s.board = o.board;
  }
  s.page = o.page;
  setup::KitOptions ko;
  ko.play_area_mm = s.play_area_mm;
  ko.camera = s.camera;
  ko.board = setup::parse_board_text(s.board);
  const setup::Kit kit = setup::make_kit(s.game_file, ko);
  fs::create_directories(s.dir);
  const setup::KitFiles files = setup::write_kit(kit, s.dir, sheet_options(s, o.dpi));
  s.undo_from(setup::Step::play_area);
  s.mark_done(setup::Step::play_area, {{"play_area_mm", {s.play_area_mm->x, s.play_area_mm->y}}});
  if (s.camera)
    s.mark_done(setup::Step::camera,
                {{"mm_per_px", kit.plan->mm_per_px_worst}, {"smallest_tag_mm", kit.plan->smallest_tag_mm}});
  s.mark_done(setup::Step::kit, {{"disks", kit.registry.disks().size()},
                                 {"pages", files.pages},
                                 {"marker_mm", kit.table.corner_markers[0].size_mm}});
  setup::save_setup(s);
  std::printf("kit for %s (play area %g x %g mm):\n", s.game_file.c_str(), s.play_area_mm->x, s.play_area_mm->y);
  print_advice(kit.advice);
  std::printf("wrote %s, %s and %s (%d pages: print them at 100 %%)\n", files.table.c_str(), files.disks.c_str(),
              files.pdf.c_str(), files.pages);
  std::printf("next: diskref setup calibrate %s --camera 0 --seconds 120 (or a video of the board)\n", s.dir.c_str());
  return kExitOk;
}

int run_calibrate(const SetupOptions& o) {
  setup::SetupState s = open_existing(o);
  require_done(s, setup::Step::kit);
  io::check_output_path(s.camera_file());
  Frames frames(o);
  std::optional<setup::CalibrationSession> session;
  cv::Mat previous;
  long long previous_index = -2;
  auto last_report = std::chrono::steady_clock::now();
  double t = 0;
  int examined = 0;
  while (auto f = frames.next()) {
    cv::Mat gray = to_gray(f->image);
    if (!session) session.emplace(setup::parse_board_text(s.board), gray.size());
    if (gray.size() != session->image_size())
      throw io::InputError(
          "", "",
          fmt::format("a picture of {}x{} among pictures of {}x{}: calibrate one camera mode at a time", gray.cols,
                      gray.rows, session->image_size().width, session->image_size().height));
    setup::FrameVerdict v = session->add_frame(gray, f->index == previous_index + 1 ? previous : cv::Mat(), f->t);
    ++examined;
    if (v.found) std::fprintf(stderr, "%.2f s: %s\n", f->t, v.text.c_str());
    previous = gray;
    previous_index = f->index;
    t = f->t;
    if (std::chrono::steady_clock::now() - last_report > std::chrono::seconds(2)) {
      std::fprintf(stderr, "%.1f s: %d views kept, %d tilted, corners over %.0f %% of a 4x4 grid\n", t,
                   session->views_kept(), session->tilted_views(), 100 * session->cell_coverage());
      last_report = std::chrono::steady_clock::now();
    }
    if (frames.live() && session->ready()) break;
  }
  if (!session) throw io::InputError("", "", "no pictures read");
  std::printf(
      "%d pictures examined; %d views kept (%d tilted); boards cover %.0f %% of the picture, corners %.0f %% of a 4x4 "
      "grid\n",
      examined, session->views_kept(), session->tilted_views(), 100 * session->area_coverage(),
      100 * session->cell_coverage());
  // A live camera says how long the board has been away; a video's end is no such news.
  print_advice(session->advice(frames.live() || session->last_found_t() < 0 ? t : session->last_found_t()));
  calib::LensCalibration cal;
  try {
    cal = session->calibrate();
  } catch (const calib::CalibrationRefused& e) {
    print_advice({setup::problem(std::string("cannot calibrate: ") + e.what(),
                                 "show the board in more places, still, all over the picture, and run this again")});
    return kExitFailure;
  }
  const Advice meaning = setup::explain_calibration(cal);
  print_advice({meaning});
  calib::save_camera_model(cal.camera, s.camera_file());
  s.undo_from(setup::Step::calibration);
  s.mark_done(setup::Step::calibration, {{"rms_px", cal.rms_px},
                                         {"views", cal.views.size()},
                                         {"image_size", {cal.camera.image_size.width, cal.camera.image_size.height}}});
  setup::save_setup(s);
  std::printf(
      "wrote %s\nnext: diskref setup table %s --camera 0 --seconds 10 (or a picture of the table)\nrms_px=%.3f\n",
      s.camera_file().c_str(), s.dir.c_str(), cal.rms_px);
  return meaning.level == Advice::Level::problem ? kExitFailure : kExitOk;
}

int run_table(const SetupOptions& o) {
  setup::SetupState s = open_existing(o);
  require_done(s, setup::Step::kit);
  io::check_output_path(s.table_pose_file());
  const model::TableSpec table = model::load_table(s.table_file());
  const model::DiskRegistry registry = model::load_disk_registry(s.disks_file());
  std::optional<calib::CameraModel> lens;
  if (s.is_done(setup::Step::calibration)) lens = calib::load_camera_model(s.camera_file());
  setup::TableCheck check(table, lens, &registry);
  Frames frames(o);
  int seen = 0;
  while (auto f = frames.next()) {
    check.add_frame(to_gray(f->image));
    ++seen;
    if (check.ready() && seen >= 3) break;
  }
  std::printf("%d picture(s) examined\n", seen);
  print_advice(check.advice());
  if (!check.ready()) return kExitFailure;
  const calib::CameraPose& pose = *check.pose();
  calib::save_camera_pose(pose, s.table_pose_file());
  double worst = 0;
  for (const auto& d : pose.distance_checks) worst = std::max(worst, std::fabs(d.measured_mm - d.expected_mm));
  s.undo_from(setup::Step::table);
  s.mark_done(setup::Step::table, {{"fit_px", pose.reprojection_rms_px},
                                   {"fit_mm", pose.reprojection_rms_mm},
                                   {"markers", pose.markers_used},
                                   {"worst_distance_mm", worst}});
  setup::save_setup(s);
  std::printf(
      "wrote %s\nnext: lay every disk of the kit on the table, then diskref setup disks %s --camera 0 --seconds 20\n",
      s.table_pose_file().c_str(), s.dir.c_str());
  return kExitOk;
}

int run_disks(const SetupOptions& o) {
  setup::SetupState s = open_existing(o);
  require_done(s, setup::Step::table);
  const model::TableSpec table = model::load_table(s.table_file());
  const model::DiskRegistry registry = model::load_disk_registry(s.disks_file());
  std::optional<calib::CameraModel> lens;
  if (s.is_done(setup::Step::calibration)) lens = calib::load_camera_model(s.camera_file());
  setup::DisksCheck check(table, registry, lens);
  Frames frames(o);
  long long n = 0;
  while (auto f = frames.next()) {
    check.add_frame(f->image, f->index, f->t);
    ++n;
  }
  std::printf("%lld frames tracked\n", n);
  for (const setup::DiskSeen& d : check.disks())
    std::printf("  %-14s %-9s %-10s %s\n", d.name.c_str(), std::string(model::to_string(d.kind)).c_str(),
                d.seen_up && d.seen_down ? "up, down"
                : d.seen_up              ? "up"
                : d.seen_down            ? "down"
                                         : "not seen",
                d.px_per_cell > 0 ? fmt::format("{:.1f} px per cell", d.px_per_cell).c_str() : "");
  print_advice(check.advice());
  const auto offsets = check.suggested_offsets();
  if (o.apply_offsets && !offsets.empty()) {
    io::write_file_atomically(s.disks_file(),
                              model::disk_registry_to_json(setup::with_offsets(registry, offsets)).dump(2) + "\n");
    for (const auto& [id, c] : offsets) std::printf("tag %d: heading_offset_deg corrected by %+.1f\n", id, c);
    std::printf("wrote %s\n", s.disks_file().c_str());
  }
  if (!check.ready()) return kExitFailure;
  int seen = 0;
  for (const setup::DiskSeen& d : check.disks()) seen += d.seen();
  s.mark_done(setup::Step::disks, {{"seen", seen}, {"disks", check.disks().size()}});
  setup::save_setup(s);
  std::printf("the table is ready: diskref ui --camera 0 --table %s --disks %s --calib %s --game %s\n",
              s.table_file().c_str(), s.disks_file().c_str(), s.camera_file().c_str(), s.game_file.c_str());
  return kExitOk;
}

int run_status(const SetupOptions& o) {
  setup::SetupState s = open_existing(o);
  std::printf("setup of %s in %s\n", s.game_file.c_str(), s.dir.c_str());
  for (setup::Step step : setup::kAllSteps) {
    const auto it = s.done.find(std::string(setup::step_key(step)));
    std::printf("  %-12s %s\n", std::string(setup::step_title(step)).c_str(),
                it == s.done.end() ? "not done" : ("done: " + setup::step_summary(step, it->second)).c_str());
  }
  static const char* const kNext[] = {"setup kit",       "setup kit",   "setup kit",
                                      "setup calibrate", "setup table", "setup disks"};
  const setup::Step next = s.next_step();
  if (next == setup::Step::done)
    std::printf("ready: diskref ui --camera 0 --table %s --disks %s --calib %s --game %s\n", s.table_file().c_str(),
                s.disks_file().c_str(), s.camera_file().c_str(), s.game_file.c_str());
  else
    std::printf("next: diskref %s %s ...  (diskref setup %s --help)\n", kNext[static_cast<int>(next)], s.dir.c_str(),
                std::string(kNext[static_cast<int>(next)]).substr(6).c_str());
  return kExitOk;
}

void add_frame_inputs(CLI::App* sub, SetupOptions& o, const char* what) {
  sub->add_option("inputs", o.inputs, what);
  sub->add_option("--camera", o.camera_device,
                  "A live camera: its number, V4L2 device or URL (e.g. 0, /dev/video2, http://phone:8080/video)");
  add_camera_settings(sub, o.camera_settings);
  sub->add_option("--seconds", o.seconds, "A live camera: look for at most this long")
      ->check(finite_between(0.1, 3600));
}

}  // namespace

RunFunction add_setup_command(CLI::App& app) {
  auto o = std::make_shared<SetupOptions>();
  auto which = std::make_shared<std::string>();
  CLI::App* sub =
      app.add_subcommand("setup",
                         "A first table without a screen, step by step: kit, calibrate, table, disks, status "
                         "(diskref ui --setup DIR does the same on the screen)");
  sub->require_subcommand(1);
  sub->footer(
      "Example, from a game file to a table:\n"
      "  diskref setup kit mytable --game game.json --camera-resolution 1920x1080 --camera-fov 70 --camera-height "
      "1000\n"
      "  (print mytable/kit.pdf at 100 %, make the kit, mount the camera)\n"
      "  diskref setup calibrate mytable --camera 0 --seconds 120\n"
      "  diskref setup table mytable --camera 0 --seconds 10\n"
      "  diskref setup disks mytable --camera 0 --seconds 30\n"
      "  diskref setup status mytable");

  CLI::App* kit =
      sub->add_subcommand("kit", "Make the kit for a game: the pages to print (kit.pdf), table.json and disks.json");
  kit->add_option("dir", o->dir, "The setup's folder (created if needed)")->required();
  kit->add_option("--game", o->game, "The game file (spec §9) the kit is for (needed the first time)");
  kit->add_option("--play-area", o->play_area, "Play area WIDTHxHEIGHT in mm (default: the game's)");
  kit->add_option("--camera-resolution", o->camera_resolution, "The camera's resolution, e.g. 1920x1080");
  kit->add_option("--camera-fov", o->camera_fov_deg, "Its horizontal field of view, degrees")
      ->check(finite_between(model::bounds::kMinFieldOfViewDeg, model::bounds::kMaxFieldOfViewDeg));
  kit->add_option("--camera-height", o->camera_height_mm, "Its height above the table, mm")
      ->check(finite_between(model::bounds::kMinCameraHeightMm, model::bounds::kMaxCameraDistanceMm));
  kit->add_option("--board", o->board,
                  "The calibration board: charuco:COLSxROWS:SQUARE_MM:MARKER_MM (default 7x5:30:22) or "
                  "chessboard:COLSxROWS:SQUARE_MM");
  kit->add_option("--page", o->page, "Paper: a4, a3 or letter")->capture_default_str();
  kit->add_option("--dpi", o->dpi, "Resolution of the pages")->capture_default_str()->check(CLI::Range(72.0, 1200.0));
  kit->footer(
      "Example: diskref setup kit mytable --game sample_videos/skirmish/game.json --play-area 914.4x914.4 \\\n"
      "           --camera-resolution 3840x2160 --camera-fov 70 --camera-height 1400");
  kit->callback([which] { *which = "kit"; });

  CLI::App* cal = sub->add_subcommand(
      "calibrate", "Calibrate the lens from the kit's board (camera.json), saying what each view lacks");
  cal->add_option("dir", o->dir, "The setup's folder")->required();
  add_frame_inputs(cal, *o, "Videos or pictures of the board held in front of the camera");
  cal->footer("Example: diskref setup calibrate mytable --camera 0 --seconds 120   (or: ... mytable board.mp4)");
  cal->callback([which] { *which = "calibrate"; });

  CLI::App* table =
      sub->add_subcommand("table", "Find the table from its corner markers and check them (table_pose.json)");
  table->add_option("dir", o->dir, "The setup's folder")->required();
  add_frame_inputs(table, *o, "A video or picture of the table with its four corner markers");
  table->footer("Example: diskref setup table mytable --camera 0 --seconds 10   (or: ... mytable table.jpg)");
  table->callback([which] { *which = "table"; });

  CLI::App* disks =
      sub->add_subcommand("disks", "Check every disk of the kit on the table: seen, named, read at its size");
  disks->add_option("dir", o->dir, "The setup's folder")->required();
  add_frame_inputs(disks, *o, "A video of the table with the kit's disks on it (flip each once to check both faces)");
  disks->add_flag("--apply-offsets", o->apply_offsets,
                  "Correct the heading_offset_deg of down faces found turned (rewrites disks.json)");
  disks->footer("Example: diskref setup disks mytable --camera 0 --seconds 30");
  disks->callback([which] { *which = "disks"; });

  CLI::App* status = sub->add_subcommand("status", "What is done, and the next command");
  status->add_option("dir", o->dir, "The setup's folder")->required();
  status->footer("Example: diskref setup status mytable");
  status->callback([which] { *which = "status"; });

  return [o, which] {
    if (*which == "kit") return run_kit(*o);
    if (*which == "calibrate") return run_calibrate(*o);
    if (*which == "table") return run_table(*o);
    if (*which == "disks") return run_disks(*o);
    return run_status(*o);
  };
}

}  // namespace diskref::cli
