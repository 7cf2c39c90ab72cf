// op-bench: a benchdnn-style driver for single operators through the public API.
//   op-bench --op=GEMM --dtype=f32 --shape=1024x1024x1024 [--trans=NT] [--mode=perf|correct|both]
//   op-bench --op=GEMM --dtype=f16 --shape=1024x1024x1024 --precision=low
//   op-bench --op=MatMul --dtype=f32 --shape=1024x1024x1024 [--trans=NT] [--const-b] [--bias] [--api=execute]
//   op-bench --op=Cast --dtype=f32:f16 --shape=67108864
//   op-bench --op=Add --dtype=f32 --shape=1048576
// Correctness compares with a plain-loop reference in double precision, with a tolerance from
// the data types; an output that is all zeros is MISTRUSTED (it proves nothing). Performance is
// the median of timed runs (launch + synchronize), in GFLOP/s for GEMM and GB/s otherwise.
#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

struct Options {
  std::string op = "GEMM", dtype = "f32", shape = "256x256x256", trans = "NN", mode = "both";
  int iterations = 0;  // 0: until ~0.5 s
  bool constB = false;  // MatMul: B declared constant (aclSetTensorConst), as weights are
  std::string api = "handle";  // MatMul: aclopExecWithHandle, or "execute": aclopExecuteV2 each call
  bool fuzz = false;  // MatMul: compiled with ACL_OP_COMPILE_FUZZ (every dim but 1s dynamic)
  bool bias = false;  // MatMul: a third input, a bias over N of the result's type (MatMulV2's)
  std::string sync = "stream";  // each run waits by aclrtSynchronizeStream, or "event": a recorded event
  std::string precision = "high";  // GEMM: aclblasGemmEx's compute type (low: f16, f32 rounded to bf16)
  bool product() const { return op == "GEMM" || op == "MatMul"; }  // shape MxNxK, --trans applies
};

const std::map<std::string, aclDataType> kTypes = {
    {"f32", ACL_FLOAT}, {"f16", ACL_FLOAT16}, {"bf16", ACL_BF16}, {"f64", ACL_DOUBLE},
    {"i8", ACL_INT8},   {"i32", ACL_INT32},   {"u8", ACL_UINT8}, {"i64", ACL_INT64}};

[[noreturn]] void usage(const std::string &problem) {
  fprintf(stderr,
          "op-bench: %s\n"
          "usage: op-bench --op=GEMM|MatMul|Add|Cast --dtype=T[:T] --shape=MxNxK|N [--trans=NN|NT|TN|TT]\n"
          "                [--mode=perf|correct|both] [--iterations=N] [--const-b] [--api=handle|execute]\n"
          "                [--fuzz] [--bias] [--sync=stream|event] [--precision=high|low]\n"
          "  GEMM (aclblasGemmEx), MatMul (a handle): --dtype=f32, f16 (f16 in, f32 out), bf16 (bf16 in,\n"
          "        f32 out) or i8 (i8 in, i32 out); --const-b: MatMul's B declared constant;\n"
          "        --api=execute: MatMul through aclopExecuteV2 on every call, not a handle;\n"
          "        --fuzz: MatMul compiled for dynamic shapes (ACL_OP_COMPILE_FUZZ);\n"
          "        --bias: MatMul adds a bias over N (its third input, of the output type)\n"
          "  --sync=event: each run waits on an event recorded after it, not on the stream\n"
          "  --precision=low: GEMM with ACL_COMPUTE_LOW_PRECISION (f16 and f32 inputs rounded to bf16)\n"
          "  Cast: --dtype=SRC:DST over f32 f16 bf16 f64 i8 u8 i32 i64;  Add: --dtype=f32|f16|bf16|i32\n",
          problem.c_str());
  exit(2);
}

