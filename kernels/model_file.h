// The file format of a compiled operator model: the disk cache's entries (ACLCPU_CACHE_DIR) and
// atc's .om files.
//   "ACLCPUOM" | u32 format version | u32 header size | header (JSON: compiler fingerprint,
//   target triple and CPU features, operator signature, launch recipe, outputs, and for .om
//   files the atc entry it was compiled from) | u64 object size | ELF object | u64 FNV-1a
//   checksum of everything before it.
// Every field is validated on read; a file that is short, corrupt or foreign is rejected.
#pragma once

#include "op_compiler.h"

#include <string>
#include <vector>

namespace aclcpu {

struct ModelFile {
  std::string fingerprint;  // compilerFingerprint() of the writer
  std::string signature;    // ResolvedRequest::signature() of the operator
  LaunchRecipe launch;
  std::vector<TensorSpec> outputs;
  std::vector<char> object;
  std::string triple;       // target the object was generated for
  std::string features;     // its CPU features, LLVM style: "+avx2,-avx512f,..."
  std::string description;  // .om files: the atc JSON entry (op_description.h); "" in the cache
};

std::vector<char> writeModelFile(const ModelFile &file);
// False with the reason in `error` when `bytes` is not a valid model file.
bool readModelFile(const std::vector<char> &bytes, ModelFile &out, std::string &error);

uint64_t fnv1a64(const char *data, size_t size, uint64_t hash = 0xcbf29ce484222325ull);

// The whole file at `path`; false if it cannot be read.
bool readFileBytes(const std::string &path, std::vector<char> &bytes);
// Writes through a temp file and a rename: readers see the old file or the whole new one, never
// half of it. False (and no temp file left) if it cannot.
bool writeFileAtomically(const std::string &path, const std::vector<char> &bytes);

}  // namespace aclcpu
