// Every panel of the screens says what it is: each window title "Title###id" in ui/ has a help
// text for its id (ui/panel_help.h), found by reading the sources, so that a panel added later
// without one fails here.

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "ui/layout.h"
#include "ui/panel_help.h"

namespace diskref::ui {
namespace {

TEST(PanelHelp, EveryPanelOfEveryScreenSaysWhatItIs) {
  std::set<std::string> ids;
  // Every window title with an id: "Camera view###camera", "...###setup_view".
  const std::regex panel(R"re("[^"]*###([a-z_]+)")re");
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(DISKREF_SOURCE_DIR) / "ui")) {
    if (entry.path().extension() != ".cpp") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    for (std::sregex_iterator m(s.begin(), s.end(), panel), end; m != end; ++m) ids.insert((*m)[1]);
  }
  for (GamePanel p : kAllGamePanels) ids.insert(panel_name(p));
  EXPECT_GE(ids.size(), 9u);
  for (const std::string& id : ids) {
    const std::string_view help = panel_help(id);
    EXPECT_GE(help.size(), 60u) << "panel \"" << id << "\" has no help of a sentence or more";
  }
  EXPECT_TRUE(panel_help("no such panel").empty());
}

}  // namespace
}  // namespace diskref::ui