#define CHECK_ACL(call)                                                                                 \
  do {                                                                                                  \
    aclError error_ = (call);                                                                           \
    if (error_ != ACL_SUCCESS) {                                                                        \
      fprintf(stderr, "op-bench: %s failed with %d: %s\n", #call, static_cast<int>(error_), aclGetRecentErrMsg()); \
      exit(1);                                                                                          \
    }                                                                                                   \
  } while (0)

// Waits for what a run enqueued on `stream`: on the stream, or on an event recorded after it.
void finishRun(const Options &options, aclrtStream stream) {
  if (options.sync == "stream") {
    CHECK_ACL(aclrtSynchronizeStream(stream));
    return;
  }
  static aclrtEvent event = nullptr;
  if (event == nullptr) CHECK_ACL(aclrtCreateEvent(&event));
  CHECK_ACL(aclrtRecordEvent(event, stream));
  CHECK_ACL(aclrtSynchronizeEvent(event));
}

// Host values of any supported type, as doubles, and back.
double load(aclDataType type, const uint8_t *at) {
  switch (type) {
    case ACL_FLOAT: { float v; memcpy(&v, at, 4); return v; }
    case ACL_DOUBLE: { double v; memcpy(&v, at, 8); return v; }
    case ACL_FLOAT16: { uint16_t v; memcpy(&v, at, 2); return aclFloat16ToFloat(v); }
    case ACL_BF16: { uint16_t v; memcpy(&v, at, 2); uint32_t bits = uint32_t(v) << 16; float f; memcpy(&f, &bits, 4); return f; }
    case ACL_INT8: return *reinterpret_cast<const int8_t *>(at);
    case ACL_UINT8: return *at;
    case ACL_INT32: { int32_t v; memcpy(&v, at, 4); return v; }
    case ACL_INT64: { int64_t v; memcpy(&v, at, 8); return static_cast<double>(v); }
    default: return 0;
  }
}

void store(aclDataType type, uint8_t *at, double value) {
  switch (type) {
    case ACL_FLOAT: { float v = static_cast<float>(value); memcpy(at, &v, 4); break; }
    case ACL_DOUBLE: memcpy(at, &value, 8); break;
    case ACL_FLOAT16: { uint16_t v = aclFloatToFloat16(static_cast<float>(value)); memcpy(at, &v, 2); break; }
    case ACL_BF16: {
      float f = static_cast<float>(value);
      uint32_t bits;
      memcpy(&bits, &f, 4);
      uint16_t v = static_cast<uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
      memcpy(at, &v, 2);
      break;
    }
    case ACL_INT8: *reinterpret_cast<int8_t *>(at) = static_cast<int8_t>(value); break;
    case ACL_UINT8: *at = static_cast<uint8_t>(value); break;
    case ACL_INT32: { int32_t v = static_cast<int32_t>(value); memcpy(at, &v, 4); break; }
    case ACL_INT64: { int64_t v = static_cast<int64_t>(value); memcpy(at, &v, 8); break; }
    default: break;
  }
}

// A tensor in host and device memory.
struct Tensor {
  aclDataType type;
  size_t count;
  std::vector<uint8_t> host;
  void *device = nullptr;
  Tensor(aclDataType t, size_t n) : type(t), count(n), host(std::max<size_t>(n * aclDataTypeSize(t), 1)) {
    CHECK_ACL(aclrtMalloc(&device, host.size(), ACL_MEM_MALLOC_HUGE_FIRST));
  }
  ~Tensor() { aclrtFree(device); }
  size_t bytes() const { return count * aclDataTypeSize(type); }
  double at(size_t i) const { return load(type, host.data() + i * aclDataTypeSize(type)); }
  void fill(unsigned seed, double lo, double hi, bool integers) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> uniform(lo, hi);
    for (size_t i = 0; i < count; ++i) {
      double v = uniform(random);
      store(type, host.data() + i * aclDataTypeSize(type), integers ? std::round(v) : v);
    }
    toDevice();
  }
  void toDevice() { CHECK_ACL(aclrtMemcpy(device, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE)); }
  void toHost() { CHECK_ACL(aclrtMemcpy(host.data(), host.size(), device, host.size(), ACL_MEMCPY_DEVICE_TO_HOST)); }
};

double epsilon(aclDataType type) {
  switch (type) {
    case ACL_FLOAT16: return 1.0 / 1024;
    case ACL_BF16: return 1.0 / 128;
    case ACL_FLOAT: return 1.2e-7;
    case ACL_DOUBLE: return 2.3e-16;
    default: return 0;
  }
}

