#include "pipeline/input_lines.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/io/json_cursor.h"
#include "referee/inputs.h"

namespace diskref::pipeline {
namespace {

// How long a read waits before it looks at stop(): short enough that Ctrl-C ends at once.
constexpr int kInputPollMs = 100;

}  // namespace

InputLines::InputLines(int fd, std::shared_ptr<RefereedGame> game, InputLinesOptions options, Say say)
    : fd_(fd), game_(std::move(game)), options_(std::move(options)), say_(std::move(say)) {
  thread_ = std::thread([this] { run(); });
}

std::unique_ptr<InputLines> InputLines::follow_file(const std::filesystem::path& file,
                                                    std::shared_ptr<RefereedGame> game, Say say) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw io::InputError(file.string(), "", std::string("cannot be read: ") + std::strerror(errno));
  auto lines = std::make_unique<InputLines>(fd, std::move(game), InputLinesOptions::following(file), std::move(say));
  lines->owned_fd_ = fd;
  return lines;
}

InputLines::~InputLines() {
  stop();
  if (owned_fd_ >= 0) ::close(owned_fd_);
}

void InputLines::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void InputLines::line(std::string text) {
  ++number_;
  if (!text.empty() && text.back() == '\r') text.pop_back();
  if (text.find_first_not_of(" \t") == std::string::npos) return;  // blank lines are allowed
  const std::string where = fmt::format("{}: line {}", options_.name, number_);
  try {
    nlohmann::json j = nlohmann::json::parse(text);
    if (!j.is_object()) throw io::InputError(where, "", "is not a JSON object");
    if (j.contains("t"))
      throw io::InputError(where, "t", "an input typed live is timed when it arrives; leave \"t\" out");
    // Checked now with a time of 0 (the game gives it the next frame's): the typist hears at once.
    nlohmann::json timed = j;
    timed["t"] = 0.0;
    (void)referee::parse_input(io::JsonCursor(timed, where));
    game_->submit(std::move(j), where);
    ++taken_;
    say_(where + ": taken");
  } catch (const nlohmann::json::exception& e) {
    ++refused_;
    say_(where + ": not taken: not JSON (" + std::string(e.what()) + ")");
  } catch (const io::InputError& e) {
    ++refused_;
    // The place is said once, first; then the member and the problem.
    say_(where + ": not taken: " + (e.path().empty() ? "" : "member \"" + e.path() + "\": ") + e.problem());
  }
}

void InputLines::run() {
  std::string pending;
  bool overlong = false;
  char buffer[4096];
  while (!stop_) {
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, kInputPollMs);
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    const ssize_t n = ::read(fd_, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      say_(options_.name + ": cannot be read: " + std::strerror(errno));
      break;
    }
    if (n == 0) {
      if (!options_.follow) break;  // the pipe or terminal closed: no more inputs
      // A regular file is always "ready": at its end, wait as poll would have.
      for (int i = 0; i < kInputPollMs / 10 && !stop_; ++i) ::usleep(10 * 1000);
      continue;
    }
    for (ssize_t i = 0; i < n; ++i) {
      const char c = buffer[i];
      if (c == '\n') {
        if (overlong) {
          ++number_;
          ++refused_;
          say_(fmt::format("{}: line {}: not taken: longer than {} bytes", options_.name, number_,
                           options_.max_line_bytes));
        } else {
          line(std::move(pending));
        }
        pending.clear();
        overlong = false;
      } else if (!overlong) {
        pending.push_back(c);
        if (pending.size() > options_.max_line_bytes) {
          overlong = true;
          pending.clear();
          pending.shrink_to_fit();
        }
      }
    }
  }
  // A last line without its newline is a line (a file written without one at its end).
  if (!pending.empty() && !overlong && !options_.follow) line(std::move(pending));
  ended_ = true;
}

}  // namespace diskref::pipeline
