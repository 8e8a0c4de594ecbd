// Where diskref finds its data (cli/data_dir.h): $DISKREF_DATA, then beside an installed program,
// then the source tree of the build tree it lies in; never a path compiled in.
#include "cli/data_dir.h"

#include <unistd.h>

#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace diskref::cli {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class DataDir : public ::testing::Test {
 protected:
  fs::path dir_ = fs::temp_directory_path() /
                  ("diskref-data-dir-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
                   "-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir_); }
  void TearDown() override { fs::remove_all(dir_); }
  // A data root at `root`: it holds data/rules.
  static void make_root(const fs::path& root) { fs::create_directories(root / "data" / "rules"); }
};

TEST_F(DataDir, AnInstalledProgramFindsTheShareFolderBesideIt) {
  make_root(dir_ / "usr" / "share" / "diskref");
  const DataRoot r = find_data_root(dir_ / "usr" / "bin" / "diskref", nullptr);
  EXPECT_EQ(r.root, (dir_ / "usr" / "share" / "diskref").lexically_normal());
  EXPECT_EQ(r.how, "installed");
}

TEST_F(DataDir, AProgramInABuildTreeFindsTheSourceTreeItWasConfiguredFrom) {
  make_root(dir_ / "src");
  fs::create_directories(dir_ / "src" / "build");
  std::ofstream(dir_ / "src" / "build" / "CMakeCache.txt")
      << "# a comment\nCMAKE_BUILD_TYPE:STRING=Release\nCMAKE_HOME_DIRECTORY:INTERNAL=" << (dir_ / "src").string()
      << "\n";
  const DataRoot r = find_data_root(dir_ / "src" / "build" / "diskref", nullptr);
  EXPECT_EQ(r.root, dir_ / "src");
  EXPECT_EQ(r.how, "build tree");
}

TEST_F(DataDir, TheVariableComesFirstEvenWhenTheProgramIsInstalled) {
  make_root(dir_ / "usr" / "share" / "diskref");
  make_root(dir_ / "mine");
  const DataRoot r = find_data_root(dir_ / "usr" / "bin" / "diskref", (dir_ / "mine").c_str());
  EXPECT_EQ(r.root, dir_ / "mine");
  EXPECT_EQ(r.how, "DISKREF_DATA");
}

TEST_F(DataDir, AVariableNamingNoDataIsAnErrorNotIgnored) {
  make_root(dir_ / "usr" / "share" / "diskref");
  const DataRoot r = find_data_root(dir_ / "usr" / "bin" / "diskref", (dir_ / "empty").c_str());
  EXPECT_TRUE(r.root.empty());
  EXPECT_THAT(r.problem, HasSubstr("DISKREF_DATA"));
  EXPECT_THAT(r.problem, HasSubstr((dir_ / "empty").string()));
}

TEST_F(DataDir, AProgramCopiedAwaySaysWhereItLookedAndWhatToDo) {
  fs::create_directories(dir_ / "elsewhere");
  const DataRoot r = find_data_root(dir_ / "elsewhere" / "diskref", nullptr);
  EXPECT_TRUE(r.root.empty());
  EXPECT_THAT(r.problem, HasSubstr("share/diskref"));
  EXPECT_THAT(r.problem, HasSubstr("not a build tree"));
  EXPECT_THAT(r.problem, HasSubstr("set it to the folder holding data/rules"));
}

TEST_F(DataDir, ABuildTreeOfAMovedSourceIsNotTakenForData) {
  fs::create_directories(dir_ / "build");
  std::ofstream(dir_ / "build" / "CMakeCache.txt")
      << "CMAKE_HOME_DIRECTORY:INTERNAL=" << (dir_ / "gone").string() << "\n";
  const DataRoot r = find_data_root(dir_ / "build" / "diskref", nullptr);
  EXPECT_TRUE(r.root.empty());
  EXPECT_THAT(r.problem, HasSubstr((dir_ / "gone").string()));
}

}  // namespace
}  // namespace diskref::cli
