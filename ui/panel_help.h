#pragma once
// What each panel of the screens is, in a sentence or two: shown by the "(?)" at the right of its
// title bar (begin_panel draws it for every panel whose id, after "###" in its title, is here).

#include <string_view>

namespace diskref::ui {

// The help for a panel id ("camera", "table", "dispute", "disks", "side", "ships", "turn",
// "setup_view", "setup_panel", "feed_access", "photo"); empty for an id without one.
std::string_view panel_help(std::string_view id);

}  // namespace diskref::ui
