// Writing and validating model files.
#include "model_file.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include <unistd.h>

namespace aclcpu {
namespace {

constexpr char kMagic[8] = {'A', 'C', 'L', 'C', 'P', 'U', 'O', 'M'};
constexpr uint32_t kFormatVersion = 5;  // 3: the launch recipe's blocks_per_worker; 4: its work_per_element;
                                        // 5: its work_depth
constexpr size_t kMaxHeaderBytes = 1u << 20;

template <typename T>
void append(std::vector<char> &out, T value) {
  const char *bytes = reinterpret_cast<const char *>(&value);
  out.insert(out.end(), bytes, bytes + sizeof(T));
}

// Reads a T at `at` if it fits; advances `at`.
template <typename T>
bool take(const std::vector<char> &in, size_t &at, T &value) {
  if (in.size() < sizeof(T) || at > in.size() - sizeof(T)) return false;
  memcpy(&value, in.data() + at, sizeof(T));
  at += sizeof(T);
  return true;
}

// The recipe's work_depth: [input, dim, lanes], input -1 for none (LaunchRecipe::validWorkDepth).
bool validWorkDepth(const nlohmann::json &json) {
  if (!json.contains("work_depth")) return false;
  const nlohmann::json &depth = json["work_depth"];
  if (!depth.is_array() || depth.size() != 3) return false;
  for (const nlohmann::json &value : depth)
    if (!value.is_number_integer()) return false;
  return LaunchRecipe::validWorkDepth(depth[0].get<int64_t>(), depth[1].get<int64_t>(), depth[2].get<int64_t>());
}

}  // namespace

uint64_t fnv1a64(const char *data, size_t size, uint64_t hash) {
  for (size_t i = 0; i < size; ++i) {
    hash ^= static_cast<unsigned char>(data[i]);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

bool readFileBytes(const std::string &path, std::vector<char> &bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

bool writeFileAtomically(const std::string &path, const std::vector<char> &bytes) {
  static std::atomic<uint64_t> counter{0};
  std::string temp = path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(++counter);
  {
    std::ofstream out(temp, std::ios::binary);
    if (!out || !out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
      std::remove(temp.c_str());
      return false;
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) == 0) return true;
  std::remove(temp.c_str());
  return false;
}

std::vector<char> writeModelFile(const ModelFile &file) {
  nlohmann::json outputs = nlohmann::json::array();
  for (const TensorSpec &output : file.outputs)
    outputs.push_back({{"type", static_cast<int>(output.type)}, {"shape", output.shape}});
  nlohmann::json json{{"fingerprint", file.fingerprint}, {"signature", file.signature},
                      {"triple", file.triple},           {"features", file.features},
                      {"partitioned", file.launch.partitioned},
                      {"blocks_per_worker", file.launch.blocksPerWorker},
                      {"work_per_element", file.launch.workPerElement},
                      {"work_depth", {file.launch.depthInput, file.launch.depthDim, file.launch.depthLanes}},
                      {"outputs", outputs}};
  if (!file.description.empty()) json["op"] = nlohmann::json::parse(file.description, nullptr, /*allow_exceptions=*/false);
  std::string header = json.dump();
  std::vector<char> out(kMagic, kMagic + sizeof(kMagic));
  append<uint32_t>(out, kFormatVersion);
  append<uint32_t>(out, static_cast<uint32_t>(header.size()));
  out.insert(out.end(), header.begin(), header.end());
  append<uint64_t>(out, file.object.size());
  out.insert(out.end(), file.object.begin(), file.object.end());
  append<uint64_t>(out, fnv1a64(out.data(), out.size()));
  return out;
}

bool readModelFile(const std::vector<char> &bytes, ModelFile &out, std::string &error) {
  size_t at = sizeof(kMagic);
  if (bytes.size() < sizeof(kMagic) || memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    error = "not an aclcpu model file (bad magic)";
    return false;
  }
  uint32_t version = 0, headerSize = 0;
  if (!take(bytes, at, version) || version != kFormatVersion) {
    error = "unsupported model file version " + std::to_string(version);
    return false;
  }
  if (!take(bytes, at, headerSize) || headerSize > kMaxHeaderBytes || headerSize > bytes.size() - at) {
    error = "truncated or oversized header";
    return false;
  }
  std::string header(bytes.data() + at, headerSize);
  at += headerSize;
  uint64_t objectSize = 0;
  if (!take(bytes, at, objectSize) || objectSize > bytes.size() - at || bytes.size() - at - objectSize != 8) {
    error = "truncated object or trailing bytes";
    return false;
  }
  size_t objectAt = at;
  at += objectSize;
  uint64_t checksum = 0;
  take(bytes, at, checksum);
  if (checksum != fnv1a64(bytes.data(), bytes.size() - 8)) {
    error = "checksum mismatch (the file is corrupt)";
    return false;
  }
  nlohmann::json json = nlohmann::json::parse(header, nullptr, /*allow_exceptions=*/false);
  auto count = [&](const char *key, uint32_t most) {
    return json.contains(key) && json[key].is_number_unsigned() && json[key] >= 1 && json[key] <= most;
  };
  if (json.is_discarded() || !json.is_object() || !json.contains("fingerprint") || !json["fingerprint"].is_string() ||
      !json.contains("signature") || !json["signature"].is_string() || !json.contains("triple") ||
      !json["triple"].is_string() || !json.contains("features") || !json["features"].is_string() ||
      (json.contains("op") && !json["op"].is_object()) || !json.contains("partitioned") ||
      !json["partitioned"].is_boolean() || !count("blocks_per_worker", LaunchRecipe::kMaxBlocksPerWorker) ||
      !count("work_per_element", LaunchRecipe::kMaxWorkPerElement) || !validWorkDepth(json) ||
      !json.contains("outputs") || !json["outputs"].is_array()) {
    error = "malformed header";
    return false;
  }
  out = ModelFile{};
  out.fingerprint = json["fingerprint"];
  out.signature = json["signature"];
  out.triple = json["triple"];
  out.features = json["features"];
  if (json.contains("op")) out.description = json["op"].dump();
  out.launch.partitioned = json["partitioned"];
  out.launch.blocksPerWorker = json["blocks_per_worker"];
  out.launch.workPerElement = json["work_per_element"];
  out.launch.depthInput = json["work_depth"][0];
  out.launch.depthDim = json["work_depth"][1];
  out.launch.depthLanes = json["work_depth"][2];
  for (const auto &output : json["outputs"]) {
    if (!output.is_object() || !output.contains("type") || !output["type"].is_number_integer() ||
        !output.contains("shape") || !output["shape"].is_array()) {
      error = "malformed output description";
      return false;
    }
    int type = output["type"];
    if (type < 0 || type > static_cast<int>(ElementType::Bool)) {
      error = "unknown output element type";
      return false;
    }
    TensorSpec spec{static_cast<ElementType>(type), {}};
    for (const auto &dim : output["shape"]) {
      if (!dim.is_number_integer() || dim.get<int64_t>() < -1) {
        error = "malformed output shape";
        return false;
      }
      spec.shape.push_back(dim.get<int64_t>());
    }
    out.outputs.push_back(std::move(spec));
  }
  out.object.assign(bytes.begin() + objectAt, bytes.begin() + objectAt + objectSize);
  return true;
}

}  // namespace aclcpu
