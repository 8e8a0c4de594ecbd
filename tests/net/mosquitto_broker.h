#pragma once
// Test support: Debian's mosquitto on a loopback port, started (and waited for) and killed by the
// test, its log in the test's directory.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <stdexcept>
#include <string>

#include "child_process.h"

namespace diskref::testing {

class MosquittoBroker {
 public:
  // `extra_conf`: lines added to mosquitto.conf.
  MosquittoBroker(const std::filesystem::path& dir, int port, const std::string& extra_conf = "")
      : dir_(dir), port_(port) {
    std::ofstream(dir_ / "mosquitto.conf") << "listener " << port << " 127.0.0.1\nallow_anonymous true\n" << extra_conf;
  }
  void start() {
    using namespace std::chrono_literals;
    if (::access("/usr/sbin/mosquitto", X_OK) != 0)
      throw std::runtime_error(
          "/usr/sbin/mosquitto not found: the hall's tests need Debian's mosquitto (apt-get install "
          "mosquitto; scripts/install-deps.sh installs it)");
    const std::filesystem::path log = dir_ / ("mosquitto-" + std::to_string(starts_++) + ".log");
    process_ = std::make_unique<ChildProcess>("/usr/sbin/mosquitto",
                                              std::vector<std::string>{"-c", (dir_ / "mosquitto.conf").string()}, log);
    if (!process_->wait_for_log(std::regex("running"), 10s))
      throw std::runtime_error("mosquitto did not start:\n" + process_->log_text());
  }
  void kill() { process_->kill_now(); }
  int port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

 private:
  std::filesystem::path dir_;
  int port_;
  int starts_ = 0;
  std::unique_ptr<ChildProcess> process_;
};

}  // namespace diskref::testing
