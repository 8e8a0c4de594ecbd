#include "engine/model/track_frame.h"

#include <algorithm>
#include <cmath>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/io/jsonl.h"
#include "engine/model/bounds.h"

namespace diskref::model {
namespace {

// To `decimals` places, as the nearest double to the decimal (divided, not multiplied by 0.01, so
// that it prints as 80.07 and not 80.07000000000001).
double round_to(double v, int decimals) {
  double scale = std::pow(10.0, decimals);
  return std::round(v * scale) / scale;
}

// One list of disk names per box of foreign_mm, under `key` (when present), into each box's
// `member`; with `within`, each name must be in that list of its box too (else `why_within`).
void read_names_per_box(const io::JsonCursor& c, const char* key, std::vector<ForeignBox>& boxes,
                        std::vector<std::string> ForeignBox::*member,
                        std::vector<std::string> ForeignBox::*within = nullptr, const char* why_within = "") {
  const auto lists = c.find(key);
  if (!lists) return;
  if (lists->size() != boxes.size()) lists->fail("must hold one list of disk names for each box of foreign_mm");
  for (std::size_t i = 0; i < lists->size(); ++i) {
    auto names = lists->at(i);
    for (std::size_t k = 0; k < names.size(); ++k) {
      std::string name = names.at(k).non_empty_string();
      if (within != nullptr &&
          std::find((boxes[i].*within).begin(), (boxes[i].*within).end(), name) == (boxes[i].*within).end())
        names.at(k).fail(why_within);
      (boxes[i].*member).push_back(std::move(name));
    }
  }
}

}  // namespace

std::string_view to_string(TrackState state) {
  switch (state) {
    case TrackState::visible:
      return "visible";
    case TrackState::stale:
      return "stale";
    case TrackState::lost:
      return "lost";
  }
  return "lost";
}

std::string_view to_string(Motion motion) {
  return motion == Motion::moving ? "moving" : "settled";
}

const DiskTrack* find_track(const TrackFrame& frame, std::string_view name) {
  for (const DiskTrack& d : frame.disks)
    if (d.name == name) return &d;
  return nullptr;
}

std::optional<geom::Pose> pose_of(const DiskTrack& track) {
  if (track.state == TrackState::lost || !track.x || !track.y || !track.heading) return std::nullopt;
  return geom::Pose::from_degrees(*track.x, *track.y, *track.heading);
}

nlohmann::json to_json(const TrackFrame& frame, Precision precision) {
  const auto written = [precision](double v, int decimals) {
    return precision == Precision::exact ? v : round_to(v, decimals);
  };
  nlohmann::json disks = nlohmann::json::array();
  for (const auto& d : frame.disks) {
    nlohmann::json j = {{"name", d.name}, {"kind", to_string(d.kind)}};
    if (d.state != TrackState::lost && d.x && d.y && d.heading) {
      j["x"] = written(*d.x, 2);
      j["y"] = written(*d.y, 2);
      double h = written(*d.heading, 2);
      j["heading"] = h >= 360.0 ? 0.0 : h;
    }
    j["face"] = to_string(d.face);
    j["state"] = to_string(d.state);
    j["sigma_mm"] = written(d.sigma_mm, 2);
    if (d.motion) j["motion"] = to_string(*d.motion);
    if (d.age_s) j["age_s"] = written(*d.age_s, 3);
    if (d.tilted)
      j["tilted"] = {{"x", written(d.tilted->x, 2)},      {"y", written(d.tilted->y, 2)},
                     {"z", written(d.tilted->z, 2)},      {"tilt_deg", written(d.tilted->tilt_deg, 1)},
                     {"face", to_string(d.tilted->face)}, {"since", written(d.tilted->since_t, 6)}};
    disks.push_back(std::move(j));
  }
  nlohmann::json out = {{"frame", frame.frame}, {"t", written(frame.t, 6)}, {"disks", disks}};
  if (frame.settled) out["settled"] = *frame.settled;
  if (frame.still_s) out["still_s"] = written(*frame.still_s, 3);
  if (!frame.foreign.empty()) {
    nlohmann::json boxes = nlohmann::json::array();
    nlohmann::json outlines = nlohmann::json::array(), against = nlohmann::json::array(),
                   under = nlohmann::json::array(), tilted = nlohmann::json::array();
    bool any_outline = false, any_tilted = false;
    for (const ForeignBox& b : frame.foreign) {
      boxes.push_back({written(b.x0, 1), written(b.y0, 1), written(b.x1, 1), written(b.y1, 1)});
      nlohmann::json points = nlohmann::json::array();
      for (const geom::Vec2& p : b.outline) points.push_back({written(p.x, 1), written(p.y, 1)});
      any_outline = any_outline || !b.outline.empty();
      outlines.push_back(std::move(points));
      against.push_back(b.against);
      under.push_back(b.under);
      tilted.push_back(b.tilted);
      any_tilted = any_tilted || !b.tilted.empty();
    }
    out["foreign_mm"] = std::move(boxes);
    if (any_outline) {
      out["foreign_outline_mm"] = std::move(outlines);
      out["foreign_against"] = std::move(against);
      out["foreign_under"] = std::move(under);
      if (any_tilted) out["foreign_tilted"] = std::move(tilted);
    }
  }
  if (!frame.landings.empty()) {
    nlohmann::json landings = nlohmann::json::array();
    for (const Landing& l : frame.landings) {
      double h = written(l.heading, 2);
      nlohmann::json j = {{"name", l.name},
                          {"x", written(l.x, 2)},
                          {"y", written(l.y, 2)},
                          {"heading", h >= 360.0 ? 0.0 : h},
                          {"face", to_string(l.face)},
                          {"sigma_mm", written(l.sigma_mm, 2)},
                          {"t", written(l.t, 6)}};
      if (l.tag_visible) j["tag_visible"] = *l.tag_visible;
      landings.push_back(std::move(j));
    }
    out["landings"] = std::move(landings);
  }
  return out;
}

std::string to_jsonl_line(const TrackFrame& frame, Precision precision) {
  return to_json(frame, precision).dump();
}

TrackFrame parse_track_frame(const io::JsonCursor& c) {
  TrackFrame f;
  f.frame = bounds::frame_index(c.at("frame"));
  f.t = bounds::time_s(c.at("t"));
  if (auto s = c.find("settled")) f.settled = s->boolean();
  if (auto s = c.find("still_s")) f.still_s = bounds::time_s(*s);
  if (auto boxes = c.find("foreign_mm")) {
    for (std::size_t i = 0; i < boxes->size(); ++i) {
      auto b = boxes->at(i);
      if (b.size() != 4) b.fail("must be [x0, y0, x1, y1] (mm)");
      ForeignBox box{bounds::coordinate_mm(b.at(0)), bounds::coordinate_mm(b.at(1)), bounds::coordinate_mm(b.at(2)),
                     bounds::coordinate_mm(b.at(3))};
      if (!(box.x0 <= box.x1 && box.y0 <= box.y1)) b.fail("must be [x0, y0, x1, y1] with x0 <= x1 and y0 <= y1");
      f.foreign.push_back(box);
    }
  }
  if (auto outlines = c.find("foreign_outline_mm")) {
    if (outlines->size() != f.foreign.size()) outlines->fail("must hold one outline for each box of foreign_mm");
    for (std::size_t i = 0; i < outlines->size(); ++i) {
      auto o = outlines->at(i);
      for (std::size_t k = 0; k < o.size(); ++k) {
        auto p = o.at(k);
        if (p.size() != 2) p.fail("must be [x, y] (mm)");
        f.foreign[i].outline.push_back({bounds::coordinate_mm(p.at(0)), bounds::coordinate_mm(p.at(1))});
      }
    }
  }
  read_names_per_box(c, "foreign_against", f.foreign, &ForeignBox::against);
  if (c.find("foreign_under"))
    read_names_per_box(c, "foreign_under", f.foreign, &ForeignBox::under, &ForeignBox::against,
                       "names a disk that foreign_against does not: a part lies under only what it lies against");
  else
    for (ForeignBox& b : f.foreign) b.under = b.against;  // written before the tracker told them apart: the safe side
  read_names_per_box(c, "foreign_tilted", f.foreign, &ForeignBox::tilted);
  auto disks = c.at("disks");
  for (std::size_t i = 0; i < disks.size(); ++i) {
    auto d = disks.at(i);
    DiskTrack t;
    t.name = d.at("name").non_empty_string();
    t.kind = parse_disk_kind(d.at("kind"));
    std::string state = d.at("state").one_of({"visible", "stale", "lost"});
    t.state = state == "visible" ? TrackState::visible : state == "stale" ? TrackState::stale : TrackState::lost;
    if (t.state != TrackState::lost) {
      t.x = bounds::coordinate_mm(d.at("x"));
      t.y = bounds::coordinate_mm(d.at("y"));
      t.heading = bounds::angle_deg(d.at("heading"));
    }
    t.face = parse_face(d.at("face"));
    if (auto s = d.find("sigma_mm")) t.sigma_mm = bounds::sigma_mm(*s);
    if (auto m = d.find("motion"))
      t.motion = m->one_of({"settled", "moving"}) == "moving" ? Motion::moving : Motion::settled;
    if (auto a = d.find("age_s")) t.age_s = bounds::time_s(*a);
    if (auto r = d.find("tilted")) {
      TiltedRest rest;
      rest.x = bounds::coordinate_mm(r->at("x"));
      rest.y = bounds::coordinate_mm(r->at("y"));
      rest.z = bounds::coordinate_mm(r->at("z"));
      rest.tilt_deg = r->at("tilt_deg").number_in(0, 180);
      rest.face = parse_face(r->at("face"));
      rest.since_t = bounds::time_s(r->at("since"));
      t.tilted = rest;
    }
    f.disks.push_back(std::move(t));
  }
  // A part is explained by a disk seen tilted only if the frame says that disk is.
  for (std::size_t i = 0; i < f.foreign.size(); ++i)
    for (std::size_t k = 0; k < f.foreign[i].tilted.size(); ++k) {
      const DiskTrack* d = find_track(f, f.foreign[i].tilted[k]);
      if (d == nullptr || !d->tilted)
        c.at("foreign_tilted").at(i).at(k).fail("names no disk of this frame seen tilted (its \"tilted\")");
    }
  if (auto landings = c.find("landings")) {
    for (std::size_t i = 0; i < landings->size(); ++i) {
      auto l = landings->at(i);
      Landing landing;
      landing.name = l.at("name").non_empty_string();
      landing.x = bounds::coordinate_mm(l.at("x"));
      landing.y = bounds::coordinate_mm(l.at("y"));
      landing.heading = bounds::angle_deg(l.at("heading"));
      landing.face = parse_face(l.at("face"));
      if (auto s = l.find("sigma_mm")) landing.sigma_mm = bounds::sigma_mm(*s);
      landing.t = bounds::time_s(l.at("t"));
      if (auto v = l.find("tag_visible")) landing.tag_visible = v->boolean();
      f.landings.push_back(std::move(landing));
    }
  }
  return f;
}

std::vector<TrackFrame> load_track_jsonl(const std::filesystem::path& file) {
  std::vector<TrackFrame> frames;
  io::read_jsonl(file, [&](const io::JsonCursor& line) { frames.push_back(parse_track_frame(line)); });
  return frames;
}

std::vector<std::string> cap_time_gaps(std::vector<TrackFrame>& frames, double max_gap_s) {
  std::vector<std::string> notes;
  double shift = 0;  // how much earlier every frame from here on is played
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (i > 0) {
      const double gap = frames[i].t - shift - frames[i - 1].t;
      if (gap > max_gap_s) {
        notes.push_back(fmt::format("frame {} came {:.1f} s after frame {}: played back {:.1f} s after it",
                                    frames[i].frame, gap, frames[i - 1].frame, max_gap_s));
        shift += gap - max_gap_s;
      }
    }
    frames[i].t -= shift;
    for (Landing& l : frames[i].landings) l.t -= shift;
  }
  return notes;
}

}  // namespace diskref::model
