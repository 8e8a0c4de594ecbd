#include "ui/setup_screen.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include "calibration/camera_model.h"
#include "engine/io/atomic_write.h"
#include "engine/model/bounds.h"
#include "print/print_files.h"
#include "setup/disks_check.h"
#include "ui/camera_overlay.h"
#include "ui/gl_texture.h"
#include "ui/imgui_draw.h"

namespace diskref::ui {
namespace {

using setup::Advice;
using setup::Step;

const Rgb kProblem{255, 110, 90};
const Rgb kNote{255, 200, 90};
const Rgb kOk{120, 220, 140};
const Rgb kMuted{170, 176, 186};
constexpr double kStepsBarPx = 46;
constexpr double kPanelShare = 0.4;

int step_number(Step s) {
  return static_cast<int>(s) + 1;
}

// The kit's preview: its first pages at a screen's resolution.
constexpr double kPreviewDpi = 72;

// A table with markers for a play area as the kit makes them (40 mm markers for the drawing).
model::TableSpec table_for(Vec2 area) {
  return model::table_with_markers(area, 40);
}

}  // namespace

SetupLayout compute_setup_layout(Vec2 window) {
  const double w = std::floor(window.x), h = std::floor(window.y);
  const double panel_w = std::round(w * kPanelShare);
  return {{0, 0, w, kStepsBarPx},
          {0, kStepsBarPx, w - panel_w, h - kStepsBarPx},
          {w - panel_w, kStepsBarPx, panel_w, h - kStepsBarPx}};
}

SetupScreen::SetupScreen(setup::SetupState state, SetupWorker* worker, std::string camera_hint)
    : state_(std::move(state)), worker_(worker), camera_hint_(std::move(camera_hint)) {
  const Vec2 area = state_.play_area_mm ? *state_.play_area_mm : setup::game_play_area(state_.game_file);
  play_w_ = area.x;
  play_h_ = area.y;
  if (state_.camera) {
    res_w_ = state_.camera->width_px;
    res_h_ = state_.camera->height_px;
    fov_deg_ = state_.camera->horizontal_fov_deg;
    height_mm_ = state_.camera->height_mm;
  } else if (worker_ != nullptr && worker_->live()) {
    res_w_ = worker_->frame_size().width;  // the camera says its own resolution
    res_h_ = worker_->frame_size().height;
  }
  enter(state_.next_step());
}

SetupScreen::~SetupScreen() {
  for (unsigned t : kit_textures_) delete_texture(t);
  delete_texture(texture_);
}

model::TableSpec SetupScreen::planned_table() const {
  return table_for({play_w_, play_h_});
}
model::PinholeCamera SetupScreen::planned_camera() const {
  return {res_w_, res_h_, fov_deg_, height_mm_};
}

double SetupScreen::source_t() const {
  return shown_ ? shown_->t : 0.0;
}
long long SetupScreen::source_frame() const {
  return shown_ ? shown_->frame : -1;
}
bool SetupScreen::source_at_end() const {
  return worker_ == nullptr || (shown_ && shown_->at_end);
}
bool SetupScreen::source_held(double t) const {
  return shown_ && shown_->held && shown_->held_at >= t - 1e-9;
}

void SetupScreen::enter(Step step) {
  step_ = step;
  notes_.clear();
  if (worker_ == nullptr) return;
  try {
    switch (step) {
      case Step::calibration:
        worker_->set_stage(make_calibration_stage(setup::parse_board_text(state_.board)));
        break;
      case Step::table: {
        std::optional<calib::CameraModel> lens;
        if (state_.is_done(Step::calibration)) lens = calib::load_camera_model(state_.camera_file());
        worker_->set_stage(make_table_stage(model::load_table(state_.table_file()), lens,
                                            model::load_disk_registry(state_.disks_file())));
        break;
      }
      case Step::disks: {
        std::optional<calib::CameraModel> lens;
        if (state_.is_done(Step::calibration)) lens = calib::load_camera_model(state_.camera_file());
        worker_->set_stage(make_disks_stage(model::load_table(state_.table_file()),
                                            model::load_disk_registry(state_.disks_file()), lens));
        break;
      }
      default:
        worker_->set_stage(nullptr);
    }
  } catch (const std::exception& e) {
    note(std::string("cannot start this step: ") + e.what());
    worker_->set_stage(nullptr);
  }
}

std::vector<Advice> SetupScreen::settings_advice() const {
  std::vector<Advice> out;
  namespace b = model::bounds;
  if (step_ == Step::play_area) {
    if (!b::within(play_w_, b::kMinPlayAreaMm, b::kMaxPlayAreaMm) ||
        !b::within(play_h_, b::kMinPlayAreaMm, b::kMaxPlayAreaMm)) {
      out.push_back(setup::problem("a play area is 10 mm to 20 m a side", "type its width and height in millimetres"));
      return out;
    }
    const Vec2 game = setup::game_play_area(state_.game_file);
    if (std::fabs(game.x - play_w_) > 0.05 || std::fabs(game.y - play_h_) > 0.05)
      out.push_back(setup::note(fmt::format("the game's own play area is {:g} x {:g} mm", game.x, game.y),
                                "the referee uses the size you set here; the rules' measures stay the game's"));
    out.push_back(
        setup::ok(fmt::format("play area {:g} x {:g} mm ({:.1f} x {:.1f} in); corner markers just outside its corners",
                              play_w_, play_h_, play_w_ / 25.4, play_h_ / 25.4)));
    return out;
  }
  // The camera: the planner, for this camera straight above the middle (with the kit's disks once known).
  const model::TableSpec table = planned_table();
  std::optional<model::DiskRegistry> registry;
  if (state_.is_done(Step::kit)) registry = model::load_disk_registry(state_.disks_file());
  const model::PinholeCamera camera = planned_camera();
  const model::CameraPlan plan =
      model::plan_camera(model::straight_above_play_area(camera, table), table, registry ? &*registry : nullptr);
  const model::HeightAdvice heights = model::advise_height(camera, table, registry ? &*registry : nullptr);
  out.push_back(
      setup::ok(fmt::format("{:.2f} mm per pixel over the play area; a tag reads from {:.1f} mm (a ship's takes about "
                            "24 mm, a 1 in torpedo's 9.5 mm)",
                            plan.mm_per_px_worst, plan.smallest_tag_mm)));
  out.push_back(
      setup::ok(fmt::format("everything in view from {:.0f} mm up", std::ceil(heights.lowest_seeing_all_mm))));
  for (const model::PlanProblem& p : model::plan_problems(plan, table, registry ? &*registry : nullptr, camera))
    out.push_back(setup::problem(p.problem, p.fix));
  return out;
}

bool SetupScreen::can_go_next(std::string& why) const {
  switch (step_) {
    case Step::play_area:
    case Step::camera:
      if (has_problem(settings_advice()) && step_ == Step::play_area) {
        why = "the play area's size is not one";
        return false;
      }
      return true;
    case Step::kit:
      if (kit_job_.valid()) {
        why = "the kit is being made";
        return false;
      }
      if (!state_.is_done(Step::kit)) {
        why = "make the kit first";
        return false;
      }
      return true;
    case Step::calibration:
      if (!shown_ || !shown_->view || !shown_->view->calibration || !shown_->busy.empty()) {
        why = "calibrate first (the button appears once views are kept)";
        return false;
      }
      return true;
    case Step::table:
      if (!shown_ || !shown_->view || !shown_->view->ready) {
        why = "the table is not found with its four markers in place yet";
        return false;
      }
      return true;
    case Step::disks:
      if (!shown_ || !shown_->view || shown_->view->step != Step::disks || !shown_->view->ready) {
        why = "not every disk is seen and read yet";
        return false;
      }
      return true;
    case Step::done:
      why = "this is the last step";
      return false;
  }
  return false;
}

void SetupScreen::save_play_area() {
  const Vec2 area{play_w_, play_h_};
  if (!state_.play_area_mm || std::fabs(state_.play_area_mm->x - area.x) > 1e-6 ||
      std::fabs(state_.play_area_mm->y - area.y) > 1e-6)
    state_.undo_from(Step::play_area);  // the kit and all after it rest on it
  state_.play_area_mm = area;
  state_.mark_done(Step::play_area, {{"play_area_mm", {area.x, area.y}}});
  setup::save_setup(state_);
}

void SetupScreen::save_camera() {
  const model::PinholeCamera c = planned_camera();
  if (!state_.camera || state_.camera->width_px != c.width_px || state_.camera->height_px != c.height_px ||
      std::fabs(state_.camera->horizontal_fov_deg - c.horizontal_fov_deg) > 1e-6 ||
      std::fabs(state_.camera->height_mm - c.height_mm) > 1e-6)
    state_.undo_from(Step::camera);
  state_.camera = c;
  const model::TableSpec table = planned_table();
  const model::CameraPlan plan = model::plan_camera(model::straight_above_play_area(c, table), table, nullptr);
  state_.mark_done(Step::camera, {{"mm_per_px", plan.mm_per_px_worst}, {"smallest_tag_mm", plan.smallest_tag_mm}});
  setup::save_setup(state_);
}

void SetupScreen::make_kit() {
  if (kit_job_.valid()) return;
  setup::KitOptions o;
  o.play_area_mm = Vec2{play_w_, play_h_};
  o.camera = planned_camera();
  print::SheetOptions sheet;
  if (state_.page == "a3")
    sheet.page_width_mm = 297, sheet.page_height_mm = 420;
  else if (state_.page == "letter")
    sheet.page_width_mm = 215.9, sheet.page_height_mm = 279.4;
  kit_job_ = std::async(std::launch::async,
                        [o, sheet, board = state_.board, game = state_.game_file, dir = state_.dir]() mutable {
                          KitJob job;
                          try {
                            o.board = setup::parse_board_text(board);
                            job.kit = setup::make_kit(game, o);
                            job.files = setup::write_kit(*job.kit, dir, sheet);
                            // The first pages, small, for the screen: the guide, the first page with a disk on it, and
                            // the last page (the templates, or the board).
                            sheet.dpi = kPreviewDpi;
                            std::vector<print::SheetPlacement> placed;
                            std::vector<cv::Mat> pages = setup::kit_pages(*job.kit, sheet, "", &placed);
                            std::vector<std::size_t> shown{0};
                            for (const print::SheetPlacement& p : placed)
                              if (!p.inside_labels.empty()) {
                                shown.push_back(p.page);
                                break;
                              }
                            if (pages.size() > 1 && shown.back() != pages.size() - 1) shown.push_back(pages.size() - 1);
                            for (std::size_t i : shown) job.preview.push_back(pages[i]);
                          } catch (const std::exception& e) {
                            job.error = e.what();
                          }
                          return job;
                        });
}

void SetupScreen::poll_kit() {
  if (!kit_job_.valid() || kit_job_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  KitJob job = kit_job_.get();
  if (!job.error.empty()) {
    kit_advice_ = {setup::problem("the kit could not be made: " + job.error,
                                  "put right what this names, then make the kit again")};
    return;
  }
  for (unsigned t : kit_textures_) delete_texture(t);
  kit_textures_.clear();
  kit_texture_sizes_.clear();
  for (const cv::Mat& page : job.preview) {
    kit_textures_.push_back(upload_bgr_texture(0, page));
    kit_texture_sizes_.push_back({static_cast<double>(page.cols), static_cast<double>(page.rows)});
  }
  kit_ = std::move(job.kit);
  kit_advice_ = kit_->advice;
  state_.undo_from(Step::kit);
  state_.mark_done(Step::kit, {{"disks", kit_->registry.disks().size()},
                               {"pages", job.files.pages},
                               {"marker_mm", kit_->table.corner_markers[0].size_mm}});
  setup::save_setup(state_);
  note(fmt::format("wrote {} ({} pages), {} and {}", job.files.pdf.string(), job.files.pages, job.files.table.string(),
                   job.files.disks.string()));
}

void SetupScreen::apply_offsets() {
  if (!shown_ || !shown_->view || shown_->view->offsets.empty()) return;
  const model::DiskRegistry registry = model::load_disk_registry(state_.disks_file());
  io::write_file_atomically(
      state_.disks_file(),
      model::disk_registry_to_json(setup::with_offsets(registry, shown_->view->offsets)).dump(2) + "\n");
  for (const auto& [id, c] : shown_->view->offsets)
    note(fmt::format("tag {}: heading offset corrected by {:+.1f} degrees", id, c));
  enter(Step::disks);  // the check starts again with the corrected registry
}

void SetupScreen::go_next() {
  switch (step_) {
    case Step::play_area:
      save_play_area();
      break;
    case Step::camera:
      save_camera();
      break;
    case Step::kit:
      break;
    case Step::calibration: {
      const calib::LensCalibration& c = *shown_->view->calibration;
      calib::save_camera_model(c.camera, state_.camera_file());
      state_.undo_from(Step::calibration);
      state_.mark_done(Step::calibration, {{"rms_px", c.rms_px},
                                           {"views", c.views.size()},
                                           {"image_size", {c.camera.image_size.width, c.camera.image_size.height}}});
      setup::save_setup(state_);
      note("wrote " + state_.camera_file().string());
      break;
    }
    case Step::table: {
      const calib::CameraPose& pose = *shown_->view->table_pose;
      calib::save_camera_pose(pose, state_.table_pose_file());
      double worst = 0;
      for (const auto& d : pose.distance_checks) worst = std::max(worst, std::fabs(d.measured_mm - d.expected_mm));
      state_.undo_from(Step::table);
      state_.mark_done(Step::table, {{"fit_px", pose.reprojection_rms_px},
                                     {"fit_mm", pose.reprojection_rms_mm},
                                     {"markers", pose.markers_used},
                                     {"worst_distance_mm", worst}});
      setup::save_setup(state_);
      note("wrote " + state_.table_pose_file().string());
      break;
    }
    case Step::disks: {
      int seen = 0;
      for (std::size_t i = 1; i < shown_->view->table.size(); ++i) seen += shown_->view->table[i][2] != "NOT SEEN";
      state_.mark_done(Step::disks, {{"seen", seen}, {"disks", shown_->view->table.size() - 1}});
      setup::save_setup(state_);
      break;
    }
    case Step::done:
      return;
  }
  enter(state_.next_step() == Step::done ? Step::done : static_cast<Step>(static_cast<int>(step_) + 1));
}

void SetupScreen::go_back() {
  if (step_ == Step::play_area) return;
  enter(static_cast<Step>(static_cast<int>(step_) - 1));
}

bool SetupScreen::try_action(const SetupAction& a, std::string& why) {
  if (a.what == "set_play_area") {
    if (step_ != Step::play_area) return why = "not on the play area step", false;
    play_w_ = a.args.at("w").get<double>();
    play_h_ = a.args.at("h").get<double>();
    return true;
  }
  if (a.what == "set_camera") {
    if (step_ != Step::camera) return why = "not on the camera step", false;
    res_w_ = a.args.at("resolution").at(0).get<int>();
    res_h_ = a.args.at("resolution").at(1).get<int>();
    fov_deg_ = a.args.at("fov").get<double>();
    height_mm_ = a.args.at("height").get<double>();
    return true;
  }
  if (a.what == "make_kit") {
    if (step_ != Step::kit) return why = "not on the kit step", false;
    if (!kit_action_started_) {
      make_kit();
      kit_action_started_ = true;
    }
    if (kit_job_.valid()) return why = "making the kit", false;
    kit_action_started_ = false;
    return true;
  }
  if (a.what == "calibrate") {
    if (step_ != Step::calibration || worker_ == nullptr)
      return why = "not on the calibration step with a camera", false;
    worker_->post("calibrating", calibrate_now);
    return true;
  }
  if (a.what == "next") {
    if (!can_go_next(why)) return false;
    go_next();
    return true;
  }
  if (a.what == "back") {
    go_back();
    return true;
  }
  if (a.what == "apply_offsets") {
    if (!shown_ || !shown_->view || shown_->view->offsets.empty()) return why = "no heading offset to correct", false;
    apply_offsets();
    return true;
  }
  if (a.what == "start") {
    if (step_ != Step::done) return why = "the setup is not finished", false;
    start_ = true;
    return true;
  }
  if (a.what == "quit") {
    quit_ = true;
    return true;
  }
  return why = "the screenshot is taken by the app", false;
}

// --- Drawing -------------------------------------------------------------------------------------

void SetupScreen::draw(Vec2 window) {
  if (worker_ != nullptr) {
    if (auto p = worker_->latest()) {
      shown_ = p;
      if (p->sequence != texture_sequence_ && !p->display.empty()) {
        texture_ = upload_bgr_texture(texture_, p->display);
        texture_sequence_ = p->sequence;
      }
    }
  }
  poll_kit();
  const SetupLayout l = compute_setup_layout(window);
  picture_drawn_.reset();
  draw_steps_bar(l.steps);
  draw_view(l.view);
  draw_panel(l.panel);
}

void SetupScreen::draw_steps_bar(const ScreenRect& rect) {
  begin_panel("##setup_steps", rect, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  ImGui::SetCursorPosY(12);
  for (Step s : {Step::play_area, Step::camera, Step::kit, Step::calibration, Step::table, Step::disks, Step::done}) {
    const bool done = s != Step::done ? state_.is_done(s) : state_.next_step() == Step::done;
    const std::string label =
        s == Step::done ? std::string(setup::step_title(s))
                        : fmt::format("{} {}{}", step_number(s), setup::step_title(s), done ? "  (done)" : "");
    const bool here = s == step_;
    ImGui::PushStyleColor(ImGuiCol_Button, here   ? ImVec4(0.20f, 0.42f, 0.75f, 1)
                                           : done ? ImVec4(0.16f, 0.32f, 0.22f, 1)
                                                  : ImVec4(0.18f, 0.19f, 0.22f, 1));
    // A step is open once every step before it is done (or it is done itself).
    bool open = true;
    for (Step before : setup::kAllSteps)
      if (static_cast<int>(before) < static_cast<int>(s)) open = open && state_.is_done(before);
    if (!open) ImGui::BeginDisabled();
    if (ImGui::Button((label + "##step" + std::to_string(step_number(s))).c_str())) enter(s);
    if (!open) ImGui::EndDisabled();
    ImGui::PopStyleColor();
    ImGui::SameLine();
  }
  ImGui::TextColored(im_color4(kMuted), "   %s", state_.dir.c_str());
  ImGui::End();
}

void SetupScreen::draw_view(const ScreenRect& rect) {
  const char* title = step_ == Step::play_area || step_ == Step::camera ? "The table seen from above###setup_view"
                      : step_ == Step::kit                              ? "The kit to print###setup_view"
                      : step_ == Step::done                             ? "Ready###setup_view"
                                                                        : "Camera###setup_view";
  begin_panel(title, rect, ImGuiWindowFlags_NoScrollbar);
  const ImVec2 origin = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  const ScreenRect area{origin.x, origin.y, avail.x, avail.y};
  switch (step_) {
    case Step::play_area:
    case Step::camera:
      draw_plan_drawing(area);
      break;
    case Step::kit:
      draw_kit_pages(area);
      break;
    case Step::done:
      draw_summary();
      break;
    default:
      draw_picture(area);
      break;
  }
  ImGui::End();
}

void SetupScreen::draw_plan_drawing(const ScreenRect& area_in) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ScreenRect area = area_in.inset(20);
  const model::TableSpec table = planned_table();
  std::optional<model::CameraPlan> plan;
  if (step_ == Step::camera)
    plan = model::plan_camera(model::straight_above_play_area(planned_camera(), table), table, nullptr);
  Vec2 lo{0, 0}, hi = table.play_area_mm;
  auto grow = [&](Vec2 p) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)}, hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
  };
  for (const model::CornerMarker& m : table.corner_markers)
    for (Vec2 c : m.corners_mm()) grow(c);
  if (plan)
    for (Vec2 p : plan->footprint_mm) grow(p);
  const TableViewTransform v = fit_table(lo - Vec2{30, 30}, hi + Vec2{30, 30}, area);
  auto s = [&](Vec2 p) { return v.screen_from_table(p); };
  dl->AddRectFilled(im(s({0, table.play_area_mm.y})), im(s({table.play_area_mm.x, 0})), im_color(colors::kTableCloth));
  dl->AddRect(im(s({0, table.play_area_mm.y})), im(s({table.play_area_mm.x, 0})), im_color(colors::kPlayArea), 0, 0, 2);
  for (const model::CornerMarker& m : table.corner_markers) {
    const bool out = plan && std::find(plan->markers_out_of_view.begin(), plan->markers_out_of_view.end(), m.id) !=
                                 plan->markers_out_of_view.end();
    std::vector<Vec2> q;
    for (Vec2 c : m.corners_mm()) q.push_back(s(c));
    fill_polygon(dl, q, out ? im_color(kProblem) : IM_COL32(220, 220, 220, 255));
    draw_label(dl, s(m.center_mm) + Vec2{12, -8}, im_color(out ? kProblem : colors::kPlayArea),
               "marker " + std::to_string(m.id));
  }
  draw_label(dl, s({table.play_area_mm.x * 0.04, table.play_area_mm.y * 0.96}), im_color(colors::kPlayArea),
             fmt::format("play area {:g} x {:g} mm", table.play_area_mm.x, table.play_area_mm.y));
  // The near edge, and +x along it from marker 0 to marker 1.
  const double below = table.corner_markers[0].center_mm.y - table.corner_markers[0].size_mm;
  draw_arrow(dl, s({0.3 * table.play_area_mm.x, below}), s({0.55 * table.play_area_mm.x, below}), im_color(kMuted), 2);
  draw_label(dl, s({0.57 * table.play_area_mm.x, below}) - Vec2{0, 8}, im_color(kMuted), "+x: the near edge");
  if (plan && !plan->footprint_mm.empty()) {
    std::vector<Vec2> f;
    for (Vec2 p : plan->footprint_mm) f.push_back(s(p));
    draw_polygon(dl, f, im_color(colors::kMoving), 2.5f);
    const Vec2 mid = s(table.play_area_mm / 2.0);
    dl->AddCircleFilled(im(mid), 6, im_color(colors::kMoving));
    draw_label(dl, mid + Vec2{10, 4}, im_color(colors::kMoving),
               fmt::format("camera {:.0f} mm up: the blue frame is what it sees", height_mm_));
  }
}

