#include "ui/live_game.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "engine/io/input_error.h"

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
                   std::shared_ptr<NetworkNotes> notes)
    : referee_(std::move(referee)),
      preloaded_(preloaded.begin(), preloaded.end()),
      all_preloaded_(std::move(preloaded)),
      out_path_(std::move(inputs_out)),
      feed_(std::move(feed)),
      notes_(std::move(notes)) {
  if (feed_ && feed_->access()) feed_access_ = *feed_->access();
  if (out_path_) {
    out_.emplace(*out_path_, std::ios::trunc);
    if (!*out_) throw io::InputError(out_path_->string(), "", "cannot be written");
  }
  std::lock_guard lock(referee_mutex_);
  publish();
}

void LiveGame::give(referee::Input input) {
  if (out_) {
    *out_ << referee::input_to_json(input).dump() << "\n";
    out_->flush();  // a crash loses at most the line being written
  }
  referee_.add_input(std::move(input));
}

void LiveGame::enable_rewind(std::function<referee::Referee()> fresh, std::vector<model::TrackFrame> frames) {
  std::lock_guard lock(referee_mutex_);
  fresh_referee_ = std::move(fresh);
  recorded_frames_ = std::move(frames);
}

void LiveGame::on_frame(const model::TrackFrame& frame) {
  std::lock_guard lock(referee_mutex_);
  if (fresh_referee_ && last_t_ && frame.t <= *last_t_) {
    // Back in time: the game from its start to just before this frame (a few thousand frames of
    // tracks: milliseconds), then this frame as usual.
    referee_ = fresh_referee_();
    preloaded_.assign(all_preloaded_.begin(), all_preloaded_.end());
    finished_ = false;
    for (const model::TrackFrame& f : recorded_frames_) {
      if (f.t >= frame.t) break;
      while (!preloaded_.empty() && preloaded_.front().t <= f.t) {
        referee_.add_input(std::move(preloaded_.front()));
        preloaded_.pop_front();
      }
      referee_.feed(f);
    }
    last_t_.reset();
  }
  if (finished_) return;
  if (last_t_ && frame.t <= *last_t_) {
    if (note_.empty()) {
      note_ = fmt::format("the video went back: the game follows it forward only (frames up to {:.2f} s are not refereed again)",
                          *last_t_);
      publish();
    }
    return;
  }
  note_.clear();
  while (!preloaded_.empty() && preloaded_.front().t <= frame.t) {
    give(std::move(preloaded_.front()));
    preloaded_.pop_front();
  }
  std::vector<nlohmann::json> lines;
  {
    std::lock_guard q(queue_mutex_);
    lines.swap(queue_);
  }
  for (const nlohmann::json& line : lines) {
    try {
      give(make_input(line, frame.t));
    } catch (const io::InputError& e) {
      note_ = std::string("not an input: ") + e.what();
    }
  }
  last_t_ = frame.t;
  referee_.feed(frame);
  if (feed_) feed_->after_frame(frame, referee_);
  // Rebuilding the view (the books copied, every entry's text, the legal inputs tried on copies
  // of the state) only when the game changed, and twice a second for the banner's expiry.
  Signature now{referee_.log().size(), referee_.inputs().size(), referee_.state().actions_applied,
                referee_.expecting().what, !lines.empty(), static_cast<long long>(frame.t * 2)};
  long long notes_serial = notes_seen_;
  if (notes_) {
    bool trouble = false;
    notes_->latest(trouble, notes_serial);
  }
  if (now != signature_ || notes_serial != notes_seen_) publish();
  signature_ = now;
}

void LiveGame::submit(nlohmann::json line) {
  std::lock_guard q(queue_mutex_);
  queue_.push_back(std::move(line));
  // The queue's length is part of the view: the screen shows the input as waiting at once.
  if (view_) {
    auto v = std::make_shared<GameView>(*view_);
    v->queued = queue_.size();
    view_ = std::move(v);
  }
}

void LiveGame::finish() {
  std::lock_guard lock(referee_mutex_);
  if (finished_) return;
  while (!preloaded_.empty()) {
    give(std::move(preloaded_.front()));
    preloaded_.pop_front();
  }
  referee_.finish();
  if (feed_) feed_->after_finish(referee_);
  finished_ = true;
  publish();
}

void LiveGame::publish() {
  auto v = std::make_shared<GameView>(make_game_view(referee_, last_t_.value_or(0)));
  v->version = ++version_;
  v->note = note_;
  if (notes_) v->network = notes_->latest(v->network_trouble, notes_seen_);
  std::lock_guard q(queue_mutex_);
  v->queued = queue_.size();
  view_ = std::move(v);
}

std::shared_ptr<const GameView> LiveGame::view() const {
  std::lock_guard q(queue_mutex_);
  return view_;
}

void LiveGame::read_referee(const std::function<void(const referee::Referee&)>& read) const {
  std::lock_guard lock(referee_mutex_);
  read(referee_);
}

nlohmann::json LiveGame::log_json() const {
  std::lock_guard lock(referee_mutex_);
  return referee_.log_json();
}

}  // namespace diskref::ui
