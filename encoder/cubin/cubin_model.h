//===- encoder/cubin/cubin_model.h - the in-memory cubin (CUDA ELF64) model ------------===//
///
/// \file
/// A cubin as ptxas 13.0 writes it, held as data a compiler or a test can inspect and edit:
/// the ELF header, the sections in index order, and for the sections whose contents have
/// structure (symbol table, relocations, notes, .nv.info / .nv.compat attribute records,
/// .nv.callgraph) that structure instead of bytes. Everything else (code, constant banks,
/// string tables, DWARF) is kept as bytes.
///
/// Layout is part of the model: each section keeps its file offset, the header keeps the
/// section/program header table offsets. `computeLayout()` (cubin_layout.cpp) recomputes
/// them the way ptxas does; the reader records whether the file matched that rule, and the
/// writer places everything at the recorded offsets, so a cubin read and written back is
/// byte-identical even where the rule would not reproduce it. Gap bytes that are not zero are
/// kept in `fill`.
//===----------------------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ptxmini::cubin {

// ELF and CUDA constants. HW: values observed in ptxas 13.0 cubins (cubin-format.md §4-§5,
// re-checked with cuobjdump -elf 13.2, which names the CUDA section types).
namespace elf {
inline constexpr uint16_t kEmCuda = 190;
inline constexpr uint8_t kOsAbiCuda = 0x41;
inline constexpr uint16_t kEtRel = 1, kEtExec = 2;
inline constexpr uint32_t kShtNull = 0, kShtProgbits = 1, kShtSymtab = 2, kShtStrtab = 3,
                          kShtRela = 4, kShtNote = 7, kShtNobits = 8, kShtRel = 9;
inline constexpr uint32_t kShtCudaInfo = 0x70000000;      // CUDA_INFO
inline constexpr uint32_t kShtCudaCallgraph = 0x70000001; // CUDA_CALLGRAPH
inline constexpr uint32_t kShtCudaPrototype = 0x70000002; // CUDA_PROTOTYPE
inline constexpr uint32_t kShtCudaGlobal = 0x70000007;    // CUDA_GLOBAL (ET_REL .nv.global)
inline constexpr uint32_t kShtCudaGlobalInit = 0x70000008; // CUDA_GLOBAL_INIT (ET_REL)
inline constexpr uint32_t kShtCudaShared = 0x7000000a;    // CUDA_SHARED (ET_REL)
inline constexpr uint32_t kShtCudaConstantB0 = 0x70000064; // + bank (ET_REL .nv.constantN)
inline constexpr uint32_t kShtCudaCompat = 0x70000086;    // CUDA_COMPAT_INFO
inline constexpr uint64_t kShfWrite = 0x1, kShfAlloc = 0x2, kShfExec = 0x4,
                          kShfInfoLink = 0x40;
inline constexpr uint32_t kPtPhdr = 6, kPtLoad = 1;
inline constexpr uint32_t kPfX = 1, kPfW = 2, kPfR = 4;
inline constexpr uint8_t kStbLocal = 0, kStbGlobal = 1, kStbWeak = 2;
inline constexpr uint8_t kSttNotype = 0, kSttObject = 1, kSttFunc = 2, kSttSection = 3;
inline constexpr size_t kEhdrSize = 64, kShdrSize = 64, kPhdrSize = 56, kSymSize = 24,
                        kRelaSize = 24, kRelSize = 16;
} // namespace elf

/// One .nv.info / .nv.compat record: u8 format, u8 attribute, then by format
/// 1 NVAL (u16 `value`), 2 BVAL (u8 value + pad byte, both in `value`), 3 HVAL (u16 `value`),
/// 4 SVAL (u16 size + `payload`).
struct Attribute {
  enum Format : uint8_t { NVal = 1, BVal = 2, HVal = 3, SVal = 4 };
  uint8_t format = SVal;
  uint8_t attr = 0;
  uint16_t value = 0;           ///< NVAL/BVAL/HVAL: the 16 bits after the attribute byte
  std::vector<uint8_t> payload; ///< SVAL only

  uint32_t u32(size_t i) const; ///< SVAL payload word i (0 when out of range)
  size_t words() const { return payload.size() / 4; }
};

struct Symbol {
  uint32_t nameOffset = 0; ///< into the linked string table
  std::string name;        ///< resolved from the string table (reader) for printing
  uint8_t info = 0;        ///< bind << 4 | type
  uint8_t other = 0;
  uint16_t shndx = 0;
  uint64_t value = 0;
  uint64_t size = 0;
  uint8_t bind() const { return info >> 4; }
  uint8_t type() const { return info & 0xf; }
};

struct Relocation {
  uint64_t offset = 0;
  uint32_t type = 0;
  uint32_t sym = 0;
  int64_t addend = 0; ///< RELA only
};

