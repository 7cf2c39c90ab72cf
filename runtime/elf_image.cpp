// ELF64 little-endian validation for x86-64 and AArch64 kernel binaries.
#include "elf_image.h"

#include <elf.h>

#include <cstring>

namespace aclcpu {
namespace {

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
#else
#error "aclcpu supports x86-64 and AArch64 hosts"
#endif

constexpr uint64_t kMaxAlignment = 1u << 16;
constexpr uint64_t kMaxImageBytes = uint64_t(1) << 30;  // sections, .bss included

const char *machineName(uint16_t machine) {
  switch (machine) {
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "AArch64";
    case EM_386: return "i386";
    case EM_ARM: return "ARM";
    case EM_RISCV: return "RISC-V";
    case EM_PPC64: return "PowerPC64";
    default: return "an unknown machine";
  }
}

// Bytes a relocation of `type` writes: 8 for the 64-bit data relocations, else at most 4.
uint64_t relocationWidth(uint32_t type) {
#if defined(__x86_64__)
  switch (type) {
    case R_X86_64_64: case R_X86_64_PC64: case R_X86_64_GOTOFF64: case R_X86_64_GOTPC64: case R_X86_64_GOT64:
    case R_X86_64_GOTPCREL64: case R_X86_64_SIZE64: case R_X86_64_DTPOFF64: case R_X86_64_TPOFF64:
    case R_X86_64_DTPMOD64: return 8;
    default: return 4;
  }
#else
  return type == R_AARCH64_ABS64 || type == R_AARCH64_PREL64 ? 8 : 4;
#endif
}

bool inBounds(uint64_t offset, uint64_t length, uint64_t size) { return offset <= size && length <= size - offset; }

class Inspector {
 public:
  Inspector(const uint8_t *data, size_t size) : data_(data), size_(size) {}

  std::string run(ElfImage &image) {
    if (size_ < sizeof(Elf64_Ehdr)) return "file is too small to be an ELF file (" + std::to_string(size_) + " bytes)";
    memcpy(&header_, data_, sizeof(header_));
    if (memcmp(header_.e_ident, ELFMAG, SELFMAG) != 0) return "not an ELF file (bad magic)";
    if (header_.e_ident[EI_CLASS] != ELFCLASS64) return "not a 64-bit ELF file";
    if (header_.e_ident[EI_DATA] != ELFDATA2LSB) return "not a little-endian ELF file";
    if (header_.e_ident[EI_VERSION] != EV_CURRENT || header_.e_version != EV_CURRENT) return "unknown ELF version";
    if (header_.e_machine != kHostMachine)
      return std::string("built for ") + machineName(header_.e_machine) + ", but this machine is " +
             machineName(kHostMachine);
    if (header_.e_type == ET_REL) image.kind = ElfImage::Kind::Relocatable;
    else if (header_.e_type == ET_DYN) image.kind = ElfImage::Kind::SharedObject;
    else return "ELF type " + std::to_string(header_.e_type) + " is neither a relocatable object (.o) nor a shared object (.so)";
    if (header_.e_ehsize != sizeof(Elf64_Ehdr)) return "bad ELF header size";
    if (std::string error = checkSections(); !error.empty()) return error;
    image.unwindSectionHeaders = unwindSectionHeaders_;
    if (image.kind == ElfImage::Kind::SharedObject) {
      if (std::string error = checkProgramHeaders(); !error.empty()) return error;
    }
    return checkSymbolsAndRelocations(image);
  }

