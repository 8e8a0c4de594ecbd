#include "ui/live_game.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace diskref::ui {
namespace {

GameLogLine line_of(const referee::Entry& e, std::size_t number) {
  GameLogLine l;
  l.number = number;
  l.t = e.t;
  l.text = referee::entry_text(e);
  if (e.kind == referee::Entry::Kind::warning) l.tone = GameLogLine::Tone::warning;
  if (e.kind == referee::Entry::Kind::correction) l.tone = GameLogLine::Tone::correction;
  if (e.kind == referee::Entry::Kind::action && e.play.refusal) {
    l.tone = GameLogLine::Tone::refusal;
    l.text = std::string(rules::action_name(e.play.action.body)) + ": " + l.text;  // which input it was
  }
  if (e.observed) l.verdicts = e.observed->verdicts;
  return l;
}

// The last input that an undo would drop: not a correction, not dropped already.
std::optional<std::size_t> undoable(const std::vector<referee::Input>& inputs) {
  std::set<std::size_t> dropped;
  for (const referee::Input& in : inputs) {
    if (in.kind == referee::Input::Kind::correct && in.correction.input && !in.correction.replacement) {
      dropped.insert(*in.correction.input);
    }
  }
  for (std::size_t i = inputs.size(); i-- > 0;) {
    if (inputs[i].kind != referee::Input::Kind::correct && !dropped.count(i)) return i;
  }
  return std::nullopt;
}

}  // namespace

GameView make_game_view(const referee::Referee& r, double t) {
  GameView v;
  v.t = t;
  v.state = r.state();
  v.expecting = r.expecting();
  v.counters = r.counters_seen();
  const std::vector<referee::Entry>& log = r.log();
  for (std::size_t i = 0; i < log.size(); ++i) {
    const referee::Entry& e = log[i];
    GameLogLine line = line_of(e, i);
    if (line.text.empty()) continue;
    for (std::size_t k : e.inputs) {
      if (k >= r.inputs().size() || r.inputs()[k].kind == referee::Input::Kind::correct) continue;
      nlohmann::json given = referee::input_to_json(r.inputs()[k]);
      given.erase("t");
      line.inputs.emplace_back(k, std::move(given));
    }
    if (e.kind == referee::Entry::Kind::action && e.observed && !e.play.refusal) {
      if (!e.observed->landings.empty()) {
        v.last_move = ShownMove{i, *e.observed};
        v.last_attack.reset();
      } else if (!e.observed->verdicts.empty() && e.observed->verdicts.front().kind == referee::VerdictKind::range) {
        v.last_attack = ShownMove{i, *e.observed};
      }
    }
    if (line.tone == GameLogLine::Tone::warning && e.t >= t - LiveGame::kAlertShowS) v.alerts.push_back(line);
    if (line.tone == GameLogLine::Tone::refusal) v.refusal = line;
    if (line.tone == GameLogLine::Tone::info && e.kind == referee::Entry::Kind::action) v.last_ruling = line;
    v.log.push_back(std::move(line));
  }
  v.ships = referee::ships_shown(v.state, r.data());
  v.turn = referee::turn_shown(v.state, v.expecting);
  v.choices = input_choices(v.state, r.data(), v.expecting);
  v.inputs_given = r.inputs().size();
  v.undoable = undoable(r.inputs());
  return v;
}

void NetworkNotes::say(const std::string& line) {
  // The feed's notice beyond loopback goes on with a QR code drawn for a terminal (half blocks the
  // screen's font lacks): the screen draws its own, and the line says where.
  std::string shown = line.substr(0, line.find('\n'));
  if (shown.size() < line.size()) {
    constexpr std::string_view kScan = ", or scan:";
    if (shown.size() >= kScan.size() && shown.compare(shown.size() - kScan.size(), kScan.size(), kScan) == 0)
      shown.resize(shown.size() - kScan.size());
    shown += ", or scan the code over the table view ([Q] shows or hides it)";
  }
  std::lock_guard lock(mutex_);
  latest_ = std::move(shown);
  ++serial_;
}

std::string NetworkNotes::latest(bool& trouble, long long& serial) const {
  std::lock_guard lock(mutex_);
  serial = serial_;
  // The feed says a loss with "lost" and every other trouble with "refused", "cut off", "not".
  trouble = latest_.find("lost") != std::string::npos || latest_.find("cut off") != std::string::npos ||
            latest_.find("refused") != std::string::npos;
  return latest_;
}

LiveGame::LiveGame(referee::Referee referee, std::vector<referee::Input> preloaded,
                   std::optional<std::filesystem::path> inputs_out, std::unique_ptr<net::LiveFeed> feed,
                   std::shared_ptr<NetworkNotes> notes, bool live_source)
    : notes_(std::move(notes)) {
  if (feed && feed->access()) feed_access_ = *feed->access();
  pipeline::RefereedGameOptions options;
  options.inputs_out = std::move(inputs_out);
  options.inputs_from_first_frame = live_source;
  game_ = std::make_shared<pipeline::RefereedGame>(std::move(referee), std::move(preloaded), std::move(options),
                                                   std::move(feed));
  game_->read_referee([&](const referee::Referee& r) { publish(r, 0, ""); });
  game_->set_observer([this](const referee::Referee& r, const pipeline::GameMoment& m) { after(r, m); });
}

void LiveGame::enable_rewind(std::function<referee::Referee()> fresh, std::vector<model::TrackFrame> frames) {
  game_->enable_rewind(std::move(fresh), std::move(frames));
}

void LiveGame::after(const referee::Referee& r, const pipeline::GameMoment& moment) {
  // Rebuilding the view (the books copied, every entry's text, the legal inputs tried on copies
  // of the state) only when the game changed, and twice a second for the banner's expiry.
  Signature now{r.log().size(),     r.inputs().size(),   r.state().actions_applied,
                r.expecting().what, moment.inputs_given, static_cast<long long>(moment.t * 2),
                moment.finished,    moment.note};
  long long notes_serial = notes_seen_;
  if (notes_) {
    bool trouble = false;
    notes_->latest(trouble, notes_serial);
  }
  if (now != signature_ || notes_serial != notes_seen_) publish(r, moment.t, moment.note);
  signature_ = now;
}

void LiveGame::submit(nlohmann::json line) {
  game_->submit(std::move(line));
  // The queue's length is part of the view: the screen shows the input as waiting at once.
  std::lock_guard lock(view_mutex_);
  if (view_) {
    auto v = std::make_shared<GameView>(*view_);
    v->queued = game_->queued();
    view_ = std::move(v);
  }
}

void LiveGame::publish(const referee::Referee& r, double t, const std::string& note) {
  auto v = std::make_shared<GameView>(make_game_view(r, t));
  v->version = ++version_;
  v->note = note;
  if (notes_) v->network = notes_->latest(v->network_trouble, notes_seen_);
  v->queued = game_->queued();
  std::lock_guard lock(view_mutex_);
  view_ = std::move(v);
}

std::shared_ptr<const GameView> LiveGame::view() const {
  std::lock_guard lock(view_mutex_);
  return view_;
}

}  // namespace diskref::ui
