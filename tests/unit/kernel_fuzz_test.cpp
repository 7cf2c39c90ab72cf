// Truncated and bit-flipped copies of a valid kernel object must never crash or leak: each is
// either rejected with ACL_ERROR_INVALID_FILE or loads (and is unloaded again).
#include "kernel_fixture.h"

#include <cstdlib>
#include <random>

using namespace aclcpu_test;

using KernelFuzz = KernelTest;

namespace {

void loadAndUnload(const std::vector<uint8_t> &bytes, int &loaded, int &rejected) {
  aclrtBinHandle binary = nullptr;
  aclError error = aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &binary);
  if (error == ACL_SUCCESS) {
    ++loaded;
    aclrtFuncHandle func = nullptr;
    aclrtBinaryGetFunction(binary, "add_custom", &func);  // may fail; must not crash
    ASSERT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
  } else {
    ++rejected;
    ASSERT_TRUE(error == ACL_ERROR_INVALID_FILE) << "unexpected error " << error << ": " << recentError();
    ASSERT_NE(aclGetRecentErrMsg(), nullptr);
  }
}

}  // namespace

TEST_F(KernelFuzz, TruncatedObjects) {
  auto object = readFile(kernelPath("vector_add.o"));
  int loaded = 0, rejected = 0;
  for (size_t length = 1; length < object.size(); length += 1 + length / 16) {
    std::vector<uint8_t> prefix(object.begin(), object.begin() + length);
    loadAndUnload(prefix, loaded, rejected);
  }
  EXPECT_EQ(loaded, 0) << "no strict prefix of an object is complete";
  EXPECT_GT(rejected, 50);
}

TEST_F(KernelFuzz, BitFlippedObjects) {
  // ACLCPU_FUZZ_ROUNDS and ACLCPU_FUZZ_SEED vary the run for longer local fuzzing.
  const char *seed = getenv("ACLCPU_FUZZ_SEED");
  std::mt19937 random(seed ? static_cast<unsigned>(atoi(seed)) : 20261130u);
  const char *configured = getenv("ACLCPU_FUZZ_ROUNDS");
  const int rounds = configured ? atoi(configured) : 1500;
  for (const char *file : {"vector_add.o", "test_kernels.o"}) {
    auto object = readFile(kernelPath(file));
    int loaded = 0, rejected = 0;
    for (int round = 0; round < rounds; ++round) {
      auto mutated = object;
      int flips = 1 + static_cast<int>(random() % 4);
      for (int f = 0; f < flips; ++f) {
        // A third of the flips hit the ELF header, a third the section headers at the end.
        size_t at = random() % mutated.size();
        if (round % 3 == 0) at = random() % std::min<size_t>(mutated.size(), 64);
        if (round % 3 == 1) at = mutated.size() - 1 - random() % std::min<size_t>(mutated.size(), 1024);
        mutated[at] ^= static_cast<uint8_t>(1u << (random() % 8));
      }
      loadAndUnload(mutated, loaded, rejected);
    }
    EXPECT_GT(rejected, 0) << file;
    EXPECT_GT(loaded, 0) << file << ": flips in code bytes still load";
  }
}
