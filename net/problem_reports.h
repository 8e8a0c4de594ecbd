#pragma once
// A problem on the network side (a malformed request, a client that stopped reading, the broker
// gone) is said once, however often it happens: a flood of bad requests must not flood the
// referee's screen or its log. Each kind is passed to the sink the first time; later ones are
// only counted. Thread-safe: the server's threads and the broker's report into one.

#include <functional>
#include <map>
#include <mutex>
#include <string>

namespace diskref::net {

class ProblemReports {
 public:
  using Sink = std::function<void(const std::string& text)>;
  explicit ProblemReports(Sink sink) : sink_(std::move(sink)) {}

  // `kind` groups the problem ("bad_request", "slow_client", ...); `text` says it to a person.
  void report(const std::string& kind, const std::string& text);
  // A state that comes and goes (the broker lost, then back): said at each change, not repeated
  // while it lasts.
  void state(const std::string& kind, const std::string& text);
  // How many times `kind` happened (reported or not).
  int count(const std::string& kind) const;

 private:
  Sink sink_;
  mutable std::mutex mutex_;
  std::map<std::string, int> counts_;
  std::map<std::string, std::string> states_;
};

}  // namespace diskref::net
