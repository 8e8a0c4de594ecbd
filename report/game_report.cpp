#include "report/game_report.h"

#include <cstdio>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/io/atomic_write.h"
#include "engine/io/jsonl.h"
#include "engine/io/write_error.h"
#include "engine/model/table_spec.h"
#include "pipeline/game_replay.h"
#include "recording/game_recording.h"
#include "referee/books_shown.h"
#include "report/html_text.h"
#include "report/report_plots.h"
#include "report/ruling_picture.h"
#include "vision/apriltag_detector.h"

namespace diskref::report {
namespace fs = std::filesystem;
namespace {

constexpr const char* kStyle = R"(
  body { font: 15px/1.4 "DejaVu Sans", sans-serif; color: #1d1d1d; margin: 24px auto; max-width: 1100px; padding: 0 16px; }
  h1 { font-size: 28px; margin: 0 0 4px; } h2 { border-bottom: 2px solid #333; padding-bottom: 2px; margin-top: 32px; }
  .meta { color: #555; font-size: 13px; }
  .warnings { background: #fff4e5; border-left: 6px solid #e65100; padding: 8px 14px; margin: 14px 0; }
  .warnings li { margin: 3px 0; }
  table { border-collapse: collapse; margin: 8px 0; } td, th { border: 1px solid #bbb; padding: 3px 8px; text-align: left; }
  th { background: #eee; }
  .ruling { border: 1px solid #ccc; border-radius: 6px; padding: 10px 14px; margin: 12px 0; break-inside: avoid; }
  .ruling h3 { margin: 0 0 6px; font-size: 16px; }
  .ruling.warning { border-left: 6px solid #e65100; } .ruling.refusal { border-left: 6px solid #b71c1c; }
  .ruling.correction { border-left: 6px solid #6a1b9a; } .ruling.info { border-left: 6px solid #1565c0; }
  .ruling.waiting { border-left: 6px dashed #f9a825; }
  .pictures { display: flex; gap: 12px; align-items: flex-start; flex-wrap: wrap; margin: 8px 0; }
  .pictures img { max-width: 640px; max-height: 480px; border: 1px solid #888; }
  .nopicture { color: #777; font-style: italic; }
  .numbers td.yes { color: #b71c1c; font-weight: bold; } .numbers td.close { color: #e65100; font-weight: bold; }
  .legend span { display: inline-block; margin-right: 12px; font-size: 12px; }
  .legend i { display: inline-block; width: 18px; height: 4px; vertical-align: middle; margin-right: 4px; }
  .damage { color: #b71c1c; font-weight: bold; margin: 2px 0; }
  .drop { border-top: 1px dashed #bbb; margin-top: 8px; padding-top: 4px; } .drop .asked { color: #e65100; margin: 2px 0; }
  .destroyed { color: #b71c1c; font-weight: bold; }
  svg.plot { display: block; margin: 8px 0; }
  @media print { body { margin: 0; max-width: none; } .ruling { page-break-inside: avoid; } h2 { page-break-after: avoid; } }
)";

std::string ships_table(const std::vector<referee::ShipShown>& ships, bool full) {
  std::string h = "<table class=\"ships\"><tr><th>ship</th><th>card</th><th>player</th>";
  if (full) h += "<th>speed</th><th>shields</th><th>hull</th><th>criticals</th><th>state</th>";
  h += "</tr>";
  for (const referee::ShipShown& s : ships) {
    h += fmt::format("<tr data-ship=\"{0}\"><td>{0}</td><td>{1}</td><td>{2}</td>", html_text(s.id), html_text(s.name),
                     html_text(s.controller));
    if (full) {
      std::string crits;
      for (const std::string& c : s.crits) crits += (crits.empty() ? "" : ", ") + html_text(c);
      h += fmt::format(
          "<td>{}/{}</td><td class=\"shields\">{}/{}</td><td class=\"hull\">{}/{}</td><td>{}</td><td>{}</td>", s.speed,
          s.max_speed, s.shields, s.max_shields, s.hull, s.max_hull, crits.empty() ? "none" : crits,
          s.destroyed ? "<span class=\"destroyed\">destroyed</span>" : (s.cloaked ? "cloaked" : "in play"));
    }
    h += "</tr>";
  }
  return h + "</table>";
}

std::string numbers_table(const referee::Observed& o) {
  std::string h;
  if (!o.drift_mm.empty()) {
    h += "<p>Drift from the legal landing, per flip: ";
    for (std::size_t i = 0; i < o.drift_mm.size(); ++i)
      h += fmt::format("{}flip {}: {}", i ? "; " : "", i + 1,
                       o.drift_mm[i] ? fmt::format("{:.1f} mm", *o.drift_mm[i]) : "not seen");
    h += "</p>";
  }
  if (o.verdicts.empty()) return h;
  h += "<table class=\"numbers\"><tr><th>verdict</th><th>with</th><th>flip</th><th>margin ± σ</th><th>call</th></tr>";
  for (const referee::Verdict& v : o.verdicts) {
    const char* cls = v.call == referee::Call::yes ? "yes" : v.call == referee::Call::too_close ? "close" : "no";
    h += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"margin\">{:+.2f} ± {:.2f} mm</td><td "
        "class=\"{}\">{}{}</td></tr>",
        referee::to_string(v.kind), html_text(v.with), v.flip ? std::to_string(v.flip) : "end", v.margin_mm, v.sigma_mm,
        cls, referee::to_string(v.call), v.decided ? " (the referee's call)" : "");
  }
  return h + "</table>";
}

// The table pose of a still, from its own corner markers: the still alone says where the table is
// (a camera moved between stills is drawn right in each).
std::optional<calib::CameraPose> pose_of_still(const cv::Mat& still, const pipeline::ReplayedGame& game,
                                               vision::AprilTagDetector& detector) {
  cv::Mat gray = still;
  if (still.channels() == 3) cv::cvtColor(still, gray, cv::COLOR_BGR2GRAY);
  std::vector<calib::MarkerObservation> markers;
  for (const vision::TagDetection& d : detector.detect(gray))
    if (model::is_corner_marker(d.id)) markers.push_back({d.id, d.corners});
  return calib::estimate_camera_pose(game.table, markers, game.lens, still.size()).pose;
}

std::string health_section(const fs::path& dir, const recording::Recording& session,
                           std::vector<std::string>& warnings) {
  std::string h = "<h2 id=\"health\">Tracking health</h2>";
  std::vector<nlohmann::json> lines;
  if (fs::exists(dir / "health.jsonl"))
    io::read_jsonl_skipping_bad_lines(
        dir / "health.jsonl", [&](const io::JsonCursor& c) { lines.push_back(c.json()); }, warnings);
  if (!lines.empty()) {
    PlotSeries fps{"frames tracked per second", "#1565c0", {}}, work{"tracker work per frame (ms)", "#6a1b9a", {}};
    PlotSeries sigma{"mean σ of disks seen (mm)", "#2e7d32", {}},
        hands{"frames with a hand over the table", "#e65100", {}};
    std::map<std::string, PlotSeries> rejected;
    const char* colours[] = {"#b71c1c", "#f57f17", "#1b5e20", "#0d47a1", "#4a148c", "#37474f", "#880e4f", "#006064"};
    for (const nlohmann::json& l : lines) {
      const double t = l.value("t", 0.0);
      fps.points.emplace_back(t, l.value("tracked_fps", 0.0));
      work.points.emplace_back(t, l.value("work_ms", 0.0));
      if (l.contains("mean_sigma_mm")) sigma.points.emplace_back(t, l.value("mean_sigma_mm", 0.0));
      hands.points.emplace_back(t, l.value("hand_frames", 0.0));
      if (l.contains("rejected") && l["rejected"].is_object())
        for (const auto& [reason, n] : l["rejected"].items())
          if (n.is_number()) {
            PlotSeries& s = rejected[reason];
            if (s.name.empty()) s = {reason, colours[rejected.size() % 8], {}};
          }
    }
    // A second without a reason's rejection is a 0, not a gap to draw across.
    for (auto& [reason, series] : rejected)
      for (const nlohmann::json& l : lines) {
        const nlohmann::json* n = l.contains("rejected") && l["rejected"].is_object() && l["rejected"].contains(reason)
                                      ? &l["rejected"][reason]
                                      : nullptr;
        series.points.emplace_back(l.value("t", 0.0), n != nullptr && n->is_number() ? n->get<double>() : 0.0);
      }
    h += line_plot_svg("Tracking rate", "frames/s", {fps}, 1000, 220);
    h += line_plot_svg("Tracker work", "ms/frame", {work}, 1000, 200);
    h += line_plot_svg("Position uncertainty", "σ mm", {sigma}, 1000, 200);
    std::vector<PlotSeries> reasons;
    for (auto& [name, s] : rejected) reasons.push_back(s);
    h += reasons.empty()
             ? "<p>No detection was rejected.</p>"
             : line_plot_svg("Detections rejected, by reason (per second)", "detections", reasons, 1000, 220);
    h += line_plot_svg("A hand over the table (frames per second)", "frames", {hands}, 1000, 180);
  } else {
    h += "<p class=\"nopicture\">No tracker ran in this session (it was refereed from tracks), or its health was not "
         "recorded: σ over time from the tracks only.</p>";
  }
  // σ per disk over time, from the tracks (every 10th frame).
  std::map<std::string, PlotSeries> per_disk;
  const char* colours[] = {"#1565c0", "#b71c1c", "#2e7d32", "#6a1b9a", "#e65100", "#00838f", "#5d4037", "#455a64"};
  for (std::size_t i = 0; i < session.frames.size(); i += 10)
    for (const model::DiskTrack& d : session.frames[i].disks)
      if (d.state == model::TrackState::visible) {
        PlotSeries& s = per_disk[d.name];
        if (s.name.empty()) s = {d.name, colours[per_disk.size() % 8], {}};
        s.points.emplace_back(session.frames[i].t, d.sigma_mm);
      }
  std::vector<PlotSeries> disks;
  for (auto& [name, s] : per_disk) disks.push_back(s);
  if (!disks.empty()) h += line_plot_svg("σ of each disk seen", "σ mm", disks, 1000, 240);
  h += fmt::format("<p>{} frames tracked{}.</p>", session.frames.size(),
                   session.frames.empty()
                       ? ""
                       : fmt::format(", {:.1f} s of video", session.frames.back().t - session.frames.front().t));
  return h;
}

}  // namespace

ReportResult write_game_report(const fs::path& dir, const fs::path& out_html,
                               const std::function<void(std::size_t, std::size_t)>& progress) {
  io::check_output_path(out_html);
  recording::GameRecording rec = recording::load_game_recording(dir);
  pipeline::ReplayedGame game = pipeline::replay_game(rec);
  ReportResult result;
  result.warnings = rec.warnings;
  if (game.matches_recorded_log && !*game.matches_recorded_log)
    result.warnings.push_back(
        (dir / "log.json").string() +
        ": differs from the game refereed again from the recording's tracks and inputs; this report "
        "shows the game as refereed again");
  result.files_dir = out_html.parent_path() / (out_html.stem().string() + "_files");
  std::error_code ec;
  fs::create_directories(result.files_dir, ec);
  if (ec) throw io::WriteError(result.files_dir.string() + ": cannot be created: " + ec.message());
  const std::string files_name = result.files_dir.filename().string();

  std::string body;
  const recording::Recording& s = rec.session;
  body += "<h1>diskref game report</h1>";
  body += fmt::format("<p class=\"meta\">Recording {} · started {} · diskref {} · tracks from {}{}</p>",
                      html_text(dir.string()), html_text(s.info.started_utc),
                      html_text(s.provenance.diskref_version.empty() ? "?" : s.provenance.diskref_version),
                      html_text(s.info.tracks_from), s.info.video ? " · video " + html_text(*s.info.video) : "");
  // Players and ships.
  body += "<h2 id=\"players\">Players and ships</h2><p>";
  for (const rules::Player& p : game.initial.players)
    body += fmt::format("<b>{}</b> (team {}) ", html_text(p.id), html_text(p.team));
  body += "</p>" + ships_table(referee::ships_shown(game.initial, game.data), false);

  // The rulings, turn by turn.
  body += "<h2 id=\"rulings\">The rulings</h2>";
  body +=
      "<p class=\"legend\"><span><i style=\"background:#c8c8c8\"></i>start</span><span><i "
      "style=\"background:#00ffff\"></i>legal "
      "landing (ghost)</span><span><i style=\"background:#ffdc00\"></i>observed landing</span><span><i "
      "style=\"background:#50dc50\"></i>where it ended</span><span><i style=\"background:#ffa000\"></i>another disk "
      "checked</span><span><i style=\"background:#e63c3c\"></i>it counted (contact, overlap, in range)</span><span><i "
      "style=\"background:#50dc50\"></i>counter read</span><span><i style=\"background:#ffb028\"></i>counter asked "
      "about</span><span><i style=\"background:#e63c3c\"></i>what it lies on or against</span></p>";
  std::map<std::size_t, std::optional<calib::CameraPose>> poses;  // per settle
  std::map<std::size_t, cv::Mat> stills;
  vision::AprilTagDetector detector;
  // A scene's pictures: the still of settle `reading` drawn on (written as `name`), and the diagram.
  auto pictures = [&](const RulingScene& scene, std::size_t reading, const std::string& name, const std::string& alt) {
    std::string html = "<div class=\"pictures\">";
    const auto still_file = rec.stills.find(reading);
    bool drawn = false;
    if (still_file != rec.stills.end()) {
      if (!stills.count(reading)) {
        stills[reading] = cv::imread(still_file->second.string(), cv::IMREAD_COLOR);
        if (stills[reading].empty())
          result.warnings.push_back(still_file->second.string() + ": not a readable image; shown without it");
        poses[reading] = stills[reading].empty() ? std::nullopt : pose_of_still(stills[reading], game, detector);
        if (!stills[reading].empty() && !poses[reading])
          result.warnings.push_back(still_file->second.string() +
                                    ": the corner markers are not in it: the ruling is drawn from above only");
      }
      if (poses[reading])
        if (const auto size =
                draw_ruling_photo(stills[reading], *poses[reading], scene, game.registry, result.files_dir / name)) {
          html += fmt::format("<img class=\"photo\" src=\"{}/{}\" width=\"{}\" height=\"{}\" alt=\"{}\">",
                              html_text(files_name), name, size->width, size->height, html_text(alt));
          ++result.pictures;
          drawn = true;
        }
    }
    if (!drawn) html += "<p class=\"nopicture\">No picture of this moment in the recording.</p>";
    return html + ruling_diagram_svg(scene, game.registry, game.table.play_area_mm, 300) + "</div>";
  };
  int turn = 0;
  for (std::size_t n = 0; n < game.log.size(); ++n) {
    if (progress) progress(n, game.log.size());
    const referee::Entry& e = game.log[n];
    const std::string text = referee::entry_text(e);
    if (e.kind == referee::Entry::Kind::action && e.play.turn != turn) {
      turn = e.play.turn;
      body += fmt::format("<h2 class=\"turn\">Turn {}</h2>", turn);
    }
    body += fmt::format(
        "<section class=\"ruling {}\" id=\"entry-{}\" data-entry=\"{}\"><h3>#{} · {:.2f} s{}</h3><p "
        "class=\"text\">{}</p>",
        referee::entry_tone(e), n, n, n, e.t,
        e.kind == referee::Entry::Kind::action
            ? fmt::format(" · {}{}", rules::to_string(e.play.step),
                          e.play.phase ? fmt::format(", phase {}", e.play.phase) : "")
            : "",
        html_text(text.empty() ? std::string(referee::entry_tone(e)) : text));
    // The damage and criticals as they fell, picked out of the ruling's events.
    if (e.kind == referee::Entry::Kind::action)
      for (const rules::Event& ev : e.play.events)
        if (ev.is<rules::event::Hits, rules::event::Damage, rules::event::Critical, rules::event::NoCritical,
                  rules::event::Destroyed, rules::event::CrewKilled, rules::event::TorpedoContact>())
          body += "<p class=\"damage\">" + html_text(ev.text) + "</p>";
    ++result.rulings;
    const model::TrackFrame snapshot = e.reading < game.settles.size() ? game.settles[e.reading] : model::TrackFrame{};
    if (const std::optional<RulingScene> scene = ruling_scene(e, snapshot))
      body +=
          pictures(*scene, e.reading, fmt::format("ruling-{:04d}.jpg", n), fmt::format("the table at ruling {}", n));
    if (e.observed) body += numbers_table(*e.observed);
    // Each drop read from the counters for it: what was read, what was asked, the picture it was read from.
    for (std::size_t k = 0; k < e.drops_read.size(); ++k) {
      const referee::DropRead& d = e.drops_read[k];
      body += fmt::format("<div class=\"drop\"><p><b>{}</b> read from the table at {:.2f} s: {}</p>",
                          html_text(referee::describe_need(d.counters.need)), d.t, html_text(d.counters.tally()));
      for (const referee::CounterSeen& c : d.counters.counters)
        if (!c.readable && !c.why.empty())
          body += fmt::format("<p class=\"asked\">{}: {}{}</p>", html_text(c.name), html_text(c.why),
                              c.answered ? html_text(" — the referee said: " + referee::counter_label(c)) : "");
      if (d.overruled_by)
        body += fmt::format("<p class=\"asked\">The referee's drop (input {}) stood over the reading.</p>",
                            *d.overruled_by);
      if (!d.corrected.is_null())
        body += "<p class=\"asked\">Corrected afterwards: " + html_text(d.corrected.dump()) + "</p>";
      if (const std::optional<RulingScene> scene = drop_scene(d))
        body += pictures(*scene, d.reading, fmt::format("drop-{:04d}-{}.jpg", n, k),
                         fmt::format("the counters of drop {} at ruling {}", k + 1, n));
      body += "</div>";
    }
    body += "</section>";
  }
  if (game.log.empty()) body += "<p>No ruling was made.</p>";

  // The final state.
  body += "<h2 id=\"final\">The final state</h2>";
  body +=
      fmt::format("<p>Turn {}, {}{}.</p>", game.final_state.turn, rules::to_string(game.final_state.step),
                  game.final_state.winner
                      ? fmt::format(": won by {}",
                                    html_text(game.final_state.winner->empty() ? "no side" : *game.final_state.winner))
                      : "");
  body += ships_table(referee::ships_shown(game.final_state, game.data), true);
  for (const std::string& w : game.waiting) body += "<p>Still waiting for: " + html_text(w) + "</p>";

  body += health_section(dir, s, result.warnings);

  std::string warnings;
  if (!result.warnings.empty()) {
    warnings = "<div class=\"warnings\" id=\"warnings\"><b>This recording is not whole:</b><ul>";
    for (const std::string& w : result.warnings) warnings += "<li>" + html_text(w) + "</li>";
    warnings += "</ul></div>";
  }
  const std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>diskref game report</title><style>" +
      std::string(kStyle) + "</style></head><body>" + warnings + body + "</body></html>\n";
  // The warnings come first on the page, under the title.
  io::write_file_atomically(out_html, page);
  if (progress) progress(game.log.size(), game.log.size());
  return result;
}

}  // namespace diskref::report
