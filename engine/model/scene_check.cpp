#include "engine/model/scene_check.h"

#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "engine/geometry/flip_path.h"
#include "engine/geometry/range.h"
#include "engine/model/bounds.h"
#include "engine/model/shape_json.h"

namespace diskref::model {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kQuestionTypes[] = {"range", "overlap", "move", "template_check"};

// Reading -------------------------------------------------------------------------------------

std::vector<SceneDisk> parse_disks(const io::JsonCursor& list) {
  std::vector<SceneDisk> disks;
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < list.size(); ++i) {
    io::JsonCursor d = list.at(i);
    d.allow_only({"name", "kind", "shape", "x", "y", "heading"});
    SceneDisk disk;
    io::JsonCursor name = d.at("name");
    disk.name = name.non_empty_string();
    if (auto [it, fresh] = seen.emplace(disk.name, i); !fresh)
      name.fail("duplicate disk name \"" + disk.name + "\" (also disks[" + std::to_string(it->second) + "])");
    disk.kind = parse_disk_kind(d.at("kind"));
    disk.placed.shape = parse_shape(d.at("shape"));
    disk.placed.pose = geom::Pose::from_degrees(bounds::coordinate_mm(d.at("x")), bounds::coordinate_mm(d.at("y")),
                                                bounds::angle_deg(d.at("heading")));
    disks.push_back(std::move(disk));
  }
  return disks;
}

int disk_index(const std::vector<SceneDisk>& disks, const io::JsonCursor& name_cursor) {
  std::string name = name_cursor.non_empty_string();
  for (std::size_t i = 0; i < disks.size(); ++i)
    if (disks[i].name == name) return static_cast<int>(i);
  name_cursor.fail("unknown disk \"" + name + "\" (not in disks)");
}

// Two different disks named by members `first` and `second` of `q`.
std::pair<int, int> disk_pair(const std::vector<SceneDisk>& disks, const io::JsonCursor& q, std::string_view first,
                              std::string_view second) {
  int a = disk_index(disks, q.at(first));
  int b = disk_index(disks, q.at(second));
  if (a == b) q.at(second).fail("must name a different disk than \"" + std::string(first) + "\"");
  return {a, b};
}

SceneQuestion parse_question(const std::vector<SceneDisk>& disks, const io::JsonCursor& q) {
  SceneQuestion out;
  std::string type;
  for (const std::string& key : q.keys()) {
    if (key == "id") continue;
    bool known = false;
    for (auto t : kQuestionTypes) known = known || key == t;
    if (!known)
      q.at(key).fail("unknown question type \"" + key + "\" (expected range, overlap, move or template_check)");
    if (!type.empty())
      q.at(key).fail("a question has one type, but this one has both \"" + type + "\" and \"" + key + "\"");
    type = key;
  }
  out.id = q.at("id").non_empty_string();
  if (type.empty()) q.fail("needs one of range, overlap, move, template_check");
  io::JsonCursor body = q.at(type);
  if (type == "range") {
    body.allow_only({"from", "to", "template", "reach_multiplier"});
    RangeQuestion r;
    std::tie(r.from, r.to) = disk_pair(disks, body, "from", "to");
    io::JsonCursor t = body.at("template");
    t.allow_only({"length_mm", "width_mm"});
    r.range_template = {bounds::size_mm(t.at("length_mm")), bounds::size_mm(t.at("width_mm"))};
    if (auto m = body.find("reach_multiplier")) r.reach_multiplier = m->int_in(1, 100);
    out.question = r;
  } else if (type == "overlap") {
    body.allow_only({"a", "b"});
    OverlapQuestion o;
    std::tie(o.a, o.b) = disk_pair(disks, body, "a", "b");
    out.question = o;
  } else if (type == "move") {
    body.allow_only({"disk", "flips", "heading"});
    MoveQuestion m;
    m.disk = disk_index(disks, body.at("disk"));
    if (disks[m.disk].kind == DiskKind::template_) body.at("disk").fail("is a template; only disks flip");
    m.flips = body.at("flips").int_in(0, 1000);
    if (auto h = body.find("heading")) m.heading_deg = bounds::angle_deg(*h);
    out.question = m;
  } else {
    body.allow_only({"template", "from", "to"});
    TemplateCheckQuestion t;
    t.placed_template = disk_index(disks, body.at("template"));
    if (disks[t.placed_template].kind != DiskKind::template_ ||
        !std::holds_alternative<geom::Rect>(disks[t.placed_template].placed.shape))
      body.at("template").fail("must name a disk of kind \"template\" with a rect shape");
    std::tie(t.from, t.to) = disk_pair(disks, body, "from", "to");
    out.question = t;
  }
  return out;
}

// Answering -----------------------------------------------------------------------------------

// Rounded to 0.01 as the spec prints numbers; integral values as integers ("x": 100).
Json number(double v) {
  double r = std::round(v * 100) / 100;
  if (r == 0) r = 0;  // no "-0"
  if (std::fabs(r) < 1e15 && r == std::floor(r)) return static_cast<long long>(r);
  return r;
}

Json heading(double deg) {
  double r = std::round(geom::wrap_degrees(deg) * 100) / 100;
  return number(r >= 360 ? r - 360 : r);
}

Json point(geom::Vec2 p) {
  return Json::array({number(p.x), number(p.y)});
}

Json pose(const geom::Pose& p) {
  return Json{{"x", number(p.position.x)}, {"y", number(p.position.y)}, {"heading", heading(p.heading_deg())}};
}

