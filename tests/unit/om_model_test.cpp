// Offline-compiled models end to end: the real atc compiles a single-op JSON file, and
// aclopSetModelDir / aclopLoad load the .om files; operators then run on them through every
// call flow without compiling (counted in the model store). Corrupt, truncated, foreign and
// mutated files are rejected, never run, never a crash.
#include "model_file.h"
#include "model_store.h"
#include "op_fixture.h"
#include "../common/host_tensor.h"
#include "../common/temp_files.h"

#include "acl/ops/acl_cblas.h"

#include <cmath>
#include <filesystem>
#include <random>

using namespace aclcpu_test;

namespace {

namespace fs = std::filesystem;

// Runs the real atc on `json`, writing the models into `folder`.
void runAtc(const std::string &json, const std::string &folder) {
  TempFolder scratch;
  std::string ops = scratch.path + "/ops.json";
  writeBytes(ops, std::vector<char>(json.begin(), json.end()));
  std::string command = std::string(ACLCPU_ATC_PATH) + " --singleop=" + ops + " --output=" + folder + " > /dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
}

std::string tensorJson(const char *type, const std::string &shape, const std::string &extra = "") {
  return std::string(R"({"format": "ND", "type": ")") + type + R"(", "shape": )" + shape + extra + "}";
}

// The four operators of the README's offline flow. The GEMM entry leaves its transpose
// attributes to their defaults while aclblasGemmEx sets them; the SoftmaxV2 entry sets its axes
// while the request below leaves them to the default: defaults apply on both sides.
const std::string kSampleOps = "[" +
    std::string(R"({"op": "GEMM", "input_desc": [)") + tensorJson("float16", "[16, 16]") + "," +
    tensorJson("float16", "[16, 16]") + "," + tensorJson("float16", "[16, 16]") + "," + tensorJson("float16", "[]") +
    "," + tensorJson("float16", "[]") + R"(], "output_desc": [)" + tensorJson("float16", "[16, 16]") + "]}," +
    R"({"op": "Add", "input_desc": [)" + tensorJson("int32", "[3, 3]") + "," + tensorJson("int32", "[3, 3]") +
    R"(], "output_desc": [)" + tensorJson("int32", "[3, 3]") + "]}," +
    R"({"op": "Add", "input_desc": [)" + tensorJson("float", "[-1, 16]", R"(, "shape_range": [[1, 128]])") + "," +
    tensorJson("float", "[-1, 16]", R"(, "shape_range": [[1, 128]])") + R"(], "output_desc": [)" +
    tensorJson("float", "[-1, 16]") + "]}," +
    R"({"op": "SoftmaxV2", "input_desc": [)" + tensorJson("float", "[4, 10]") + R"(], "output_desc": [)" +
    tensorJson("float", "[4, 10]") + R"(], "attr": [{"name": "axes", "type": "list_int", "value": [-1]}]})" + "]";

const std::string kAddOnly = "[" + std::string(R"({"op": "Add", "name": "add", "input_desc": [)") +
                             tensorJson("int32", "[3, 3]") + "," + tensorJson("int32", "[3, 3]") +
                             R"(], "output_desc": [)" + tensorJson("int32", "[3, 3]") + "]}]";

class OmModelTest : public OpApiTest {
 protected:
  uint64_t compilations() const { return aclcpu::modelStore().compilations(); }
  size_t loaded() const { return aclcpu::modelStore().loadedModels(); }

  // Add over 3x3 int32 through aclopExecuteV2: returns its error, checks its result.
  aclError addInt32() {
    Desc a = desc(ACL_INT32, {3, 3}), b = desc(ACL_INT32, {3, 3}), out = desc(ACL_INT32, {3, 3});
    std::vector<int32_t> x = {1, -2, 3, 4, 2147483647, 6, 7, 8, -9}, y = {10, 20, 30, 40, 1, 60, 70, 80, 90};
    DeviceTensor<int32_t> dx(x), dy(y), dz(std::vector<int32_t>(9));
    aclError error = executeV2("Add", {a.get(), b.get()}, {dx.buffer, dy.buffer}, {out.get()}, {dz.buffer});
    if (error != ACL_SUCCESS) return error;
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    auto z = dz.read();
    for (int i = 0; i < 9; ++i)
      EXPECT_EQ(z[i], static_cast<int32_t>(static_cast<uint32_t>(x[i]) + static_cast<uint32_t>(y[i]))) << i;
    return ACL_SUCCESS;
  }
};

// DepthwiseConv2D's filter [kh, kw, C, M] is Conv2D's [kh, kw, 1, C * M] to the kernel: the
// model atc writes is found again for the request as given, and runs without compiling.
TEST_F(OmModelTest, AtcDepthwiseConvolutionRunsWithoutCompiling) {
  TempFolder folder;
  const std::string ops = std::string(R"([{"op": "DepthwiseConv2D", "input_desc": [)") +
                          R"({"format": "NHWC", "type": "float", "shape": [1, 4, 5, 2]},)" +
                          R"({"format": "HWCN", "type": "float", "shape": [3, 3, 2, 2]}], "output_desc": [)" +
                          R"({"format": "NHWC", "type": "float", "shape": [1, 4, 5, 4]}], "attr": [)" +
                          R"({"name": "strides", "type": "list_int", "value": [1, 1, 1, 1]},)" +
                          R"({"name": "pads", "type": "list_int", "value": [1, 1, 1, 1]}]}])";
  runAtc(ops, folder.path + "/op_models");
  uint64_t before = compilations();
  ASSERT_EQ(aclopSetModelDir((folder.path + "/op_models").c_str()), ACL_SUCCESS) << recentError();
  Desc x = desc(ACL_FLOAT, {1, 4, 5, 2}, ACL_FORMAT_NHWC), w = desc(ACL_FLOAT, {3, 3, 2, 2}, ACL_FORMAT_HWCN),
       y = desc(ACL_FLOAT, {1, 4, 5, 4}, ACL_FORMAT_NHWC);
  auto input = randomFloats(40, 6), filter = randomFloats(36, 7);
  DeviceTensor<float> dx(input), dw(filter), dy(std::vector<float>(80));
  aclopAttr *attr = aclopCreateAttr();
  int64_t ones[] = {1, 1, 1, 1};
  aclopSetAttrListInt(attr, "strides", 4, ones);
  aclopSetAttrListInt(attr, "pads", 4, ones);
  aclTensorDesc *inputs[] = {x.get(), w.get()}, *outputs[] = {y.get()};
  aclDataBuffer *inBuffers[] = {dx.buffer, dw.buffer}, *outBuffers[] = {dy.buffer};
  ASSERT_EQ(aclopExecuteV2("DepthwiseConv2D", 2, inputs, inBuffers, 1, outputs, outBuffers, attr, stream_), ACL_SUCCESS)
      << recentError();
  aclopDestroyAttr(attr);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto out = dy.read();
  for (int row = 0; row < 4; ++row)
    for (int col = 0; col < 5; ++col)
      for (int o = 0; o < 4; ++o) {
        int c = o / 2, m = o % 2;
        double expected = 0;
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            int r = row + i - 1, q = col + j - 1;
            if (r < 0 || r >= 4 || q < 0 || q >= 5) continue;
            expected += input[(r * 5 + q) * 2 + c] * filter[((i * 3 + j) * 2 + c) * 2 + m];
          }
        EXPECT_NEAR(out[(row * 5 + col) * 4 + o], expected, 1e-5) << row << "," << col << "," << o;
      }
  EXPECT_EQ(compilations(), before) << "the loaded model runs without compiling";
}

TEST_F(OmModelTest, AtcModelsRunThroughEveryCallFlowWithoutCompiling) {
  TempFolder folder;
  runAtc(kSampleOps, folder.path + "/op_models");
  uint64_t before = compilations();
  ASSERT_EQ(aclopSetModelDir((folder.path + "/op_models").c_str()), ACL_SUCCESS) << recentError();
  EXPECT_EQ(loaded(), 4u);

  // GEMM fp16 through aclblasGemmEx: C = A * B (alpha 1, beta 0 from device memory).
  HostTensor a = randomTensor(ACL_FLOAT16, {16, 16}, 1), b = randomTensor(ACL_FLOAT16, {16, 16}, 2);
  auto halves = [](const HostTensor &t) {
    std::vector<uint16_t> v(t.count());
    memcpy(v.data(), t.bytes.data(), t.byteSize());
    return v;
  };
  DeviceTensor<uint16_t> da(halves(a)), db(halves(b)), dc(std::vector<uint16_t>(256));
  DeviceTensor<uint16_t> alpha(std::vector<uint16_t>{aclFloatToFloat16(1.0f)}),
      beta(std::vector<uint16_t>{aclFloatToFloat16(0.0f)});
  ASSERT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 16, 16, 16, alpha.device, da.device, -1, ACL_FLOAT16,
                          db.device, -1, ACL_FLOAT16, beta.device, dc.device, -1, ACL_FLOAT16, ACL_COMPUTE_HIGH_PRECISION,
                          stream_),
            ACL_SUCCESS)
      << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto c = dc.read();
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      double expected = 0;
      for (int k = 0; k < 16; ++k) expected += a.at(i * 16 + k) * b.at(k * 16 + j);
      EXPECT_NEAR(aclFloat16ToFloat(c[i * 16 + j]), expected, 1e-2 + 4e-3 * std::fabs(expected)) << i << "," << j;
    }

  // Add int32 through aclopExecuteV2 (wrapping) and through a handle.
  EXPECT_EQ(addInt32(), ACL_SUCCESS) << recentError();
  Desc x = desc(ACL_INT32, {3, 3}), out = desc(ACL_INT32, {3, 3});
  const aclTensorDesc *inputs[] = {x.get(), x.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  aclopHandle *handle = nullptr;
  ASSERT_EQ(aclopCreateHandle("Add", 2, inputs, 1, outputs, nullptr, &handle), ACL_SUCCESS) << recentError();
  aclopDestroyHandle(handle);

  // The dynamic Add serves every row count in [1, 128]; its output dims are written back.
  for (int64_t rows : {1, 77, 128}) {
    Desc p = desc(ACL_FLOAT, {rows, 16}), q = desc(ACL_FLOAT, {rows, 16}), r = desc(ACL_FLOAT, {-1, 16});
    auto u = randomFloats(rows * 16, 3), v = randomFloats(rows * 16, 4);
    DeviceTensor<float> du(u), dv(v), dw(std::vector<float>(rows * 16));
    ASSERT_EQ(executeV2("Add", {p.get(), q.get()}, {du.buffer, dv.buffer}, {r.get()}, {dw.buffer}), ACL_SUCCESS)
        << rows << ": " << recentError();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    int64_t written = -1;
    EXPECT_EQ(aclGetTensorDescDimV2(r.get(), 0, &written), ACL_SUCCESS);
    EXPECT_EQ(written, rows);
    auto w = dw.read();
    for (int64_t i = 0; i < rows * 16; ++i) ASSERT_EQ(w[i], u[i] + v[i]) << rows << ": " << i;
  }
  Desc big = desc(ACL_FLOAT, {129, 16}), bigOut = desc(ACL_FLOAT, {129, 16});
  DeviceTensor<float> d129(std::vector<float>(129 * 16));
  EXPECT_EQ(executeV2("Add", {big.get(), big.get()}, {d129.buffer, d129.buffer}, {bigOut.get()}, {d129.buffer}),
            ACL_ERROR_OP_NOT_FOUND)
      << "129 rows is outside the model's range";
  EXPECT_NE(recentError().find("Add"), std::string::npos) << recentError();

  // SoftmaxV2 without attributes matches the model whose entry set axes = [-1] (the default).
  Desc s = desc(ACL_FLOAT, {4, 10}), sOut = desc(ACL_FLOAT, {4, 10});
  auto logits = randomFloats(40, 5);
  DeviceTensor<float> dl(logits), dp(std::vector<float>(40));
  ASSERT_EQ(executeV2("SoftmaxV2", {s.get()}, {dl.buffer}, {sOut.get()}, {dp.buffer}), ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto probabilities = dp.read();
  for (int row = 0; row < 4; ++row) {
    double sum = 0;
    for (int j = 0; j < 10; ++j) sum += std::exp(logits[row * 10 + j]);
    for (int j = 0; j < 10; ++j)
      EXPECT_NEAR(probabilities[row * 10 + j], std::exp(logits[row * 10 + j]) / sum, 1e-6) << row << "," << j;
  }
  EXPECT_EQ(compilations(), before) << "loaded models run without compiling";
}

TEST_F(OmModelTest, ModelDirIsSetOncePerInitAndMustBeAFolder) {
  TempFolder folder;
  runAtc(kAddOnly, folder.path);
  EXPECT_EQ(aclopSetModelDir(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetModelDir((folder.path + "/missing").c_str()), ACL_ERROR_READ_MODEL_FAILURE);
  EXPECT_EQ(aclopSetModelDir((folder.path + "/add.om").c_str()), ACL_ERROR_READ_MODEL_FAILURE) << "a file";
  ASSERT_EQ(aclopSetModelDir(folder.path.c_str()), ACL_SUCCESS) << recentError();
  EXPECT_EQ(aclopSetModelDir(folder.path.c_str()), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(addInt32(), ACL_SUCCESS);
  // aclFinalize forgets the folder and its models; a new aclInit may set it again.
  ASSERT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclopSetModelDir(folder.path.c_str()), ACL_ERROR_UNINITIALIZE);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  EXPECT_EQ(loaded(), 0u);
  EXPECT_EQ(addInt32(), ACL_ERROR_OP_NOT_FOUND);
  EXPECT_EQ(aclopSetModelDir(folder.path.c_str()), ACL_SUCCESS) << recentError();
  EXPECT_EQ(addInt32(), ACL_SUCCESS);
}

TEST_F(OmModelTest, ModelDirScansThreeLevelsAndSkipsFilesThatDoNotLoad) {
  TempFolder folder, models;
  std::string json = "[";
  for (int level = 1; level <= 4; ++level) {
    // One Add model per level, told apart by their shapes.
    std::string shape = "[" + std::to_string(level) + "]";
    json += std::string(level > 1 ? "," : "") + R"({"op": "Add", "name": "level)" + std::to_string(level) +
            R"(", "input_desc": [)" + tensorJson("float", shape) + "," + tensorJson("float", shape) +
            R"(], "output_desc": [)" + tensorJson("float", shape) + "]}";
  }
  runAtc(json + "]", models.path);
  std::string level2 = folder.path + "/a", level3 = level2 + "/b", level4 = level3 + "/c";
  fs::create_directories(level4);
  fs::copy_file(models.path + "/level1.om", folder.path + "/level1.om");
  fs::copy_file(models.path + "/level2.om", level2 + "/level2.om");
  fs::copy_file(models.path + "/level3.om", level3 + "/level3.om");
  fs::copy_file(models.path + "/level4.om", level4 + "/level4.om");
  writeBytes(folder.path + "/garbage.om", std::vector<char>(100, 'x'));
  writeBytes(folder.path + "/empty.om", {});
  fs::create_symlink(folder.path + "/nowhere", folder.path + "/dangling.om");
  fs::create_directories(folder.path + "/folder.om");
  fs::copy_file(models.path + "/level1.om", folder.path + "/level1.om.bak");
  ASSERT_EQ(aclopSetModelDir(folder.path.c_str()), ACL_SUCCESS) << recentError();
  EXPECT_EQ(loaded(), 3u) << "levels 1-3 load; level 4, garbage, empty and non-files do not";
  EXPECT_NE(recentError().find("not a valid aclcpu .om model"), std::string::npos) << recentError();
}

// Helpers for hand-made variants of a valid .om file.
std::vector<char> reseal(std::vector<char> bytes) {
  uint64_t checksum = aclcpu::fnv1a64(bytes.data(), bytes.size() - 8);
  memcpy(bytes.data() + bytes.size() - 8, &checksum, 8);
  return bytes;
}

class OmRejectionTest : public OmModelTest {
 protected:
  void SetUp() override {
    OmModelTest::SetUp();
    runAtc(kAddOnly, folder_.path);
    good_ = readBytes(folder_.path + "/add.om");
    ASSERT_FALSE(good_.empty());
  }
  // Loads `bytes`; expects a rejection whose message contains `reason`.
  void expectRejected(const std::vector<char> &bytes, const std::string &reason, const std::string &what) {
    EXPECT_EQ(aclopLoad(bytes.data(), bytes.size()), ACL_ERROR_PARSE_MODEL) << what;
    EXPECT_NE(recentError().find(reason), std::string::npos) << what << ": " << recentError();
  }
  aclcpu::ModelFile parsedGood() {
    aclcpu::ModelFile file;
    std::string error;
    EXPECT_TRUE(aclcpu::readModelFile(good_, file, error)) << error;
    return file;
  }
  TempFolder folder_;
  std::vector<char> good_;
};

TEST_F(OmRejectionTest, AclopLoadTakesAModelFromMemory) {
  EXPECT_EQ(aclopLoad(nullptr, 10), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopLoad(good_.data(), 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(addInt32(), ACL_ERROR_OP_NOT_FOUND);
  uint64_t before = compilations();
  ASSERT_EQ(aclopLoad(good_.data(), good_.size()), ACL_SUCCESS) << recentError();
  EXPECT_EQ(addInt32(), ACL_SUCCESS) << recentError();
  EXPECT_EQ(compilations(), before);
}

TEST_F(OmRejectionTest, ForeignCpuVersionAndInconsistentModelsAreRejected) {
  aclcpu::ModelFile file = parsedGood();
  aclcpu::ModelFile needsFeature = file;
  needsFeature.features += ",+aclcpu-imaginary-feature";
  expectRejected(aclcpu::writeModelFile(needsFeature), "lacks the features it was compiled for: aclcpu-imaginary-feature",
                 "a CPU feature this machine lacks");
  aclcpu::ModelFile otherArchitecture = file;
  otherArchitecture.triple = otherArchitecture.triple.rfind("aarch64", 0) == 0 ? "x86_64-pc-linux-gnu"
                                                                                : "aarch64-unknown-linux-gnu";
  expectRejected(aclcpu::writeModelFile(otherArchitecture), "it was compiled for", "another architecture");
  std::vector<char> version = good_;
  version[8] = 1;  // format version 1 (the cache's old format)
  expectRejected(reseal(version), "unsupported model file version 1", "an old format version");
  aclcpu::ModelFile cacheEntry = file;
  cacheEntry.description.clear();
  expectRejected(aclcpu::writeModelFile(cacheEntry), "compile-cache entry", "a cache entry without its op");
  aclcpu::ModelFile lyingDescription = file;
  size_t at = lyingDescription.description.find("[3,3]");
  ASSERT_NE(at, std::string::npos) << lyingDescription.description;
  lyingDescription.description.replace(at, 5, "[3,4]");
  expectRejected(aclcpu::writeModelFile(lyingDescription), "disagree", "a description that is not the signature's");
  aclcpu::ModelFile lyingOutputs = file;
  lyingOutputs.outputs[0].shape = {9};
  expectRejected(aclcpu::writeModelFile(lyingOutputs), "outputs disagree", "outputs that are not the op's");
  aclcpu::ModelFile badObject = file;
  badObject.object.assign(64, '\0');
  expectRejected(aclcpu::writeModelFile(badObject), "not an ELF file", "an object that is not ELF");
  EXPECT_EQ(addInt32(), ACL_ERROR_OP_NOT_FOUND) << "nothing rejected was added";
}

TEST_F(OmRejectionTest, EveryTruncationAndByteFlipIsRejected) {
  for (size_t length = 0; length < good_.size(); length += 7)
    ASSERT_EQ(aclopLoad(good_.data(), length == 0 ? 1 : length), ACL_ERROR_PARSE_MODEL) << "length " << length;
  for (size_t i = 0; i < good_.size(); ++i) {
    std::vector<char> mutated = good_;
    mutated[i] ^= static_cast<char>(1u << (i % 8));
    ASSERT_EQ(aclopLoad(mutated.data(), mutated.size()), ACL_ERROR_PARSE_MODEL) << "byte " << i;
  }
  EXPECT_EQ(addInt32(), ACL_ERROR_OP_NOT_FOUND);
}

// Mutations that keep the checksum valid reach the header, description and object checks:
// each is rejected or loads a model; none crashes. (Loaded mutants are never run.)
TEST_F(OmRejectionTest, ResealedMutationsNeverCrash) {
  std::mt19937 random(20261130);
  int rejected = 0, total = 1500;
  for (int round = 0; round < total; ++round) {
    std::vector<char> mutated = good_;
    int flips = 1 + static_cast<int>(random() % 4);
    for (int f = 0; f < flips; ++f) {
      size_t at = 8 + random() % (mutated.size() - 16);  // anywhere between the magic and the checksum
      mutated[at] = static_cast<char>(random() % 3 == 0 ? random() : mutated[at] ^ (1u << (random() % 8)));
    }
    rejected += aclopLoad(reseal(mutated).data(), mutated.size()) != ACL_SUCCESS;
  }
  EXPECT_GT(rejected, total / 2) << "most damage is detected";
  RecordProperty("rejected", rejected);
}

}  // namespace
