// `diskref serve` as a phone at the table meets it (spec §14, "From a phone"): started as a
// program, opened beyond loopback with the token it prints, a rendered phone photo (stored sideways
// with EXIF orientation 6, as a phone held upright stores it) uploaded by the page in headless
// chromium and the ruling shown; then the refusals, at the HTTP level: no token, a body too large,
// a header claiming 60000 x 60000 pixels (refused before decoding), not an image, an unknown disk.
#include <fstream>
#include <regex>

#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>

#include "engine/geometry/range.h"
#include "net/photo_page.h"
#include "tests/net/child_process.h"
#include "tests/net/headless_chromium.h"
#include "tests/net/raw_http.h"
#include "tests/photo/exif_block.h"
#include "tests/photo/rendered_photo.h"

namespace diskref::testing {
namespace {

using namespace std::chrono_literals;

std::filesystem::path scratch_dir(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() / ("diskref-serve-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

// The kitchen table (tests/photo/rendered_photo.h) without klingon.
void write_registry(const std::filesystem::path& file) {
  std::ofstream(file) << photo::kitchen_registry_json(false).dump(1);
}

const std::vector<photo::RenderedDisk>& kTable = photo::kKitchenTable;

// The photo as a phone held upright sends it: the pixels stored sideways (turned a quarter
// counter-clockwise) and EXIF orientation 6 saying to turn them back; upright it is 2000 x 1500.
std::string phone_jpeg() {
  photo::PhotoCamera camera;
  camera.tilt_deg = 30;
  camera.azimuth_deg = 200;
  camera.look_at = {10, 60};
  cv::Mat stored;
  cv::rotate(photo::render_photo(kTable, camera), stored, cv::ROTATE_90_COUNTERCLOCKWISE);
  std::vector<unsigned char> jpeg;
  cv::imencode(".jpg", stored, jpeg, {cv::IMWRITE_JPEG_QUALITY, 92});
  const std::vector<std::uint8_t> with =
      photo::with_exif({jpeg.begin(), jpeg.end()}, photo::ExifSpec{6, {}, 26, "Google", "Pixel 8"});
  return {with.begin(), with.end()};
}

// A real PNG's first 33 bytes (signature, IHDR) whose IHDR claims 60000 x 60000 pixels, and some
// of its compressed data: 3.6 Gpx, 10 GB decoded, from a few hundred bytes.
std::string png_claiming(int width, int height) {
  std::vector<unsigned char> png;
  cv::imencode(".png", cv::Mat(8, 8, CV_8UC3, cv::Scalar::all(0)), png);
  for (int i = 0; i < 4; ++i) {
    png[16 + i] = static_cast<unsigned char>(width >> (24 - 8 * i));
    png[20 + i] = static_cast<unsigned char>(height >> (24 - 8 * i));
  }
  return {png.begin(), png.end()};
}

std::string url_encoded(const std::string& text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text)
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.')
      out += static_cast<char>(c);
    else
      out += {'%', kHex[c >> 4], kHex[c & 15]};
  return out;
}

std::string choose_file_js(const std::string& bytes, const std::string& name, const std::string& type) {
  return "(() => { const b = Uint8Array.from(atob('" + net::base64(bytes) +
         "'), c => c.charCodeAt(0));"
         "const t = new DataTransfer(); t.items.add(new File([b], '" +
         name + "', {type: '" + type +
         "'}));"
         "const i = document.getElementById('photo'); i.files = t.files;"
         "i.dispatchEvent(new Event('change')); return true; })()";
}

// `diskref serve` beyond loopback (0.0.0.0, port chosen by the system): its port and token.
struct Served {
  std::unique_ptr<ChildProcess> process;
  int port = 0;
  std::string token;
};

Served serve(const std::filesystem::path& dir) {
  write_registry(dir / "disks.json");
  Served s;
  s.process = std::make_unique<ChildProcess>(
      diskref_program(),
      std::vector<std::string>{"serve", "--disks", (dir / "disks.json").string(), "--serve", "0.0.0.0:0"},
      dir / "serve.log");
  const auto port = s.process->wait_for_log(std::regex(R"(the photo page: https?://[^:]+:(\d+)/)"), 20s);
  if (!port) return s;
  s.port = std::stoi(*port);
  s.token = s.process->wait_for_log(std::regex(R"(\?token=([0-9a-f]{64}))"), 5s).value_or("");
  return s;
}

TEST(PhotoServe, APhonesPhotoIsRuledOnAndTheAnswerShownOnThePage) {
  const std::filesystem::path dir = scratch_dir("page");
  HeadlessChromium phone(390, 844, dir);
  Served served = serve(dir);
  ASSERT_NE(served.port, 0) << served.process->log_text();
  ASSERT_EQ(served.token.size(), 64u) << served.process->log_text();
  EXPECT_TRUE(served.process->wait_for_log(std::regex("█"), 5s)) << "no QR code:\n" << served.process->log_text();

  // The address printed, as the QR code gives it to the phone.
  phone.navigate("http://127.0.0.1:" + std::to_string(served.port) + "/?token=" + served.token);
  ASSERT_TRUE(phone.wait_until("window.diskref.state === 'ready'", 10s)) << phone.evaluate("window.diskref").dump();
  EXPECT_EQ(phone.evaluate("[...document.getElementById('disk-a').options].map(o => o.value).join(' ')"),
            "enterprise tderet torpedo-1");
  phone.evaluate(choose_file_js(phone_jpeg(), "PXL_20261207.jpg", "image/jpeg"));
  ASSERT_TRUE(phone.wait_until("window.diskref.state !== 'sending'", 90s));
  ASSERT_EQ(phone.evaluate("window.diskref.state"), "answered") << phone.evaluate("window.diskref.error").dump() << "\n"
                                                                << served.process->log_text();
  ASSERT_TRUE(
      phone.wait_until("document.getElementById('picture').complete && "
                       "document.getElementById('picture').naturalWidth > 0",
                       10s));

  const nlohmann::json answer = phone.evaluate("window.diskref.answer.ruling.answers[0]");
  const double sigma = answer.at("sigma_mm").get<double>();
  EXPECT_NEAR(answer.at("margin_mm").get<double>(), 5.96, 3 * sigma + 0.01) << answer.dump();
  // In range by 6 mm, known to a fraction of that: the call is made, in letters.
  EXPECT_EQ(answer.at("call"), "yes") << answer.dump();
  EXPECT_EQ(phone.evaluate("document.getElementById('call').textContent"), "IN RANGE");
  const std::string margin = phone.evaluate("document.getElementById('margin').textContent");
  EXPECT_TRUE(std::regex_match(margin, std::regex(R"(margin \d+\.\d mm ± \d+\.\d mm \(2σ\))"))) << margin;
  // Upright by its EXIF orientation (2000 x 1500), then shrunk to 1600 pixels a side for the phone.
  EXPECT_EQ(phone.evaluate("document.getElementById('picture').naturalWidth"), 1600);
  EXPECT_EQ(phone.evaluate("document.getElementById('picture').naturalHeight"), 1200);

  const cv::Mat shot = cv::imdecode(phone.screenshot_png(), cv::IMREAD_COLOR);
  cv::imwrite((dir / "photo-page-answered.png").string(), shot);
  if (const char* keep = std::getenv("DISKREF_SCREENSHOT_DIR"))
    cv::imwrite(std::string(keep) + "/photo-page-answered.png", shot);
  served.process->kill_now();
  std::filesystem::remove_all(dir);
}

TEST(PhotoServe, WithoutTheTokenTooLargeTooManyPixelsOrNotAnImageIsRefused) {
  const std::filesystem::path dir = scratch_dir("refusals");
  Served served = serve(dir);
  ASSERT_NE(served.port, 0) << served.process->log_text();
  const std::string question =
      url_encoded(R"({"range":{"from":"enterprise","to":"tderet","template":{"length_mm":88.9,"width_mm":25.4}}})");
  const auto post = [&](const std::string& body, const std::string& auth, std::size_t length, const std::string& q) {
    const int fd = connect_loopback(served.port);
    send_all(fd, "POST /photo/v1/ruling?question=" + q + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + auth +
                     "Content-Type: image/jpeg\r\nContent-Length: " + std::to_string(length) +
                     "\r\nConnection: close\r\n\r\n" + body);
    std::string answer = receive_for(fd, 60s);
    ::close(fd);
    return answer;
  };
  const std::string bearer = "Authorization: Bearer " + served.token + "\r\n";
  const auto why = [](const std::string& answer) {
    const auto at = answer.find("\r\n\r\n");
    const nlohmann::json j =
        nlohmann::json::parse(at == std::string::npos ? "{}" : answer.substr(at + 4), nullptr, false);
    return j.is_object() ? j.value("why", "") : std::string();
  };

  // No token: refused at the head (the body is never sent), and the page itself too.
  const std::string no_token = post("", "", 5000, question);
  EXPECT_EQ(no_token.substr(0, 12), "HTTP/1.1 401") << no_token;
  EXPECT_EQ(
      exchange(served.port, "GET /photo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 10s).substr(0, 12),
      "HTTP/1.1 401");
  // Too large: 40 MiB announced, refused at the head before any of it is sent.
  const std::string too_large = post("", bearer, 40u << 20, question);
  EXPECT_EQ(too_large.substr(0, 12), "HTTP/1.1 413") << too_large;
  EXPECT_NE(why(too_large).find("more than the limit of 32 MiB"), std::string::npos) << too_large;
  // A decompression bomb: its header claims 60000 x 60000; refused from the header.
  const std::string bomb = png_claiming(60000, 60000);
  const std::string bombed = post(bomb, bearer, bomb.size(), question);
  EXPECT_EQ(bombed.substr(0, 12), "HTTP/1.1 413") << bombed;
  EXPECT_NE(why(bombed).find("60000 x 60000 pixels"), std::string::npos) << bombed;
  EXPECT_NE(why(bombed).find("upload from 127.0.0.1"), std::string::npos) << bombed;
  // Not an image.
  const std::string list = "eggs, milk, a new range template";
  const std::string not_image = post(list, bearer, list.size(), question);
  EXPECT_EQ(not_image.substr(0, 12), "HTTP/1.1 415") << not_image;
  EXPECT_NE(why(not_image).find("not a JPEG, PNG or WebP image"), std::string::npos) << not_image;
  // A question about a disk the registry does not have, on a real photo.
  const std::string photo = phone_jpeg();
  const std::string unknown =
      post(photo, bearer, photo.size(), url_encoded(R"({"overlap":{"a":"enterprise","b":"warbird"}})"));
  EXPECT_EQ(unknown.substr(0, 12), "HTTP/1.1 400") << unknown;
  EXPECT_NE(why(unknown).find("warbird"), std::string::npos) << unknown;
  // And the server goes on: the real photo with the real question is answered.
  const std::string ruled = post(photo, bearer, photo.size(), question);
  EXPECT_EQ(ruled.substr(0, 12), "HTTP/1.1 200") << ruled.substr(0, 400);
  served.process->kill_now();
  std::filesystem::remove_all(dir);
}

TEST(PhotoServe, OnLoopbackNoTokenIsNeededAndServePublicIsRefused) {
  const std::filesystem::path dir = scratch_dir("loopback");
  write_registry(dir / "disks.json");
  ChildProcess local(diskref_program(), {"serve", "--disks", (dir / "disks.json").string(), "--serve", "0"},
                     dir / "local.log");
  const auto port = local.wait_for_log(std::regex(R"(the photo page: http://127\.0\.0\.1:(\d+)/ )"), 20s);
  ASSERT_TRUE(port) << local.log_text();
  EXPECT_EQ(exchange(std::stoi(*port), "GET /photo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 10s)
                .substr(0, 12),
            "HTTP/1.1 200");
  EXPECT_EQ(local.log_text().find("token"), std::string::npos) << local.log_text();
  // The photo page alone: no live feed is served.
  for (const std::string path : {"/feed/v1/snapshot", "/feed/v1/events"})
    EXPECT_EQ(
        exchange(std::stoi(*port), "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 10s)
            .substr(0, 12),
        "HTTP/1.1 404")
        << path;
  local.kill_now();
  // An upload always needs the token beyond loopback: opening the page to anyone is refused.
  ChildProcess open(diskref_program(),
                    {"serve", "--disks", (dir / "disks.json").string(), "--serve", "0.0.0.0:0", "--serve-public"},
                    dir / "public.log");
  EXPECT_EQ(open.wait(20s), 2);
  EXPECT_NE(open.log_text().find("--serve-public"), std::string::npos) << open.log_text();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace diskref::testing
