// The photo page in a real browser (headless chromium at a phone's size), served by the feed's
// server in this process with a ruler the test writes: the registry's disks offered, the question
// and the photo posted as the page's fetch() sends them, the answer shown (the call in letters,
// margin ± sigma, the notes, the picture), a refusal shown with its reason, a photo larger than
// the server takes refused by the page before it is sent. The page's look is saved
// (DISKREF_SCREENSHOT_DIR) for a person to see. `diskref serve` with the real photo ruling is
// tested end to end in tests/photo/.
#include <mutex>
#include <string>

#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "headless_chromium.h"
#include "net/feed_hub.h"
#include "net/http_feed_server.h"
#include "net/photo_page.h"

namespace diskref::testing {
namespace {

using namespace std::chrono_literals;

constexpr const char* kToken = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

std::filesystem::path scratch_dir() {
  auto d = std::filesystem::temp_directory_path() / ("diskref-photo-page-" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

model::DiskRegistry registry() {
  std::vector<model::DiskSpec> disks(4);
  disks[0].name = "enterprise";
  disks[1].name = "tderet";
  disks[2].name = "torpedo-1";
  disks[2].kind = model::DiskKind::torpedo;
  disks[3].name = "damage-1";
  disks[3].kind = model::DiskKind::counter;
  return model::DiskRegistry(disks);
}

// A picture as a phone would send one: a PNG of a plain table with something drawn on it.
std::string table_png(cv::Size size) {
  cv::Mat image(size, CV_8UC3, cv::Scalar(40, 110, 30));
  cv::circle(image, {size.width / 3, size.height / 2}, size.width / 10, cv::Scalar(220, 220, 220), cv::FILLED);
  std::vector<unsigned char> png;
  cv::imencode(".png", image, png);
  return {png.begin(), png.end()};
}

// The page's file input given `bytes` as the file a person chose (as DevTools' setFileInputFiles
// would): the change event then runs the page's own code.
std::string choose_file_js(const std::string& bytes, const std::string& name, const std::string& type) {
  return "(() => { const b = Uint8Array.from(atob('" + net::base64(bytes) +
         "'), c => c.charCodeAt(0));"
         "const t = new DataTransfer(); t.items.add(new File([b], '" +
         name + "', {type: '" + type +
         "'}));"
         "const i = document.getElementById('photo'); i.files = t.files;"
         "i.dispatchEvent(new Event('change')); return true; })()";
}

class PhotoPageBrowser : public ::testing::Test {
 protected:
  void start(net::PhotoPageOptions page_options = {}) {
    net::HttpFeedOptions o;
    o.token = kToken;  // as beyond loopback: the page is opened with the token, and keeps it
    server_ = std::make_unique<net::HttpFeedServer>(hub_, o, problems_);
    net::add_photo_page(
        *server_, registry(), [this](const net::PhotoSubmission& s) { return rule(s); }, page_options);
  }
  net::PhotoReply rule(const net::PhotoSubmission& s) {
    std::lock_guard lock(mutex_);
    submitted_.emplace_back(reinterpret_cast<const char*>(s.bytes.data()), s.bytes.size());
    questions_.push_back(s.questions);
    net::PhotoReply r;
    const std::string png = submitted_.back();
    if (png.rfind("\x89PNG", 0) != 0) {
      r.status = 422;
      r.refusal = s.source + ": not a JPEG, PNG or WebP image";
      return r;
    }
    if (s.questions[0].contains("overlap")) {  // a disk the photo does not show
      r.ruling = nlohmann::ordered_json::parse(R"({"answers": [{"id": "phone", "call": "cannot tell",
          "unseen": ["tderet"]}], "notes": ["phone: tderet not in the photo"]})");
      r.picture = png;
      r.picture_type = "image/png";
      return r;
    }
    r.ruling = nlohmann::ordered_json::parse(R"({
      "photo": {"source": "upload from 127.0.0.1"},
      "answers": [{"id": "phone", "in_range": true, "gap_mm": 70.1, "reach_mm": 82.44, "margin_mm": 12.34,
                   "sigma_mm": 0.81, "call": "yes"}],
      "call_sigmas": 2,
      "notes": ["the tags are 31 px wide: hold the phone closer for a closer call"]})");
    r.picture = png;  // the photo itself stands for the annotated one
    r.picture_type = "image/png";
    return r;
  }
  std::string page_url() const { return server_->url_without_token() + "photo?token=" + kToken; }

  net::FeedHub hub_;
  net::ProblemReports problems_{[](const std::string&) {}};
  std::unique_ptr<net::HttpFeedServer> server_;
  std::mutex mutex_;
  std::vector<std::string> submitted_;
  std::vector<nlohmann::json> questions_;
};