struct Note {
  std::vector<uint8_t> name; ///< as stored, including the terminating NUL
  uint32_t type = 0;
  std::vector<uint8_t> desc;
};

struct ProgramHeader {
  uint32_t type = 0, flags = 0;
  uint64_t offset = 0, vaddr = 0, paddr = 0, filesz = 0, memsz = 0, align = 0;
};

/// How a section's contents are held.
enum class SectionKind { Null, Bytes, NoBits, Symbols, Relocations, Notes, Attributes,
                         Callgraph };

struct Section {
  std::string name; ///< resolved from .shstrtab
  uint32_t nameOffset = 0;
  uint32_t type = 0;
  uint64_t flags = 0, addr = 0, offset = 0, size = 0, align = 0, entsize = 0;
  uint32_t link = 0, info = 0;

  SectionKind kind = SectionKind::Bytes;
  std::vector<uint8_t> data;           ///< Bytes
  std::vector<Symbol> symbols;         ///< Symbols (index 0 is the null symbol)
  std::vector<Relocation> relocations; ///< Relocations (RELA when type == SHT_RELA)
  std::vector<Note> notes;             ///< Notes
  std::vector<Attribute> attributes;   ///< Attributes (.nv.info*, .nv.compat)
  std::vector<std::pair<int32_t, int32_t>> edges; ///< Callgraph {caller, callee}
};

/// A run of non-zero bytes outside every section and table, kept so a rewrite is exact.
struct Fill {
  uint64_t offset = 0;
  std::vector<uint8_t> bytes;
};

struct Cubin {
  uint8_t ident[16] = {0x7f, 'E', 'L', 'F', 2, 1, 1, elf::kOsAbiCuda, 8};
  uint16_t type = elf::kEtExec;
  uint16_t machine = elf::kEmCuda;
  uint32_t version = 1;
  uint64_t entry = 0;
  uint32_t flags = 0;
  uint16_t ehsize = elf::kEhdrSize, phentsize = elf::kPhdrSize, shentsize = elf::kShdrSize;
  uint16_t shstrndx = 0;
  uint64_t phoff = 0, shoff = 0;
  uint64_t fileSize = 0; ///< total bytes written (>= the end of every part)
  std::vector<Section> sections; ///< index order; [0] is the null section
  std::vector<ProgramHeader> programHeaders;
  std::vector<Fill> fill;
  bool layoutCanonical = false; ///< reader: offsets equal computeLayout()'s

  Section *find(std::string_view name);
  const Section *find(std::string_view name) const;
  /// The symbol table section (nullptr when absent).
  const Section *symtab() const;
};

/// Sets every section offset, shoff, phoff and fileSize the way ptxas lays a cubin out
/// (cubin_layout.cpp). Program header contents are not touched.
void computeLayout(Cubin &c);
/// Zero bytes ptxas leaves after .shstrtab (cubin_layout.cpp).
uint64_t shstrtabSlack(const Cubin &c);
/// Whether computeLayout() would reproduce c's offsets exactly.
bool layoutMatchesRule(const Cubin &c);

/// Reads a cubin. On malformed input returns nullopt and sets `error` to a one-line reason;
/// every offset and count is checked against the buffer, so no input crashes or hangs.
std::optional<Cubin> readCubin(std::span<const uint8_t> bytes, std::string &error);
/// Serialises the model. Fails (nullopt + error) only when the model is inconsistent, e.g. a
/// section's recorded size disagrees with its contents or parts overlap past the file.
std::optional<std::vector<uint8_t>> writeCubin(const Cubin &c, std::string &error);

/// Encoders shared by the reader (to prove it reproduces the input) and the writer.
std::vector<uint8_t> encodeAttributes(const std::vector<Attribute> &attrs);
bool decodeAttributes(std::span<const uint8_t> bytes, std::vector<Attribute> &out,
                      std::string &error);
std::vector<uint8_t> encodeNotes(const std::vector<Note> &notes);
bool decodeNotes(std::span<const uint8_t> bytes, std::vector<Note> &out, std::string &error);
/// The bytes a section's contents occupy in the file (empty for NOBITS/null).
std::vector<uint8_t> encodeSection(const Section &s);

/// Names: attribute and relocation names from the .def tables.
std::string eiattrName(uint8_t code);     ///< "EIATTR_REGCOUNT" or "EIATTR_0x7a"
std::string eicompatName(uint8_t code);   ///< "EICOMPAT_ATTR_ISA_CLASS" or ..._0x01
std::string relocName(uint32_t type);     ///< "R_CUDA_64" or "R_CUDA_123"
/// Attribute code from its short name ("REGCOUNT"); -1 if unknown.
int eiattrCode(std::string_view shortName);

} // namespace ptxmini::cubin
