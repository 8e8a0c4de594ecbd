// The checksum a referenced video is kept with: FNV-1a 64 against its published test vectors, and
// a file changed by one byte or cut short is noticed.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "engine/io/input_error.h"
#include "recording/file_checksum.h"

namespace diskref::recording {
namespace {

std::filesystem::path write_temp(const std::string& name, const std::string& bytes) {
  const auto p =
      std::filesystem::temp_directory_path() / ("diskref-checksum-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

TEST(FileChecksum, MatchesTheFnv1a64TestVectors) {
  // From the FNV reference (Fowler, Noll, Vo): "" and "a" and "foobar".
  EXPECT_EQ(checksum_file(write_temp("empty", "")).fnv1a64, "cbf29ce484222325");
  EXPECT_EQ(checksum_file(write_temp("a", "a")).fnv1a64, "af63dc4c8601ec8c");
  const FileChecksum foobar = checksum_file(write_temp("foobar", "foobar"));
  EXPECT_EQ(foobar.fnv1a64, "85944171f73967e8");
  EXPECT_EQ(foobar.bytes, 6u);
}

TEST(FileChecksum, OneByteChangedOrCutIsNoticed) {
  std::string big(200000, 'x');
  const FileChecksum whole = checksum_file(write_temp("big", big));
  big[123456] = 'y';
  EXPECT_NE(checksum_file(write_temp("big2", big)).fnv1a64, whole.fnv1a64);
  EXPECT_EQ(checksum_file(write_temp("cut", big.substr(0, 100000))).bytes, 100000u);
}

TEST(FileChecksum, AMissingFileIsNamed) {
  try {
    checksum_file("/nonexistent/video.mp4");
    FAIL();
  } catch (const io::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/video.mp4"), std::string::npos);
  }
}

}  // namespace
}  // namespace diskref::recording
