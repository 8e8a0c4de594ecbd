// The photo page's upload answered (net/photo_page.h), with a ruler the test writes: the question
// read from the query and handed on as spec §6's "questions", the ruler's refusal passed on with
// its status, the picture inline in base64.
#include <gtest/gtest.h>

#include "net/photo_page.h"

namespace diskref::testing {
namespace {

net::Upload upload_of(std::string body, std::map<std::string, std::string> query) {
  net::Upload u;
  u.body = std::move(body);
  u.client = "192.168.1.7";
  u.query = std::move(query);
  return u;
}

TEST(PhotoPage, TheQuestionAndThePhotoReachTheRulerAndTheAnswerCarriesThePicture) {
  net::PhotoSubmission seen;
  const net::PhotoRuler ruler = [&](const net::PhotoSubmission& s) {
    seen = s;
    net::PhotoReply r;
    r.ruling = {{"answers", {{{"id", "phone"}, {"call", "yes"}}}}};
    r.picture = "\xff\xd8\xff";
    return r;
  };
  const net::Upload u = upload_of("JPEGBYTES", {{"question", R"({"overlap": {"a": "enterprise", "b": "tderet"}})"}});
  const net::UploadAnswer a = net::answer_photo_upload(u, ruler);
  EXPECT_EQ(a.status, 200u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(seen.bytes.data()), seen.bytes.size()), "JPEGBYTES");
  EXPECT_EQ(seen.source, "upload from 192.168.1.7");
  EXPECT_EQ(seen.questions,
            nlohmann::json::parse(R"([{"id": "phone", "overlap": {"a": "enterprise", "b": "tderet"}}])"));
  const nlohmann::json body = nlohmann::json::parse(a.body);
  EXPECT_EQ(body["ruling"]["answers"][0]["call"], "yes");
  EXPECT_EQ(body["picture"], "/9j/");
  EXPECT_EQ(body["picture_type"], "image/jpeg");
}

TEST(PhotoPage, AQuestionMissingOrNotJsonIsRefusedWithoutAskingTheRuler) {
  int asked = 0;
  const net::PhotoRuler ruler = [&](const net::PhotoSubmission&) {
    ++asked;
    return net::PhotoReply{};
  };
  const net::UploadAnswer none = net::answer_photo_upload(upload_of("x", {}), ruler);
  EXPECT_EQ(none.status, 400u);
  EXPECT_NE(nlohmann::json::parse(none.body)["why"].get<std::string>().find("no question"), std::string::npos);
  for (const std::string& q : std::vector<std::string>{"{not json", "[1, 2]", "\"range\"", std::string(3000, '[')}) {
    const net::UploadAnswer bad = net::answer_photo_upload(upload_of("x", {{"question", q}}), ruler);
    EXPECT_EQ(bad.status, 400u) << q;
    EXPECT_NE(nlohmann::json::parse(bad.body)["why"].get<std::string>().find("not a JSON object"), std::string::npos);
  }
  EXPECT_EQ(asked, 0);
}

TEST(PhotoPage, TheRulersRefusalIsPassedOnWithItsStatusAndReason) {
  const net::PhotoRuler ruler = [](const net::PhotoSubmission&) {
    net::PhotoReply r;
    r.status = 422;
    r.refusal = "upload from 192.168.1.7: not a JPEG, PNG or WebP image";
    return r;
  };
  const net::UploadAnswer a = net::answer_photo_upload(upload_of("hello", {{"question", "{}"}}), ruler);
  EXPECT_EQ(a.status, 422u);
  const nlohmann::json body = nlohmann::json::parse(a.body);
  EXPECT_EQ(body["error"], "422");
  EXPECT_EQ(body["why"], "upload from 192.168.1.7: not a JPEG, PNG or WebP image");
}

TEST(PhotoPage, Base64IsRfc4648s) {
  EXPECT_EQ(net::base64(""), "");
  EXPECT_EQ(net::base64("f"), "Zg==");
  EXPECT_EQ(net::base64("fo"), "Zm8=");
  EXPECT_EQ(net::base64("foo"), "Zm9v");
  EXPECT_EQ(net::base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(net::base64(std::string("\xff\xfe\x00", 3)), "//4A");
}

}  // namespace
}  // namespace diskref::testing