std::vector<int64_t> parseShape(const std::string &text) {
  std::vector<int64_t> dims;
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find('x', at);
    std::string part = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    char *stop = nullptr;
    long long value = strtoll(part.c_str(), &stop, 10);
    if (part.empty() || *stop != '\0' || value <= 0) usage("bad --shape '" + text + "'");
    dims.push_back(value);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return dims;
}

// Times `run` (which must leave the stream synchronized): the median of the timed runs, in s.
template <typename Run>
double medianSeconds(Run run, int iterations) {
  run();  // warm up (compiles on first use)
  std::vector<double> times;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; iterations ? i < iterations : (i < 3 || std::chrono::steady_clock::now() - start < std::chrono::milliseconds(500)); ++i) {
    auto begin = std::chrono::steady_clock::now();
    run();
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// The verdict line: PASSED / FAILED / MISTRUSTED, with the worst error against the bound.
bool report(const Options &options, const Tensor &out, const std::vector<double> &reference,
            const std::vector<double> &bound) {
  double worst = 0, worstRatio = 0;
  size_t failures = 0, nonzero = 0, first = 0;
  for (size_t i = 0; i < out.count; ++i) {
    double got = out.at(i), error = std::fabs(got - reference[i]);
    nonzero += got != 0;
    bool ok = std::isnan(reference[i]) ? std::isnan(got) : error <= bound[i];
    if (!ok && failures++ == 0) first = i;
    double ratio = bound[i] > 0 ? error / bound[i] : (error > 0 ? INFINITY : 0);
    if (ratio > worstRatio) worstRatio = ratio, worst = error;
  }
  const char *verdict = failures ? "FAILED" : (nonzero == 0 && out.count > 0 ? "MISTRUSTED" : "PASSED");
  std::string trans = options.product() ? " trans=" + options.trans : "";
  printf("%s op=%s dtype=%s shape=%s%s: %zu of %zu outside the bound, max error %.3g (%.2f of its bound)", verdict,
         options.op.c_str(), options.dtype.c_str(), options.shape.c_str(), trans.c_str(), failures, out.count, worst,
         worstRatio);
  if (failures) printf("; first at %zu: %.9g vs %.9g", first, out.at(first), reference[first]);
  printf("\n");
  return failures == 0 && (nonzero > 0 || out.count == 0);
}

// GEMM through aclblasGemmEx (C = 1 * op(A) op(B) + 0 * C), or MatMul through a handle.
int gemm(const Options &options, aclrtStream stream) {
  std::vector<int64_t> dims = parseShape(options.shape);
  if (dims.size() != 3) usage("GEMM and MatMul take --shape=MxNxK");
  int m = int(dims[0]), n = int(dims[1]), k = int(dims[2]);
  if (options.trans.size() != 2 || options.trans.find_first_not_of("NT") != std::string::npos) usage("bad --trans");
  bool ta = options.trans[0] == 'T', tb = options.trans[1] == 'T';
  auto it = kTypes.find(options.dtype);
  if (it == kTypes.end()) usage("bad --dtype");
  aclDataType in = it->second;
  aclDataType out = in == ACL_INT8 ? ACL_INT32 : (in == ACL_FLOAT16 || in == ACL_BF16 ? ACL_FLOAT : in);
  bool integers = in == ACL_INT8;
  Tensor a(in, size_t(m) * k), b(in, size_t(k) * n), c(out, size_t(m) * n), alpha(out, 1), beta(out, 1);
  Tensor bias(out, options.bias ? size_t(n) : 0);
  a.fill(1, integers ? -128 : -1, integers ? 127 : 1, integers);  // i8: the whole range
  b.fill(2, integers ? -128 : -1, integers ? 127 : 1, integers);
  c.fill(3, -1, 1, integers);
  if (options.bias) bias.fill(4, integers ? -1000 : -1, integers ? 1000 : 1, integers);
  store(out, alpha.host.data(), 1);
  store(out, beta.host.data(), 0);
  alpha.toDevice();
  beta.toDevice();
  aclopHandle *handle = nullptr;
  std::vector<aclDataBuffer *> buffers;
  std::vector<aclTensorDesc *> descs;  // kept for aclopExecuteV2
  aclopAttr *attr = nullptr;
  bool execute = options.api == "execute";
  const int inputCount = options.bias ? 3 : 2;  // MatMul's
  if (options.op == "MatMul") {
    std::vector<int64_t> aDims = ta ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k};
    std::vector<int64_t> bDims = tb ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n};
    std::vector<int64_t> cDims{m, n}, biasDims{n};
    descs = {aclCreateTensorDesc(in, 2, aDims.data(), ACL_FORMAT_ND),
             aclCreateTensorDesc(in, 2, bDims.data(), ACL_FORMAT_ND),
             aclCreateTensorDesc(out, 2, cDims.data(), ACL_FORMAT_ND)};
    if (options.bias) descs.push_back(aclCreateTensorDesc(out, 1, biasDims.data(), ACL_FORMAT_ND));
    const aclTensorDesc *inDescs[] = {descs[0], descs[1], options.bias ? descs[3] : nullptr};
    const aclTensorDesc *outDescs[] = {descs[2]};
    if (options.constB) CHECK_ACL(aclSetTensorConst(descs[1], b.host.data(), b.bytes()));
    attr = aclopCreateAttr();
    CHECK_ACL(aclopSetAttrBool(attr, "transpose_x1", ta));
    CHECK_ACL(aclopSetAttrBool(attr, "transpose_x2", tb));
    if (options.fuzz) CHECK_ACL(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ));
    CHECK_ACL(
        aclopCompile("MatMul", inputCount, inDescs, 1, outDescs, attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr));
    if (!execute) {
      CHECK_ACL(aclopCreateHandle("MatMul", inputCount, inDescs, 1, outDescs, attr, &handle));
      aclopDestroyAttr(attr);  // the handle keeps what it needs, as the descriptions
      attr = nullptr;
      for (aclTensorDesc *desc : descs) aclDestroyTensorDesc(desc);
      descs.clear();
    }
    buffers = {aclCreateDataBuffer(a.device, a.bytes()), aclCreateDataBuffer(b.device, b.bytes()),
               aclCreateDataBuffer(c.device, c.bytes())};
    if (options.bias) buffers.push_back(aclCreateDataBuffer(bias.device, bias.bytes()));
  }
  auto run = [&] {
    if (handle) {
      const aclDataBuffer *inputs[] = {buffers[0], buffers[1], options.bias ? buffers[3] : nullptr};
      CHECK_ACL(aclopExecWithHandle(handle, inputCount, inputs, 1, &buffers[2], stream));
      finishRun(options, stream);
      return;
    }
    if (execute) {
      aclTensorDesc *inDescs[] = {descs[0], descs[1], options.bias ? descs[3] : nullptr}, *outDescs[] = {descs[2]};
      aclDataBuffer *inputs[] = {buffers[0], buffers[1], options.bias ? buffers[3] : nullptr};
      CHECK_ACL(aclopExecuteV2("MatMul", inputCount, inDescs, inputs, 1, outDescs, &buffers[2], attr, stream));
      finishRun(options, stream);
      return;
    }
    CHECK_ACL(aclblasGemmEx(ta ? ACL_TRANS_T : ACL_TRANS_N, tb ? ACL_TRANS_T : ACL_TRANS_N, ACL_TRANS_N, m, n, k,
                            alpha.device, a.device, -1, in, b.device, -1, in, beta.device, c.device, -1, out,
                            options.precision == "low" ? ACL_COMPUTE_LOW_PRECISION : ACL_COMPUTE_HIGH_PRECISION,
                            stream));
    finishRun(options, stream);
  };
  // Low precision rounds f16 and f32 inputs to bf16 before their products; the reference does too.
  const bool rounds = options.precision == "low" && (in == ACL_FLOAT16 || in == ACL_FLOAT);
  auto input = [&](double value) {
    if (!rounds) return value;
    uint8_t bf16[2];
    store(ACL_BF16, bf16, value);
    return load(ACL_BF16, bf16);
  };
  bool ok = true;
  if (options.mode != "perf") {
    run();
    c.toHost();
    std::vector<double> reference(c.count), bound(c.count);
    double accumulate = out == ACL_INT32 ? 0 : (in == ACL_DOUBLE ? epsilon(ACL_DOUBLE) : epsilon(ACL_FLOAT));
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double sum = 0, magnitude = 0;
        for (int p = 0; p < k; ++p) {
          double x = input(a.at(ta ? size_t(p) * m + i : size_t(i) * k + p));
          double y = input(b.at(tb ? size_t(j) * k + p : size_t(p) * n + j));
          sum += x * y;
          magnitude += std::fabs(x * y);
        }
        if (options.bias) sum += bias.at(size_t(j));
        reference[size_t(i) * n + j] = sum;
        bound[size_t(i) * n + j] = 2 * k * accumulate * magnitude + epsilon(out) * std::fabs(sum);
      }
    ok = report(options, c, reference, bound);
  }
  if (options.mode != "correct") {
    double seconds = medianSeconds(run, options.iterations);
    printf("perf op=%s dtype=%s shape=%s trans=%s: %.3f ms, %.1f GFLOP/s\n", options.op.c_str(), options.dtype.c_str(),
           options.shape.c_str(), options.trans.c_str(), seconds * 1e3, 2.0 * m * n * k / seconds / 1e9);
  }
  if (handle) aclopDestroyHandle(handle);
  if (attr) aclopDestroyAttr(attr);
  for (aclTensorDesc *desc : descs) aclDestroyTensorDesc(desc);
  for (aclDataBuffer *buffer : buffers) aclDestroyDataBuffer(buffer);
  return ok ? 0 : 1;
}

