#include "net/endpoint.h"

#include <gtest/gtest.h>

#include "engine/io/input_error.h"

namespace diskref::net {
namespace {

TEST(Endpoint, APortAloneListensOnLoopbackOnly) {
  const Endpoint e = parse_listen_address("8080", "--serve");
  EXPECT_EQ(e.host, "127.0.0.1");
  EXPECT_EQ(e.port, 8080);
  EXPECT_TRUE(is_loopback(e.host));
}

TEST(Endpoint, AnAddressGivenOpensItUp) {
  const Endpoint any = parse_listen_address("0.0.0.0:9000", "--serve");
  EXPECT_EQ(any.host, "0.0.0.0");
  EXPECT_EQ(any.port, 9000);
  EXPECT_FALSE(is_loopback(any.host));
  const Endpoint v6 = parse_listen_address("[::1]:0", "--serve");
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.port, 0);
  EXPECT_TRUE(is_loopback(v6.host));
  EXPECT_EQ(to_string(v6), "[::1]:0");
}

TEST(Endpoint, ADestinationNeedsAHostAndARealPort) {
  const Endpoint e = parse_destination("localhost:3333", "--tuio");
  EXPECT_EQ(e.host, "localhost");
  EXPECT_EQ(e.port, 3333);
  EXPECT_THROW(parse_destination("3333", "--tuio"), io::InputError);
  EXPECT_THROW(parse_destination("host:0", "--tuio"), io::InputError);
}

TEST(Endpoint, NonsenseIsBadInputNamingTheOption) {
  for (const char* bad : {"", "http", "80a", "70000", "-1", "1:2:3", "[::1]8080", "host:"}) {
    try {
      parse_listen_address(bad, "--serve");
      ADD_FAILURE() << "accepted \"" << bad << "\"";
    } catch (const io::InputError& e) {
      EXPECT_EQ(e.path(), "--serve") << bad;
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace diskref::net
