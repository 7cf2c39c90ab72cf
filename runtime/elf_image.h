// Validates an in-memory ELF file before any loader sees it: header, section table, string
// tables, symbols and relocations are bounds-checked, so truncated or bit-flipped files are
// rejected with a message instead of reaching dlopen or JITLink. Also lists exported functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace aclcpu {

struct ElfImage {
  enum class Kind { Relocatable, SharedObject };
  Kind kind = Kind::Relocatable;
  std::vector<std::string> functions;  // defined global/weak functions with default visibility
  std::vector<std::string> dataSymbols;  // defined global objects (e.g. <kernel>__aclcpu_abi)
  // File offsets of the section headers of .eh_frame and of the relocation sections that
  // apply to it (relocatable objects only).
  std::vector<size_t> unwindSectionHeaders;
};

// Returns an empty string and fills `image` when the file is acceptable; otherwise the reason.
std::string inspectElf(const uint8_t *data, size_t size, ElfImage &image);

}  // namespace aclcpu
