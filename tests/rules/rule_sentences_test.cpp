// Every sentence of the rules pages (docs/rules/step*.txt, verbatim) must be quoted in a test of
// tests/rules/ -- in a comment next to the test that checks it -- or listed below (kFlavour) as
// flavour rather than a rule. This test splits the pages into sentences
// the same way a reader would and fails, naming the sentence, when one is not accounted for.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;

const fs::path kRulesDir = fs::path(DISKREF_SOURCE_DIR) / "tests/rules";
const fs::path kPagesDir = fs::path(DISKREF_SOURCE_DIR) / "docs/rules";

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Page furniture and section headings: whole lines that are not sentences.
const std::set<std::string> kHeadings = {"Red Alert",
                                         "Official Rules!",
                                         "Keywords",
                                         "Step",
                                         "Two: Assign Orders",
                                         "Placing Order Disks",
                                         "Next",
                                         ">",
                                         "Next >",
                                         "BACK",
                                         "HOME",
                                         "MEMBERSHIP",
                                         "SUBMISSIONS",
                                         "Step Three: Execute Orders",
                                         "Determining Command Initiative",
                                         "Movement & Orders",
                                         "Movement",
                                         "Torpedoes",
                                         "Collision",
                                         "Attacking and Damage",
                                         "Firing Beam Weapons",
                                         "Launching Torpedoes",
                                         "Transporting Crew",
                                         "Damage",
                                         "Critical Hits",
                                         "Activating Crew/Tech",
                                         "Ready & Activated",
                                         "Special Abilities",
                                         "Using Crew to Execute Orders",
                                         "Cloaking Devices",
                                         "Step 4: Boarding",
                                         "Resolving Crew Combat",
                                         "Taking Control"};

// Sentences that state flavour, labels or cross-references rather than a rule, so no test checks
// them (each must still be a sentence of the pages: see FlavourListIsCurrent).
const std::vector<std::string> kFlavour = {
    // The bullet labels of Step Two's list of orders.
    "Change Speed.",
    "Change Heading.",
    "Raise Shields.",
    "Attack.",
    // Cross-references.
    R"(See “Activating Crew/Tech” for more information.)",
    R"(Torpedoes have special rules for movement—see “Torpedoes,” below.)",
    R"(Torpedoes have their own rules for movement; see “Torpedoes,” below.)",
    // Flavour.
    "This is the most involved part of the Turn.",
    "It’s presumed the play area is not to scale—your ship is not actually as large as the space filled by its disk.",
    "The disk indicates your ship’s general location and represents its zone of safe operation.",
    "Most ship, crew, and tech disks have special abilities.",
    // No disk of the published data targets anything; targeting abilities are not modelled.
    "Some disks target other ships, crew, other player’s orders, etc.",
    R"(These disks use the word “target” when referring to an opposing ship.)",
    // Scenario rules are not modelled: terrain collisions follow the rule text.
    "Some scenarios may present alternate rules for colliding with terrain, typically describing the results on the "
    "scenario side of the disk.",
};

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r");
  auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

bool starts_with(const std::string& s, std::size_t at, const std::string& prefix) {
  return s.compare(at, prefix.size(), prefix) == 0;
}

