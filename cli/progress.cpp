#include "cli/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace diskref::cli {

Progress::Progress(std::optional<long long> total, bool quiet)
    : total_(total), quiet_(quiet), tty_(isatty(STDERR_FILENO) != 0) {}

void Progress::update(long long done, double fps) {
  if (quiet_) return;
  const auto now = std::chrono::steady_clock::now();
  if (tty_) {
    if (now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    if (total_ && *total_ > 0) {
      const double f = std::min(1.0, static_cast<double>(done) / static_cast<double>(*total_));
      const int filled = static_cast<int>(f * 30);
      std::fprintf(stderr, "\r[%s%s] %3.0f %%  frame %lld/%lld  %.0f fps ", std::string(filled, '#').c_str(),
                   std::string(30 - filled, ' ').c_str(), 100 * f, done, *total_, fps);
    } else {
      std::fprintf(stderr, "\rframe %lld  %.0f fps ", done, fps);
    }
  } else if (total_ && *total_ > 0) {
    const int tenth = static_cast<int>(10 * done / *total_);
    if (tenth > last_tenth_) {
      last_tenth_ = tenth;
      std::fprintf(stderr, "%d %% (frame %lld/%lld, %.0f fps)\n", 10 * tenth, done, *total_, fps);
    }
  }
}

void Progress::finish() {
  if (!quiet_ && tty_) std::fprintf(stderr, "\n");
}

}  // namespace diskref::cli
