#include "referee/counter_reading.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/geometry/distance.h"
#include "engine/geometry/outline.h"
#include "engine/geometry/shape.h"

namespace diskref::referee {
namespace {

using Shows = model::CounterFace::Shows;

using model::find_track;

std::optional<geom::Pose> pose_of(const model::DiskTrack* d) {
  return d == nullptr ? std::nullopt : model::pose_of(*d);
}

// Whether a counter lies somewhere else, or the other way up, than it did.
bool moved(const model::DiskTrack& now, const model::DiskTrack* before, const CounterReadingInput& in) {
  const std::optional<geom::Pose> was = pose_of(before), is = pose_of(&now);
  if (!was || !is) return true;  // not on the table then (in a hand, or never seen)
  if (before->face != now.face) return true;
  const double d = geom::distance(was->position, is->position);
  const double turn = std::fabs(geom::angle_difference_deg(was->heading_deg(), is->heading_deg()));
  return d > std::max(in.moved_mm, 3 * std::hypot(now.sigma_mm, before->sigma_mm)) || turn > in.turned_deg;
}

// Distance from a point to a box (0 inside).
double distance_to_box(geom::Vec2 p, const model::ForeignBox& b) {
  const double dx = std::max({b.x0 - p.x, 0.0, p.x - b.x1}), dy = std::max({b.y0 - p.y, 0.0, p.y - b.y1});
  return std::hypot(dx, dy);
}

// Why a counter that is seen cannot be read (empty when it can), and the outline of what it lies on
// or against when that is why.
struct Unreadable {
  std::string why;
  std::vector<geom::Vec2> outline;
};

// `accounted`: every counter of the drop is seen, lying flat or tilted, and none seen when the drop
// was asked for is out of sight now: no counter can lie under this one but one never seen at all.
Unreadable unreadable_why(const model::DiskTrack& d, const model::DiskSpec& spec, const geom::Pose& pose,
                          const CounterReadingInput& in, bool accounted) {
  if (d.motion == model::Motion::moving) return {"it is still moving", {}};
  const geom::PlacedShape self{spec.shape, pose};
  // Wholly on the play area (and in the zone).
  const double r = geom::bounding_radius(spec.shape);
  auto inside = [&](double x0, double y0, double x1, double y1) {
    for (geom::Vec2 dir : {geom::Vec2{1, 0}, geom::Vec2{-1, 0}, geom::Vec2{0, 1}, geom::Vec2{0, -1}}) {
      const geom::Vec2 s = geom::support(self, dir);
      if (s.x < x0 || s.x > x1 || s.y < y0 || s.y > y1) return false;
    }
    return true;
  };
  if (!inside(0, 0, in.play_area_mm.x, in.play_area_mm.y)) return {"it lies across the play area's edge", {}};
  if (in.zone && !inside(in.zone->x0, in.zone->y0, in.zone->x1, in.zone->y1))
    return {"it lies across the drop zone's edge", {}};
  // On or against another disk, or another on it.
  for (const model::DiskTrack& other : in.now.disks) {
    if (other.name == d.name) continue;
    const std::optional<geom::Pose> at = pose_of(&other);
    const model::DiskSpec* other_spec = in.registry->find(other.name);
    if (!at || other_spec == nullptr) continue;
    // One seen tilted at rest since is no longer where it was last seen flat; what it stands
    // against shows as a part the camera cannot read, weighed below.
    if (other.tilted) continue;
    // A counter out of sight counts where it was last seen only if it was seen since the drop
    // was asked for, or then (covered since, perhaps by this one); one out of sight already then,
    // and not seen since, was picked up, most likely, and its last place says nothing.
    if (other.kind == model::DiskKind::counter && other.state != model::TrackState::visible) {
      const model::DiskTrack* then = find_track(in.baseline, other.name);
      const bool seen_then = then != nullptr && then->state == model::TrackState::visible;
      if (!seen_then && !moved(other, then, in)) continue;
    }
    if (geom::distance(at->position, pose.position) > r + geom::bounding_radius(other_spec->shape) + 1) continue;
    const double sep = geom::signed_distance(self, {other_spec->shape, *at}).distance;
    const double tolerance = std::max(in.overlap_tolerance_mm, 2 * std::hypot(d.sigma_mm, other.sigma_mm));
    if (sep < -tolerance)
      return {fmt::format("it overlaps {} by {:.1f} mm: one lies on or against the other", other.name, -sep),
              geom::outline_polygon({other_spec->shape, *at}, 6.0)};
  }
  // Something unexplained it may lie on: as the tracker measured it at full resolution (a part
  // it gives an outline: one that could be a counter under it), or, when it did not, anything
  // within kUnreadNearMm.
  for (const model::ForeignBox& b : in.now.foreign) {
    const bool under = b.outline.empty() ? distance_to_box(pose.position, b) < r + kUnreadNearMm
                                         : std::find(b.under.begin(), b.under.end(), d.name) != b.under.end();
    // The part holds a counter seen tilted at rest (on its edge, leaning), and no counter is
    // missing that could lie under this one: the part is that counter standing against it.
    if (under && accounted && !b.tilted.empty()) continue;
    if (under)
      return {fmt::format("something the camera cannot read lies against it (at {:.0f}, {:.0f} mm), and could be a "
                          "counter under it",
                          (b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2),
              b.outline.empty() ? std::vector<geom::Vec2>{{b.x0, b.y0}, {b.x1, b.y0}, {b.x1, b.y1}, {b.x0, b.y1}}
                                : b.outline};
  }
  return {};
}

double value_or(const std::optional<double>& v, double fallback) {
  return v ? *v : fallback;
}

}  // namespace

std::string counter_label(const CounterSeen& c) {
  auto word = [](const model::CounterFace& f) {
    return f.shows == model::CounterFace::Shows::critical ? f.crit : model::describe(f);
  };
  if (c.answered) {
    model::CounterFace f;
    f.shows = *c.answered;
    if (c.faces)
      for (const model::CounterFace* face : {&c.faces->up, &c.faces->down})
        if (face->shows == *c.answered) f = *face;
    return word(f) + " (referee)";
  }
  if (c.readable && c.shows) return word(*c.shows);
  return "? " + c.name;
}

std::string describe_need(const rules::NeededDrop& need) {
  return fmt::format("{} drop for {} ({} counter{}{})", need.purpose, need.subject, need.counters,
                     need.counters == 1 ? "" : "s", need.typed_counters.empty() ? "" : ", one of each critical type");
}

bool has_counters(const model::DiskRegistry& registry) {
  return std::any_of(registry.disks().begin(), registry.disks().end(),
                     [](const model::DiskSpec& d) { return d.kind == model::DiskKind::counter; });
}

CounterReading read_counters(const CounterReadingInput& in) {
  CounterReading out;
  out.need = in.need;
  const bool typed = !in.need.typed_counters.empty();
  std::vector<std::string> gone;  // counters seen when the drop was asked for, out of sight now
  struct Moved {
    const model::DiskSpec* spec;
    const model::DiskTrack* now;
    std::optional<geom::Pose> pose;  // where it lies flat, or stands tilted (heading 0)
  };
  std::vector<Moved> drop;
  for (const model::DiskSpec& spec : in.registry->disks()) {
    if (spec.kind != model::DiskKind::counter) continue;
    const model::DiskTrack* now = find_track(in.now, spec.name);
    const model::DiskTrack* before = find_track(in.baseline, spec.name);
    const bool seen_before = before != nullptr && before->state == model::TrackState::visible;
    std::optional<geom::Pose> pose;
    if (now != nullptr && now->state != model::TrackState::visible && now->tilted) {
      // Seen tilted at rest: of this drop when it came to lie so after the drop was asked for.
      if (now->tilted->since_t <= in.baseline.t) continue;
      pose = geom::Pose::from_degrees(now->tilted->x, now->tilted->y, 0);
    } else {
      if (now == nullptr || now->state == model::TrackState::lost) {
        if (seen_before) gone.push_back(spec.name);
        continue;
      }
      pose = pose_of(now);
      if (!moved(*now, before, in)) {
        if (seen_before && now->state != model::TrackState::visible) gone.push_back(spec.name);
        continue;  // where it lay when the drop was asked for (perhaps covered now)
      }
    }
    if (pose && in.zone && !in.zone->contains(pose->position.x, pose->position.y)) {
      out.ignored.push_back(spec.name);
      continue;
    }
    drop.push_back({&spec, now, pose});
  }
  const bool accounted = gone.empty() && in.need.counters >= 0 && static_cast<int>(drop.size()) == in.need.counters;
  for (const Moved& m : drop) {
    const model::DiskSpec& spec = *m.spec;
    const model::DiskTrack* now = m.now;
    CounterSeen c;
    c.name = spec.name;
    c.pose = m.pose;
    c.sigma_mm = now->sigma_mm;
    c.face = now->tilted && now->state != model::TrackState::visible ? now->tilted->face : now->face;
    if (const model::CounterFace* f = model::counter_face(spec, c.face)) c.shows = *f;
    c.faces = spec.faces;
    c.crit_type = model::counter_crit_type(spec);
    c.visible = now->state == model::TrackState::visible;
    if (!c.visible && now->tilted) {
      c.tilt_deg = now->tilted->tilt_deg;
      c.tag_z_mm = now->tilted->z;
      c.why = fmt::format(
          "it lies tilted {:.0f}° from flat (on its edge, or leaning on something), its {} face toward the "
          "camera",
          now->tilted->tilt_deg, model::to_string(now->tilted->face));
    } else if (!c.visible) {
      c.why = fmt::format("not seen since {:.1f} s ago: covered, or lying where its tag cannot be read",
                          value_or(now->age_s, 0.0));
    } else if (m.pose) {
      Unreadable u = unreadable_why(*now, spec, *m.pose, in, accounted);
      c.why = std::move(u.why);
      c.why_outline_mm = std::move(u.outline);
    }
    c.readable = c.visible && c.why.empty() && c.shows.has_value();
    out.counters.push_back(std::move(c));
  }
  std::stable_sort(out.counters.begin(), out.counters.end(),
                   [](const CounterSeen& a, const CounterSeen& b) { return a.readable > b.readable; });

  // The referee's answers, by counter.
  auto answer_for = [&](const std::string& name) -> std::optional<Shows> {
    std::optional<Shows> found;
    for (const CounterAnswer& a : in.answers)
      if (a.counter == name) found = a.shows;
    return found;
  };
  for (CounterSeen& c : out.counters) c.answered = answer_for(c.name);

  auto fill = [&](DropSlot& slot, const CounterSeen& c) {
    slot.counter = c.name;
    if (c.answered) {
      slot.shows = c.answered;
      slot.answered = true;
    } else if (c.readable) {
      slot.shows = c.shows->shows;
    } else {
      slot.question = c.name + ": " + c.why + ". What does it show?";
    }
  };
  std::vector<std::string> answered_unseen;  // counters named by answers that filled a slot not seen
  auto open_slot = [&](DropSlot& slot, const std::string& what) {
    for (const std::string& g : gone)
      if (!typed || model::counter_crit_type(*in.registry->find(g)) == slot.crit_type) slot.candidates.push_back(g);
    slot.ask_as = slot.candidates.empty() ? "" : slot.candidates.front();
    if (slot.ask_as.empty() && typed)
      for (const model::DiskSpec& d : in.registry->disks())
        if (d.kind == model::DiskKind::counter && model::counter_crit_type(d) == slot.crit_type) {
          slot.ask_as = d.name;
          break;
        }
    if (const model::DiskSpec* d = slot.ask_as.empty() ? nullptr : in.registry->find(slot.ask_as))
      slot.ask_faces = d->faces;
    // The first answer naming a counter not read in this drop (for a critical check, of this type)
    // that no other slot took.
    for (const CounterAnswer& a : in.answers) {
      if (a.counter.empty()) continue;
      const bool read_here = std::any_of(out.counters.begin(), out.counters.end(),
                                         [&](const CounterSeen& c) { return c.name == a.counter; });
      const bool taken = std::find(answered_unseen.begin(), answered_unseen.end(), a.counter) != answered_unseen.end();
      const model::DiskSpec* d = in.registry->find(a.counter);
      if (read_here || taken || d == nullptr || d->kind != model::DiskKind::counter) continue;
      if (typed && model::counter_crit_type(*d) != slot.crit_type) continue;
      answered_unseen.push_back(a.counter);
      slot.counter = a.counter;
      slot.shows = answer_for(a.counter);
      slot.answered = true;
      return;
    }
    slot.question =
        what + " is not seen" +
        (slot.candidates.empty() ? std::string("")
                                 : " (it may be " + fmt::format("{}", fmt::join(slot.candidates, " or ")) + ")") +
        ": drop it again where the camera sees it, or say what it shows";
  };

  // A negative count: as many as came to rest (counters dropped when no drop was asked for).
  const int n = in.need.counters < 0 ? static_cast<int>(out.counters.size()) : in.need.counters;
  if (in.need.counters < 0) out.need.counters = n;
  if (typed) {
    for (const std::string& type : in.need.typed_counters) {
      DropSlot slot;
      slot.crit_type = type;
      std::vector<const CounterSeen*> of_type;
      for (const CounterSeen& c : out.counters)
        if (c.crit_type == type) of_type.push_back(&c);
      if (of_type.size() > 1) {
        std::vector<std::string> names;
        for (const CounterSeen* c : of_type) names.push_back(c->name);
        out.problem = fmt::format(
            "{} counters of type {} moved ({}), the critical check drops one of each type: give the "
            "drop",
            of_type.size(), type, fmt::join(names, ", "));
      } else if (of_type.size() == 1) {
        fill(slot, *of_type.front());
      } else {
        open_slot(slot, "the " + type + " counter");
      }
      out.slots.push_back(std::move(slot));
    }
    for (const CounterSeen& c : out.counters)
      if (std::find(in.need.typed_counters.begin(), in.need.typed_counters.end(), c.crit_type) ==
          in.need.typed_counters.end())
        out.problem =
            fmt::format("{} moved, but it is no counter of the critical check's types: give the drop", c.name);
  } else {
    if (static_cast<int>(out.counters.size()) > n) {
      std::vector<std::string> names;
      for (const CounterSeen& c : out.counters) names.push_back(c.name);
      out.problem = fmt::format("{} counters moved since the drop was asked for ({}), it needs {}: give the drop",
                                out.counters.size(), fmt::join(names, ", "), n);
    }
    for (int k = 0; k < n; ++k) {
      DropSlot slot;
      if (k < static_cast<int>(out.counters.size()))
        fill(slot, out.counters[static_cast<std::size_t>(k)]);
      else
        open_slot(slot, "a counter");
      out.slots.push_back(std::move(slot));
    }
    // Answers naming no counter fill the counters not seen, in turn.
    std::size_t unnamed = 0;
    for (DropSlot& slot : out.slots) {
      if (slot.shows || !slot.counter.empty()) continue;
      while (unnamed < in.answers.size() && !in.answers[unnamed].counter.empty()) ++unnamed;
      if (unnamed >= in.answers.size()) break;
      slot.shows = in.answers[unnamed++].shows;
      slot.answered = true;
      slot.question.clear();
    }
  }
  for (DropSlot& slot : out.slots)
    if (slot.shows) slot.question.clear();  // read or answered: nothing more to ask

  // Unexplained things where the counters lie; a part holding the tag of a disk seen tilted is
  // said to be where that disk stands (the counter is named and asked about above).
  for (const model::ForeignBox& b : in.now.foreign) {
    const double x = (b.x0 + b.x1) / 2, y = (b.y0 + b.y1) / 2;
    if (in.zone && !in.zone->contains(x, y)) continue;
    out.notes.push_back(fmt::format(
        "something the camera cannot read lies at ({:.0f}, {:.0f}) mm, {:.0f} x {:.0f} mm{}", x, y, b.width(),
        b.height(), b.tilted.empty() ? "" : fmt::format(", where {} is seen tilted", fmt::join(b.tilted, " and "))));
  }
  return out;
}

bool CounterReading::complete() const {
  if (!problem.empty()) return false;
  return std::all_of(slots.begin(), slots.end(), [](const DropSlot& s) { return s.shows.has_value(); });
}

bool CounterReading::nothing_dropped() const {
  return counters.empty() && problem.empty() &&
         std::none_of(slots.begin(), slots.end(), [](const DropSlot& s) { return s.answered; });
}

int CounterReading::hits() const {
  return static_cast<int>(
      std::count_if(slots.begin(), slots.end(), [](const DropSlot& s) { return s.shows == Shows::hit; }));
}

std::vector<std::string> CounterReading::crits() const {
  std::vector<std::string> out;
  for (const DropSlot& s : slots)
    if (s.shows == Shows::critical) out.push_back(s.crit_type);
  return out;
}

rules::SeenDrop CounterReading::drop() const {
  rules::SeenDrop d;
  d.purpose = need.purpose;
  d.subject = need.subject;
  if (need.typed_counters.empty())
    d.hits = hits();
  else
    d.crits = crits();
  return d;
}

std::string CounterReading::tally() const {
  const int known = static_cast<int>(
      std::count_if(slots.begin(), slots.end(), [](const DropSlot& s) { return s.shows.has_value(); }));
  if (need.typed_counters.empty())
    return fmt::format("{} HIT! of {} counter{}{}", hits(), slots.size(), slots.size() == 1 ? "" : "s",
                       known < static_cast<int>(slots.size()) ? fmt::format(" ({} read so far)", known) : "");
  const std::vector<std::string> c = crits();
  return fmt::format("{} ({} of {} counters known)",
                     c.empty() ? std::string("no critical") : fmt::format("{} critical", fmt::join(c, ", ")), known,
                     slots.size());
}

std::vector<std::string> CounterReading::questions() const {
  std::vector<std::string> out;
  if (!problem.empty()) out.push_back(problem);
  for (const DropSlot& s : slots)
    if (!s.shows && !s.question.empty()) out.push_back(s.question);
  return out;
}

std::string CounterReading::question() const {
  std::vector<std::string> q = questions();
  return q.empty() ? "" : q.front();
}

nlohmann::json counter_reading_to_json(const CounterReading& r) {
  nlohmann::json counters = nlohmann::json::array();
  for (const CounterSeen& c : r.counters) {
    nlohmann::json j = {{"name", c.name}, {"face", model::to_string(c.face)}};
    if (c.shows) j["shows"] = model::describe(*c.shows);
    if (c.pose) {
      j["x"] = std::round(c.pose->position.x * 100) / 100;
      j["y"] = std::round(c.pose->position.y * 100) / 100;
      j["heading"] = std::round(c.pose->heading_deg() * 100) / 100;
      j["sigma_mm"] = std::round(c.sigma_mm * 100) / 100;
    }
    if (c.tilt_deg) j["tilt_deg"] = std::round(*c.tilt_deg * 10) / 10;
    j["readable"] = c.readable;
    if (!c.why.empty()) j["why"] = c.why;
    if (!c.why_outline_mm.empty()) {
      nlohmann::json outline = nlohmann::json::array();
      for (const geom::Vec2& p : c.why_outline_mm)
        outline.push_back({std::round(p.x * 10) / 10, std::round(p.y * 10) / 10});
      j["why_outline_mm"] = std::move(outline);
    }
    if (c.answered) j["answered"] = std::string(model::to_string(*c.answered));
    counters.push_back(std::move(j));
  }
  nlohmann::json slots = nlohmann::json::array();
  for (const DropSlot& s : r.slots) {
    nlohmann::json j = nlohmann::json::object();
    if (!s.crit_type.empty()) j["type"] = s.crit_type;
    if (!s.counter.empty()) j["counter"] = s.counter;
    if (s.shows) j["shows"] = std::string(model::to_string(*s.shows));
    if (s.answered) j["answered"] = true;
    if (!s.question.empty() && !s.shows) j["question"] = s.question;
    slots.push_back(std::move(j));
  }
  nlohmann::json need = {{"purpose", r.need.purpose}, {"subject", r.need.subject}, {"counters", r.need.counters}};
  if (!r.need.typed_counters.empty()) need["typed"] = r.need.typed_counters;
  nlohmann::json out = {{"need", need}, {"counters", counters}, {"slots", slots}, {"tally", r.tally()}};
  if (!r.ignored.empty()) out["outside_zone"] = r.ignored;
  if (!r.notes.empty()) out["notes"] = r.notes;
  if (!r.problem.empty()) out["problem"] = r.problem;
  return out;
}

}  // namespace diskref::referee
