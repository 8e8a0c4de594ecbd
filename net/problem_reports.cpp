#include "net/problem_reports.h"

namespace diskref::net {

void ProblemReports::report(const std::string& kind, const std::string& text) {
  bool first = false;
  {
    std::lock_guard lock(mutex_);
    first = counts_[kind]++ == 0;
  }
  if (first && sink_) sink_(text);
}

void ProblemReports::state(const std::string& kind, const std::string& text) {
  bool changed = false;
  {
    std::lock_guard lock(mutex_);
    ++counts_[kind];
    std::string& now = states_[kind];
    changed = now != text;
    now = text;
  }
  if (changed && sink_) sink_(text);
}

int ProblemReports::count(const std::string& kind) const {
  std::lock_guard lock(mutex_);
  const auto it = counts_.find(kind);
  return it == counts_.end() ? 0 : it->second;
}

}  // namespace diskref::net
