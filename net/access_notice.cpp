#include "net/access_notice.h"

#include <qrencode.h>

namespace diskref::net {

std::string terminal_qr(const std::string& text) {
  QRcode* code = QRcode_encodeString(text.c_str(), 0, QR_ECLEVEL_L, QR_MODE_8, 1);
  if (!code) return "";
  const int n = code->width, quiet = 2;
  // A module is dark when its low bit is set; outside the code (the quiet zone) it is light.
  const auto dark = [&](int x, int y) {
    return x >= 0 && y >= 0 && x < n && y < n && (code->data[y * n + x] & 1) != 0;
  };
  std::string out;
  // Two rows of modules a line of text; a terminal's text is light on dark, so a light module is
  // drawn (a block) and a dark one left blank.
  for (int y = -quiet; y < n + quiet; y += 2) {
    for (int x = -quiet; x < n + quiet; ++x) {
      const bool top = !dark(x, y), bottom = !dark(x, y + 1);
      out += top && bottom ? "█" : top ? "▀" : bottom ? "▄" : " ";
    }
    out += "\n";
  }
  QRcode_free(code);
  return out;
}

std::string beyond_loopback_notice(const HttpFeedServer& server, const HttpFeedOptions& o) {
  if (is_loopback(o.listen.host)) return "";
  const bool token_needed = !o.token.empty() && !o.public_read;
  const std::string url = token_needed ? server.url() : server.url_without_token();
  std::string text = "listening beyond this machine (" + o.listen.host + "): ";
  text += token_needed ? "a token is required; open " + url + " (the token is kept by the browser)"
                       : "anyone who can reach it sees the game (--serve-public); open " + url;
  text += ", or scan:\n" + terminal_qr(url);
  if (!o.token.empty() && o.public_read) text += "the token, for pages that change something: " + o.token;
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

}  // namespace diskref::net
