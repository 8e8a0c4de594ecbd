#include "setup/kit.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/io/json_cursor.h"
#include "engine/model/shape_json.h"
#include "engine/rules/script.h"
#include "print/kit_guide.h"
#include "print/print_files.h"
#include "referee/game_file.h"

namespace diskref::setup {
namespace fs = std::filesystem;
namespace {

// Marker sizes the kit chooses from: at least this, and so that the camera reads them with room
// to spare (a marker is the whole table's anchor: it must read in poor light and at the image's
// soft corners), in 5 mm steps.
constexpr double kMinMarkerMm = 40;
constexpr double kMaxMarkerMm = 120;
constexpr double kMarkerReadingMargin = 1.6;  // times spec §2's 2.5 px per cell
constexpr double kDefaultMarkerMm = 40;

// Tag sizes are printed in half millimetres, the largest that fits the disk.
double largest_tag_mm(const geom::Shape& shape) {
  const double fits = model::largest_fitting_tag_mm(shape, model::TagSpec{});
  return std::floor(2 * fits) / 2;
}

// One colour per team for its ships (the first team blue, the second red, ...), so that players
// tell their ships apart across the table.
const unsigned kTeamColours[] = {0x3a6fd8, 0xc8402a, 0x2e8b57, 0xd4a017, 0x8a4fbf, 0x2aa5a5};

model::DiskSpec disk_with_tags(std::string name, model::DiskKind kind, geom::Shape shape, bool flips, int& next_id) {
  model::DiskSpec d;
  d.name = std::move(name);
  d.kind = kind;
  d.shape = shape;
  const double size = largest_tag_mm(shape);
  d.tags.push_back({next_id++, model::Face::up, size, 0});
  if (flips) d.tags.push_back({next_id++, model::Face::down, size, 0});
  return d;
}

// The shape a game piece is given: the game file's own, else its registry's, else (a ship) the
// usual disk. nullopt when there is none.
std::optional<geom::Shape> piece_shape(const io::JsonCursor& entry, const model::DiskRegistry* registry) {
  if (auto s = entry.find("shape")) return model::parse_shape(*s);
  if (registry != nullptr)
    if (const model::DiskSpec* d = registry->find(entry.at("id").string())) return d->shape;
  return std::nullopt;
}

model::DiskKind terrain_disk_kind(const std::string& kind) {
  if (kind == "planet") return model::DiskKind::planet;
  if (kind == "obstruction") return model::DiskKind::obstruction;
  return model::DiskKind::terrain;
}

std::string name_not_in(std::string base, const std::set<std::string>& taken) {
  if (!taken.count(base)) return base;
  for (int i = 2;; ++i)
    if (!taken.count(base + "-" + std::to_string(i))) return base + "-" + std::to_string(i);
}

// The corner markers' size for a camera: the smallest 5 mm step that reads at the margin above at
// its corner of the table, within [kMinMarkerMm, kMaxMarkerMm].
double marker_size_for(const std::optional<model::PinholeCamera>& camera, geom::Vec2 play_area) {
  if (!camera) return kDefaultMarkerMm;
  for (double size = kMinMarkerMm; size <= kMaxMarkerMm; size += 5) {
    const model::TableSpec table = model::table_with_markers(play_area, size);
    const model::CameraPlan plan = model::plan_camera(model::straight_above_play_area(*camera, table), table, nullptr);
    bool all = true;
    for (const model::TagReading& t : plan.tags)
      all = all && t.px_per_cell >= kMarkerReadingMargin * model::kMinPixelsPerCell;
    if (all) return size;
  }
  return kMaxMarkerMm;
}

std::string describe_board(const print::BoardSpec& b) {
  if (b.type == print::BoardSpec::Type::chessboard)
    return fmt::format("chessboard {}x{} inner corners, {:g} mm squares", b.cols, b.rows, b.square_mm);
  return fmt::format("ChArUco {}x{} squares of {:g} mm, {:g} mm markers", b.cols, b.rows, b.square_mm, b.marker_mm);
}

}  // namespace

print::BoardSpec default_kit_board() {
  return print::BoardSpec{print::BoardSpec::Type::charuco, 7, 5, 30.0, 22.0, cv::aruco::DICT_5X5_100};
}

geom::Vec2 game_play_area(const fs::path& game_file) {
  nlohmann::json doc = io::read_json_file(game_file);
  io::JsonCursor root(doc, game_file.string());
  // Shapes do not matter for the play area: give every piece one so that the setup loads.
  std::vector<model::DiskSpec> placeholders;
  int id = 10;
  for (const char* list : {"ships", "terrain"})
    if (auto entries = root.find(list))
      for (std::size_t i = 0; i < entries->size(); ++i)
        placeholders.push_back(
            disk_with_tags(entries->at(i).at("id").string(), model::DiskKind::ship, kDefaultShipShape, false, id));
  const model::DiskRegistry registry(placeholders);
  rules::InitialStateOptions options;
  options.poses_from_table = true;
  return rules::load_setup(root, game_file, nullptr, &registry, options).data.parameters.play_area_mm;
}

Kit make_kit(const fs::path& game_file, const KitOptions& o) {
  nlohmann::json doc = io::read_json_file(game_file);
  io::JsonCursor root(doc, game_file.string());
  if (root.json().is_object() && root.has("setup") && root.has("actions"))
    root.fail("this is a play script: the game file is its \"setup\" alone (diskref referee, spec §9)");
  // A registry the game file names gives its pieces' shapes.
  std::optional<model::DiskRegistry> own;
  if (auto r = root.find("registry")) own = model::load_disk_registry(game_file.parent_path() / r->string());

  Kit kit;
  kit.game_file = game_file;
  kit.board = o.board;
  kit.camera = o.camera;
  if (auto problem = print::board_spec_problem(o.board); !problem.empty()) throw io::InputError("", "--board", problem);

  // The pieces the game names, in its order: ships (two faces: they flip), terrain (one face).
  int next_id = std::max(o.first_tag_id, model::kCornerMarkerCount);
  std::vector<model::DiskSpec> disks;
  std::set<std::string> names;
  bool default_ship_shape = false;
  std::map<std::string, unsigned> team_colour;
  if (auto ships = root.find("ships"))
    for (std::size_t i = 0; i < ships->size(); ++i) {
      auto entry = ships->at(i);
      auto shape = piece_shape(entry, own ? &*own : nullptr);
      default_ship_shape = default_ship_shape || !shape;
      disks.push_back(disk_with_tags(entry.at("id").non_empty_string(), model::DiskKind::ship,
                                     shape.value_or(kDefaultShipShape), true, next_id));
      names.insert(disks.back().name);
    }
  if (auto terrain = root.find("terrain"))
    for (std::size_t i = 0; i < terrain->size(); ++i) {
      auto entry = terrain->at(i);
      auto shape = piece_shape(entry, own ? &*own : nullptr);
      if (!shape)
        entry.fail("terrain \"" + entry.at("id").string() +
                   "\" has no shape: give it \"shape\" (its size is the "
                   "scenario's, docs/rules.md open parameter 7) so that its disk can be printed");
      disks.push_back(disk_with_tags(entry.at("id").non_empty_string(),
                                     terrain_disk_kind(entry.string_or("kind", "planet")), *shape, false, next_id));
      names.insert(disks.back().name);
    }

  // The rules' setup, with these shapes: players, cards, the play area and the range template.
  rules::InitialStateOptions setup_options;
  setup_options.poses_from_table = true;
  const model::DiskRegistry provisional(disks);
  rules::Setup setup = rules::load_setup(root, game_file, nullptr, &provisional, setup_options);
  const geom::Vec2 play_area = o.play_area_mm.value_or(setup.data.parameters.play_area_mm);

  // Ships in their team's colour.
  for (const rules::Player& p : setup.initial.players)
    if (!team_colour.count(p.team)) team_colour[p.team] = kTeamColours[team_colour.size() % std::size(kTeamColours)];
  for (model::DiskSpec& d : disks)
    for (const rules::ShipState& s : setup.initial.ships)
      if (s.id == d.name)
        for (const rules::Player& p : setup.initial.players)
          if (p.id == s.controller) d.color_rgb = team_colour[p.team];

  // Torpedoes: any torpedo disk may be any ship's (spec §9), so one set per torpedo shape, as many
  // as the ships carrying it may have on the table at once.
  std::vector<std::pair<geom::Shape, int>> torpedo_shapes;
  for (const rules::ShipState& s : setup.initial.ships) {
    const rules::ShipCard* card = setup.data.ship(s.card);
    if (card == nullptr || !card->torpedo) continue;
    auto same = std::find_if(torpedo_shapes.begin(), torpedo_shapes.end(), [&](const auto& t) {
      return model::shape_to_json(t.first) == model::shape_to_json(card->torpedo->shape);
    });
    if (same == torpedo_shapes.end())
      torpedo_shapes.emplace_back(card->torpedo->shape, o.torpedoes_per_ship);
    else
      same->second += o.torpedoes_per_ship;
  }
  int torpedo_number = 0;
  for (const auto& [shape, count] : torpedo_shapes)
    for (int k = 0; k < count; ++k) {
      const std::string name = name_not_in("torpedo-" + std::to_string(++torpedo_number), names);
      disks.push_back(disk_with_tags(name, model::DiskKind::torpedo, shape, true, next_id));
      disks.back().color_rgb = 0xd02020;
      names.insert(name);
    }
  // The range template (docs/rules.md open parameter 5): "+1 range" lays it twice.
  disks.push_back(disk_with_tags(name_not_in("range", names), model::DiskKind::template_,
                                 setup.data.parameters.range_template, false, next_id));
  disks.back().thickness_mm = 1.0;
  disks.back().color_rgb = 0xf0e070;

  kit.registry = model::DiskRegistry(disks);
  kit.table = model::table_with_markers(play_area, marker_size_for(o.camera, play_area));
  // What the referee will say of this game with this kit, said now.
  referee::load_game_file(game_file, kit.table, kit.registry);

  if (default_ship_shape)
    kit.advice.push_back(
        note(fmt::format("ships without a shape in the game file are the usual disk: {:g} mm across, flats "
                         "{:g} mm apart",
                         std::get<geom::FlattedCircle>(kDefaultShipShape).diameter_mm,
                         std::get<geom::FlattedCircle>(kDefaultShipShape).flat_to_flat_mm),
             "if your ships are other disks, give each its \"shape\" in the game file and make the kit again"));
  kit.advice.push_back(
      ok(fmt::format("{} disks ({} tags, ids {} to {}), corner markers of {:g} mm, calibration board {}", disks.size(),
                     next_id - std::max(o.first_tag_id, model::kCornerMarkerCount),
                     std::max(o.first_tag_id, model::kCornerMarkerCount), next_id - 1,
                     kit.table.corner_markers[0].size_mm, describe_board(o.board))));
  if (o.camera) {
    kit.plan = model::plan_camera(model::straight_above_play_area(*o.camera, kit.table), kit.table, &kit.registry);
    kit.advice.push_back(ok(fmt::format("camera {}: {:.2f} mm per pixel, tags from {:.1f} mm read", kit.plan->camera,
                                        kit.plan->mm_per_px_worst, kit.plan->smallest_tag_mm)));
    for (const model::PlanProblem& p : model::plan_problems(*kit.plan, kit.table, &kit.registry, o.camera))
      kit.advice.push_back(problem(p.problem, p.fix));
  } else {
    kit.advice.push_back(note("no camera given: the tags are not checked against one",
                              "give the camera's resolution, field of view and height to check that every tag reads"));
  }
  return kit;
}

std::vector<cv::Mat> kit_pages(const Kit& kit, const print::SheetOptions& sheet_in, const std::string& next_command,
                               std::vector<print::SheetPlacement>* placements) {
  print::SheetOptions sheet = sheet_in;
  sheet.board = kit.board;
  if (sheet.title.empty()) sheet.title = kit.game_file.filename().string();
  sheet.page_offset = 1;
  sheet.extra_pages = 1;
  // The sheets first (their count is the kit's), then the guide in front of them.
  std::vector<cv::Mat> sheets = print::tag_sheets(kit.registry, &kit.table, sheet, placements);
  if (placements)
    for (print::SheetPlacement& p : *placements) ++p.page;
  print::KitGuide guide;
  guide.title = sheet.title;
  guide.table = kit.table;
  if (kit.camera)
    guide.camera = fmt::format("{}x{} with a {:g} degree field of view, {:.0f} cm above the middle of the play area",
                               kit.camera->width_px, kit.camera->height_px, kit.camera->horizontal_fov_deg,
                               kit.camera->height_mm / 10);
  for (const Advice& a : kit.advice)
    guide.notes.push_back((a.level == Advice::Level::problem ? "PROBLEM: " : "") + a.text +
                          (a.fix.empty() ? "" : " - " + a.fix));
  guide.board = describe_board(kit.board);
  for (const model::DiskSpec& d : kit.registry.disks()) {
    std::string tags;
    for (const model::TagSpec& t : d.tags)
      tags += (tags.empty() ? "" : ", ") + std::to_string(t.id) + " " + std::string(to_string(t.face));
    guide.pieces.push_back(fmt::format("{} ({}): tag{} {}, {:g} mm", d.name, to_string(d.kind),
                                       d.tags.size() > 1 ? "s" : "", tags, d.tags.front().size_mm));
  }
  guide.next_command = next_command;
  std::vector<cv::Mat> pages;
  // The header counts sheets as 2..N+1 (page_offset); the guide is page 1 of N+1.
  print::SheetOptions guide_sheet = sheet;
  pages.push_back(print::kit_guide_page(guide, guide_sheet, 1, static_cast<int>(sheets.size()) + 1));
  for (cv::Mat& s : sheets) pages.push_back(std::move(s));
  return pages;
}

KitFiles write_kit(const Kit& kit, const fs::path& dir, const print::SheetOptions& sheet) {
  KitFiles files{dir / "table.json", dir / "disks.json", dir / "kit.pdf", 0};
  const std::string d = dir.string();
  std::vector<cv::Mat> pages =
      kit_pages(kit, sheet,
                "diskref ui --setup " + d + " --camera 0 (without a screen: diskref setup calibrate " + d +
                    " ..., then setup table and setup disks)");
  io::write_file_atomically(files.table, model::table_to_json(kit.table).dump(2) + "\n");
  io::write_file_atomically(files.disks, model::disk_registry_to_json(kit.registry).dump(2) + "\n");
  print::write_pdf(pages, sheet.dpi, files.pdf);
  files.pages = static_cast<int>(pages.size());
  return files;
}

}  // namespace diskref::setup