// Element-wise: Add (same type) and Cast (src:dst).
int elementwise(const Options &options, aclrtStream stream) {
  std::vector<int64_t> dims = parseShape(options.shape);
  size_t count = 1;
  for (int64_t d : dims) count *= size_t(d);
  bool cast = options.op == "Cast";
  size_t colon = options.dtype.find(':');
  std::string srcName = cast ? options.dtype.substr(0, colon) : options.dtype;
  std::string dstName = cast ? (colon == std::string::npos ? "" : options.dtype.substr(colon + 1)) : options.dtype;
  if (!kTypes.count(srcName) || !kTypes.count(dstName)) usage("bad --dtype (Cast takes SRC:DST)");
  aclDataType src = kTypes.at(srcName), dst = kTypes.at(dstName);
  bool integers = src != ACL_FLOAT && src != ACL_FLOAT16 && src != ACL_BF16 && src != ACL_DOUBLE;
  Tensor x(src, count), y(src, count), z(dst, count);
  x.fill(4, integers ? -100 : -50, integers ? 100 : 50, integers);
  y.fill(5, integers ? -100 : -50, integers ? 100 : 50, integers);
  aclTensorDesc *xd = aclCreateTensorDesc(src, int(dims.size()), dims.data(), ACL_FORMAT_ND);
  aclTensorDesc *zd = aclCreateTensorDesc(dst, int(dims.size()), dims.data(), ACL_FORMAT_ND);
  aclDataBuffer *xb = aclCreateDataBuffer(x.device, x.bytes()), *yb = aclCreateDataBuffer(y.device, y.bytes());
  aclDataBuffer *zb = aclCreateDataBuffer(z.device, z.bytes());
  aclopHandle *handle = nullptr;
  if (cast) {
    CHECK_ACL(aclopCreateHandleForCast(xd, zd, 0, &handle));
  } else {
    const aclTensorDesc *inputs[] = {xd, xd};
    const aclTensorDesc *outputs[] = {zd};
    CHECK_ACL(aclopCompile("Add", 2, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr));
    CHECK_ACL(aclopCreateHandle("Add", 2, inputs, 1, outputs, nullptr, &handle));
  }
  const aclDataBuffer *inputs[] = {xb, yb};
  aclDataBuffer *outputs[] = {zb};
  auto run = [&] {
    CHECK_ACL(aclopExecWithHandle(handle, cast ? 1 : 2, inputs, 1, outputs, stream));
    finishRun(options, stream);
  };
  bool ok = true;
  if (options.mode != "perf") {
    run();
    z.toHost();
    std::vector<double> reference(count), bound(count);
    for (size_t i = 0; i < count; ++i) {
      double value = cast ? x.at(i) : x.at(i) + y.at(i);
      uint8_t rounded[8];
      store(dst, rounded, dst == ACL_INT32 || dst == ACL_INT64 || dst == ACL_INT8 || dst == ACL_UINT8 ? std::trunc(value) : value);
      reference[i] = load(dst, rounded);
      bound[i] = epsilon(dst) * std::fabs(reference[i]);
    }
    ok = report(options, z, reference, bound);
  }
  if (options.mode != "correct") {
    double seconds = medianSeconds(run, options.iterations);
    double bytes = double(x.bytes()) * (cast ? 1 : 2) + double(z.bytes());
    printf("perf op=%s dtype=%s shape=%s: %.3f ms, %.2f GB/s\n", options.op.c_str(), options.dtype.c_str(),
           options.shape.c_str(), seconds * 1e3, bytes / seconds / 1e9);
  }
  aclopDestroyHandle(handle);
  for (aclDataBuffer *buffer : {xb, yb, zb}) aclDestroyDataBuffer(buffer);
  aclDestroyTensorDesc(xd);
  aclDestroyTensorDesc(zd);
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *name) -> const char * {
      size_t length = strlen(name);
      return arg.compare(0, length, name) == 0 ? argv[i] + length : nullptr;
    };
    if (arg == "--help" || arg == "-h") usage("options");
    if (const char *v = value("--op=")) options.op = v;
    else if (const char *v = value("--dtype=")) options.dtype = v;
    else if (const char *v = value("--shape=")) options.shape = v;
    else if (const char *v = value("--trans=")) options.trans = v;
    else if (const char *v = value("--mode=")) options.mode = v;
    else if (const char *v = value("--iterations=")) options.iterations = atoi(v);
    else if (arg == "--const-b") options.constB = true;
    else if (arg == "--fuzz") options.fuzz = true;
    else if (arg == "--bias") options.bias = true;
    else if (const char *v = value("--api=")) options.api = v;
    else if (const char *v = value("--sync=")) options.sync = v;
    else if (const char *v = value("--precision=")) options.precision = v;
    else usage("unknown option '" + arg + "'");
  }
  if (options.mode != "perf" && options.mode != "correct" && options.mode != "both") usage("bad --mode");
  if (!options.product() && options.op != "Add" && options.op != "Cast") usage("bad --op");
  if (options.constB && options.op != "MatMul") usage("--const-b is for --op=MatMul");
  if (options.fuzz && options.op != "MatMul") usage("--fuzz is for --op=MatMul");
  if (options.bias && options.op != "MatMul") usage("--bias is for --op=MatMul");
  if (options.api != "handle" && options.api != "execute") usage("bad --api");
  if (options.api != "handle" && options.op != "MatMul") usage("--api is for --op=MatMul");
  if (options.sync != "stream" && options.sync != "event") usage("bad --sync");
  if (options.precision != "high" && options.precision != "low") usage("bad --precision");
  if (options.precision != "high" && options.op != "GEMM") usage("--precision is for --op=GEMM");
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  int status = options.product() ? gemm(options, stream) : elementwise(options, stream);
  printf("repro: op-bench --op=%s --dtype=%s --shape=%s%s%s%s%s%s%s%s --mode=%s\n", options.op.c_str(),
         options.dtype.c_str(), options.shape.c_str(), options.product() ? (" --trans=" + options.trans).c_str() : "",
         options.constB ? " --const-b" : "", options.bias ? " --bias" : "",
         options.api == "execute" ? " --api=execute" : "",
         options.fuzz ? " --fuzz" : "", options.sync == "event" ? " --sync=event" : "",
         options.precision == "low" ? " --precision=low" : "", options.mode.c_str());
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return status;
}
