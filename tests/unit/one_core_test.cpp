// The runtime in a process restricted to one CPU, as by `taskset -c N` or a container given one
// core: main() pins the process to the first CPU it may use before the runtime starts, so its
// pool counts one usable core (runtime/usable_cores.h) whatever the machine has.
#include "op_fixture.h"

#include <sched.h>

#include <vector>

using namespace aclcpu_test;

namespace {

// With one usable core a worker would run a launch on the core the caller holds, so the
// enqueuing thread runs it, however large: it is done when aclopExecWithHandle returns, before
// any synchronize (elsewhere only launches of up to 32K elements run there). A worker woken on
// the one CPU may also finish first; the kernel-binary test below tells which thread ran.
TEST_F(OpApiTest, OneCoreRunsALargeLaunchOnTheEnqueuingThread) {
  const int64_t n = int64_t{1} << 22;
  Desc x = desc(ACL_FLOAT, {n});
  const aclTensorDesc *inputs[] = {x.get(), x.get()};
  const aclTensorDesc *outputs[] = {x.get()};
  ASSERT_EQ(aclopCompile("Add", 2, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_SUCCESS);
  aclopHandle *handle = nullptr;
  ASSERT_EQ(aclopCreateHandle("Add", 2, inputs, 1, outputs, nullptr, &handle), ACL_SUCCESS);
  DeviceTensor<float> a(std::vector<float>(n, 1.5f)), out(std::vector<float>(n, 0.0f));
  const aclDataBuffer *in[] = {a.buffer, a.buffer};
  aclDataBuffer *result[] = {out.buffer};
  ASSERT_EQ(aclopExecWithHandle(handle, 2, in, 1, result, stream_), ACL_SUCCESS);
  std::vector<float> before = out.read();  // aclrtMemcpy waits for no stream
  EXPECT_EQ(before.front(), 3.0f);
  EXPECT_EQ(before.back(), 3.0f) << "the launch was left to a worker";
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out.read()[n / 2], 3.0f);
  aclopDestroyHandle(handle);
}

// So does a kernel binary's launch, every block of it: they run in the slot of a thread outside
// the pool (the last), never a worker's. mark_blocks records the largest slot it ran in.
TEST_F(OpApiTest, OneCoreRunsAKernelBinarysBlocksOnTheEnqueuingThread) {
  aclrtBinHandle binary = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromFile(ACLCPU_KERNEL_DIR "/test_kernels.o", nullptr, &binary), ACL_SUCCESS);
  aclrtFuncHandle func = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(binary, "mark_blocks", &func), ACL_SUCCESS);
  for (uint32_t blocks : {1u, 7u}) {
    DeviceTensor<uint32_t> hits(std::vector<uint32_t>(blocks, 0)), maxWorker(std::vector<uint32_t>(1, 0));
    aclrtArgsHandle args = nullptr;
    aclrtParamHandle param = nullptr;
    ASSERT_EQ(aclrtKernelArgsInit(func, &args), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppend(args, &hits.device, sizeof(void *), &param), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsAppend(args, &maxWorker.device, sizeof(void *), &param), ACL_SUCCESS);
    ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernelWithConfig(func, blocks, stream_, nullptr, args, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(hits.read(), std::vector<uint32_t>(blocks, 1u)) << blocks << " blocks";
    EXPECT_EQ(maxWorker.read()[0], 1u) << blocks << " blocks: a worker (slot 0) ran one";
  }
  EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
}

}  // namespace

int main(int argc, char **argv) {
  cpu_set_t mask;
  if (sched_getaffinity(0, sizeof(mask), &mask) != 0) return 1;
  int first = 0;
  while (!CPU_ISSET(first, &mask)) ++first;
  CPU_ZERO(&mask);
  CPU_SET(first, &mask);
  if (sched_setaffinity(0, sizeof(mask), &mask) != 0) return 1;
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