void SetupScreen::draw_kit_pages(const ScreenRect& area) {
  if (kit_textures_.empty()) {
    ImGui::TextWrapped("Make the kit (on the right): its pages appear here, and are written to %s.",
                       state_.kit_file().c_str());
    if (state_.is_done(Step::kit))
      ImGui::TextWrapped("The kit was made before: %s. Make it again to see it here.", state_.kit_file().c_str());
    return;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const double gap = 10, w = (area.w - gap * static_cast<double>(kit_textures_.size() + 1)) /
                             static_cast<double>(kit_textures_.size());
  for (std::size_t i = 0; i < kit_textures_.size(); ++i) {
    const ScreenRect cell{area.x + gap + static_cast<double>(i) * (w + gap), area.y + gap, w, area.h - 2 * gap};
    const ImageViewTransform t = fit_image(kit_texture_sizes_[i], cell);
    const ScreenRect r = t.image_rect();
    dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(kit_textures_[i])), im(r.min()),
                 im(r.max()));
  }
}

void SetupScreen::draw_picture(const ScreenRect& area) {
  if (worker_ == nullptr) {
    ImGui::TextWrapped("No camera: this step needs the camera's picture. Start the setup with the camera: %s",
                       camera_hint_.c_str());
    return;
  }
  if (!shown_ || shown_->display.empty()) {
    ImGui::TextUnformatted(shown_ && shown_->at_end ? "The video has ended." : "Waiting for the camera's picture...");
    return;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Vec2 full{static_cast<double>(shown_->image_size.width), static_cast<double>(shown_->image_size.height)};
  const StageView* stage_view = shown_->view && shown_->view->step == step_ ? &*shown_->view : nullptr;
  // The table, once found, fills the view; before that the whole picture.
  const ImageViewTransform view =
      stage_view && stage_view->focus_px
          ? fit_image_region(full, stage_view->focus_px->first, stage_view->focus_px->second, area)
          : fit_image(full, area);
  const ScreenRect img = view.image_rect();
  picture_drawn_ = view;
  worker_->set_display_size(static_cast<int>(std::min(img.w, 2 * area.w)),
                            static_cast<int>(std::min(img.h, 2 * area.h)));
  dl->PushClipRect(im(area.min()), im(area.max()), true);
  dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(texture_)), im(img.min()), im(img.max()));
  if (stage_view == nullptr) {
    dl->PopClipRect();
    return;
  }
  const StageView& sv = *stage_view;
  // The calibration's coverage map: cells where no corner has been kept are tinted, the others
  // green, the more corners the greener.
  if (!sv.coverage.empty()) {
    const double cw = img.w / sv.coverage.cols, ch = img.h / sv.coverage.rows;
    for (int r = 0; r < sv.coverage.rows; ++r)
      for (int c = 0; c < sv.coverage.cols; ++c) {
        const int n = sv.coverage.at<int>(r, c);
        const ImU32 fill = n == 0 ? IM_COL32(230, 60, 50, 60) : IM_COL32(40, 200, 90, std::min(110, 25 + 3 * n));
        const Vec2 a{img.x + c * cw, img.y + r * ch};
        dl->AddRectFilled(im(a), im(a + Vec2{cw, ch}), fill);
        dl->AddRect(im(a), im(a + Vec2{cw, ch}), IM_COL32(255, 255, 255, 40));
      }
  }
  for (const OverlayShape& shape : sv.shapes) {
    std::vector<Vec2> pts;
    for (Vec2 p : shape.points_px) pts.push_back(view.screen_from_image(p));
    if (shape.dashed)
      draw_dashed(dl, pts, im_color(shape.color), shape.width, 6.0f);
    else
      draw_polygon(dl, pts, im_color(shape.color), shape.width, shape.closed);
  }
  for (const OverlayLabel& l : sv.labels) draw_label(dl, view.screen_from_image(l.at_px), im_color(l.color), l.text);
  const std::string status = fmt::format("{}   t {:.2f} s{}", worker_->description(), shown_->t,
                                         shown_->busy.empty() ? "" : "   " + shown_->busy + "...");
  draw_label(dl, {area.x + 8, std::min(img.y + img.h, area.y + area.h) - 22}, IM_COL32(235, 235, 235, 255), status);
  dl->PopClipRect();
}

