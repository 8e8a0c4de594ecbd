#include "simulator/scenario.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>
#include <opencv2/calib3d.hpp>

#include "engine/io/input_error.h"
#include "engine/model/bounds.h"
#include "simulator/board_views.h"

namespace diskref::simulator {
namespace {

struct NamedDictionary {
  const char* name;
  int id;
};
constexpr NamedDictionary kDictionaries[] = {
    {"DICT_4X4_50", cv::aruco::DICT_4X4_50},   {"DICT_4X4_100", cv::aruco::DICT_4X4_100},
    {"DICT_4X4_250", cv::aruco::DICT_4X4_250}, {"DICT_5X5_50", cv::aruco::DICT_5X5_50},
    {"DICT_5X5_100", cv::aruco::DICT_5X5_100}, {"DICT_5X5_250", cv::aruco::DICT_5X5_250},
    {"DICT_6X6_50", cv::aruco::DICT_6X6_50},   {"DICT_6X6_100", cv::aruco::DICT_6X6_100},
    {"DICT_6X6_250", cv::aruco::DICT_6X6_250}, {"DICT_7X7_50", cv::aruco::DICT_7X7_50},
};

std::filesystem::path resolve(const std::filesystem::path& base_dir, const std::string& name) {
  std::filesystem::path p(name);
  return p.is_absolute() ? p : base_dir / p;
}

model::Face read_face(const io::JsonCursor& c) {
  return *model::face_from_string(c.one_of({"up", "down"}));
}

ArmDirection parse_arm(const io::JsonCursor& parent, std::string_view key) {
  auto c = parent.find(key);
  if (!c) return std::nullopt;
  if (c->json().is_number()) return model::bounds::angle_deg(*c);
  std::string side = c->one_of({"south", "north", "east", "west"});
  if (side == "south") return 270.0;
  if (side == "north") return 90.0;
  if (side == "east") return 0.0;
  return 180.0;
}

std::string disk_name(const io::JsonCursor& c, const model::DiskRegistry& registry) {
  std::string name = c.non_empty_string();
  if (!registry.find(name)) c.fail("no disk named \"" + name + "\" in the disk registry");
  return name;
}

void parse_camera(const io::JsonCursor& c, const model::TableSpec& table, CameraRig& rig) {
  c.allow_only({"resolution", "horizontal_fov_deg", "camera_matrix", "dist_coeffs", "pose"});
  auto res = c.at("resolution");
  auto wh = res.numbers(2);
  for (double v : wh)
    if (!(v >= 16 && v <= 8192 && v == std::floor(v))) res.fail("width and height must be whole numbers in 16..8192");
  cv::Size size(static_cast<int>(wh[0]), static_cast<int>(wh[1]));
  rig.camera.image_size = size;
  if (auto k = c.find("camera_matrix")) {
    if (c.has("horizontal_fov_deg")) c.fail("give either camera_matrix or horizontal_fov_deg, not both");
    nlohmann::json model = {
        {"image_size", {size.width, size.height}}, {"camera_matrix", k->json()}, {"dist_coeffs", {0, 0, 0, 0, 0}}};
    try {
      rig.camera.camera_matrix = calib::parse_camera_model(io::JsonCursor(model, c.file(), c.path())).camera_matrix;
    } catch (const io::InputError& e) {
      k->fail(e.problem());
    }
  } else {
    double fov = c.at("horizontal_fov_deg").number_in(10, 150);
    rig.camera.camera_matrix = camera_matrix_for_fov(size, fov);
  }
  if (auto d = c.find("dist_coeffs")) {
    // Any of OpenCV's models (4, 5, 8, 12 or 14 coefficients), as a camera file may hold.
    const std::size_t count = d->size();
    if (std::find(calib::kDistortionCounts.begin(), calib::kDistortionCounts.end(), count) ==
        calib::kDistortionCounts.end())
      d->fail("must hold 4, 5, 8, 12 or 14 numbers (OpenCV's k1 k2 p1 p2 [k3 [k4 k5 k6 [s1 s2 s3 s4 [tx ty]]]])");
    rig.camera.dist_coeffs = d->numbers(count);
    const auto& k = rig.camera;
    if (std::fabs(k.coefficient(0)) > 1.5 || std::fabs(k.coefficient(1)) > 3 || std::fabs(k.coefficient(2)) > 0.1 ||
        std::fabs(k.coefficient(3)) > 0.1 || std::fabs(k.coefficient(4)) > 5)
      d->fail(
          "distortion coefficients out of the range of real lenses (|k1| <= 1.5, |k2| <= 3, |p| <= 0.1, |k3| <= 5)");
    if (std::string problem = calib::camera_model_problem(rig.camera); problem.rfind("dist_coeffs: ", 0) == 0)
      d->fail(problem.substr(13));
  }

  auto pose = c.at("pose");
  if (auto explicit_pose = pose.find("camera_from_table")) {
    pose.allow_only({"camera_from_table"});
    explicit_pose->allow_only({"rotation", "translation_mm"});
    auto r = explicit_pose->at("rotation");
    if (r.size() != 3) r.fail("must be a 3x3 matrix");
    for (int i = 0; i < 3; ++i) {
      auto row = r.at(static_cast<std::size_t>(i)).numbers(3);
      for (int j = 0; j < 3; ++j) rig.rotation(i, j) = row[static_cast<std::size_t>(j)];
    }
    if (cv::norm(rig.rotation * rig.rotation.t() - cv::Matx33d::eye()) > 1e-6 || cv::determinant(rig.rotation) < 0)
      r.fail("must be a rotation matrix (orthonormal, determinant +1)");
    auto t = explicit_pose->at("translation_mm");
    t.numbers(3);
    for (std::size_t i = 0; i < 3; ++i) rig.translation[static_cast<int>(i)] = model::bounds::coordinate_mm(t.at(i));
  } else {
    pose.allow_only({"height_mm", "tilt_deg", "yaw_deg", "look_at_mm"});
    double height = pose.at("height_mm").number_in(100, 10000);
    double tilt = pose.find("tilt_deg") ? pose.at("tilt_deg").number_in(0, 60) : 0.0;
    double yaw = pose.find("yaw_deg") ? model::bounds::angle_deg(pose.at("yaw_deg")) : 90.0;
    geom::Vec2 look_at = table.play_area_mm / 2;
    if (auto l = pose.find("look_at_mm")) {
      l->numbers(2);
      look_at = {model::bounds::coordinate_mm(l->at(std::size_t{0})),
                 model::bounds::coordinate_mm(l->at(std::size_t{1}))};
    }
    look_at_table(height, tilt, yaw, look_at, rig.rotation, rig.translation);
  }
  if (rig.center_table()[2] <= 0) pose.fail("the camera must be above the table (z > 0)");
  if (cv::norm(rig.center_table()) > model::bounds::kMaxCoordinateMm)
    pose.fail("puts the camera more than 100 m from the table");
}

SurfaceSpec parse_surface(const io::JsonCursor& c) {
  c.allow_only({"mat", "table", "mat_margin_mm", "table_margin_mm", "floor_depth_mm"});
  SurfaceSpec s;
  if (auto m = c.find("mat")) s.mat = *surface_kind_from_string(m->one_of({"starfield", "cloth", "wood"}));
  if (auto t = c.find("table")) s.table = *surface_kind_from_string(t->one_of({"starfield", "cloth", "wood"}));
  if (auto m = c.find("mat_margin_mm")) s.mat_margin_mm = m->number_in(0, 2000);
  if (auto m = c.find("table_margin_mm")) s.table_margin_mm = m->number_in(0, 5000);
  if (auto m = c.find("floor_depth_mm")) s.floor_depth_mm = m->number_in(1, 5000);
  if (s.mat_margin_mm > s.table_margin_mm) c.fail("mat_margin_mm must not exceed table_margin_mm");
  return s;
}

ImageEffects parse_effects(const io::JsonCursor& c, double& shutter) {
  c.allow_only({"noise_sigma", "blur_sigma_px", "vignetting", "light_gradient", "exposure", "supersample", "shutter",
                "jpeg_quality"});
  ImageEffects e;
  e.supersample = 3;
  e.noise_sigma = c.number_or("noise_sigma", e.noise_sigma);
  e.blur_sigma_px = c.number_or("blur_sigma_px", e.blur_sigma_px);
  e.vignetting = c.number_or("vignetting", e.vignetting);
  e.light_gradient = c.number_or("light_gradient", e.light_gradient);
  e.exposure = c.number_or("exposure", e.exposure);
  if (auto s = c.find("supersample")) e.supersample = s->int_in(1, 8);
  if (auto q = c.find("jpeg_quality")) e.jpeg_quality = q->int_in(0, 100);
  if (auto s = c.find("shutter")) shutter = s->number_in(0, 1);
  if (auto problem = image_effects_problem(e); !problem.empty()) c.fail(problem);
  return e;
}

WebcamBehaviour parse_webcam(const io::JsonCursor& c, double duration_s) {
  c.allow_only({"flicker", "auto_exposure", "knock", "repeated_frames", "lost_frames"});
  WebcamBehaviour w;
  if (auto f = c.find("flicker")) {
    f->allow_only({"mains_hz", "depth", "readout", "phase_deg"});
    MainsFlicker m;
    if (auto hz = f->find("mains_hz")) {
      m.mains_hz = hz->number_in(50, 60);
      if (m.mains_hz != 50 && m.mains_hz != 60) hz->fail("must be 50 or 60");
    }
    if (auto d = f->find("depth")) m.depth = d->number_in(0, 1);
    if (auto r = f->find("readout")) m.readout = r->number_in(0.05, 1);
    if (auto p = f->find("phase_deg")) m.phase_deg = model::bounds::angle_deg(*p);
    w.flicker = m;
  }
  if (auto a = c.find("auto_exposure")) {
    a->allow_only({"step", "delay_s", "steps", "step_interval_s"});
    AutoExposure ae;
    if (auto v = a->find("step")) ae.step = v->number_in(-0.5, 0.5);
    if (auto v = a->find("delay_s")) ae.delay_s = v->number_in(0, 2);
    if (auto v = a->find("steps")) ae.steps = v->int_in(1, 10);
    if (auto v = a->find("step_interval_s")) ae.step_interval_s = v->number_in(0.01, 1);
    w.auto_exposure = ae;
  }
  if (auto k = c.find("knock")) {
    k->allow_only({"t", "swing_deg", "frequency_hz", "decay_s", "offset_deg", "axis_deg"});
    BoomKnock b;
    b.t = k->at("t").number_in(0, duration_s);
    if (auto v = k->find("swing_deg")) b.swing_deg = v->number_in(0, 3);
    if (auto v = k->find("frequency_hz")) b.frequency_hz = v->number_in(0.5, 30);
    if (auto v = k->find("decay_s")) b.decay_s = v->number_in(0.02, 5);
    if (auto v = k->find("offset_deg")) b.offset_deg = v->number_in(-1, 1);
    if (auto v = k->find("axis_deg")) b.axis_deg = model::bounds::angle_deg(*v);
    w.knock = b;
  }
  if (auto r = c.find("repeated_frames")) w.repeated_frames = r->number_in(0, 0.5);
  if (auto l = c.find("lost_frames")) w.lost_frames = l->number_in(0, 0.5);
  return w;
}

BoardEvent parse_board(const io::JsonCursor& c, const CameraRig& rig) {
  c.allow_only({"type", "cols", "rows", "square_mm", "marker_mm", "dictionary", "poses", "seed", "hold_s", "move_s"});
  BoardEvent b;
  std::string type = c.at("type").one_of({"chessboard", "charuco"});
  b.board.type = type == "chessboard" ? print::BoardSpec::Type::chessboard : print::BoardSpec::Type::charuco;
  b.board.cols = c.at("cols").int_in(2, 40);
  b.board.rows = c.at("rows").int_in(2, 40);
  b.board.square_mm = model::bounds::size_mm(c.at("square_mm"));
  if (b.board.type == print::BoardSpec::Type::charuco) {
    b.board.marker_mm = model::bounds::size_mm(c.at("marker_mm"));
    if (auto d = c.find("dictionary")) {
      std::string name = d->non_empty_string();
      auto it = std::find_if(std::begin(kDictionaries), std::end(kDictionaries),
                             [&](const auto& n) { return name == n.name; });
      if (it == std::end(kDictionaries))
        d->fail("unknown ArUco dictionary \"" + name + "\" (DICT_4X4_50 ... DICT_7X7_50)");
      b.board.aruco_dictionary = it->id;
    }
  }
  if (auto problem = print::board_spec_problem(b.board); !problem.empty()) c.fail(problem);
  if (auto s = c.find("seed")) b.seed = static_cast<uint64_t>(s->integer());
  if (auto h = c.find("hold_s")) b.hold_s = h->number_in(0, 60);
  if (auto m = c.find("move_s")) b.move_s = m->number_in(0.01, 60);
  auto poses = c.at("poses");
  if (poses.json().is_number()) {
    b.count = poses.int_in(1, 200);
    try {
      b.poses = calibration_poses(rig.camera, b.board, b.count, b.seed);
    } catch (const std::invalid_argument& e) {
      c.fail(e.what());
    }
  } else {
    for (std::size_t i = 0; i < poses.size(); ++i) {
      auto p = poses.at(i);
      p.allow_only({"rotation_deg", "translation_mm"});
      auto rc = p.at("rotation_deg");
      rc.numbers(3);
      std::vector<double> r;
      for (std::size_t k = 0; k < 3; ++k) r.push_back(model::bounds::angle_deg(rc.at(k)));
      auto tc = p.at("translation_mm");
      tc.numbers(3);
      std::vector<double> t;
      for (std::size_t k = 0; k < 3; ++k) t.push_back(model::bounds::coordinate_mm(tc.at(k)));
      cv::Matx33d rotation;
      cv::Rodrigues(cv::Vec3d(r[0], r[1], r[2]) * (std::numbers::pi / 180), rotation);
      b.poses.emplace_back(rotation, cv::Vec3d(t[0], t[1], t[2]));
    }
    if (b.poses.empty()) poses.fail("needs at least one pose");
    b.count = static_cast<int>(b.poses.size());
  }
  return b;
}

DropEvent parse_drop(const io::JsonCursor& a, const model::DiskRegistry& reg) {
  a.allow_only({"counters", "height_mm", "settle_s", "from"});
  DropEvent drop;
  auto counters = a.at("counters");
  if (counters.size() == 0) counters.fail("needs at least one counter");
  for (std::size_t i = 0; i < counters.size(); ++i) {
    auto c = counters.at(i);
    c.allow_only({"disk", "x", "y", "heading", "face", "rest", "on"});
    DroppedCounter d;
    d.disk = disk_name(c.at("disk"), reg);
    if (reg.find(d.disk)->kind != model::DiskKind::counter)
      c.at("disk").fail("\"" + d.disk + "\" is not a counter (kind \"counter\")");
    for (const DroppedCounter& other : drop.counters)
      if (other.disk == d.disk) c.at("disk").fail("counter \"" + d.disk + "\" is dropped twice");
    d.x = model::bounds::coordinate_mm(c.at("x"));
    d.y = model::bounds::coordinate_mm(c.at("y"));
    d.heading = model::bounds::angle_deg(c.at("heading"));
    if (auto f = c.find("face")) d.face = read_face(*f);
    if (auto r = c.find("rest"))
      d.rest = r->one_of({"flat", "edge"}) == "edge" ? DroppedCounter::Rest::edge : DroppedCounter::Rest::flat;
    if (auto on = c.find("on")) {
      d.on = disk_name(*on, reg);
      if (d.on == d.disk) on->fail("a counter cannot rest on itself");
      if (d.rest == DroppedCounter::Rest::edge) on->fail("a counter on its edge rests on the table, not on a disk");
    }
    drop.counters.push_back(d);
  }
  if (auto v = a.find("height_mm")) drop.height_mm = v->number_in(40, 500);
  if (auto v = a.find("settle_s")) drop.settle_s = v->number_in(0.1, 5);
  drop.from = parse_arm(a, "from");
  return drop;
}

ScenarioEvent parse_event(const io::JsonCursor& c, const Scenario& s) {
  ScenarioEvent ev;
  ev.path = c.path();
  c.allow_only({"t", "flip", "rotate", "place", "remove", "hand", "template", "board", "drop", "gather"});
  ev.t = c.at("t").number_in(0, s.duration_s);
  std::vector<std::string> actions;
  for (const auto& k : c.keys())
    if (k != "t") actions.push_back(k);
  if (actions.size() != 1)
    c.fail("an event needs \"t\" and exactly one of flip, rotate, place, remove, hand, template, board, drop, gather");
  auto a = c.at(actions[0]);
  const model::DiskRegistry& reg = s.registry;
  if (actions[0] == "flip") {
    a.allow_only({"disk", "count", "seconds_per_flip", "pause_s"});
    FlipEvent f;
    f.disk = disk_name(a.at("disk"), reg);
    if (auto n = a.find("count")) f.count = n->int_in(1, 50);
    if (auto d = a.find("seconds_per_flip")) f.seconds_per_flip = d->number_in(0.05, 10);
    if (auto d = a.find("pause_s")) f.pause_s = d->number_in(0, 10);
    ev.what = f;
  } else if (actions[0] == "rotate") {
    a.allow_only({"disk", "heading", "duration_s"});
    RotateEvent r;
    r.disk = disk_name(a.at("disk"), reg);
    r.heading = model::bounds::angle_deg(a.at("heading"));
    if (auto d = a.find("duration_s")) r.duration_s = d->number_in(0.05, 30);
    ev.what = r;
  } else if (actions[0] == "place") {
    a.allow_only({"disk", "x", "y", "heading", "face", "duration_s", "from"});
    PlaceEvent p;
    p.disk = disk_name(a.at("disk"), reg);
    p.x = model::bounds::coordinate_mm(a.at("x"));
    p.y = model::bounds::coordinate_mm(a.at("y"));
    p.heading = model::bounds::angle_deg(a.at("heading"));
    if (auto f = a.find("face")) p.face = read_face(*f);
    if (auto d = a.find("duration_s")) p.duration_s = d->number_in(0.3, 30);
    p.from = parse_arm(a, "from");
    ev.what = p;
  } else if (actions[0] == "remove") {
    a.allow_only({"disk", "duration_s", "to"});
    RemoveEvent r;
    r.disk = disk_name(a.at("disk"), reg);
    if (auto d = a.find("duration_s")) r.duration_s = d->number_in(0.3, 30);
    r.to = parse_arm(a, "to");
    ev.what = r;
  } else if (actions[0] == "hand") {
    a.allow_only({"over", "at_mm", "height_mm", "enter_s", "hold_s", "leave_s", "from"});
    HandEvent h;
    if (auto over = a.find("over"))
      for (std::size_t i = 0; i < over->size(); ++i) h.over.push_back(disk_name(over->at(i), reg));
    if (auto at = a.find("at_mm")) {
      at->numbers(2);
      h.at_mm = geom::Vec2{model::bounds::coordinate_mm(at->at(std::size_t{0})),
                           model::bounds::coordinate_mm(at->at(std::size_t{1}))};
    }
    if (h.over.empty() == !h.at_mm) a.fail("a hand needs either \"over\" (disk names) or \"at_mm\" ([x, y])");
    if (auto v = a.find("height_mm")) h.height_mm = v->number_in(5, 500);
    if (auto v = a.find("enter_s")) h.enter_s = v->number_in(0.1, 30);
    if (auto v = a.find("hold_s")) h.hold_s = v->number_in(0, 60);
    if (auto v = a.find("leave_s")) h.leave_s = v->number_in(0.1, 30);
    h.from = parse_arm(a, "from");
    ev.what = h;
  } else if (actions[0] == "template") {
    a.allow_only({"disk", "between", "lay_s", "hold_s", "lift_s", "from"});
    TemplateEvent t;
    t.disk = disk_name(a.at("disk"), reg);
    if (reg.find(t.disk)->kind != model::DiskKind::template_)
      a.at("disk").fail("\"" + t.disk + "\" is not a template (kind \"template\")");
    auto between = a.at("between");
    if (between.size() != 2) between.fail("needs exactly two disk names");
    t.from_disk = disk_name(between.at(std::size_t{0}), reg);
    t.to_disk = disk_name(between.at(std::size_t{1}), reg);
    if (auto v = a.find("lay_s")) t.lay_s = v->number_in(0.3, 30);
    if (auto v = a.find("hold_s")) t.hold_s = v->number_in(0, 60);
    if (auto v = a.find("lift_s")) t.lift_s = v->number_in(0.3, 30);
    t.from = parse_arm(a, "from");
    ev.what = t;
  } else if (actions[0] == "drop") {
    ev.what = parse_drop(a, reg);
  } else if (actions[0] == "gather") {
    a.allow_only({"disks", "duration_s", "to"});
    GatherEvent g;
    auto disks = a.at("disks");
    if (disks.size() == 0) disks.fail("needs at least one disk");
    for (std::size_t i = 0; i < disks.size(); ++i) g.disks.push_back(disk_name(disks.at(i), reg));
    if (auto d = a.find("duration_s")) g.duration_s = d->number_in(0.3, 30);
    g.to = parse_arm(a, "to");
    ev.what = g;
  } else {
    ev.what = parse_board(a, s.rig);
  }
  return ev;
}

}  // namespace

Scenario parse_scenario(const io::JsonCursor& root, const std::filesystem::path& base_dir) {
  root.allow_only(
      {"duration_s", "fps", "seed", "camera", "table", "surface", "disks", "start", "events", "effects", "webcam"});
  Scenario s;
  s.file = root.file();
  s.duration_s = root.at("duration_s").number_in(0.05, 3600);
  s.fps = root.at("fps").number_in(1, 240);
  if (auto seed = root.find("seed")) {
    long long v = seed->integer();
    if (v < 0) seed->fail("must be >= 0");
    s.seed = static_cast<uint64_t>(v);
  }
  auto table = root.at("table");
  s.table = table.json().is_string() ? model::load_table(resolve(base_dir, table.non_empty_string()))
                                     : model::parse_table(table);
  auto disks = root.at("disks");
  s.registry = disks.json().is_string() ? model::load_disk_registry(resolve(base_dir, disks.non_empty_string()))
                                        : model::parse_disk_registry(disks);
  parse_camera(root.at("camera"), s.table, s.rig);
  if (auto surface = root.find("surface")) s.surface = parse_surface(*surface);
  if (auto effects = root.find("effects")) {
    s.effects = parse_effects(*effects, s.shutter);
  } else {
    s.effects.supersample = 3;
  }
  if (auto webcam = root.find("webcam")) s.webcam = parse_webcam(*webcam, s.duration_s);
  if (auto start = root.find("start")) {
    for (std::size_t i = 0; i < start->size(); ++i) {
      auto p = start->at(i);
      p.allow_only({"disk", "x", "y", "heading", "face"});
      StartPlacement sp;
      sp.disk = disk_name(p.at("disk"), s.registry);
      for (const auto& other : s.start)
        if (other.disk == sp.disk) p.at("disk").fail("disk \"" + sp.disk + "\" is placed twice");
      sp.x = model::bounds::coordinate_mm(p.at("x"));
      sp.y = model::bounds::coordinate_mm(p.at("y"));
      sp.heading = model::bounds::angle_deg(p.at("heading"));
      if (auto f = p.find("face")) sp.face = read_face(*f);
      s.start.push_back(sp);
    }
  }
  if (auto events = root.find("events")) {
    for (std::size_t i = 0; i < events->size(); ++i) s.events.push_back(parse_event(events->at(i), s));
    std::stable_sort(s.events.begin(), s.events.end(), [](const auto& a, const auto& b) { return a.t < b.t; });
  }
  if (s.frame_count() < 1) root.at("duration_s").fail("is shorter than one frame");
  return s;
}

Scenario load_scenario(const std::filesystem::path& file) {
  nlohmann::json doc = io::read_json_file(file);
  return parse_scenario(io::JsonCursor(doc, file.string()), file.parent_path());
}

}  // namespace diskref::simulator
