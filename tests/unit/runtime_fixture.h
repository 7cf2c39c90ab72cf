// Shared helpers for runtime tests: an initialized runtime with device 0 set, scoped
// environment variables and temporary config files.
#pragma once

#include "acl/acl.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

namespace aclcpu_test {

// Sets (or, with nullptr, unsets) an environment variable for the lifetime of the object.
class ScopedEnv {
 public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    if (const char *old = getenv(name)) {
      hadOld_ = true;
      old_ = old;
    }
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    if (hadOld_) setenv(name_.c_str(), old_.c_str(), 1);
    else unsetenv(name_.c_str());
  }

 private:
  std::string name_, old_;
  bool hadOld_ = false;
};

// A file with the given contents, removed at scope exit.
class TempFile {
 public:
  explicit TempFile(const std::string &contents) {
    char pattern[] = "/tmp/aclcpu-test-XXXXXX";
    int fd = mkstemp(pattern);
    path_ = pattern;
    if (fd >= 0) close(fd);
    std::ofstream(path_, std::ios::binary) << contents;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const char *path() const { return path_.c_str(); }

 private:
  std::string path_;
};

inline std::string recentError() {
  const char *message = aclGetRecentErrMsg();
  return message ? message : "";
}

class RuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << recentError();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << recentError();
  }
  void TearDown() override {
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS) << recentError();
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS) << recentError();
  }
};

// RuntimeTest with two streams of its own, for work on one that another orders against.
class TwoStreamTest : public RuntimeTest {
 protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    ASSERT_EQ(aclrtCreateStream(&first_), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&second_), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtDestroyStream(first_), ACL_SUCCESS) << recentError();
    EXPECT_EQ(aclrtDestroyStream(second_), ACL_SUCCESS) << recentError();
    RuntimeTest::TearDown();
  }
  aclrtStream first_ = nullptr, second_ = nullptr;
};

}  // namespace aclcpu_test