void SetupScreen::draw_advice(const std::vector<Advice>& advice) {
  for (const Advice& a : advice) {
    const Rgb c = a.level == Advice::Level::problem ? kProblem : a.level == Advice::Level::note ? kNote : kOk;
    const char* mark = a.level == Advice::Level::problem ? "PROBLEM: " : a.level == Advice::Level::note ? "" : "ok: ";
    ImGui::PushStyleColor(ImGuiCol_Text, im_color4(c));
    ImGui::TextWrapped("%s%s", mark, a.text.c_str());
    ImGui::PopStyleColor();
    if (!a.fix.empty()) {
      ImGui::Indent(14);
      ImGui::TextWrapped("-> %s", a.fix.c_str());
      ImGui::Unindent(14);
    }
  }
}

void SetupScreen::draw_settings() {
  if (step_ == Step::play_area) {
    ImGui::SetNextItemWidth(120);
    ImGui::InputDouble("width (mm, along marker 0 to 1)", &play_w_, 10, 100, "%.1f");
    ImGui::SetNextItemWidth(120);
    ImGui::InputDouble("depth (mm, along marker 0 to 3)", &play_h_, 10, 100, "%.1f");
    if (ImGui::Button("3 x 3 ft")) play_w_ = play_h_ = 914.4;
    ImGui::SameLine();
    if (ImGui::Button("4 x 3 ft")) play_w_ = 1219.2, play_h_ = 914.4;
    ImGui::SameLine();
    if (ImGui::Button("60 x 60 cm")) play_w_ = play_h_ = 600;
    ImGui::SameLine();
    if (ImGui::Button("the game's")) {
      const Vec2 g = setup::game_play_area(state_.game_file);
      play_w_ = g.x;
      play_h_ = g.y;
    }
  } else if (step_ == Step::camera) {
    ImGui::SetNextItemWidth(90);
    ImGui::InputInt("##res_w", &res_w_, 0);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    ImGui::InputInt("resolution (px)", &res_h_, 0);
    res_w_ = std::clamp(res_w_, model::bounds::kMinImageSidePx, model::bounds::kMaxImageSidePx);
    res_h_ = std::clamp(res_h_, model::bounds::kMinImageSidePx, model::bounds::kMaxImageSidePx);
    if (ImGui::Button("720p")) res_w_ = 1280, res_h_ = 720;
    ImGui::SameLine();
    if (ImGui::Button("1080p")) res_w_ = 1920, res_h_ = 1080;
    ImGui::SameLine();
    if (ImGui::Button("4K")) res_w_ = 3840, res_h_ = 2160;
    if (worker_ != nullptr && worker_->live()) {
      ImGui::SameLine();
      if (ImGui::Button("this camera's")) res_w_ = worker_->frame_size().width, res_h_ = worker_->frame_size().height;
    }
    ImGui::SetNextItemWidth(200);
    const double fov_lo = 30, fov_hi = 120, height_lo = 300, height_hi = 2500;
    ImGui::SliderScalar("horizontal field of view (deg)", ImGuiDataType_Double, &fov_deg_, &fov_lo, &fov_hi, "%.0f");
    ImGui::SetNextItemWidth(200);
    ImGui::SliderScalar("height above the table (mm)", ImGuiDataType_Double, &height_mm_, &height_lo, &height_hi,
                        "%.0f");
    ImGui::PushStyleColor(ImGuiCol_Text, im_color4(kMuted));
    ImGui::TextWrapped(
        "A webcam's data sheet often gives the diagonal field of view: 78 degrees diagonal is about 70 across.");
    ImGui::PopStyleColor();
  } else if (step_ == Step::kit) {
    ImGui::TextWrapped(
        "For %s: every ship (both faces), the torpedoes, terrain, the range template, the corner markers and "
        "the calibration board (%s), on %s paper.",
        state_.game_file.filename().c_str(), state_.board.c_str(), state_.page.c_str());
    if (kit_job_.valid()) {
      ImGui::TextColored(im_color4(kNote), "Making the kit: writing %s ...", state_.kit_file().c_str());
    } else if (ImGui::Button(state_.is_done(Step::kit) ? "Make the kit again" : "Make the kit")) {
      make_kit();
    }
    if (state_.is_done(Step::kit))
      ImGui::TextWrapped(
          "Print %s at 100 %% (no fit-to-page), check the 100 mm bar, cut, fold and glue as its first page "
          "says, lay the markers at the corners and mount the camera. Then go on.",
          state_.kit_file().c_str());
  } else if (step_ == Step::calibration && worker_ != nullptr && shown_ && shown_->view) {
    const bool busy = !shown_->busy.empty();
    if (busy) ImGui::BeginDisabled();
    if (ImGui::Button(shown_->view->ready ? "Calibrate" : "Calibrate now (fewer views)"))
      worker_->post("calibrating", calibrate_now);
    ImGui::SameLine();
    if (ImGui::Button("Start again")) worker_->post("starting again", restart_calibration);
    if (busy) ImGui::EndDisabled();
  } else if (step_ == Step::disks && shown_ && shown_->view && !shown_->view->offsets.empty()) {
    if (ImGui::Button("Correct the down faces' heading offsets")) apply_offsets();
  } else if (step_ == Step::done) {
    ImGui::TextWrapped(
        "Start the table: the companion screen opens on this setup's files, refereeing %s. Lay the game "
        "out as it begins; the referee reads every move from the table.",
        state_.game_file.filename().c_str());
  }
}

