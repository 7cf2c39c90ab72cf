// lib-ab: two builds of libascendcl side by side in one process, each loaded into a linker
// namespace of its own (dlmopen), running the same operator through a handle in alternating
// ~20 ms batches; prints each build's median rate and B's rate over A's, the median and
// quartiles of the rounds' ratios.
//   lib-ab A.so B.so [--op=GEMM|Add] [--dtype=f32|bf16|f16] [--shape=MxNxK|N] [--rounds=30]
//                    [--precision=low] [--trans=NN|NT|TN|TT]
// For changes worth a few percent or a few nanoseconds a call: this VM's speed drifts by
// several percent within minutes, so separate processes, even alternating, cannot tell those
// apart (bench/paired_runs.h). Both builds get the same inputs, and their outputs are compared
// after the first call (a build that computes something else is reported and fails the run).
#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Options {
  std::string a, b, op = "GEMM", dtype = "f32", shape = "64x64x64";
  bool lowPrecision = false;  // GEMM: ACL_COMPUTE_LOW_PRECISION
  std::string trans = "NN";   // GEMM: A's and B's transposes
  int rounds = 30;
};

[[noreturn]] void usage(const std::string &problem) {
  fprintf(stderr,
          "lib-ab: %s\n"
          "usage: lib-ab A.so B.so [--op=GEMM|Add] [--dtype=f32|bf16|f16] [--shape=MxNxK|N] [--rounds=N]\n"
          "              [--precision=low] [--trans=NN|NT|TN|TT]\n"
          "  GEMM: aclblasGemmEx's handle, dtype in, f32 out, alpha 1, beta 0 (default 64x64x64);\n"
          "        --precision=low: ACL_COMPUTE_LOW_PRECISION (f16 and f32 inputs rounded to bf16);\n"
          "        --trans: A and B stored transposed (T) or not (N)\n"
          "  Add: f32, N elements through an Add handle\n"
          "  ACLCPU_NUM_THREADS defaults to 1 (each build reads it at aclInit).\n",
          problem.c_str());
  exit(2);
}

double seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

double quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return values[static_cast<size_t>(std::lround(q * static_cast<double>(values.size() - 1)))];
}

// f32 to bf16 (round to nearest even) or f16 (through the build's own conversion).
uint16_t toBf16(float value) {
  uint32_t bits;
  memcpy(&bits, &value, 4);
  return static_cast<uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
}

// One build: its API, looked up in its own namespace, and the operator's handle and tensors.
class Build {
 public:
  Build(const std::string &path, const Options &options, const std::vector<float> &values) : path_(path) {
    // A bare file name is a file here, not a name for the library search path.
    const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
    library_ = dlmopen(LM_ID_NEWLM, file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library_ == nullptr) fail(std::string("cannot load: ") + dlerror());
#define LIB_AB_BIND(name) name##_ = reinterpret_cast<decltype(&::name)>(symbol(#name))
    LIB_AB_BIND(aclInit);
    LIB_AB_BIND(aclrtSetDevice);
    LIB_AB_BIND(aclrtCreateStream);
    LIB_AB_BIND(aclrtMalloc);
    LIB_AB_BIND(aclrtMemcpy);
    LIB_AB_BIND(aclCreateDataBuffer);
    LIB_AB_BIND(aclCreateTensorDesc);
    LIB_AB_BIND(aclopCompile);
    LIB_AB_BIND(aclopCreateHandle);
    LIB_AB_BIND(aclblasCreateHandleForGemmEx);
    LIB_AB_BIND(aclopExecWithHandle);
    LIB_AB_BIND(aclrtSynchronizeStream);
    LIB_AB_BIND(aclGetRecentErrMsg);
    LIB_AB_BIND(aclFloatToFloat16);
#undef LIB_AB_BIND
    check(aclInit_(nullptr), "aclInit");
    check(aclrtSetDevice_(0), "aclrtSetDevice");
    check(aclrtCreateStream_(&stream_), "aclrtCreateStream");
    if (options.op == "GEMM") makeGemm(options, values);
    else makeAdd(options, values);
  }
  // (Nothing is released: the process ends with the run, and a namespace is never unloaded.)

  void call() {
    check(aclopExecWithHandle_(handle_, static_cast<int>(inputs_.size()), inputs_.data(), 1, &output_, stream_),
          "aclopExecWithHandle");
    check(aclrtSynchronizeStream_(stream_), "aclrtSynchronizeStream");
  }
  std::vector<float> result() {
    std::vector<float> host(outputCount_);
    check(aclrtMemcpy_(host.data(), host.size() * 4, outputDevice_, host.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST),
          "aclrtMemcpy");
    return host;
  }

