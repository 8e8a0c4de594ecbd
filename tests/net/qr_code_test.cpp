// The QR code of the feed's address (net/qr_code.h), as a phone reads it: the modules encoded
// once, drawn by the terminal (half blocks) and the screen (rectangles).
#include "net/qr_code.h"

#include <gtest/gtest.h>

#include "net/access_notice.h"
#include "tests/support/qr_read.h"

namespace diskref::net {
namespace {

const std::string kFeedUrl =
    "http://192.168.1.20:8090/?token=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

TEST(QrCode, TheFeedsAddressWithItsTokenIsReadBackWhole) {
  const QrMatrix code = qr_matrix(kFeedUrl);
  ASSERT_GT(code.width, 20);
  EXPECT_EQ(code.dark.size(), static_cast<std::size_t>(code.width * code.width));
  EXPECT_EQ(testing::read_qr(code), kFeedUrl);
  // Not any code: another address reads as itself, not as this one.
  EXPECT_EQ(testing::read_qr(qr_matrix("http://10.0.0.7:9000/")), "http://10.0.0.7:9000/");
}

TEST(QrCode, ATextTooLongForAnyCodeGivesNone) {
  // Version 40 at error correction L holds 2953 bytes.
  const QrMatrix code = qr_matrix(std::string(3000, 'a'));
  EXPECT_EQ(code.width, 0);
  EXPECT_TRUE(code.dark.empty());
  EXPECT_FALSE(code.is_dark(0, 0));
  EXPECT_EQ(terminal_qr(std::string(3000, 'a')), "");
}

TEST(QrCode, TheTerminalsCodeIsTheSameModulesTwoRowsALine) {
  const QrMatrix code = qr_matrix(kFeedUrl);
  const std::string text = terminal_qr(kFeedUrl);
  std::vector<std::string> lines;
  for (std::size_t at = 0, end; (end = text.find('\n', at)) != std::string::npos; at = end + 1)
    lines.push_back(text.substr(at, end - at));
  // Two modules of quiet zone each side; two rows of modules a line.
  ASSERT_EQ(lines.size(), static_cast<std::size_t>((code.width + 4 + 1) / 2));
  // Each character is two modules, one above the other: light ones drawn (a terminal's text is
  // light on dark), dark ones blank.
  const std::string full = "█", upper = "▀", lower = "▄";
  for (std::size_t l = 0; l < lines.size(); ++l) {
    std::size_t at = 0;
    for (int x = -2; x < code.width + 2; ++x) {
      const int y = static_cast<int>(2 * l) - 2;
      const bool top = !code.is_dark(x, y), bottom = !code.is_dark(x, y + 1);
      const std::string& expected = top && bottom ? full : top ? upper : bottom ? lower : " ";
      ASSERT_EQ(lines[l].substr(at, expected.size()), expected) << "line " << l << ", module " << x;
      at += expected.size();
    }
    EXPECT_EQ(at, lines[l].size()) << "line " << l;
  }
}

}  // namespace
}  // namespace diskref::net
