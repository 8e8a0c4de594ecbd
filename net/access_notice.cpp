#include "net/access_notice.h"

namespace diskref::net {
namespace {

std::string terminal_qr_of(const QrMatrix& code) {
  if (code.width == 0) return "";
  // Two modules of quiet zone, not the standard's four: a terminal's lines are scarce, and phones
  // read it (the screen's code has all four).
  const int n = code.width, quiet = 2;
  std::string out;
  // Two rows of modules a line of text; a terminal's text is light on dark, so a light module is
  // drawn (a block) and a dark one left blank.
  for (int y = -quiet; y < n + quiet; y += 2) {
    for (int x = -quiet; x < n + quiet; ++x) {
      const bool top = !code.is_dark(x, y), bottom = !code.is_dark(x, y + 1);
      out += top && bottom ? "█" : top ? "▀" : bottom ? "▄" : " ";
    }
    out += "\n";
  }
  return out;
}

}  // namespace

std::string terminal_qr(const std::string& text) {
  return terminal_qr_of(qr_matrix(text));
}

std::optional<FeedAccess> beyond_loopback_access(const HttpFeedServer& server, const HttpFeedOptions& o) {
  if (is_loopback(o.listen.host)) return std::nullopt;
  FeedAccess a;
  a.listen_host = o.listen.host;
  a.token_needed = !o.token.empty() && !o.public_read;
  a.url = a.token_needed ? server.url() : server.url_without_token();
  a.qr = qr_matrix(a.url);
  return a;
}

std::string beyond_loopback_notice(const HttpFeedServer& server, const HttpFeedOptions& o) {
  const std::optional<FeedAccess> a = beyond_loopback_access(server, o);
  if (!a) return "";
  std::string text = "listening beyond this machine (" + a->listen_host + "): ";
  text += a->token_needed ? "a token is required; open " + a->url + " (the token is kept by the browser)"
                          : "anyone who can reach it sees the game (--serve-public); open " + a->url;
  text += ", or scan:\n" + terminal_qr_of(a->qr);
  if (!o.token.empty() && o.public_read) text += "the token, for pages that change something: " + o.token;
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

}  // namespace diskref::net
