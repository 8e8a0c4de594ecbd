#pragma once
// The options of a command that serves pages (`referee`, `ui`, `hall`): where (--serve), to which
// host names (--serve-name), over TLS (--serve-cert, --serve-key), and whether the read-only pages
// need the token (--serve-public). Spec §10.2; docs/design/network-security.md.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "net/http_feed_server.h"

namespace diskref::cli {

struct ServeFlags {
  std::string serve;  // [ADDR:]PORT; empty: not serving
  std::vector<std::string> names;
  std::string cert, key;
  bool public_read = false;
};

// Adds --serve (with `serve_help`) and the options that go with it.
void add_serve_flags(CLI::App& sub, ServeFlags& flags, const std::string& serve_help);
// The server's options: beyond loopback a new token is required (unless --serve-public); the
// certificate and key are read here. Throws io::InputError naming the option for bad input.
net::HttpFeedOptions http_feed_options(const ServeFlags& flags);

// For a program whose only work is serving (`hall`, `serve`): Ctrl-C and TERM end it (installed
// by the first), then it serves until they come, or `for_s` seconds when that is not 0.
void stop_serving_on_interrupt();
void serve_until_interrupted(double for_s);

}  // namespace diskref::cli
