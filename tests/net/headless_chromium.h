#pragma once
// Test support: a real browser, Debian's chromium, headless, driven through the DevTools protocol
// over a pipe (--remote-debugging-pipe: JSON messages ended by a NUL byte on fds 3 and 4), so that
// a test loads a page, asks it what it shows, and takes a screenshot, as a person would look.
// No chromium is a failure that says how to install it, never a skipped test.

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/process_exit.h"

namespace diskref::testing {

class HeadlessChromium {
 public:
  HeadlessChromium(int width, int height, const std::filesystem::path& scratch);
  ~HeadlessChromium();
  HeadlessChromium(const HeadlessChromium&) = delete;
  HeadlessChromium& operator=(const HeadlessChromium&) = delete;

  // Loads `url` and waits for its load event.
  void navigate(const std::string& url);
  // The value of a JavaScript expression in the page (promises awaited).
  nlohmann::json evaluate(const std::string& expression);
  // Waits in the page until `expression` is true, looking again at each change the page makes (to
  // its document, to an image or other resource loading, or to window.diskref); false after
  // `timeout` (a failure's bound). An expression that throws throws here, as evaluate() does.
  bool wait_until(const std::string& expression, std::chrono::milliseconds timeout);
  // The page as shown now, PNG bytes.
  std::vector<unsigned char> screenshot_png();

 private:
  // Sends a DevTools command and waits up to `reply_limit` (a failure's bound) for its answer.
  nlohmann::json call(const std::string& method, nlohmann::json params, bool in_page = true,
                      std::chrono::milliseconds reply_limit = std::chrono::seconds(30));
  nlohmann::json read_message(std::chrono::milliseconds timeout);
  // Asks the browser to close, gives it a while, then kills its process group.
  void close_browser();

  int pid_ = -1;
  std::unique_ptr<ProcessExit> exit_;  // readable once the browser has ended
  int to_browser_ = -1;
  int from_browser_ = -1;
  std::string buffer_;
  long long next_id_ = 1;
  std::string session_;
  std::vector<nlohmann::json> events_;
  std::filesystem::path profile_;
};

std::vector<unsigned char> base64_decode(const std::string& text);

}  // namespace diskref::testing
