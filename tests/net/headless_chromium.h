#pragma once
// Test support: a real browser, Debian's chromium, headless, driven through the DevTools protocol
// over a pipe (--remote-debugging-pipe: JSON messages ended by a NUL byte on fds 3 and 4), so that
// a test loads a page, asks it what it shows, and takes a screenshot, as a person would look.
// No chromium is a failure that says how to install it, never a skipped test.

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

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
  // Polls `expression` until it is true; false after `timeout`.
  bool wait_until(const std::string& expression, std::chrono::milliseconds timeout);
  // The page as shown now, PNG bytes.
  std::vector<unsigned char> screenshot_png();

 private:
  nlohmann::json call(const std::string& method, nlohmann::json params, bool in_page = true);
  nlohmann::json read_message(std::chrono::milliseconds timeout);

  int pid_ = -1;
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