 private:
  std::string checkSections() {
    if (header_.e_shnum == 0 || header_.e_shnum >= SHN_LORESERVE) return "no usable section header table";
    if (header_.e_shentsize != sizeof(Elf64_Shdr)) return "bad section header entry size";
    if (!inBounds(header_.e_shoff, uint64_t(header_.e_shnum) * sizeof(Elf64_Shdr), size_))
      return "section header table lies outside the file (truncated?)";
    sections_.resize(header_.e_shnum);
    memcpy(sections_.data(), data_ + header_.e_shoff, sections_.size() * sizeof(Elf64_Shdr));
    if (header_.e_shstrndx == SHN_UNDEF || header_.e_shstrndx >= sections_.size())
      return "bad section name table index";
    uint64_t imageBytes = 0;
    for (size_t i = 0; i < sections_.size(); ++i) {
      const Elf64_Shdr &section = sections_[i];
      if (i == 0) continue;
      if (section.sh_type != SHT_NOBITS && !inBounds(section.sh_offset, section.sh_size, size_))
        return "section " + std::to_string(i) + " lies outside the file (truncated?)";
      if (section.sh_addralign > kMaxAlignment || (section.sh_addralign & (section.sh_addralign - 1)) != 0)
        return "section " + std::to_string(i) + " has an invalid alignment";
      if (section.sh_link >= sections_.size()) return "section " + std::to_string(i) + " links a missing section";
      if (section.sh_size > kMaxImageBytes - imageBytes) return "sections are larger than 1 GiB";
      imageBytes += section.sh_size;
      if (section.sh_type == SHT_SYMTAB_SHNDX) return "extended section indices are not supported";
    }
    const Elf64_Shdr &names = sections_[header_.e_shstrndx];
    if (names.sh_type != SHT_STRTAB) return "the section name table is not a string table";
    for (size_t i = 1; i < sections_.size(); ++i) {
      const char *name = stringAt(names, sections_[i].sh_name);
      if (name == nullptr) return "section " + std::to_string(i) + " has a bad name";
      bool constructors = sections_[i].sh_type == SHT_INIT_ARRAY || sections_[i].sh_type == SHT_PREINIT_ARRAY ||
                          strcmp(name, ".ctors") == 0 || strncmp(name, ".ctors.", 7) == 0;
      if (constructors && sections_[i].sh_size != 0 && header_.e_type == ET_REL)
        return std::string("has global constructors (section ") + name +
               "); CPU kernels must not have any (see include/aclcpu/kernel.h)";
      if (strcmp(name, ".eh_frame") == 0 && header_.e_type == ET_REL) {
        unwindSectionHeaders_.push_back(header_.e_shoff + i * sizeof(Elf64_Shdr));
        for (size_t r = 1; r < sections_.size(); ++r)
          if ((sections_[r].sh_type == SHT_RELA || sections_[r].sh_type == SHT_REL) && sections_[r].sh_info == i)
            unwindSectionHeaders_.push_back(header_.e_shoff + r * sizeof(Elf64_Shdr));
      }
      if (sections_[i].sh_type == SHT_GROUP) {
        if (sections_[i].sh_size % 4 != 0 || sections_[i].sh_size < 4) return "bad section group";
        for (uint64_t at = 4; at < sections_[i].sh_size; at += 4) {
          uint32_t member;
          memcpy(&member, data_ + sections_[i].sh_offset + at, 4);
          if (member == 0 || member >= sections_.size()) return "section group names a missing section";
        }
      }
    }
    return "";
  }

  std::string checkProgramHeaders() {
    if (header_.e_phnum == 0) return "shared object has no program headers";
    if (header_.e_phentsize != sizeof(Elf64_Phdr)) return "bad program header entry size";
    if (!inBounds(header_.e_phoff, uint64_t(header_.e_phnum) * sizeof(Elf64_Phdr), size_))
      return "program header table lies outside the file (truncated?)";
    for (size_t i = 0; i < header_.e_phnum; ++i) {
      Elf64_Phdr segment;
      memcpy(&segment, data_ + header_.e_phoff + i * sizeof(Elf64_Phdr), sizeof(segment));
      if (segment.p_type == PT_LOAD || segment.p_type == PT_DYNAMIC) {
        if (!inBounds(segment.p_offset, segment.p_filesz, size_))
          return "segment " + std::to_string(i) + " lies outside the file (truncated?)";
        if (segment.p_memsz < segment.p_filesz || segment.p_memsz > kMaxImageBytes)
          return "segment " + std::to_string(i) + " has an invalid size";
      }
    }
    return "";
  }

  // nullptr unless `offset` starts a NUL-terminated string inside `table`.
  const char *stringAt(const Elf64_Shdr &table, uint64_t offset) const {
    if (table.sh_type != SHT_STRTAB || offset >= table.sh_size) return nullptr;
    const char *start = reinterpret_cast<const char *>(data_ + table.sh_offset);
    if (memchr(start + offset, '\0', table.sh_size - offset) == nullptr) return nullptr;
    return start + offset;
  }

