// Temporary folders and whole-file reads and writes for tests that work with files on disk.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

// A fresh folder under /tmp, removed with everything in it at the end of the scope.
struct TempFolder {
  std::string path;
  TempFolder() {
    char pattern[] = "/tmp/aclcpu-test-XXXXXX";
    path = mkdtemp(pattern);
  }
  ~TempFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempFolder(const TempFolder &) = delete;
  TempFolder &operator=(const TempFolder &) = delete;
  // Paths of the files directly inside, sorted.
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto &entry : std::filesystem::directory_iterator(path)) names.push_back(entry.path().string());
    std::sort(names.begin(), names.end());
    return names;
  }
};

inline std::vector<char> readBytes(const std::string &path) {
  FILE *file = fopen(path.c_str(), "rb");
  std::vector<char> bytes;
  if (!file) return bytes;
  int c;
  while ((c = fgetc(file)) != EOF) bytes.push_back(static_cast<char>(c));
  fclose(file);
  return bytes;
}

inline void writeBytes(const std::string &path, const std::vector<char> &bytes) {
  FILE *file = fopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr) << path;
  if (!bytes.empty()) fwrite(bytes.data(), 1, bytes.size(), file);
  fclose(file);
}
