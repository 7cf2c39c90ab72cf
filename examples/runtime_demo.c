/* The runtime call flow on aclcpu, written as an Ascend application would write it: two streams,
 * device memory, async copies and memsets ordered through an event, and a host callback served by
 * a report thread. It checks its own result. */
#include "acl_check.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t reportLock = PTHREAD_MUTEX_INITIALIZER;
static int reportThreadRunning = 1;
static int callbackCount = 0;

static int keepReporting(void) {
  int running;
  pthread_mutex_lock(&reportLock);
  running = reportThreadRunning;
  pthread_mutex_unlock(&reportLock);
  return running;
}

static void *processReports(void *unused) {
  (void)unused;
  /* ACL_ERROR_RT_REPORT_TIMEOUT (nothing arrived in 100 ms) just loops. */
  while (keepReporting()) aclrtProcessReport(100);
  return NULL;
}

static void onCopied(void *userData) {
  callbackCount++;
  printf("callback: %s\n", (const char *)userData);
}

int main(void) {
  enum { N = 1 << 20 };
  const size_t bytes = N * sizeof(float);
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  aclrtStream producer, consumer;
  CHECK(aclrtCreateStream(&producer));
  CHECK(aclrtCreateStream(&consumer));

  pthread_t reporter;
  pthread_create(&reporter, NULL, processReports, NULL);
  CHECK(aclrtSubscribeReport((uint64_t)reporter, consumer));

  float *host = NULL, *result = NULL;
  void *devA = NULL, *devB = NULL;
  CHECK(aclrtMallocHost((void **)&host, bytes));
  CHECK(aclrtMallocHost((void **)&result, bytes));
  CHECK(aclrtMalloc(&devA, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&devB, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  for (int i = 0; i < N; ++i) host[i] = (float)i * 0.5f;

  aclrtEvent uploaded, start, stop;
  CHECK(aclrtCreateEvent(&uploaded));
  CHECK(aclrtCreateEvent(&start));
  CHECK(aclrtCreateEvent(&stop));

  /* producer: upload; consumer: wait for the upload, copy on the device, download, call back. */
  CHECK(aclrtRecordEvent(start, producer));
  CHECK(aclrtMemsetAsync(devB, bytes, 0, bytes, consumer));
  CHECK(aclrtMemcpyAsync(devA, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, producer));
  CHECK(aclrtRecordEvent(uploaded, producer));
  CHECK(aclrtStreamWaitEvent(consumer, uploaded));
  CHECK(aclrtMemcpyAsync(devB, bytes, devA, bytes / 2, ACL_MEMCPY_DEVICE_TO_DEVICE, consumer));
  CHECK(aclrtMemcpyAsync(result, bytes, devB, bytes, ACL_MEMCPY_DEVICE_TO_HOST, consumer));
  CHECK(aclrtLaunchCallback(onCopied, "download finished", ACL_CALLBACK_BLOCK, consumer));
  CHECK(aclrtRecordEvent(stop, consumer));
  CHECK(aclrtSynchronizeStream(consumer));

  int wrong = 0;
  for (int i = 0; i < N; ++i) {
    float expected = i < N / 2 ? (float)i * 0.5f : 0.0f;
    wrong += result[i] != expected;
  }
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, start, stop));
  size_t freeBytes = 0, totalBytes = 0;
  CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &freeBytes, &totalBytes));
  printf("copied %zu bytes through 2 streams in %.3f ms; %d wrong elements; %d callback(s); device memory %zu MiB free of %zu MiB\n",
         bytes, ms, wrong, callbackCount, freeBytes >> 20, totalBytes >> 20);

  CHECK(aclrtUnSubscribeReport((uint64_t)reporter, consumer));
  pthread_mutex_lock(&reportLock);
  reportThreadRunning = 0;
  pthread_mutex_unlock(&reportLock);
  pthread_join(reporter, NULL);
  CHECK(aclrtDestroyEvent(uploaded));
  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(stop));
  CHECK(aclrtFree(devA));
  CHECK(aclrtFree(devB));
  CHECK(aclrtFreeHost(host));
  CHECK(aclrtFreeHost(result));
  CHECK(aclrtDestroyStream(producer));
  CHECK(aclrtDestroyStream(consumer));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  if (wrong != 0 || callbackCount != 1) {
    printf("FAILED\n");
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