  std::string checkSymbolsAndRelocations(ElfImage &image) {
    uint32_t symbolType = header_.e_type == ET_REL ? SHT_SYMTAB : SHT_DYNSYM;
    size_t symtabIndex = 0;
    for (size_t i = 1; i < sections_.size(); ++i)
      if (sections_[i].sh_type == symbolType) symtabIndex = i;
    if (symtabIndex == 0) return header_.e_type == ET_REL ? "no symbol table" : "no dynamic symbol table";
    const Elf64_Shdr &symtab = sections_[symtabIndex];
    if (symtab.sh_entsize != sizeof(Elf64_Sym) || symtab.sh_size % sizeof(Elf64_Sym) != 0)
      return "bad symbol table entry size";
    const Elf64_Shdr &strings = sections_[symtab.sh_link];
    size_t count = symtab.sh_size / sizeof(Elf64_Sym);
    for (size_t i = 0; i < count; ++i) {
      Elf64_Sym symbol;
      memcpy(&symbol, data_ + symtab.sh_offset + i * sizeof(Elf64_Sym), sizeof(symbol));
      const char *name = stringAt(strings, symbol.st_name);
      if (name == nullptr) return "symbol " + std::to_string(i) + " has a bad name";
      uint16_t index = symbol.st_shndx;
      bool special = index == SHN_UNDEF || index == SHN_ABS || index == SHN_COMMON;
      if (!special && index >= sections_.size()) return std::string("symbol '") + name + "' is in a missing section";
      if (!special && header_.e_type == ET_REL) {
        const Elf64_Shdr &section = sections_[index];
        if (symbol.st_value > section.sh_size || symbol.st_size > section.sh_size - symbol.st_value)
          return std::string("symbol '") + name + "' lies outside its section";
      }
      unsigned binding = ELF64_ST_BIND(symbol.st_info), type = ELF64_ST_TYPE(symbol.st_info);
      if (type == STT_TLS && header_.e_type == ET_REL)
        return std::string("symbol '") + name + "' is thread-local; CPU kernels must not have thread-local data";
      bool exported = (binding == STB_GLOBAL || binding == STB_WEAK) && index != SHN_UNDEF &&
                      ELF64_ST_VISIBILITY(symbol.st_other) != STV_HIDDEN &&
                      ELF64_ST_VISIBILITY(symbol.st_other) != STV_INTERNAL && *name != '\0';
      // Only code in executable memory is a function, and only data in allocated memory is data:
      // a symbol of a non-allocated section has no address a caller could use.
      uint64_t flags = special ? 0 : sections_[index].sh_flags;
      bool allocated = (flags & SHF_ALLOC) != 0;
      if (exported && type == STT_FUNC && allocated && (flags & SHF_EXECINSTR) != 0)
        image.functions.emplace_back(name);
      if (exported && type == STT_OBJECT && allocated && symbol.st_size >= 4) image.dataSymbols.emplace_back(name);
    }
    if (header_.e_type != ET_REL) return "";
    for (size_t i = 1; i < sections_.size(); ++i) {
      const Elf64_Shdr &section = sections_[i];
      if (section.sh_type != SHT_RELA && section.sh_type != SHT_REL) continue;
      size_t entry = section.sh_type == SHT_RELA ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
      if (section.sh_entsize != entry || section.sh_size % entry != 0) return "bad relocation entry size";
      if (section.sh_link != symtabIndex) return "relocations refer to a section that is not the symbol table";
      if (section.sh_info == 0 || section.sh_info >= sections_.size()) return "relocations target a missing section";
      const Elf64_Shdr &target = sections_[section.sh_info];
      for (uint64_t at = 0; at < section.sh_size; at += entry) {
        Elf64_Rel relocation;  // r_offset and r_info lead both layouts
        memcpy(&relocation, data_ + section.sh_offset + at, sizeof(relocation));
        if (ELF64_R_SYM(relocation.r_info) >= count) return "a relocation names a missing symbol";
        if (target.sh_type != SHT_NOBITS &&
            !inBounds(relocation.r_offset, relocationWidth(ELF64_R_TYPE(relocation.r_info)), target.sh_size))
          return "a relocation lies outside its section";
      }
    }
    return "";
  }

  const uint8_t *data_;
  size_t size_;
  Elf64_Ehdr header_{};
  std::vector<Elf64_Shdr> sections_;
  std::vector<size_t> unwindSectionHeaders_;
};

}  // namespace

std::string inspectElf(const uint8_t *data, size_t size, ElfImage &image) {
  image = ElfImage{};
  if (data == nullptr || size == 0) return "the binary is empty";
  return Inspector(data, size).run(image);
}

}  // namespace aclcpu