 private:
  void *symbol(const char *name) {
    void *address = dlsym(library_, name);
    if (address == nullptr) fail(std::string("no symbol ") + name);
    return address;
  }
  [[noreturn]] void fail(const std::string &why) {
    fprintf(stderr, "lib-ab: %s: %s\n", path_.c_str(), why.c_str());
    exit(1);
  }
  void check(aclError error, const char *what) {
    if (error != ACL_SUCCESS) fail(std::string(what) + " failed with " + std::to_string(error) + ": " + aclGetRecentErrMsg_());
  }
  // A device tensor holding `bytes` copied from `host` (zeros if null).
  void *upload(const void *host, size_t bytes) {
    void *device = nullptr;
    check(aclrtMalloc_(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    std::vector<uint8_t> zeros(host ? 0 : bytes);
    check(aclrtMemcpy_(device, bytes, host ? host : zeros.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
    return device;
  }
  aclDataBuffer *buffer(void *device, size_t bytes) { return aclCreateDataBuffer_(device, bytes); }
  // `count` of `values` (cycled) as `type`, uploaded.
  aclDataBuffer *input(aclDataType type, size_t count, const std::vector<float> &values) {
    std::vector<uint8_t> host(count * (type == ACL_FLOAT ? 4 : 2));
    for (size_t i = 0; i < count; ++i) {
      float v = values[i % values.size()];
      if (type == ACL_FLOAT) memcpy(&host[4 * i], &v, 4);
      else {
        uint16_t half = type == ACL_BF16 ? toBf16(v) : aclFloatToFloat16_(v);
        memcpy(&host[2 * i], &half, 2);
      }
    }
    return buffer(upload(host.data(), host.size()), host.size());
  }
  void makeOutput(size_t count) {
    outputCount_ = count;
    outputDevice_ = upload(nullptr, count * 4);
    output_ = buffer(outputDevice_, count * 4);
  }
  void makeGemm(const Options &options, const std::vector<float> &values) {
    int m = 0, n = 0, k = 0;
    if (sscanf(options.shape.c_str(), "%dx%dx%d", &m, &n, &k) != 3 || m <= 0 || n <= 0 || k <= 0)
      usage("GEMM's shape is MxNxK");
    const aclDataType in = options.dtype == "bf16" ? ACL_BF16 : options.dtype == "f16" ? ACL_FLOAT16 : ACL_FLOAT;
    const float one = 1, zero = 0;
    inputs_ = {input(in, size_t(m) * k, values), input(in, size_t(k) * n, values)};
    makeOutput(size_t(m) * n);
    inputs_.push_back(output_);  // C, read only if beta were not 0
    inputs_.push_back(buffer(upload(&one, 4), 4));
    inputs_.push_back(buffer(upload(&zero, 4), 4));
    auto transOf = [](char t) { return t == 'T' ? ACL_TRANS_T : ACL_TRANS_N; };
    check(aclblasCreateHandleForGemmEx_(transOf(options.trans[0]), transOf(options.trans[1]), ACL_TRANS_N, m, n, k, in,
                                        in, ACL_FLOAT,
                                        options.lowPrecision ? ACL_COMPUTE_LOW_PRECISION : ACL_COMPUTE_HIGH_PRECISION,
                                        &handle_),
          "aclblasCreateHandleForGemmEx");
  }
  void makeAdd(const Options &options, const std::vector<float> &values) {
    const int64_t count = atoll(options.shape.c_str());
    if (count <= 0 || options.dtype != "f32") usage("Add takes --dtype=f32 and a shape of N elements");
    inputs_ = {input(ACL_FLOAT, size_t(count), values), input(ACL_FLOAT, size_t(count), values)};
    makeOutput(size_t(count));
    const aclTensorDesc *desc = aclCreateTensorDesc_(ACL_FLOAT, 1, &count, ACL_FORMAT_ND);
    const aclTensorDesc *descs[2] = {desc, desc};
    check(aclopCompile_("Add", 2, descs, 1, descs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), "aclopCompile");
    check(aclopCreateHandle_("Add", 2, descs, 1, descs, nullptr, &handle_), "aclopCreateHandle");
  }

  std::string path_;
  void *library_ = nullptr;
  decltype(&::aclInit) aclInit_;
  decltype(&::aclrtSetDevice) aclrtSetDevice_;
  decltype(&::aclrtCreateStream) aclrtCreateStream_;
  decltype(&::aclrtMalloc) aclrtMalloc_;
  decltype(&::aclrtMemcpy) aclrtMemcpy_;
  decltype(&::aclCreateDataBuffer) aclCreateDataBuffer_;
  decltype(&::aclCreateTensorDesc) aclCreateTensorDesc_;
  decltype(&::aclopCompile) aclopCompile_;
  decltype(&::aclopCreateHandle) aclopCreateHandle_;
  decltype(&::aclblasCreateHandleForGemmEx) aclblasCreateHandleForGemmEx_;
  decltype(&::aclopExecWithHandle) aclopExecWithHandle_;
  decltype(&::aclrtSynchronizeStream) aclrtSynchronizeStream_;
  decltype(&::aclGetRecentErrMsg) aclGetRecentErrMsg_;
  decltype(&::aclFloatToFloat16) aclFloatToFloat16_;
  aclrtStream stream_ = nullptr;
  aclopHandle *handle_ = nullptr;
  std::vector<const aclDataBuffer *> inputs_;
  aclDataBuffer *output_ = nullptr;
  void *outputDevice_ = nullptr;
  size_t outputCount_ = 0;
};

Options parse(int argc, char **argv) {
  Options options;
  std::vector<std::string> libraries;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *name) -> const char * {
      size_t length = strlen(name);
      return arg.compare(0, length, name) == 0 ? argv[i] + length : nullptr;
    };
    if (const char *v = value("--op=")) options.op = v;
    else if (const char *v = value("--dtype=")) options.dtype = v;
    else if (arg == "--precision=low") options.lowPrecision = true;
    else if (const char *v = value("--shape=")) options.shape = v;
    else if (const char *v = value("--rounds=")) options.rounds = atoi(v);
    else if (const char *v = value("--trans=")) options.trans = v;
    else if (arg.compare(0, 2, "--") == 0) usage("unknown option " + arg);
    else libraries.push_back(arg);
  }
  if (libraries.size() != 2) usage("give two libraries, A and B");
  if (options.op != "GEMM" && options.op != "Add") usage("--op is GEMM or Add");
  if (options.dtype != "f32" && options.dtype != "bf16" && options.dtype != "f16") usage("--dtype is f32, bf16 or f16");
  if (options.rounds < 1) usage("--rounds must be positive");
  if (options.trans != "NN" && options.trans != "NT" && options.trans != "TN" && options.trans != "TT")
    usage("--trans is NN, NT, TN or TT");
  options.a = libraries[0];
  options.b = libraries[1];
  if (options.op == "Add" && options.shape == "64x64x64") options.shape = "1";
  return options;
}

}  // namespace

int main(int argc, char **argv) {
  const Options options = parse(argc, argv);
  // The builds' worker threads, started by their namespaces' own libc copies, allocate their
  // thread_local blocks through the dynamic linker, which calls this namespace's malloc. A libc
  // that has never started a thread takes malloc's lock-free single-thread path, so those
  // allocations raced with this thread's and corrupted the heap (about one run in five). One
  // thread started and joined here makes this libc lock from then on.
  std::thread([] {}).join();
  setenv("ACLCPU_NUM_THREADS", "1", 0);
  std::vector<float> values(4099);
  std::mt19937 random(7);
  std::uniform_real_distribution<float> uniform(-1, 1);
  for (float &v : values) v = uniform(random);
  Build a(options.a, options, values), b(options.b, options, values);
  a.call();
  b.call();
  // Same inputs, so the same outputs up to the order of sums (which a kernel change may alter).
  std::vector<float> fromA = a.result(), fromB = b.result();
  double largest = 0, difference = 0;
  for (size_t i = 0; i < fromA.size(); ++i) {
    largest = std::max(largest, std::fabs(double(fromA[i])));
    difference = std::max(difference, std::fabs(double(fromA[i]) - double(fromB[i])));
  }
  const bool agree = difference <= 1e-4 * std::max(largest, 1.0);
  printf("outputs %s: largest difference %.3g (largest value %.3g)\n", agree ? "agree" : "DIFFER", difference, largest);

  // Calls per batch: ~20 ms of A's.
  double start = seconds();
  long timed = 0;
  do {
    a.call();
    ++timed;
  } while (seconds() - start < 0.005);
  const long batch = std::max(1L, std::lround(0.02 / ((seconds() - start) / double(timed))));
  double work = 0;  // operations per call: 2mnk for GEMM, elements for Add
  if (options.op == "GEMM") {
    int m, n, k;
    sscanf(options.shape.c_str(), "%dx%dx%d", &m, &n, &k);
    work = 2.0 * m * n * k;
  } else {
    work = atof(options.shape.c_str());
  }
  std::vector<double> rateA, rateB, ratio, nanosA, nanosB;
  for (int round = 0; round < options.rounds; ++round) {
    double elapsed[2];
    for (int turn = 0; turn < 2; ++turn) {
      const int which = (turn + round) % 2;  // rotated: neither always goes first
      Build &build = which == 0 ? a : b;
      double t0 = seconds();
      for (long c = 0; c < batch; ++c) build.call();
      elapsed[which] = (seconds() - t0) / double(batch);
    }
    rateA.push_back(work / elapsed[0] / 1e9);
    rateB.push_back(work / elapsed[1] / 1e9);
    nanosA.push_back(elapsed[0] * 1e9);
    nanosB.push_back(elapsed[1] * 1e9);
    ratio.push_back(elapsed[0] / elapsed[1]);
  }
  const char *unit = options.op == "GEMM" ? "GFLOP/s" : "G elements/s";
  printf("%s %s %s%s, %d rounds of %ld calls:\n", options.op.c_str(), options.dtype.c_str(), options.shape.c_str(),
         options.op == "GEMM" ? (" " + options.trans).c_str() : "", options.rounds, batch);
  printf("  A %.4g %s (%.1f ns a call)  %s\n", quantile(rateA, 0.5), unit, quantile(nanosA, 0.5), options.a.c_str());
  printf("  B %.4g %s (%.1f ns a call)  %s\n", quantile(rateB, 0.5), unit, quantile(nanosB, 0.5), options.b.c_str());
  printf("B/A %.4f (q1 %.4f, q3 %.4f)\n", quantile(ratio, 0.5), quantile(ratio, 0.25), quantile(ratio, 0.75));
  return agree ? 0 : 1;
}
