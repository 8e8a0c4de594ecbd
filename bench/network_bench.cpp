// The feed's server and the hall under hostile clients (docs/design/network-security.md): what
// they cost in memory and how honest clients fare, written by this program to
// docs/figures/network.md (with the date, the commit and the machine). In this process, on
// loopback. Usage: network_bench [OUT.md]   (default: DISKREF_SOURCE_DIR/docs/figures/network.md)
//
//   memory: the process's resident set before and after (and its peak during) a hall of 1000
//     tables of a real state's size (256 are kept: the hall's limit), a 5 MB state followed by 120
//     small updates, a state nested 100,000 deep (200 KB), and a request of 10,000 headers;
//   latency: honest GET / answered while 200 trickling connections (each from its own address,
//     each a request head sent one piece at a time) are open, against the same with none open;
//   exit: the time to stop the server with those connections open, against none.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "net/feed_hub.h"
#include "net/hall.h"
#include "net/http_feed_server.h"

namespace {

using namespace diskref;
using Clock = std::chrono::steady_clock;

long kib_of(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(std::string(field).size()));
  return -1;
}
long rss_kib() {
  return kib_of("VmRSS:");
}
long peak_kib() {
  return kib_of("VmHWM:");
}
void reset_peak() {
  std::ofstream("/proc/self/clear_refs") << "5";
}

std::string command_output(const std::string& command) {
  std::string out;
  if (FILE* p = ::popen(command.c_str(), "r")) {
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, p)) out += buffer;
    ::pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out.substr(std::min(out.size(), out.find_first_not_of(' ')));
}

// A table's state as a referee publishes it (spec §10.4): 40 disks in the setup and the frame,
// four ships, a ruling with its evidence. About 20 KB, as a real game's.
std::string real_state(int table, int turn) {
  nlohmann::json disks = nlohmann::json::array(), poses = nlohmann::json::array();
  for (int d = 0; d < 40; ++d) {
    const std::string name = "disk-" + std::to_string(d);
    disks.push_back({{"name", name},
                     {"kind", d < 4 ? "ship" : "terrain"},
                     {"shape", {{"type", "circle"}, {"diameter_mm", 60.0 + d}}},
                     {"tags", {{{"id", d}, {"size_mm", 30}}}},
                     {"color", "#9e9e9e"}});
    poses.push_back({{"name", name},
                     {"x", 100.5 + d * 10.25},
                     {"y", 200.75 + table},
                     {"heading", 33.3 + turn},
                     {"sigma_mm", 0.41},
                     {"state", "visible"},
                     {"face", "up"}});
  }
  nlohmann::json ships = nlohmann::json::array();
  for (int s = 0; s < 4; ++s)
    ships.push_back({{"id", "disk-" + std::to_string(s)},
                     {"name", "USS Ship " + std::to_string(s)},
                     {"controller", "Player"},
                     {"speed", 3},
                     {"max_speed", 6},
                     {"shields", 4},
                     {"max_shields", 6},
                     {"hull", 8},
                     {"max_hull", 10},
                     {"crits", nlohmann::json::array()},
                     {"orders", {"face down", "face down", "fire"}}});
  nlohmann::json ruling = {{"entry", 17},
                           {"t", 120.5},
                           {"text", "disk-1 moves 3 and lands clear of the planet"},
                           {"tone", "info"},
                           {"observed", {{"disk", "disk-1"}, {"landings", poses}}}};
  return nlohmann::json{{"feed", 1},
                        {"type", "state"},
                        {"table", "table-" + std::to_string(table)},
                        {"setup", {{"play_area_mm", {900, 600}}, {"disks", disks}}},
                        {"frame", {{"frame", 1000 + turn}, {"t", 33.3}, {"disks", poses}}},
                        {"game", {{"turn", {{"turn", turn}, {"step", "movement"}}}, {"ships", ships}}},
                        {"last_ruling", ruling},
                        {"rulings", 18}}
      .dump();
}

struct MemoryRow {
  std::string what;
  long before = 0, after = 0, peak = 0;
};

int connect_from(int port, const std::string& source) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in from{};
  from.sin_family = AF_INET;
  ::inet_pton(AF_INET, source.c_str(), &from.sin_addr);
  ::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<std::uint16_t>(port));
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

