#pragma once
// Text that came from the network (a request's path, a table's name, a topic) on its way to a
// terminal or a log: control characters are shown, never sent. A terminal obeys ESC, CR, BEL and
// the C1 controls it reads; a path such as "/%1b[2J%0d%0adiskref referee: ..." would otherwise
// clear the operator's screen and forge a line of diskref's own output.

#include <cstddef>
#include <string>
#include <string_view>

namespace diskref::net {

// `text` with every C0 control (below 0x20, tab and newline included), DEL, every C1 control
// (U+0080..U+009F) and every byte that is not part of valid UTF-8 written as \xNN, and backslash
// as \\ (so that an escape cannot be forged either); at most `max_bytes` of the result, then "…".
std::string printable(std::string_view text, std::size_t max_bytes = 200);

}  // namespace diskref::net
