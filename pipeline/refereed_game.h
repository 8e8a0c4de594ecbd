#pragma once
// A game being refereed as its frames arrive: the referee with its inputs and the live feed, the
// one place every way in (`diskref referee` on a video, a tracks file, a recording or a live
// camera; the companion screen; `--session` replay) gives frames and inputs to the referee.
//
// Timing, the same for every way in, so that a game refereed live gives the log its recording
// gives again: an input submitted while the game runs (the screen, standard input, a followed
// file) is given to the referee just before the next frame, with that frame's time as its `t`; a
// preloaded input (--inputs, a recording's inputs) is given just before the first frame at or
// after its `t`. Every input given is written to `inputs_out` (when asked) as one spec §9 line,
// flushed at once, in the order given: the order `correct` inputs count in.
//
// Threads: on_frame() and finish() on the one thread that feeds frames; submit() and queued()
// from any; the referee is read under its lock (read_referee, the observer).

#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/model/track_frame.h"
#include "net/live_feed.h"
#include "referee/referee.h"

namespace diskref::pipeline {

struct RefereedGameOptions {
  // Every input given, written here as it is given (spec §9 lines).
  std::optional<std::filesystem::path> inputs_out;
  // A live camera's frame times are its driver's clock, not seconds into the game: a preloaded
  // input's `t` then counts from the first frame (a file's times already start at its start).
  bool inputs_from_first_frame = false;
};

// What the game is at, after a frame (or the end), for an observer.
struct GameMoment {
  double t = 0;               // the frame's time (the last frame's at the end)
  std::string note;           // why frames are being ignored, an input that was not one; empty: none
  bool inputs_given = false;  // submitted inputs were given at this frame
  bool finished = false;
};

class RefereedGame {
 public:
  // Called on the frame thread after every frame the game took (and once at the end), with the
  // referee under its lock: a screen builds its view here.
  using Observer = std::function<void(const referee::Referee&, const GameMoment&)>;

  // `preloaded`: in time order (referee::load_inputs). `feed` (optional): the live feed the
  // rulings go out on after each frame. Throws io::InputError when inputs_out cannot be written.
  RefereedGame(referee::Referee referee, std::vector<referee::Input> preloaded, RefereedGameOptions options = {},
               std::unique_ptr<net::LiveFeed> feed = nullptr);

  void set_observer(Observer observer);
  // A recorded game replayed on a screen: the video may be taken back to any moment, and the game
  // then is as it was then: refereed again from its start (`fresh`) over the recorded frames
  // before it, with the preloaded inputs as they fell due.
  void enable_rewind(std::function<referee::Referee()> fresh, std::vector<model::TrackFrame> frames);

  // One tracked frame, in time order. A frame that goes back in time (a seek) rewinds the game
  // when it can, else it is ignored (the game follows the video forward only) and said once.
  void on_frame(const model::TrackFrame& frame);
  // Any thread: an input (a spec §9 line; its "t", if any, is replaced by the next frame's time).
  // `where` names it in messages ("standard input: line 3"); empty: "the screen".
  void submit(nlohmann::json line, std::string where = {});
  std::size_t queued() const;
  // The source ended: the inputs still due are given, then the referee's finish(). Once; later
  // frames are ignored.
  void finish();
  bool finished() const;

  void read_referee(const std::function<void(const referee::Referee&)>& read) const;
  nlohmann::json log_json() const;

 private:
  struct Submitted {
    nlohmann::json line;
    std::string where;
  };
  void give(referee::Input input);  // referee_mutex_ held
  // The preloaded inputs due by `t` (their times counted from the first frame for a live source).
  void give_preloaded_through(double t);
  // The submitted lines, given at time `t` (referee_mutex_ held); how many; `note` says one that
  // was no input.
  std::size_t give_submitted(double t, std::string& note);
  void tell(const GameMoment& moment) const;

  mutable std::mutex referee_mutex_;  // the frame thread, finish(), readers
  referee::Referee referee_;
  std::deque<referee::Input> preloaded_;
  std::vector<referee::Input> all_preloaded_;  // for a rewind
  RefereedGameOptions options_;
  std::function<referee::Referee()> fresh_referee_;
  std::vector<model::TrackFrame> recorded_frames_;
  std::optional<std::ofstream> out_;
  std::optional<double> first_t_;  // the first frame's time (inputs_from_first_frame)
  std::optional<double> last_t_;
  bool finished_ = false;
  bool said_going_back_ = false;
  std::unique_ptr<net::LiveFeed> feed_;
  Observer observer_;

  mutable std::mutex queue_mutex_;
  std::vector<Submitted> queue_;
};

}  // namespace diskref::pipeline
