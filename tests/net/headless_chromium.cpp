#include "headless_chromium.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

#include <stdexcept>

#include <nlohmann/json.hpp>

namespace diskref::testing {
namespace {

std::string chromium_path() {
  if (const char* p = std::getenv("DISKREF_CHROMIUM")) return p;
  return "/usr/bin/chromium";
}

// Run in every document before its own scripts: window.diskref, the state a page keeps for its
// tests, says each change of it with an event "diskref-changed" on window (a setter for the
// object the page puts there, and a proxy for its fields), so that wait_until wakes on a change
// of state that touches no element.
constexpr const char* kSayDiskrefChanges = R"JS(
(() => {
  const say = () => window.dispatchEvent(new Event("diskref-changed"));
  const watched = value => value !== null && typeof value === "object"
      ? new Proxy(value, { set(target, key, field) { target[key] = field; say(); return true; } })
      : value;
  let state;
  Object.defineProperty(window, "diskref", {
    configurable: true,
    enumerable: true,
    get: () => state,
    set: value => { state = watched(value); say(); },
  });
})();
)JS";

// A promise, in the page, of EXPRESSION becoming true: looked at now and again at each change of
// the document (a MutationObserver), each resource that loads or fails (load and error, caught on
// their way down to the element: on the document, as an element's load event never passes through
// window) and each change of window.diskref; false after LIMIT ms.
constexpr const char* kWaitUntil = R"JS(
new Promise((resolve, reject) => {
  const observer = new MutationObserver(() => look());
  let bound;
  const stop = () => {
    clearTimeout(bound);
    observer.disconnect();
    document.removeEventListener("load", look, true);
    document.removeEventListener("error", look, true);
    window.removeEventListener("diskref-changed", look);
  };
  function look() {
    try {
      if (Boolean((EXPRESSION))) { stop(); resolve(true); }
    } catch (e) { stop(); reject(e); }
  }
  bound = setTimeout(() => { stop(); resolve(false); }, LIMIT);
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  document.addEventListener("load", look, true);
  document.addEventListener("error", look, true);
  window.addEventListener("diskref-changed", look);
  look();
})
)JS";

}  // namespace

std::vector<unsigned char> base64_decode(const std::string& text) {
  std::vector<unsigned char> out;
  unsigned bits = 0;
  int count = 0;
  for (char c : text) {
    int v = -1;
    if (c >= 'A' && c <= 'Z')
      v = c - 'A';
    else if (c >= 'a' && c <= 'z')
      v = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      v = c - '0' + 52;
    else if (c == '+')
      v = 62;
    else if (c == '/')
      v = 63;
    if (v < 0) continue;  // '=' and whitespace
    bits = (bits << 6) | static_cast<unsigned>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<unsigned char>((bits >> count) & 0xFF));
    }
  }
  return out;
}

HeadlessChromium::HeadlessChromium(int width, int height, const std::filesystem::path& scratch)
    : profile_(scratch / "chromium-profile") {
  // A browser that died must fail the test with a message, not end it on a write to its pipe.
  std::signal(SIGPIPE, SIG_IGN);
  const std::string program = chromium_path();
  if (::access(program.c_str(), X_OK) != 0)
    throw std::runtime_error(program +
                             " not found: the browser tests need Debian's chromium (apt-get install "
                             "chromium; scripts/install-deps.sh installs it)");
  int to[2], from[2];
  if (::pipe(to) != 0 || ::pipe(from) != 0) throw std::runtime_error("pipe failed");
  const std::string log = (scratch / "chromium.log").string();
  pid_ = ::fork();
  if (pid_ == 0) {
    ::setpgid(0, 0);
    // fds 3 and 4 are the protocol's; move the pipe ends out of the way first.
    const int in = ::fcntl(to[0], F_DUPFD, 10), out = ::fcntl(from[1], F_DUPFD, 10);
    ::dup2(in, 3);
    ::dup2(out, 4);
    const int l = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (l >= 0) {
      ::dup2(l, 1);
      ::dup2(l, 2);
    }
    for (int fd = 5; fd < 1024; ++fd) ::close(fd);
    const std::string size = "--window-size=" + std::to_string(width) + "," + std::to_string(height);
    const std::string profile = "--user-data-dir=" + profile_.string();
    ::execl(program.c_str(), program.c_str(), "--headless=new", "--no-sandbox", "--disable-gpu",
            "--remote-debugging-pipe", "--no-first-run", "--hide-scrollbars", "--mute-audio",
            "--disable-background-timer-throttling", "--disable-renderer-backgrounding", size.c_str(), profile.c_str(),
            "about:blank", static_cast<char*>(nullptr));
    _exit(127);
  }
  exit_ = std::make_unique<ProcessExit>(pid_);
  ::close(to[0]);
  ::close(from[1]);
  to_browser_ = to[1];
  from_browser_ = from[0];
  try {
    const nlohmann::json target = call("Target.createTarget", {{"url", "about:blank"}}, false);
    session_ = call("Target.attachToTarget", {{"targetId", target.at("targetId")}, {"flatten", true}}, false)
                   .at("sessionId")
                   .get<std::string>();
    call("Page.enable", nlohmann::json::object());
    call("Page.addScriptToEvaluateOnNewDocument", {{"source", kSayDiskrefChanges}});
    call("Emulation.setDeviceMetricsOverride",
         {{"width", width}, {"height", height}, {"deviceScaleFactor", 1}, {"mobile", false}});
  } catch (...) {
    // No destructor runs for an object whose constructor throws: a browser that started but would
    // not answer is ended here, not left running after the test.
    close_browser();
    throw;
  }
}

