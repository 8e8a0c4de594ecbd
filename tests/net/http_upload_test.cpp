// An upload path of the feed's HTTP server (net/http_upload.h), in this process on loopback, with
// a handler that records what it was given: what may not be taken is refused at the request's
// head, before its body is read (the tests send the head alone and get the answer), and what is
// taken reaches the handler whole. Asserts what happened, never how long it took.
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "net/feed_hub.h"
#include "net/http_feed_server.h"
#include "raw_http.h"
#include "tests/support/becomes_true.h"

namespace diskref::testing {
namespace {

using namespace std::chrono_literals;

constexpr const char* kToken = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

class HttpUploadTest : public ::testing::Test {
 protected:
  void start(net::HttpFeedOptions o = {}, std::size_t max_body = 1000, int at_once = 2,
             std::chrono::milliseconds body_timeout = 60s) {
    server_ = std::make_unique<net::HttpFeedServer>(hub_, std::move(o), problems_);
    net::UploadRoute route;
    route.max_body_bytes = max_body;
    route.max_at_once = at_once;
    route.body_timeout = body_timeout;
    route.handler = [this](const net::Upload& u) {
      std::lock_guard lock(mutex_);
      received_.push_back(u);
      if (u.body == "throw") throw std::runtime_error("the handler failed");
      return net::UploadAnswer{200, "application/json", "{\"bytes\": " + std::to_string(u.body.size()) + "}"};
    };
    server_->add_upload("/up", route);
  }
  int port() const { return server_->port(); }
  // The head of a POST to `target` announcing `length` bytes, with `more` headers.
  static std::string post_head(const std::string& target, std::size_t length, const std::string& more = "") {
    return "POST " + target +
           " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\nContent-Length: " + std::to_string(length) +
           "\r\n" + more + "Connection: close\r\n\r\n";
  }
  std::string whole_answer(const std::string& request) {
    const int fd = connect_loopback(port());
    send_all(fd, request);
    std::string answer = receive_for(fd, 10s);
    ::close(fd);
    return answer;
  }
  static std::string status(const std::string& answer) { return answer.substr(0, 12); }
  static std::string body_of(const std::string& answer) {
    const std::size_t end = answer.find("\r\n\r\n");
    return end == std::string::npos ? "" : answer.substr(end + 4);
  }
  std::size_t handled() {
    std::lock_guard lock(mutex_);
    return received_.size();
  }

