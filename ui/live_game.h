#pragma once
// The referee, live, behind the companion screen (`diskref ui --game`): a view over the game the
// pipeline referees (pipeline/refereed_game.h, where the timing of frames and inputs is told).
// The game lives on the worker thread: the worker's frame hook gives every tracked frame to the
// pipeline. The screen never touches the referee: it submits inputs and reads the newest
// published GameView, an immutable copy of the books, the log (as text, with its numbers), what is
// expected next and the inputs the rules allow now, built on the worker's thread after a frame
// that changed the game.

#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/track_frame.h"
#include "net/live_feed.h"
#include "pipeline/refereed_game.h"
#include "referee/books_shown.h"
#include "referee/referee.h"
#include "ui/game_inputs.h"

namespace diskref::ui {

// The panels' values are the referee's public view of the books (shared with the live feed).
using referee::CrewShown;
using referee::ShipShown;
using referee::TurnShown;

struct GameLogLine {
  std::size_t number = 0;  // the entry's index in the log (what a correction names)
  double t = 0;
  std::string text;  // referee::entry_text
  enum class Tone { info, warning, refusal, correction } tone = Tone::info;
  std::vector<referee::Verdict> verdicts;  // read from the table: what may be decided again
  // The inputs the entry took (their index, as a correction names them, and the spec §9 line
  // without "t"): what may be fixed from the log.
  std::vector<std::pair<std::size_t, nlohmann::json>> inputs;
};

// The move (or run) last read from the table, for the views to draw.
struct ShownMove {
  std::size_t entry = 0;
  referee::Observed observed;
};

struct GameView {
  long long version = 0;
  double t = 0;  // the last frame the referee was fed
  rules::GameState state;
  referee::Expectation expecting;
  std::vector<ShipShown> ships;  // the ship panels, as shown
  TurnShown turn;                // the turn panel
  std::vector<GameLogLine> log;
  std::optional<ShownMove> last_move;
  // An attack's range read from the table after the last move (a beam, a transport): drawn as a
  // line from the attacker to its target with the margin.
  std::optional<ShownMove> last_attack;
  std::optional<GameLogLine> last_ruling;  // the latest action applied, shown large
  // Warnings the table gave in the last few seconds (off path, out of turn, ...): the banner.
  std::vector<GameLogLine> alerts;
  // The latest refused input, with the rule's reason.
  std::optional<GameLogLine> refusal;
  // The counters on the table as the referee last read them (a drop asked for, or not): drawn over
  // the views with their faces, the tally and the question (referee/counter_reading.h).
  std::optional<referee::CountersSeen> counters;
  std::vector<InputChoice> choices;
  std::size_t inputs_given = 0;         // to the referee, corrections included
  std::optional<std::size_t> undoable;  // the last input that is not itself a correction
  std::size_t queued = 0;               // submitted, waiting for the next frame
  std::string note;                     // e.g. why frames are being ignored
  // What the network side said last (--serve, --mqtt): where it serves, the broker lost or back.
  std::string network;
  bool network_trouble = false;  // the last thing said is a loss
};

// What the live feed says, handed from the network's threads to the screen's view.
class NetworkNotes {
 public:
  // One line as the screen shows it: a notice's terminal QR code is left out (the screen draws
  // its own; the line says where).
  void say(const std::string& line);
  // The latest line and whether it tells of trouble; `serial` changes with each line.
  std::string latest(bool& trouble, long long& serial) const;

 private:
  mutable std::mutex mutex_;
  std::string latest_;
  long long serial_ = 0;
};

class LiveGame {
 public:
  // `preloaded` in time order (referee::load_inputs); `inputs_out`: record every input given.
  // `feed` (optional): the live feed (net/) the referee's rulings go out on, after each frame;
  // `notes`: what it says, for the screen. `live_source`: the frames come from a camera (a
  // preloaded input's `t` counts from the first frame).
  LiveGame(referee::Referee referee, std::vector<referee::Input> preloaded,
           std::optional<std::filesystem::path> inputs_out, std::unique_ptr<net::LiveFeed> feed = nullptr,
           std::shared_ptr<NetworkNotes> notes = nullptr, bool live_source = false);

  // The game the pipeline feeds (pipeline::Pipeline takes it).
  const std::shared_ptr<pipeline::RefereedGame>& game() const { return game_; }

  // Worker thread: one tracked frame straight to the game (tests; the screen goes through its
  // pipeline, which does the same and records).
  void on_frame(const model::TrackFrame& frame) { game_->on_frame(frame); }
  // A recorded game replayed (`diskref ui --replay`): see RefereedGame::enable_rewind.
  void enable_rewind(std::function<referee::Referee()> fresh, std::vector<model::TrackFrame> frames);
  // Any thread: an input (a spec §9 line without "t") for the next frame.
  void submit(nlohmann::json line);
  // The source ended: the inputs still due are given, then the referee's finish(). Call once the
  // worker no longer feeds frames.
  void finish() { game_->finish(); }

  std::shared_ptr<const GameView> view() const;
  // The live feed opened beyond loopback (--serve 0.0.0.0:PORT): the address a phone opens, with
  // its token, and its QR code, for the screen to show; empty otherwise. Fixed for the session.
  const std::optional<net::FeedAccess>& feed_access() const { return feed_access_; }
  // The referee itself, read under its lock on the calling thread.
  void read_referee(const std::function<void(const referee::Referee&)>& read) const { game_->read_referee(read); }
  // The referee's own log JSON (tests, the end of a session).
  nlohmann::json log_json() const { return game_->log_json(); }

  // How many seconds of video a warning stays in the banner.
  static constexpr double kAlertShowS = 6.0;

 private:
  // The game's observer (the worker's thread, the referee locked): a new view when it changed.
  void after(const referee::Referee& referee, const pipeline::GameMoment& moment);
  void publish(const referee::Referee& referee, double t, const std::string& note);

  std::shared_ptr<pipeline::RefereedGame> game_;
  std::optional<net::FeedAccess> feed_access_;
  std::shared_ptr<NetworkNotes> notes_;
  long long notes_seen_ = 0;
  long long version_ = 0;
  struct Signature {
    std::size_t entries = 0, inputs = 0;
    long long actions = 0;
    std::string expecting;
    bool gave = false;
    long long half_seconds = 0;
    bool finished = false;
    std::string note;
    bool operator==(const Signature&) const = default;
  };
  std::optional<Signature> signature_;

  mutable std::mutex view_mutex_;
  std::shared_ptr<const GameView> view_;
};

// The view built from a referee (pure: tests call it directly).
GameView make_game_view(const referee::Referee& referee, double t);

}  // namespace diskref::ui