HeadlessChromium::~HeadlessChromium() { close_browser(); }

void HeadlessChromium::close_browser() {
  // Asked to close; if it cannot be asked (already gone), the group is killed below anyway.
  const std::string text = nlohmann::json{{"id", next_id_++}, {"method", "Browser.close"}}.dump() + '\0';
  [[maybe_unused]] const ssize_t sent = ::write(to_browser_, text.data(), text.size());
  ::close(to_browser_);
  ::close(from_browser_);
  // It has a while to close (a bound, then it is killed); whatever of its group is left goes too.
  exit_->wait(std::chrono::seconds(3));
  ::kill(-pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
}

nlohmann::json HeadlessChromium::read_message(std::chrono::milliseconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (const auto nul = buffer_.find('\0'); nul != std::string::npos) {
      nlohmann::json m = nlohmann::json::parse(buffer_.substr(0, nul));
      buffer_.erase(0, nul + 1);
      return m;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) throw std::runtime_error("chromium did not answer in time");
    pollfd p{from_browser_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    char chunk[65536];
    const ssize_t n = ::read(from_browser_, chunk, sizeof chunk);
    if (n <= 0) throw std::runtime_error("chromium ended (see chromium.log in the test's scratch folder)");
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

nlohmann::json HeadlessChromium::call(const std::string& method, nlohmann::json params, bool in_page,
                                      std::chrono::milliseconds reply_limit) {
  const long long id = next_id_++;
  nlohmann::json m{{"id", id}, {"method", method}, {"params", std::move(params)}};
  if (in_page) m["sessionId"] = session_;
  const std::string text = m.dump() + '\0';
  if (::write(to_browser_, text.data(), text.size()) != static_cast<ssize_t>(text.size()))
    throw std::runtime_error("cannot write to chromium");
  for (;;) {
    nlohmann::json r = read_message(reply_limit);
    if (!r.contains("id")) {
      events_.push_back(std::move(r));
      continue;
    }
    if (r.at("id") != id) continue;
    if (r.contains("error")) throw std::runtime_error(method + ": " + r["error"].dump());
    return r.value("result", nlohmann::json::object());
  }
}

void HeadlessChromium::navigate(const std::string& url) {
  events_.clear();
  call("Page.navigate", {{"url", url}});
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (;;) {
    for (const nlohmann::json& e : events_)
      if (e.is_object() && e.contains("method") && e.at("method") == "Page.loadEventFired") return;
    events_.clear();
    if (std::chrono::steady_clock::now() > end) throw std::runtime_error("the page did not load: " + url);
    events_.push_back(read_message(std::chrono::seconds(20)));
  }
}

nlohmann::json HeadlessChromium::evaluate(const std::string& expression) {
  nlohmann::json r =
      call("Runtime.evaluate", {{"expression", expression}, {"returnByValue", true}, {"awaitPromise", true}});
  if (r.contains("exceptionDetails"))
    throw std::runtime_error("in the page: " + expression + ": " + r["exceptionDetails"].dump());
  return r["result"].value("value", nlohmann::json());
}

bool HeadlessChromium::wait_until(const std::string& expression, std::chrono::milliseconds timeout) {
  std::string wait = kWaitUntil;
  wait.replace(wait.find("EXPRESSION"), 10, expression);
  wait.replace(wait.find("LIMIT"), 5, std::to_string(timeout.count()));
  // The page answers by the bound it was given; the reply's own bound is later, for a browser
  // that cannot answer at all.
  const nlohmann::json r =
      call("Runtime.evaluate", {{"expression", wait}, {"returnByValue", true}, {"awaitPromise", true}}, true,
           timeout + std::chrono::seconds(30));
  if (r.contains("exceptionDetails"))
    throw std::runtime_error("in the page: " + expression + ": " + r["exceptionDetails"].dump());
  return r["result"].value("value", nlohmann::json()) == true;
}

std::vector<unsigned char> HeadlessChromium::screenshot_png() {
  return base64_decode(call("Page.captureScreenshot", {{"format", "png"}}).at("data").get<std::string>());
}

}  // namespace diskref::testing
