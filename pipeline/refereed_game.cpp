#include "pipeline/refereed_game.h"

#include <limits>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/io/json_cursor.h"
#include "referee/inputs.h"

namespace diskref::pipeline {

RefereedGame::RefereedGame(referee::Referee referee, std::vector<referee::Input> preloaded, RefereedGameOptions options,
                           std::unique_ptr<net::LiveFeed> feed)
    : referee_(std::move(referee)),
      preloaded_(preloaded.begin(), preloaded.end()),
      all_preloaded_(std::move(preloaded)),
      options_(std::move(options)),
      feed_(std::move(feed)) {
  if (options_.inputs_out) {
    out_.emplace(*options_.inputs_out, std::ios::trunc);
    if (!*out_) throw io::InputError(options_.inputs_out->string(), "", "cannot be written");
  }
}

void RefereedGame::set_observer(Observer observer) {
  std::lock_guard lock(referee_mutex_);
  observer_ = std::move(observer);
}

void RefereedGame::enable_rewind(std::function<referee::Referee()> fresh, std::vector<model::TrackFrame> frames) {
  std::lock_guard lock(referee_mutex_);
  fresh_referee_ = std::move(fresh);
  recorded_frames_ = std::move(frames);
}

void RefereedGame::give(referee::Input input) {
  if (out_) {
    *out_ << referee::input_to_json(input).dump() << "\n";
    out_->flush();  // a crash loses at most the line being written
  }
  referee_.add_input(std::move(input));
}

void RefereedGame::tell(const GameMoment& moment) const {
  if (observer_) observer_(referee_, moment);
}

void RefereedGame::give_preloaded_through(double t) {
  const double offset = options_.inputs_from_first_frame && first_t_ ? *first_t_ : 0.0;
  while (!preloaded_.empty() && preloaded_.front().t + offset <= t) {
    referee::Input in = std::move(preloaded_.front());
    preloaded_.pop_front();
    in.t += offset;
    give(std::move(in));
  }
}

std::size_t RefereedGame::give_submitted(double t, std::string& note) {
  std::vector<Submitted> lines;
  {
    std::lock_guard q(queue_mutex_);
    lines.swap(queue_);
  }
  for (Submitted& s : lines) {
    const std::string where = s.where.empty() ? "the screen" : s.where;
    try {
      s.line["t"] = t;
      referee::Input in = referee::parse_input(io::JsonCursor(s.line, where));
      in.where = where;
      give(std::move(in));
    } catch (const io::InputError& e) {
      // Checked where it was typed (the screen, InputLines) before it was submitted: only a line
      // that changed meaning since (e.g. a time) gets here.
      note = std::string("not an input: ") + e.what();
    }
  }
  return lines.size();
}

void RefereedGame::on_frame(const model::TrackFrame& frame) {
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
  GameMoment moment;
  moment.t = frame.t;
  if (last_t_ && frame.t <= *last_t_) {
    if (!said_going_back_) {
      said_going_back_ = true;
      moment.t = *last_t_;
      moment.note = fmt::format(
          "the video went back: the game follows it forward only (frames up to {:.2f} s are not refereed again)",
          *last_t_);
      tell(moment);
    }
    return;
  }
  said_going_back_ = false;
  if (!first_t_) first_t_ = frame.t;
  give_preloaded_through(frame.t);
  const std::size_t given = give_submitted(frame.t, moment.note);
  moment.inputs_given = given > 0;
  last_t_ = frame.t;
  referee_.feed(frame);
  if (feed_) feed_->after_frame(frame, referee_);
  tell(moment);
}

void RefereedGame::submit(nlohmann::json line, std::string where) {
  std::lock_guard q(queue_mutex_);
  queue_.push_back({std::move(line), std::move(where)});
}

std::size_t RefereedGame::queued() const {
  std::lock_guard q(queue_mutex_);
  return queue_.size();
}

void RefereedGame::finish() {
  std::lock_guard lock(referee_mutex_);
  if (finished_) return;
  give_preloaded_through(std::numeric_limits<double>::infinity());
  // Inputs submitted after the last frame (a line typed as the camera stopped) are given at its time.
  std::string unused_note;
  give_submitted(last_t_.value_or(0), unused_note);
  referee_.finish();
  if (feed_) feed_->after_finish(referee_);
  finished_ = true;
  GameMoment moment;
  moment.t = last_t_.value_or(0);
  moment.finished = true;
  tell(moment);
}

bool RefereedGame::finished() const {
  std::lock_guard lock(referee_mutex_);
  return finished_;
}

void RefereedGame::read_referee(const std::function<void(const referee::Referee&)>& read) const {
  std::lock_guard lock(referee_mutex_);
  read(referee_);
}

nlohmann::json RefereedGame::log_json() const {
  std::lock_guard lock(referee_mutex_);
  return referee_.log_json();
}

}  // namespace diskref::pipeline