Json answer(const Scene& scene, const RangeQuestion& q) {
  geom::RangeOutput r =
      geom::range_check(scene.disks[q.from].placed, scene.disks[q.to].placed, q.range_template, q.reach_multiplier);
  return Json{{"in_range", r.in_range},
              {"gap_mm", number(r.gap_mm)},
              {"reach_mm", number(r.reach_mm)},
              {"margin_mm", number(r.margin_mm)},
              {"closest_points_mm", Json::array({point(r.point_a), point(r.point_b)})},
              {"template_pose", pose(r.template_pose)}};
}

Json answer(const Scene& scene, const OverlapQuestion& q) {
  geom::DistanceOutput d = geom::signed_distance(scene.disks[q.a].placed, scene.disks[q.b].placed);
  return Json{{"overlap", d.distance <= 0},
              {"separation_mm", number(d.distance)},
              {"witness_points_mm", Json::array({point(d.point_a), point(d.point_b)})}};
}

Json answer(const Scene& scene, const MoveQuestion& q) {
  geom::FlipInput in;
  in.mover = scene.disks[q.disk].placed;
  in.flips = q.flips;
  in.heading_deg = q.heading_deg;
  in.play_area_mm = scene.play_area_mm;
  for (std::size_t i = 0; i < scene.disks.size(); ++i) {
    const SceneDisk& d = scene.disks[i];
    // Templates lie on the table only while measuring: a flipping disk does not collide with one.
    if (static_cast<int>(i) == q.disk || d.kind == DiskKind::template_) continue;
    in.others.push_back({d.name, d.placed, d.kind == DiskKind::torpedo});
  }
  geom::FlipOutput out = geom::flip_path(in);
  Json landings = Json::array(), contacts = Json::array(), overlaps = Json::array(), separations = Json::array();
  for (const geom::Pose& p : out.landings) landings.push_back(pose(p));
  for (const geom::TorpedoContact& c : out.torpedo_contacts)
    contacts.push_back(Json{{"flip", c.flip}, {"disk", c.disk}, {"separation_mm", number(c.separation_mm)}});
  for (const geom::EndOverlap& e : out.end_overlaps) overlaps.push_back(e.disk);
  for (const geom::EndOverlap& e : out.end_separations)
    separations.push_back(Json{{"disk", e.disk}, {"separation_mm", number(e.separation_mm)}});
  Json a{{"landings", landings},
         {"torpedo_contacts", contacts},
         {"end_overlaps", overlaps},
         {"leaves_play_area", out.leaves_play_area},
         {"play_area_margin_mm", number(out.play_area_margin_mm)},
         {"end_separations", separations}};
  if (out.nearest_torpedo)
    a["nearest_torpedo"] = Json{{"flip", out.nearest_torpedo->flip},
                                {"disk", out.nearest_torpedo->disk},
                                {"separation_mm", number(out.nearest_torpedo->separation_mm)}};
  return a;
}

Json answer(const Scene& scene, const TemplateCheckQuestion& q) {
  geom::PlacedTemplateCheck c = geom::check_placed_template(scene.disks[q.placed_template].placed,
                                                            scene.disks[q.from].placed, scene.disks[q.to].placed);
  return Json{{"overlaps_both", c.overlaps_both},
              {"margin_mm", number(c.margin_mm)},
              {"separation_from_mm", number(c.separation_from_mm)},
              {"separation_to_mm", number(c.separation_to_mm)}};
}

void write_compact(const Json& j, std::string& out) {
  if (j.is_object()) {
    out += '{';
    bool first = true;
    for (const auto& [key, value] : j.items()) {
      if (!first) out += ", ";
      first = false;
      out += Json(key).dump();
      out += ": ";
      write_compact(value, out);
    }
    out += '}';
  } else if (j.is_array()) {
    out += '[';
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (i > 0) out += ", ";
      write_compact(j[i], out);
    }
    out += ']';
  } else {
    out += j.dump();
  }
}

}  // namespace

Scene parse_scene(const io::JsonCursor& root) {
  root.allow_only({"play_area_mm", "disks", "questions"});
  Scene scene;
  if (auto area = root.find("play_area_mm")) {
    if (area->size() != 2) area->fail("must be [width, height]");
    scene.play_area_mm = {bounds::play_area_side_mm(area->at(std::size_t{0})),
                          bounds::play_area_side_mm(area->at(std::size_t{1}))};
  }
  scene.disks = parse_disks(root.at("disks"));
  io::JsonCursor questions = root.at("questions");
  std::map<std::string, std::size_t> ids;
  for (std::size_t i = 0; i < questions.size(); ++i) {
    SceneQuestion q = parse_question(scene.disks, questions.at(i));
    if (auto [it, fresh] = ids.emplace(q.id, i); !fresh)
      questions.at(i).at("id").fail("duplicate question id \"" + q.id + "\" (also questions[" +
                                    std::to_string(it->second) + "])");
    scene.questions.push_back(std::move(q));
  }
  return scene;
}

Scene load_scene(const std::string& file) {
  nlohmann::json doc = io::read_json_file(file);
  return parse_scene(io::JsonCursor(doc, file));
}

nlohmann::ordered_json answer_scene(const Scene& scene) {
  Json answers = Json::array();
  for (const SceneQuestion& q : scene.questions) {
    Json a{{"id", q.id}};
    Json body = std::visit([&](const auto& question) { return answer(scene, question); }, q.question);
    for (auto& [key, value] : body.items()) a[key] = value;
    answers.push_back(a);
  }
  return Json{{"answers", answers}};
}

std::string format_answers(const nlohmann::ordered_json& answers) {
  const Json& list = answers.at("answers");
  if (list.empty()) return "{\"answers\": []}\n";
  std::string out = "{\"answers\": [\n";
  for (std::size_t i = 0; i < list.size(); ++i) {
    out += "  ";
    write_compact(list[i], out);
    out += i + 1 < list.size() ? ",\n" : "\n";
  }
  out += "]}\n";
  return out;
}

}  // namespace diskref::model
