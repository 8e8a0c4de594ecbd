#include "cli/serve_flags.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>
#include <thread>

#include "engine/io/input_error.h"
#include "net/http_access.h"

namespace diskref::cli {
namespace {

std::string read_pem(const std::string& path, const std::string& option) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io::InputError(path, option, "cannot be read");
  std::stringstream s;
  s << in.rdbuf();
  const std::string text = s.str();
  if (text.size() > 1024 * 1024 || text.find("-----BEGIN ") == std::string::npos)
    throw io::InputError(path, option, "is not a PEM file (-----BEGIN ...)");
  return text;
}

}  // namespace

void add_serve_flags(CLI::App& sub, ServeFlags& f, const std::string& serve_help) {
  sub.add_option("--serve", f.serve, serve_help);
  sub.add_option("--serve-name", f.names,
                 "With --serve: a host name the pages are opened by (beside localhost and IP addresses); repeatable");
  sub.add_option("--serve-cert", f.cert, "With --serve: serve over TLS with this certificate (PEM)");
  sub.add_option("--serve-key", f.key, "With --serve-cert: the certificate's private key (PEM)");
  sub.add_flag("--serve-public", f.public_read,
               "With --serve beyond loopback: the read-only pages and the feed need no token");
}

net::HttpFeedOptions http_feed_options(const ServeFlags& f) {
  net::HttpFeedOptions o;
  o.listen = net::parse_listen_address(f.serve, "--serve");
  o.host_names = f.names;
  for (const std::string& n : f.names)
    if (n.empty() || n.find_first_of(":/[] ") != std::string::npos)
      throw io::InputError("", "--serve-name", "\"" + n + "\": a host name, without a port");
  if (f.cert.empty() != f.key.empty())
    throw io::InputError("", f.cert.empty() ? "--serve-key" : "--serve-cert", "goes with --serve-cert and --serve-key");
  if (!f.cert.empty()) {
    o.tls_cert_pem = read_pem(f.cert, "--serve-cert");
    o.tls_key_pem = read_pem(f.key, "--serve-key");
  }
  // Beyond loopback, anyone on the network could reach the feed: a token is required.
  if (!net::is_loopback(o.listen.host)) o.token = net::new_access_token();
  o.public_read = f.public_read;
  return o;
}

namespace {
std::atomic<bool> g_serving_stopped{false};
extern "C" void on_serving_stop_signal(int) {
  g_serving_stopped = true;
}
}  // namespace

void stop_serving_on_interrupt() {
  std::signal(SIGINT, on_serving_stop_signal);
  std::signal(SIGTERM, on_serving_stop_signal);
}

void serve_until_interrupted(double for_s) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(for_s);
  while (!g_serving_stopped && (for_s == 0 || std::chrono::steady_clock::now() < end))
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

}  // namespace diskref::cli