  net::FeedHub hub_;
  net::ProblemReports problems_{[](const std::string&) {}};
  std::unique_ptr<net::HttpFeedServer> server_;
  std::mutex mutex_;
  std::vector<net::Upload> received_;
};

TEST_F(HttpUploadTest, ABodyWithinTheLimitReachesTheHandlerWholeWithItsQuery) {
  start();
  const std::string body(1000, 'x');
  const std::string answer = whole_answer(post_head("/up?question=range&a=enterprise", body.size()) + body);
  EXPECT_EQ(status(answer), "HTTP/1.1 200") << answer;
  EXPECT_EQ(body_of(answer), "{\"bytes\": 1000}");
  EXPECT_NE(answer.find("X-Content-Type-Options: nosniff"), std::string::npos) << answer;
  ASSERT_EQ(handled(), 1u);
  EXPECT_EQ(received_[0].body, body);
  EXPECT_EQ(received_[0].content_type, "image/jpeg");
  EXPECT_EQ(received_[0].client, "127.0.0.1");
  EXPECT_EQ(received_[0].query.at("question"), "range");
  EXPECT_EQ(received_[0].query.at("a"), "enterprise");
}

TEST_F(HttpUploadTest, ABodyOverTheLimitIsRefusedAtItsHeadBeforeAByteIsSent) {
  start();
  // Only the head is sent: the answer comes without the body, so none of it was awaited.
  const std::string answer = exchange(port(), post_head("/up", 1001), 10s);
  EXPECT_EQ(status(answer), "HTTP/1.1 413") << answer;
  const std::string huge = exchange(port(), post_head("/up", 60ull << 30), 10s);  // 60 GiB
  EXPECT_EQ(status(huge), "HTTP/1.1 413") << huge;
  EXPECT_EQ(handled(), 0u);
}

TEST_F(HttpUploadTest, AChunkedBodyOrNoLengthIsRefused) {
  start();
  EXPECT_EQ(
      status(exchange(port(),
                      "POST /up HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
                      10s)),
      "HTTP/1.1 411");
  EXPECT_EQ(status(exchange(port(), "POST /up HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 10s)),
            "HTTP/1.1 411");
  EXPECT_EQ(handled(), 0u);
}

TEST_F(HttpUploadTest, OnlyPostIsTakenThereAndNowhereElse) {
  start();
  const std::string get = exchange(port(), "GET /up HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 10s);
  EXPECT_EQ(status(get), "HTTP/1.1 405");
  EXPECT_NE(get.find("Allow: POST"), std::string::npos) << get;
  EXPECT_EQ(status(exchange(port(), post_head("/elsewhere", 3) + "abc", 10s)), "HTTP/1.1 405");
  EXPECT_EQ(handled(), 0u);
}

TEST_F(HttpUploadTest, BeyondLoopbackTheTokenIsRequiredAtTheHeadEvenWhenThePagesArePublic) {
  for (const bool public_read : {false, true}) {
    net::HttpFeedOptions o;
    o.token = kToken;
    o.public_read = public_read;
    start(o);
    const std::string refused = exchange(port(), post_head("/up", 500), 10s);  // no body sent
    EXPECT_EQ(status(refused), "HTTP/1.1 401") << refused;
    EXPECT_NE(body_of(whole_answer(post_head("/up", 3, "Authorization: Bearer nottheright\r\n") + "abc")).find("token"),
              std::string::npos);
    EXPECT_EQ(handled(), 0u);
    EXPECT_EQ(
        status(whole_answer(post_head("/up", 3, "Authorization: Bearer " + std::string(kToken) + "\r\n") + "abc")),
        "HTTP/1.1 200");
    EXPECT_EQ(
        status(whole_answer(post_head("/up", 3, "Cookie: diskref_token=" + std::string(kToken) + "\r\n") + "abc")),
        "HTTP/1.1 200");
    EXPECT_EQ(status(whole_answer(post_head("/up?token=" + std::string(kToken), 3) + "abc")), "HTTP/1.1 200");
    // The token is not among what the handler is given.
    std::lock_guard lock(mutex_);
    ASSERT_EQ(received_.size(), 3u);
    EXPECT_EQ(received_.back().query.count("token"), 0u);
    received_.clear();
    server_.reset();
  }
}

TEST_F(HttpUploadTest, UploadsBeyondThoseAllowedAtOnceAreRefusedUntilOneEnds) {
  start({}, 1000, 1);
  // The first upload's head is in, its body not yet: it holds the one place. Nothing else has
  // asked yet, so the one upload the server counts is this one (the server reads the head on its
  // own thread: wait until it has, on its count, not on a clock).
  const int first = connect_loopback(port());
  send_all(first, post_head("/up", 10));
  ASSERT_TRUE(becomes_true([&] { return server_->uploads_open("/up") == 1; }));
  const std::string second = exchange(port(), post_head("/up", 3) + "abc", 10s);
  EXPECT_EQ(status(second), "HTTP/1.1 503") << second;
  EXPECT_NE(second.find("Retry-After"), std::string::npos) << second;
  EXPECT_EQ(handled(), 0u);
  // The first completes and is answered; once it has ended its place is free again.
  send_all(first, std::string(10, 'y'));
  EXPECT_EQ(status(receive_for(first, 10s)), "HTTP/1.1 200");
  ::close(first);
  ASSERT_TRUE(becomes_true([&] { return server_->uploads_open("/up") == 0; }));
  EXPECT_EQ(status(whole_answer(post_head("/up", 3) + "abc")), "HTTP/1.1 200");
  EXPECT_EQ(handled(), 2u);
}

TEST_F(HttpUploadTest, ABodyThatDoesNotArriveWithinItsTimeIsCut) {
  start({}, 1000, 2, 300ms);
  const int fd = connect_loopback(port());
  send_all(fd, post_head("/up", 100) + std::string(10, 'z'));  // 10 of 100 bytes, then nothing
  EXPECT_TRUE(closed_by_peer(fd, 20s));
  ::close(fd);
  EXPECT_EQ(handled(), 0u);
  EXPECT_GE(server_->cut_for_slowness(), 1);
}

TEST_F(HttpUploadTest, AHandlerThatFailsIsAnsweredWith500AndTheServerGoesOn) {
  start();
  const std::string failed = whole_answer(post_head("/up", 5) + "throw");
  EXPECT_EQ(status(failed), "HTTP/1.1 500") << failed;
  EXPECT_NE(body_of(failed).find("the handler failed"), std::string::npos) << failed;
  EXPECT_EQ(status(whole_answer(post_head("/up", 3) + "abc")), "HTTP/1.1 200");
}

}  // namespace
}  // namespace diskref::testing
