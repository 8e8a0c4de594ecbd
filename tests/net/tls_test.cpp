// The feed over TLS (--serve-cert, --serve-key): a certificate made here (OpenSSL, self-signed),
// a client that speaks TLS (OpenSSL) gets the page; one that speaks plain HTTP to it gets none.
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <functional>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "net/feed_hub.h"
#include "net/http_feed_server.h"
#include "raw_http.h"

namespace diskref::testing {
namespace {

using namespace std::chrono_literals;

std::string pem_of(const std::function<int(BIO*)>& write) {
  BIO* bio = BIO_new(BIO_s_mem());
  write(bio);
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio, &data);
  std::string text(data, static_cast<std::size_t>(n));
  BIO_free(bio);
  return text;
}

// A self-signed certificate for "localhost" and its key, PEM.
std::pair<std::string, std::string> self_signed() {
  EVP_PKEY* key = EVP_RSA_gen(2048);
  X509* cert = X509_new();
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), 0);
  X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  const std::string cn = "localhost";
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
  X509_set_issuer_name(cert, name);
  X509_sign(cert, key, EVP_sha256());
  std::pair<std::string, std::string> pems{
      pem_of([&](BIO* b) { return PEM_write_bio_X509(b, cert); }),
      pem_of([&](BIO* b) { return PEM_write_bio_PrivateKey(b, key, nullptr, nullptr, 0, nullptr, nullptr); })};
  X509_free(cert);
  EVP_PKEY_free(key);
  return pems;
}

// GET / over TLS; the whole answer, or empty when the handshake fails.
std::string get_over_tls(int port) {
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  SSL* ssl = SSL_new(ctx);
  const int fd = connect_loopback(port);
  SSL_set_fd(ssl, fd);
  std::string answer;
  if (SSL_connect(ssl) == 1) {
    const std::string request = "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    SSL_write(ssl, request.data(), static_cast<int>(request.size()));
    char chunk[4096];
    for (int n; (n = SSL_read(ssl, chunk, sizeof chunk)) > 0;) answer.append(chunk, static_cast<std::size_t>(n));
  }
  SSL_free(ssl);
  SSL_CTX_free(ctx);
  ::close(fd);
  return answer;
}

TEST(FeedOverTls, AClientSpeakingTlsGetsThePageAndPlainHttpGetsNothing) {
  const auto [cert, key] = self_signed();
  net::FeedHub hub;
  net::ProblemReports problems(nullptr);
  net::HttpFeedOptions o;
  o.tls_cert_pem = cert;
  o.tls_key_pem = key;
  net::HttpFeedServer server(hub, o, problems);
  server.add_page("/", "text/html; charset=utf-8", "<p>over TLS</p>");
  EXPECT_EQ(server.url().rfind("https://127.0.0.1:", 0), 0u) << server.url();
  const std::string answer = get_over_tls(server.port());
  EXPECT_EQ(answer.substr(0, 12), "HTTP/1.1 200") << answer;
  EXPECT_NE(answer.find("<p>over TLS</p>"), std::string::npos);
  const std::string plain = exchange(server.port(), "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", 5s);
  EXPECT_EQ(plain.find("over TLS"), std::string::npos);
}

TEST(FeedOverTls, AKeyThatIsNotAKeyIsSaidAtTheStart) {
  const auto [cert, key] = self_signed();
  net::FeedHub hub;
  net::ProblemReports problems(nullptr);
  net::HttpFeedOptions o;
  o.tls_cert_pem = cert;
  o.tls_key_pem = "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n";
  try {
    net::HttpFeedServer server(hub, o, problems);
    FAIL() << "served with a broken key";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("certificate or its key"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace diskref::testing