// Straight quotes and single spaces, so that a sentence quoted across comment lines still matches.
std::string normalize(const std::string& text) {
  std::string s;
  for (std::size_t i = 0; i < text.size();) {
    if (starts_with(text, i, "\xE2\x80\x9C") || starts_with(text, i, "\xE2\x80\x9D")) {  // “ ”
      s += '"';
      i += 3;
    } else if (starts_with(text, i, "\xE2\x80\x98") || starts_with(text, i, "\xE2\x80\x99")) {  // ‘ ’
      s += '\'';
      i += 3;
    } else if (starts_with(text, i, "\xC2\xA0")) {  // no-break space
      s += ' ';
      i += 2;
    } else if (starts_with(text, i, "//")) {
      s += ' ';
      i += 2;
    } else {
      s += text[i++];
    }
  }
  std::string out;
  for (char c : s) {
    bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return trim(out);
}

std::vector<std::string> sentences_of(const std::string& page) {
  std::string text;
  std::istringstream lines(page);
  for (std::string line; std::getline(lines, line);) {
    line = trim(line);
    if (line.size() > 6 && line.compare(line.size() - 6, 6, "Next >") == 0)
      line = trim(line.substr(0, line.size() - 6));
    if (line.empty() || kHeadings.count(line)) continue;
    if (starts_with(line, 0, "- ")) line = line.substr(2);
    text += line + " ";
  }
  text = normalize(text);
  std::vector<std::string> out;
  std::string current;
  for (std::size_t i = 0; i < text.size(); ++i) {
    current += text[i];
    char c = text[i];
    if (c != '.' && c != '!' && c != '?') continue;
    std::size_t j = i + 1;
    if (j < text.size() && text[j] == '"') current += text[j++];
    if (j + 1 >= text.size() || text[j] != ' ') {
      i = j - 1;
      continue;
    }
    char next = text[j + 1];
    bool starts_sentence = (next >= 'A' && next <= 'Z') || next == '"' || next == '(';
    // Titles before names are not sentence ends: "Lt. Cdr. La Forge", "Cpt. Picard".
    bool title = current.size() >= 3 && (current.ends_with(" Lt.") || current.ends_with(" Cdr.") ||
                                         current.ends_with(" Cpt.") || current == "Lt.");
    i = j - 1;
    if (starts_sentence && !title) {
      out.push_back(trim(current));
      current.clear();
    }
  }
  if (!trim(current).empty()) out.push_back(trim(current));
  return out;
}

std::string all_test_sources() {
  std::string text;
  for (const auto& entry : fs::directory_iterator(kRulesDir))
    if (entry.path().extension() == ".cpp" && entry.path().filename() != "rule_sentences_test.cpp")
      text += read_file(entry.path()) + "\n";
  return normalize(text);
}

TEST(RuleSentences, SplitterFindsTheSentencesOfEachPage) {
  // Guards the splitter itself: counts by hand from the three pages.
  EXPECT_EQ(sentences_of(read_file(kPagesDir / "step2-assign-orders.txt")).size(), 27u);
  EXPECT_EQ(sentences_of(read_file(kPagesDir / "step4-boarding.txt")).size(), 19u);
  auto step3 = sentences_of(read_file(kPagesDir / "step3-execute-orders.txt"));
  ASSERT_FALSE(step3.empty());
  EXPECT_EQ(step3.front(), "This is the most involved part of the Turn.");
  EXPECT_EQ(step3.back(), "Ships can hit their own torpedoes, so be careful!");
}

std::vector<std::string> all_sentences() {
  std::vector<std::string> out;
  for (const char* page : {"step2-assign-orders.txt", "step3-execute-orders.txt", "step4-boarding.txt"})
    for (const std::string& sentence : sentences_of(read_file(kPagesDir / page))) out.push_back(sentence);
  return out;
}

TEST(RuleSentences, FlavourListIsCurrent) {
  auto sentences = all_sentences();
  for (const std::string& flavour : kFlavour)
    EXPECT_NE(std::find(sentences.begin(), sentences.end(), normalize(flavour)), sentences.end())
        << "not a sentence of the pages: " << flavour;
}

TEST(RuleSentences, EverySentenceIsCheckedByATestOrListedAsFlavour) {
  std::string sources = all_test_sources();
  for (const std::string& flavour : kFlavour) {
    sources += ' ';
    sources += normalize(flavour);
  }
  int total = 0;
  for (const char* page : {"step2-assign-orders.txt", "step3-execute-orders.txt", "step4-boarding.txt"}) {
    for (const std::string& sentence : sentences_of(read_file(kPagesDir / page))) {
      ++total;
      EXPECT_NE(sources.find(sentence), std::string::npos) << page << ": no test quotes \"" << sentence << "\"";
    }
  }
  EXPECT_GT(total, 200);
}

}  // namespace
