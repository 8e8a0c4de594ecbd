#pragma once
// A fresh folder for a recording test, with a table and a disk registry to record with.

#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "recording/session_recording.h"
#include "tests/referee/test_table.h"

namespace diskref::recording::testing {

namespace fs = std::filesystem;

class SessionDir : public ::testing::Test {
 protected:
  void SetUp() override {
    // Its own folder, also when another copy of the tests runs at the same time.
    root_ = fs::path(DISKREF_BINARY_DIR) / "test-output" / "ui" /
            (std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
             std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
    write(root_ / "table.json", model::table_to_json(model::default_table()).dump());
    write(root_ / "disks.json", model::disk_registry_to_json(referee::testing::test_registry()).dump());
  }
  static void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }
  SessionFiles files() const { return {root_ / "table.json", root_ / "disks.json", std::nullopt}; }
  fs::path root_;
};

}  // namespace diskref::recording::testing
