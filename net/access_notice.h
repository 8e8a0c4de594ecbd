#pragma once
// What a person is told when a server listens beyond this machine: who can reach it, the address
// with its token, and that address as a QR code.
//
// A QR code of a short text (the feed's address with its token) drawn with Unicode half blocks
// for a terminal, so that a phone's camera can open the page without anyone typing the token.
// Encoded by libqrencode (Debian libqrencode-dev).

#include <string>

#include "net/http_feed_server.h"

namespace diskref::net {

// Lines of "█", "▀", "▄" and spaces, dark on light, with the quiet zone the standard asks for;
// empty when the text cannot be encoded.
std::string terminal_qr(const std::string& text);

// The lines to print (no trailing newline) when `server` listens beyond loopback; empty when not.
std::string beyond_loopback_notice(const HttpFeedServer& server, const HttpFeedOptions& options);

}  // namespace diskref::net
