#include "referee/verdicts.h"

#include <cmath>

namespace diskref::referee {

PairVerdict evaluate_pair(const TableSnapshot& scene, std::size_t a, std::size_t b, const geom::Rect& range_template,
                          int reach_multiplier) {
  const SeenDisk& da = scene.disks.at(a);
  const SeenDisk& db = scene.disks.at(b);
  PairVerdict out;
  out.a = a;
  out.b = b;
  geom::PlacedShape pa = da.placed();
  geom::PlacedShape pb = db.placed();
  out.range = geom::range_check(pa, pb, range_template, reach_multiplier);
  out.template_rect = range_template;
  out.sigma_mm = combined_sigma(da.track.sigma_mm, db.track.sigma_mm);
  out.in_range = call_margin(out.range.margin_mm, out.sigma_mm);
  out.separation = geom::signed_distance(pa, pb);
  // Overlapping means separation <= 0: its margin is -separation.
  out.overlapping = call_margin(-out.separation.distance, out.sigma_mm);

  for (std::size_t i = 0; i < scene.disks.size(); ++i) {
    const SeenDisk& t = scene.disks[i];
    if (i == a || i == b || t.spec->kind != model::DiskKind::template_ || !t.has_pose()) continue;
    TemplateTouch touch;
    touch.template_name = t.name();
    touch.check = geom::check_placed_template(t.placed(), pa, pb);
    touch.touches_a = call_margin(-touch.check.separation_from_mm, combined_sigma(t.track.sigma_mm, da.track.sigma_mm));
    touch.touches_b = call_margin(-touch.check.separation_to_mm, combined_sigma(t.track.sigma_mm, db.track.sigma_mm));
    touch.touches_both = both(touch.touches_a, touch.touches_b);
    out.templates.push_back(std::move(touch));
  }
  return out;
}

FlipVerdict evaluate_flip(const TableSnapshot& scene, const model::TableSpec& table, std::size_t mover, int flips) {
  const SeenDisk& m = scene.disks.at(mover);
  FlipVerdict out;
  out.mover = mover;
  out.flips = flips;
  out.sigma_mm = m.track.sigma_mm;

  geom::FlipInput in;
  in.mover = m.placed();
  in.flips = flips;
  in.play_area_mm = table.play_area_mm;
  for (std::size_t i = 0; i < scene.disks.size(); ++i) {
    const SeenDisk& d = scene.disks[i];
    // Templates lie there only while measuring, counters until they are picked up: no obstacles.
    if (i == mover || !d.has_pose() || d.spec->kind == model::DiskKind::template_ ||
        d.spec->kind == model::DiskKind::counter)
      continue;
    in.others.push_back({d.name(), d.placed(), d.spec->kind == model::DiskKind::torpedo});
  }
  out.path = geom::flip_path(in);
  // Leaving: the margin is how far outside the worst landing centre is.
  out.leaves_play_area = call_margin(-out.path.play_area_margin_mm, out.sigma_mm);

  auto sigma_with = [&](const std::string& name) {
    auto i = scene.index_of(name);
    return combined_sigma(m.track.sigma_mm, i ? scene.disks[*i].track.sigma_mm : 0.0);
  };
  for (const geom::EndOverlap& e : out.path.end_separations) {
    Call c = call_margin(-e.separation_mm, sigma_with(e.disk));
    if (c != Call::no) out.at_end.push_back({e.disk, e.separation_mm, c});
  }
  if (out.path.nearest_torpedo) {
    const geom::TorpedoContact& t = *out.path.nearest_torpedo;
    out.nearest_torpedo = NearMiss{t.disk, t.separation_mm, call_margin(-t.separation_mm, sigma_with(t.disk))};
  }
  out.swept = geom::swept_outlines(in, out.path);
  return out;
}

}  // namespace diskref::referee
