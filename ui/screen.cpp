#include "ui/screen.h"

#include <fmt/format.h>

namespace diskref::ui {

std::vector<ScreenRect> rects_of(const std::vector<NamedRect>& named) {
  std::vector<ScreenRect> out;
  out.reserve(named.size());
  for (const NamedRect& n : named) out.push_back(n.rect);
  return out;
}

std::vector<RangeTemplateChoice> range_template_choices(const model::DiskRegistry& registry,
                                                        const geom::Rect& rules_template) {
  std::vector<RangeTemplateChoice> out;
  out.push_back(
      {fmt::format("rules {:.1f} x {:.1f} mm", rules_template.length_mm, rules_template.width_mm), rules_template});
  for (const model::DiskSpec& d : registry.disks()) {
    if (const auto* r = std::get_if<geom::Rect>(&d.shape)) {
      out.push_back({fmt::format("{} {:.1f} x {:.1f} mm", d.name, r->length_mm, r->width_mm), *r});
    }
  }
  return out;
}

std::optional<double> Screen::lens_rms() const {
  if (snap && snap->result.table_pose && snap->result.table_pose->lens_calibrated)
    return snap->result.table_pose->camera.rms_px;
  return lens ? lens->rms_px : std::nullopt;
}

std::optional<TableBox> dispute_bounds(const Screen& s, double margin_mm) {
  std::optional<TableBox> box;
  auto grow = [&](Vec2 p, double r) {
    if (!box) box = TableBox{p, p};
    box->min = {std::min(box->min.x, p.x - r), std::min(box->min.y, p.y - r)};
    box->max = {std::max(box->max.x, p.x + r), std::max(box->max.y, p.y + r)};
  };
  auto grow_disk = [&](std::size_t i) {
    const referee::SeenDisk& d = s.scene.disks[i];
    if (d.has_pose()) grow(d.pose->position, geom::bounding_radius(d.spec->shape));
  };
  if (s.pair) {
    grow_disk(s.pair->a);
    grow_disk(s.pair->b);
    grow(s.pair->range.template_pose.position, s.pair->range.template_length_mm / 2);
  }
  if (s.flip) {
    grow_disk(s.flip->mover);
    double r = geom::bounding_radius(s.scene.disks[s.flip->mover].spec->shape);
    for (const geom::Pose& p : s.flip->path.landings) grow(p.position, r);
  }
  // --game, nothing chosen: a drop being read or just read, asked for or not (its counters), else
  // the move just made (where it started, its landings seen and legal).
  if (const referee::CounterReading* reading = box ? nullptr : shown_counter_reading(s))
    for (const referee::CounterSeen& c : reading->counters)
      if (c.pose) grow(c.pose->position, 40.0);  // room for the labels around them
  if (!box && s.game_view && s.game_view->last_move) {
    const referee::Observed& o = s.game_view->last_move->observed;
    const model::DiskSpec* spec = s.registry.find(o.disk);
    double r = spec ? geom::bounding_radius(spec->shape) : 20.0;
    if (o.start) grow(o.start->pose.position, r);
    for (const auto& l : o.landings)
      if (l) grow(l->pose.position, r);
    for (const geom::Pose& p : o.legal_landings) grow(p.position, r);
  }
  if (box) {
    box->min = box->min - Vec2{margin_mm, margin_mm};
    box->max = box->max + Vec2{margin_mm, margin_mm};
  }
  return box;
}

const referee::CounterReading* shown_counter_reading(const Screen& s) {
  if (!s.game_view || !s.game_view->counters) return nullptr;
  const GameView& v = *s.game_view;
  const bool waiting = v.expecting.need == referee::Expectation::Need::drops && v.expecting.counters;
  if (!waiting && v.counters->t < v.t - LiveGame::kAlertShowS) return nullptr;
  // The drop still waiting shows its latest reading (answers included).
  return v.expecting.counters ? &*v.expecting.counters : &v.counters->reading;
}

void Screen::note(Severity severity, std::string text) {
  Event e{snap ? snap->source.t : 0.0, snap ? snap->source.index : -1, severity, std::move(text)};
  if (recorder) recorder->write_event(e);
  log.add(std::move(e));
}

void Screen::click_disk(const std::string& name) {
  if (!choice.a || (choice.a && choice.b)) {
    choice.a = name;
    choice.b.reset();
  } else if (*choice.a != name) {
    choice.b = name;
  }
}

void Screen::click_mover(const std::string& name) {
  if (choice.mover == name) {
    choice.mover.reset();
  } else {
    choice.mover = name;
  }
}

namespace {

std::string pair_call_text(const Screen& s, const referee::PairVerdict& p) {
  const char* call = p.in_range == referee::Call::yes  ? "in range"
                     : p.in_range == referee::Call::no ? "out of range"
                                                       : "too close to call";
  return fmt::format("range {} -> {}: {} (margin {:+.2f} mm, +-{:.2f} mm at 2 sigma)", s.scene.disks[p.a].name(),
                     s.scene.disks[p.b].name(), call, p.range.margin_mm, referee::kCallSigmas * p.sigma_mm);
}

}  // namespace

void Screen::refresh() {
  if (game) game_view = game->view();
  if (snap && snap->result.frame) scene = referee::make_snapshot(registry, *snap->result.frame);
  camera_moved = snap && snap->camera_moved_t && snap->source.t - *snap->camera_moved_t >= 0 &&
                 snap->source.t - *snap->camera_moved_t < kCameraMovedShowS;
  pair.reset();
  flip.reset();
  pair_problem.clear();

  if (choice.a && choice.b) {
    auto ia = scene.index_of(*choice.a);
    auto ib = scene.index_of(*choice.b);
    if (!ia || !ib) {
      pair_problem = "not on the table now";
    } else if (!scene.disks[*ia].has_pose() || !scene.disks[*ib].has_pose()) {
      pair_problem = "lost: no position to measure from";
    } else {
      std::size_t t =
          static_cast<std::size_t>(std::clamp<int>(choice.template_index, 0, static_cast<int>(templates.size()) - 1));
      pair = referee::evaluate_pair(scene, *ia, *ib, templates[t].rect, std::max(1, choice.reach_multiplier));
      // The referee's calls are worth keeping: log each new one.
      std::string call = pair_call_text(*this, *pair);
      std::string key = call.substr(0, call.find(':')) + std::string(to_string(pair->in_range));
      if (key != last_logged_call) {
        last_logged_call = key;
        note(Severity::info, call);
      }
    }
  }
  if (choice.mover) {
    auto im = scene.index_of(*choice.mover);
    if (im && scene.disks[*im].has_pose() && choice.flips > 0)
      flip = referee::evaluate_flip(scene, table, *im, choice.flips);
  }
}

}  // namespace diskref::ui