void send_text(int fd, const std::string& text) {
  std::size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t n = ::send(fd, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;
    sent += static_cast<std::size_t>(n);
  }
}

// Reads until the peer closes or 10 s pass; returns what came.
std::string read_all(int fd) {
  std::string got;
  const auto end = Clock::now() + std::chrono::seconds(10);
  while (Clock::now() < end) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    char chunk[16384];
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) break;
    got.append(chunk, static_cast<std::size_t>(n));
  }
  return got;
}

// Milliseconds for an honest GET / to be answered whole, `n` times, in order.
std::vector<double> honest_latencies(int port, int n) {
  std::vector<double> ms;
  for (int i = 0; i < n; ++i) {
    const auto start = Clock::now();
    const int fd = connect_from(port, "127.0.0.1");
    send_text(fd, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    const std::string answer = read_all(fd);
    ::close(fd);
    ms.push_back(answer.rfind("HTTP/1.1 200", 0) == 0
                     ? std::chrono::duration<double, std::milli>(Clock::now() - start).count()
                     : 1e9);  // not answered: shown as such
  }
  return ms;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string fmt(double v, int decimals = 1) {
  if (v >= 1e9) return "not answered";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
  return buffer;
}

}  // namespace

int main(int argc, char** argv) {
  const std::filesystem::path out =
      argc > 1 ? std::filesystem::path(argv[1]) : std::filesystem::path(DISKREF_SOURCE_DIR) / "docs/figures/network.md";
  std::vector<MemoryRow> memory;
  net::ProblemReports quiet(nullptr);

  // The hall: 1000 tables of a real state's size.
  {
    net::FeedHub hub;
    net::HallLimits limits;
    auto hall = std::make_unique<net::Hall>(net::Endpoint{"127.0.0.1", 1}, "diskref/tables", hub, quiet, limits);
    const std::size_t state_bytes = real_state(0, 1).size();
    MemoryRow row{"a hall of 1000 tables (" + std::to_string(state_bytes / 1024) + " KiB each; " +
                      std::to_string(limits.max_tables) + " kept), each updated 3 times",
                  rss_kib(), 0, 0};
    reset_peak();
    for (int round = 1; round <= 3; ++round)
      for (int t = 0; t < 1000; ++t)
        hall->take("diskref/tables/table-" + std::to_string(t) + "/state", real_state(t, round));
    hall->settle();
    hub.snapshot_text();  // what a page opening now costs
    row.after = rss_kib();
    row.peak = peak_kib();
    memory.push_back(row);

    MemoryRow big{"a 5 MB state (refused: over 256 KiB), then 120 updates of another table", rss_kib(), 0, 0};
    reset_peak();
    hall->take("diskref/tables/table-0/state", "{\"x\": \"" + std::string(5 << 20, 'a') + "\"}");
    for (int i = 0; i < 120; ++i) hall->take("diskref/tables/table-1/state", real_state(1, 10 + i));
    hall->settle();
    big.after = rss_kib();
    big.peak = peak_kib();
    memory.push_back(big);

    MemoryRow deep{"a state nested 100,000 deep (200 KB; refused at depth 64 while parsing)", rss_kib(), 0, 0};
    reset_peak();
    hall->take("diskref/tables/table-2/state", std::string(100000, '[') + std::string(100000, ']'));
    hall->settle();
    deep.after = rss_kib();
    deep.peak = peak_kib();
    memory.push_back(deep);
  }

  net::FeedHub hub;
  auto server = std::make_unique<net::HttpFeedServer>(hub, net::HttpFeedOptions{}, quiet);
  server->add_page("/", "text/html; charset=utf-8", std::string(3400, 'p'));
  const int port = server->port();
  {
    MemoryRow row{"a request of 10,000 headers (refused: a head may be 32 KiB, in a connection's 64 KiB)", rss_kib(), 0,
                  0};
    reset_peak();
    std::string request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (int i = 0; i < 10000; ++i) request += "X-Header-" + std::to_string(i) + ": value\r\n";
    request += "\r\n";
    const int fd = connect_from(port, "127.0.0.3");
    send_text(fd, request);
    const std::string answer = read_all(fd);
    ::close(fd);
    row.what += answer.rfind("HTTP/1.1 431", 0) == 0 ? ", answered 431" : ", connection closed";
    row.after = rss_kib();
    row.peak = peak_kib();
    memory.push_back(row);
  }

  // Honest clients alone, then beside 200 trickling connections.
  const int honest = 40;
  const std::vector<double> alone = honest_latencies(port, honest);
  std::vector<int> trickling;
  for (int i = 0; i < 200; ++i) {
    const int fd = connect_from(port, "127.0.1." + std::to_string(1 + i));
    if (fd < 0) continue;
    send_text(fd, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a");
    trickling.push_back(fd);
  }
  // Each sends a byte now and then while the honest ones ask (the watchdog cuts them at 10 s).
  std::vector<double> beside;
  for (int i = 0; i < honest; ++i) {
    for (int fd : trickling) ::send(fd, "a", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    const std::vector<double> one = honest_latencies(port, 1);
    beside.push_back(one[0]);
  }
  const int still_open = static_cast<int>(std::count_if(trickling.begin(), trickling.end(), [](int fd) {
    pollfd p{fd, POLLIN, 0};
    return ::poll(&p, 1, 0) == 0;
  }));
  const auto stop_start = Clock::now();
  server.reset();
  const double stop_with = std::chrono::duration<double, std::milli>(Clock::now() - stop_start).count();
  for (int fd : trickling) ::close(fd);
  server = std::make_unique<net::HttpFeedServer>(hub, net::HttpFeedOptions{}, quiet);
  const auto plain_start = Clock::now();
  server.reset();
  const double stop_without = std::chrono::duration<double, std::milli>(Clock::now() - plain_start).count();

  // The figures, with where they come from.
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  utsname u{};
  ::uname(&u);
  const std::string commit = command_output("git -C " + std::string(DISKREF_SOURCE_DIR) + " rev-parse --short HEAD");
  const std::string cpu = command_output("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2");
  std::ostringstream md;
  md << "# The feed and the hall under hostile clients\n\n"
     << "Written by `build/bench/network_bench` (bench/network_bench.cpp) on " << date << ", commit " << commit << ", "
     << cpu << " (" << ::sysconf(_SC_NPROCESSORS_ONLN) << " cores), " << u.sysname << " " << u.release
     << ". In one process on loopback; the limits are docs/design/network-security.md's.\n\n"
     << "## Memory\n\nThe process's resident set (KiB) before and after each, and its peak during it.\n\n"
     << "| what | before | after | peak | growth (after - before) |\n|---|---|---|---|---|\n";
  for (const MemoryRow& r : memory)
    md << "| " << r.what << " | " << r.before << " | " << r.after << " | " << r.peak << " | " << r.after - r.before
       << " |\n";
  md << "\nThe bound: the hall keeps at most 256 tables of at most 256 KiB of state each (64 MiB of "
        "state text, held parsed once in the hub), the hub's ring at most 32 MiB of messages; a request head "
        "at most 32 KiB, in at most 64 KiB of memory per connection.\n\n"
     << "## Honest clients beside 200 trickling connections\n\n"
     << "Each of " << honest << " honest `GET /` (a 3.4 KB page), one after the other, from connect to the whole "
     << "answer. The trickling connections each come from their own address (127.0.1.1 to 127.0.1.200: the "
     << "per-address cap does not help), have sent part of a request head, and send a byte before each honest "
     << "request.\n\n"
     << "| | median (ms) | slowest (ms) |\n|---|---|---|\n"
     << "| no other client | " << fmt(median(alone), 2) << " | "
     << fmt(*std::max_element(alone.begin(), alone.end()), 2) << " |\n"
     << "| 200 trickling connections open (" << still_open << " still open at the end) | " << fmt(median(beside), 2)
     << " | " << fmt(*std::max_element(beside.begin(), beside.end()), 2) << " |\n\n"
     << "Goal: under 2 s.\n\n"
     << "## Stopping\n\n"
     << "| | time to stop the server (ms) |\n|---|---|\n"
     << "| no client | " << fmt(stop_without) << " |\n"
     << "| the 200 trickling connections open | " << fmt(stop_with) << " |\n";
  std::filesystem::create_directories(out.parent_path());
  std::ofstream(out) << md.str();
  std::printf("%s", md.str().c_str());
  std::printf("\nwritten to %s\n", out.string().c_str());
  return 0;
}
