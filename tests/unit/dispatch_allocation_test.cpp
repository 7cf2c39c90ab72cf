// aclopExecWithHandle does no heap allocation on the calling thread once warm: the argument
// block and the launch task are recycled, the stream and pool queues are rings that do not
// shrink. Counted by interposing the malloc family in this executable (so it is not built
// under sanitizers, which own malloc); only the test thread's calls are counted.
#include "op_fixture.h"

#include <malloc.h>

extern "C" {
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *pointer, size_t size);
void *__libc_memalign(size_t alignment, size_t size);
void __libc_free(void *pointer);
}

namespace {
thread_local bool counting = false;
thread_local size_t allocations = 0;
void count() {
  if (counting) ++allocations;
}
}  // namespace

extern "C" {
void *malloc(size_t size) {
  count();
  return __libc_malloc(size);
}
void *calloc(size_t count_, size_t size) {
  count();
  return __libc_calloc(count_, size);
}
void *realloc(void *pointer, size_t size) {
  count();
  return __libc_realloc(pointer, size);
}
void *memalign(size_t alignment, size_t size) {
  count();
  return __libc_memalign(alignment, size);
}
void *aligned_alloc(size_t alignment, size_t size) {
  count();
  return __libc_memalign(alignment, size);
}
int posix_memalign(void **out, size_t alignment, size_t size) {
  count();
  *out = __libc_memalign(alignment, size);
  return *out ? 0 : ENOMEM;
}
void free(void *pointer) { __libc_free(pointer); }
}

using namespace aclcpu_test;

namespace {

TEST_F(OpApiTest, ExecWithHandleDoesNotAllocateOnceWarm) {
  const int64_t n = 4096;
  Desc x = desc(ACL_FLOAT, {n}), y = desc(ACL_FLOAT, {n});
  const aclTensorDesc *inputs[] = {x.get(), x.get()};
  const aclTensorDesc *outputs[] = {y.get()};
  ASSERT_EQ(aclopCompile("Add", 2, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << recentError();
  aclopHandle *handle = nullptr;
  ASSERT_EQ(aclopCreateHandle("Add", 2, inputs, 1, outputs, nullptr, &handle), ACL_SUCCESS) << recentError();
  DeviceTensor<float> a(std::vector<float>(n, 1.0f)), b(std::vector<float>(n, 2.0f)), c{std::vector<float>(n)};
  const aclDataBuffer *in[] = {a.buffer, b.buffer};
  aclDataBuffer *out[] = {c.buffer};
  // Warm up with more launches in flight than the counted run can have: the recyclers and the
  // queues reach their working size.
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 2000; ++i) ASSERT_EQ(aclopExecWithHandle(handle, 2, in, 1, out, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  }
  counting = true;
  allocations = 0;
  aclError status = ACL_SUCCESS;
  for (int i = 0; i < 1000 && status == ACL_SUCCESS; ++i) status = aclopExecWithHandle(handle, 2, in, 1, out, stream_);
  counting = false;
  ASSERT_EQ(status, ACL_SUCCESS) << recentError();
  EXPECT_EQ(allocations, 0u) << "heap allocations in 1000 aclopExecWithHandle calls";
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(c.read()[n - 1], 3.0f);
  aclopDestroyHandle(handle);

  // The counter itself works: a call that resolves a request does allocate.
  counting = true;
  allocations = 0;
  aclTensorDesc *inDescs[] = {x.get(), x.get()};
  aclTensorDesc *outDescs[] = {y.get()};
  aclDataBuffer *inBuffers[] = {a.buffer, b.buffer};
  EXPECT_EQ(aclopExecuteV2("Add", 2, inDescs, inBuffers, 1, outDescs, out, nullptr, stream_), ACL_SUCCESS);
  counting = false;
  EXPECT_GT(allocations, 0u);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

}  // namespace