void SetupScreen::draw_summary() {
  ImGui::TextWrapped("The table is set up. Everything is saved in %s; the next run of diskref ui --setup starts here.",
                     state_.dir.c_str());
  ImGui::Spacing();
  for (Step s : setup::kAllSteps) {
    const auto it = state_.done.find(std::string(setup::step_key(s)));
    ImGui::TextColored(im_color4(it != state_.done.end() ? kOk : kProblem), "%d %s", step_number(s),
                       std::string(setup::step_title(s)).c_str());
    ImGui::SameLine(150);
    ImGui::TextWrapped("%s", it != state_.done.end() ? setup::step_summary(s, it->second).c_str() : "not done");
  }
  ImGui::Spacing();
  ImGui::TextWrapped("To play: diskref ui --camera 0 --table %s --disks %s --calib %s --game %s",
                     state_.table_file().c_str(), state_.disks_file().c_str(), state_.camera_file().c_str(),
                     state_.game_file.c_str());
}

void SetupScreen::draw_panel(const ScreenRect& rect) {
  const std::string title =
      step_ == Step::done ? "Ready###setup_panel"
                          : fmt::format("Step {} of 6: {}###setup_panel", step_number(step_), setup::step_title(step_));
  begin_panel(title.c_str(), rect);
  // What is this step for: always at the top, in a sentence or two.
  ImGui::PushStyleColor(ImGuiCol_Text, im_color4(kMuted));
  ImGui::TextWrapped("%s", std::string(setup::step_purpose(step_)).c_str());
  ImGui::PopStyleColor();
  ImGui::Separator();
  // The step's content scrolls above Back / Next, which stay at the bottom.
  ImGui::BeginChild("##step_content", ImVec2(0, -ImGui::GetFrameHeightWithSpacing() - 6), false);
  draw_settings();
  ImGui::Separator();
  // What the step found.
  const std::vector<Advice> advice = current_advice();
  const StageView* sv = shown_ && shown_->view && shown_->view->step == step_ ? &*shown_->view : nullptr;
  if (sv != nullptr && !sv->figures.empty() && ImGui::BeginTable("figures", 2, ImGuiTableFlags_SizingStretchProp)) {
    for (const auto& [name, value] : sv->figures) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextColored(im_color4(kMuted), "%s", name.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(value.c_str());
    }
    ImGui::EndTable();
  }
  draw_advice(advice);
  if (sv != nullptr && sv->table.size() > 1 &&
      ImGui::BeginTable("rows", static_cast<int>(sv->table.front().size()),
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    for (const std::string& h : sv->table.front()) ImGui::TableSetupColumn(h.c_str());
    ImGui::TableHeadersRow();
    for (std::size_t r = 1; r < sv->table.size(); ++r) {
      ImGui::TableNextRow();
      for (std::size_t c = 0; c < sv->table[r].size(); ++c) {
        ImGui::TableSetColumnIndex(static_cast<int>(c));
        const bool bad = sv->table[r][c] == "NOT SEEN";
        if (bad)
          ImGui::TextColored(im_color4(kProblem), "%s", sv->table[r][c].c_str());
        else
          ImGui::TextUnformatted(sv->table[r][c].c_str());
      }
    }
    ImGui::EndTable();
  }
  if (sv != nullptr && !sv->log.empty()) {
    ImGui::TextColored(im_color4(kMuted), "views as they came (a view counts once it is still, sharp and new):");
    for (const std::string& line : sv->log) ImGui::TextUnformatted(line.c_str());
  }
  for (const std::string& n : notes_) {
    ImGui::PushStyleColor(ImGuiCol_Text, im_color4(kMuted));
    ImGui::TextWrapped("%s", n.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::EndChild();
  ImGui::Separator();
  if (step_ != Step::play_area) {
    if (ImGui::Button("< Back")) go_back();
    ImGui::SameLine();
  }
  std::string why;
  const bool can = can_go_next(why);
  if (step_ == Step::done) {
    if (ImGui::Button("Start the table >")) start_ = true;
  } else {
    if (!can) ImGui::BeginDisabled();
    if (ImGui::Button(step_ == Step::disks ? "Finish >" : "Next >")) go_next();
    if (!can) ImGui::EndDisabled();
    if (!can) {
      ImGui::SameLine();
      ImGui::TextColored(im_color4(kMuted), "%s", why.c_str());
    }
  }
  ImGui::End();
}

std::vector<Advice> SetupScreen::current_advice() const {
  if (step_ == Step::play_area || step_ == Step::camera) return settings_advice();
  if (step_ == Step::kit) return kit_advice_;
  if (shown_ && shown_->view && shown_->view->step == step_) return shown_->view->advice;
  if (step_ != Step::done && worker_ == nullptr)
    return {setup::problem("no camera", "start the setup with the camera: " + camera_hint_)};
  return {};
}

nlohmann::json SetupScreen::describe() const {
  nlohmann::json j;
  j["step"] = setup::step_key(step_);
  j["done"] = nlohmann::json::array();
  for (const auto& [key, found] : state_.done) j["done"].push_back(key);
  j["t"] = source_t();
  j["notes"] = notes_;
  auto advice_json = [](const std::vector<Advice>& advice) {
    nlohmann::json out = nlohmann::json::array();
    for (const Advice& a : advice)
      out.push_back({{"level", a.level == Advice::Level::problem ? "problem"
                               : a.level == Advice::Level::note  ? "note"
                                                                 : "ok"},
                     {"text", a.text},
                     {"fix", a.fix}});
    return out;
  };
  j["advice"] = advice_json(current_advice());
  if (picture_drawn_) {
    const ScreenRect r = picture_drawn_->image_rect();
    j["picture"] = {{"image_rect", {r.x, r.y, r.w, r.h}},
                    {"scale", picture_drawn_->scale},
                    {"image_size", {picture_drawn_->image_size.x, picture_drawn_->image_size.y}}};
  }
  if (shown_ && shown_->view && shown_->view->step == step_) {
    const StageView& v = *shown_->view;
    j["ready"] = v.ready;
    j["frame"] = v.frame;
    for (const auto& [name, value] : v.figures) j["figures"][name] = value;
    j["table"] = v.table;
    j["log"] = v.log;
    // The words written over the picture ("show the board here", a view's verdict).
    j["labels"] = nlohmann::json::array();
    for (const OverlayLabel& l : v.labels) j["labels"].push_back(l.text);
    if (v.calibration) j["rms_px"] = v.calibration->rms_px;
  }
  return j;
}

}  // namespace diskref::ui