TEST_F(PhotoPageBrowser, APhotoTakenOnThePhoneIsRuledOnAndTheAnswerShown) {
  start();
  const std::filesystem::path dir = scratch_dir();
  HeadlessChromium phone(390, 844, dir);  // a phone's viewport, in CSS pixels
  phone.navigate(page_url());
  ASSERT_TRUE(phone.wait_until("window.diskref.state === 'ready'", 10s)) << phone.evaluate("window.diskref").dump();
  // Every disk but the counter, to choose from.
  EXPECT_EQ(phone.evaluate("[...document.getElementById('disk-a').options].map(o => o.value).join(' ')"),
            "enterprise tderet torpedo-1");
  EXPECT_EQ(phone.evaluate("document.getElementById('disk-b').value"), "tderet");

  const std::string photo = table_png({640, 480});
  phone.evaluate(choose_file_js(photo, "IMG_2041.png", "image/png"));
  ASSERT_TRUE(phone.wait_until("window.diskref.state === 'answered'", 20s)) << phone.evaluate("window.diskref").dump();
  ASSERT_TRUE(
      phone.wait_until("document.getElementById('picture').complete && "
                       "document.getElementById('picture').naturalWidth > 0",
                       10s));
  {
    std::lock_guard lock(mutex_);
    ASSERT_EQ(submitted_.size(), 1u);
    EXPECT_EQ(submitted_[0], photo);  // the bytes as chosen, the body of the request
    EXPECT_EQ(questions_[0], nlohmann::json::parse(R"([{"id": "phone", "range": {"from": "enterprise",
        "to": "tderet", "template": {"length_mm": 88.9, "width_mm": 25.4}}}])"));
  }
  EXPECT_EQ(phone.evaluate("document.getElementById('call').textContent"), "IN RANGE");
  EXPECT_EQ(phone.evaluate("document.getElementById('margin').textContent"), "margin 12.3 mm ± 1.6 mm (2σ)");
  EXPECT_EQ(phone.evaluate("document.getElementById('notes').textContent"),
            "the tags are 31 px wide: hold the phone closer for a closer call");
  EXPECT_EQ(phone.evaluate("document.getElementById('picture').naturalWidth"), 640);
  // The call is in big letters: wider than a third of the phone's width.
  EXPECT_GT(phone.evaluate("document.getElementById('call').getBoundingClientRect().width").get<double>(), 130);

  // The look, for a person: the viewport and the whole page.
  const cv::Mat shot = cv::imdecode(phone.screenshot_png(), cv::IMREAD_COLOR);
  EXPECT_EQ(shot.cols, 390);
  cv::imwrite((dir / "photo-page.png").string(), shot);
  if (const char* keep = std::getenv("DISKREF_SCREENSHOT_DIR"))
    cv::imwrite(std::string(keep) + "/photo-page.png", shot);

  // Another question on the same photo: a move of 3 flips.
  phone.evaluate(
      "document.querySelector('input[value=move]').click(); document.getElementById('flips').value = '3';"
      "document.getElementById('again').click(); true");
  ASSERT_TRUE(phone.wait_until(
      "window.diskref.state === 'answered' && document.getElementById('answer').hidden === false", 20s));
  std::lock_guard lock(mutex_);
  ASSERT_EQ(questions_.size(), 2u);
  EXPECT_EQ(questions_[1], nlohmann::json::parse(R"([{"id": "phone", "move": {"disk": "enterprise", "flips": 3}}])"));
}

TEST_F(PhotoPageBrowser, ADiskNotInThePhotoIsSaidAsCannotTellNotAsACall) {
  start();
  const std::filesystem::path dir = scratch_dir();
  HeadlessChromium phone(390, 844, dir);
  phone.navigate(page_url());
  ASSERT_TRUE(phone.wait_until("window.diskref.state === 'ready'", 10s));
  phone.evaluate("document.querySelector('input[value=overlap]').click(); true");
  phone.evaluate(choose_file_js(table_png({320, 240}), "IMG_2042.png", "image/png"));
  ASSERT_TRUE(phone.wait_until("window.diskref.state === 'answered'", 20s)) << phone.evaluate("window.diskref").dump();
  EXPECT_EQ(phone.evaluate("document.getElementById('call').textContent"), "CANNOT TELL");
  EXPECT_EQ(phone.evaluate("document.getElementById('margin').textContent"), "not in the photo: tderet");
  EXPECT_EQ(phone.evaluate("document.getElementById('notes').textContent"), "phone: tderet not in the photo");
}

TEST_F(PhotoPageBrowser, ARefusalIsShownWithItsReason) {
  start();
  const std::filesystem::path dir = scratch_dir();
  HeadlessChromium phone(390, 844, dir);
  phone.navigate(page_url());
  ASSERT_TRUE(phone.wait_until("window.diskref.state === 'ready'", 10s));
  phone.evaluate(choose_file_js("this is a shopping list, not a photo", "list.txt", "text/plain"));
  ASSERT_TRUE(phone.wait_until("window.diskref.state === 'refused'", 20s)) << phone.evaluate("window.diskref").dump();
  EXPECT_EQ(phone.evaluate("document.getElementById('status').textContent"),
            "Refused: upload from 127.0.0.1: not a JPEG, PNG or WebP image");
  EXPECT_EQ(phone.evaluate("document.getElementById('answer').hidden"), true);
}

TEST_F(PhotoPageBrowser, APhotoLargerThanTheServerTakesIsRefusedBeforeItIsSent) {
  net::PhotoPageOptions small;
  small.max_upload_bytes = 64 * 1024;
  start(small);
  const std::filesystem::path dir = scratch_dir();
  HeadlessChromium phone(390, 844, dir);
  phone.navigate(page_url());
  ASSERT_TRUE(phone.wait_until("window.diskref.state === 'ready'", 10s));
  phone.evaluate(choose_file_js(std::string(100 * 1024, 'x'), "huge.jpg", "image/jpeg"));
  ASSERT_TRUE(phone.wait_until("window.diskref.state === 'refused'", 20s));
  EXPECT_EQ(phone.evaluate("window.diskref.error"), "the photo is 0.1 MiB, more than the 0.1 MiB diskref takes");
  std::lock_guard lock(mutex_);
  EXPECT_TRUE(submitted_.empty());
}

TEST_F(PhotoPageBrowser, WithoutTheTokenThePageGetsNoDisks) {
  start();
  const std::filesystem::path dir = scratch_dir();
  HeadlessChromium phone(390, 844, dir);
  phone.navigate(server_->url_without_token() + "photo");  // refused: 401
  EXPECT_NE(phone.evaluate("document.body.textContent").get<std::string>().find("a token is required"),
            std::string::npos);
}

}  // namespace
}  // namespace diskref::testing
