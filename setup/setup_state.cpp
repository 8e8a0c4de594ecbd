#include "setup/setup_state.h"

#include <cstdio>
#include <optional>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/io/json_cursor.h"
#include "engine/model/bounds.h"

namespace diskref::setup {
namespace fs = std::filesystem;

std::string_view step_key(Step step) {
  switch (step) {
    case Step::play_area:
      return "play_area";
    case Step::camera:
      return "camera";
    case Step::kit:
      return "kit";
    case Step::calibration:
      return "calibration";
    case Step::table:
      return "table";
    case Step::disks:
      return "disks";
    case Step::done:
      return "done";
  }
  return "done";
}

std::string_view step_title(Step step) {
  switch (step) {
    case Step::play_area:
      return "Play area";
    case Step::camera:
      return "Camera";
    case Step::kit:
      return "Kit";
    case Step::calibration:
      return "Calibration";
    case Step::table:
      return "Table";
    case Step::disks:
      return "Disks";
    case Step::done:
      return "Ready";
  }
  return "Ready";
}

std::string_view step_purpose(Step step) {
  switch (step) {
    case Step::play_area:
      return "The size of the area the ships fly in (the mat or the marked part of the table). Its four corners get a "
             "corner marker each, just outside: they tell the camera where the table is.";
    case Step::camera:
      return "The camera you will use and how high above the table it hangs. From these diskref works out how many "
             "millimetres each pixel covers, which tags it can read, and whether the whole table is in the picture.";
    case Step::kit:
      return "Everything to print for this game: every ship (both faces, to fold and glue), the torpedoes, terrain, "
             "the "
             "range template, the corner markers and the calibration board, with the files that describe them.";
    case Step::calibration:
      return "The camera's lens bends straight lines; calibration measures that from the printed board held in front "
             "of the camera at many angles, all over the picture. The RMS error says how well the measured lens fits.";
    case Step::table:
      return "Where the table is seen from the camera: found from the four corner markers. The distances between them, "
             "measured through the camera, are checked against the table file.";
    case Step::disks:
      return "Every disk of the kit laid on the table, each found by its tag at its size and named. A tag too small "
             "for "
             "this camera, printed at the wrong scale or missing is said here, with what to do.";
    case Step::done:
      return "Everything is set up: the files are saved in this folder and the next run starts here.";
  }
  return "";
}

std::string step_summary(Step step, const nlohmann::json& f) {
  // What the file says, read leniently: a figure missing or of another type reads as 0 (the file
  // is checked to be an object per step when read; its figures are only ever shown).
  auto number = [&](const char* key) {
    return f.is_object() && f.contains(key) && f[key].is_number() ? f[key].get<double>() : 0.0;
  };
  auto pair = [&](const char* key) -> std::optional<std::pair<double, double>> {
    if (!f.is_object() || !f.contains(key) || !f[key].is_array() || f[key].size() != 2 || !f[key][0].is_number() ||
        !f[key][1].is_number())
      return std::nullopt;
    return std::pair{f[key][0].get<double>(), f[key][1].get<double>()};
  };
  switch (step) {
    case Step::play_area:
      if (auto a = pair("play_area_mm")) return fmt::format("{:g} x {:g} mm", a->first, a->second);
      return "set";
    case Step::camera:
      return fmt::format("{:.2f} mm per pixel; tags from {:.1f} mm read", number("mm_per_px"),
                         number("smallest_tag_mm"));
    case Step::kit:
      return fmt::format("{:g} disks, corner markers of {:g} mm, {:g} pages printed", number("disks"),
                         number("marker_mm"), number("pages"));
    case Step::calibration: {
      const auto size = pair("image_size");
      return fmt::format("lens RMS {:.3f} px over {:g} views{}", number("rms_px"), number("views"),
                         size ? fmt::format(" at {:g}x{:g}", size->first, size->second) : std::string());
    }
    case Step::table: {
      std::string markers;
      if (f.is_object() && f.contains("markers") && f["markers"].is_array())
        for (const auto& m : f["markers"])
          if (m.is_number()) markers += (markers.empty() ? "" : ", ") + fmt::format("{:g}", m.get<double>());
      return fmt::format(
          "fit {:.2f} px, {:.2f} mm from markers {}; marker distances within {:.2f} mm of the table file",
          number("fit_px"), number("fit_mm"), markers, number("worst_distance_mm"));
    }
    case Step::disks:
      return fmt::format("{:g} of {:g} disks seen and read", number("seen"), number("disks"));
    case Step::done:
      break;
  }
  return "";
}

Step SetupState::next_step() const {
  for (Step s : kAllSteps)
    if (!is_done(s)) return s;
  return Step::done;
}

void SetupState::undo_from(Step step) {
  bool from = false;
  for (Step s : kAllSteps) {
    from = from || s == step;
    if (from) done.erase(std::string(step_key(s)));
  }
}

void SetupState::mark_done(Step step, nlohmann::json found) {
  // A step with nothing to say is still done: an empty object, never null (null reads as absent).
  done[std::string(step_key(step))] = found.is_null() ? nlohmann::json::object() : std::move(found);
}

print::BoardSpec parse_board_text(const std::string& text) {
  print::BoardSpec b;
  int cols = 0, rows = 0;
  double square = 0, marker = 0;
  char rest = 0;
  if (std::sscanf(text.c_str(), "charuco:%dx%d:%lf:%lf%c", &cols, &rows, &square, &marker, &rest) == 4) {
    b = {print::BoardSpec::Type::charuco, cols, rows, square, marker, cv::aruco::DICT_5X5_100};
  } else if (std::sscanf(text.c_str(), "chessboard:%dx%d:%lf%c", &cols, &rows, &square, &rest) == 3) {
    b = {print::BoardSpec::Type::chessboard, cols, rows, square, 0, 0};
  } else {
    throw std::invalid_argument(
        "expected charuco:COLSxROWS:SQUARE_MM:MARKER_MM or chessboard:COLSxROWS:SQUARE_MM, not \"" + text + "\"");
  }
  if (cols > 100 || rows > 100) throw std::invalid_argument("a board of at most 100 x 100, not \"" + text + "\"");
  if (auto problem = print::board_spec_problem(b); !problem.empty())
    throw std::invalid_argument(problem + " (\"" + text + "\")");
  return b;
}

std::string board_text(const print::BoardSpec& b) {
  if (b.type == print::BoardSpec::Type::chessboard)
    return fmt::format("chessboard:{}x{}:{:g}", b.cols, b.rows, b.square_mm);
  return fmt::format("charuco:{}x{}:{:g}:{:g}", b.cols, b.rows, b.square_mm, b.marker_mm);
}

SetupState open_setup(const fs::path& dir, const std::optional<fs::path>& game) {
  SetupState s;
  s.dir = dir;
  const fs::path file = s.state_file();
  if (!fs::exists(file)) {
    if (!game)
      throw io::InputError(file.string(), "", "no setup here yet: start one with the game file (--game GAME.json)");
    if (!fs::is_regular_file(*game)) throw io::InputError(game->string(), "", "game file not found");
    s.game_file = fs::absolute(*game).lexically_normal();
    return s;
  }
  nlohmann::json doc = io::read_json_file(file);
  io::JsonCursor root(doc, file.string());
  root.allow_only({"setup", "game", "play_area_mm", "camera", "board", "page", "steps"});
  if (root.at("setup").int_in(1, 1) != 1) root.at("setup").fail("unknown version");
  s.game_file = root.at("game").non_empty_string();
  if (s.game_file.is_relative()) s.game_file = fs::absolute(dir / s.game_file).lexically_normal();  // beside the folder
  if (game && fs::absolute(*game).lexically_normal() != s.game_file)
    throw io::InputError(file.string(), "game",
                         "this setup is for " + s.game_file.string() + ", not " + game->string() +
                             ": use another folder for another game, or leave out --game");
  if (auto area = root.find("play_area_mm")) {
    area->numbers(2);
    s.play_area_mm = geom::Vec2{model::bounds::play_area_side_mm(area->at(std::size_t{0})),
                                model::bounds::play_area_side_mm(area->at(std::size_t{1}))};
  }
  if (auto cam = root.find("camera")) {
    cam->allow_only({"resolution", "horizontal_fov_deg", "height_mm"});
    auto r = cam->at("resolution");
    r.numbers(2);
    model::PinholeCamera c;
    c.width_px = model::bounds::image_side_px(r.at(std::size_t{0}));
    c.height_px = model::bounds::image_side_px(r.at(std::size_t{1}));
    c.horizontal_fov_deg =
        cam->at("horizontal_fov_deg").number_in(model::bounds::kMinFieldOfViewDeg, model::bounds::kMaxFieldOfViewDeg);
    c.height_mm =
        cam->at("height_mm").number_in(model::bounds::kMinCameraHeightMm, model::bounds::kMaxCameraDistanceMm);
    s.camera = c;
  }
  if (auto b = root.find("board")) {
    s.board = b->string();
    try {
      parse_board_text(s.board);
    } catch (const std::invalid_argument& e) {
      b->fail(e.what());
    }
  }
  if (auto p = root.find("page")) s.page = p->string();
  if (auto steps = root.find("steps"))
    for (const std::string& key : steps->keys()) {
      bool known = false;
      for (Step st : kAllSteps) known = known || key == step_key(st);
      if (!known) steps->at(key).fail("not a setup step");
      if (!steps->at(key).json().is_object()) steps->at(key).fail("must be an object (what the step found)");
      s.done[key] = steps->at(key).json();
    }
  return s;
}

void save_setup(const SetupState& s) {
  nlohmann::json j;
  j["setup"] = 1;
  j["game"] = s.game_file.string();
  if (s.play_area_mm) j["play_area_mm"] = {s.play_area_mm->x, s.play_area_mm->y};
  if (s.camera)
    j["camera"] = {{"resolution", {s.camera->width_px, s.camera->height_px}},
                   {"horizontal_fov_deg", s.camera->horizontal_fov_deg},
                   {"height_mm", s.camera->height_mm}};
  j["board"] = s.board;
  j["page"] = s.page;
  j["steps"] = nlohmann::json::object();
  for (const auto& [key, found] : s.done) j["steps"][key] = found;
  fs::create_directories(s.dir);
  io::write_file_atomically(s.state_file(), j.dump(2) + "\n");
}

}  // namespace diskref::setup
