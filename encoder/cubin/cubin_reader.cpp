//===- encoder/cubin/cubin_reader.cpp - bytes to the cubin model, bounds-checked -------===//
///
/// \file
/// Algorithm:
///  1. Check the ELF header (magic, ELF64, little-endian, EM_CUDA, table entry sizes) and that
///     the section and program header tables lie inside the buffer.
///  2. Read every section header; check each file-occupying section lies inside the buffer
///     and that .shstrtab is a string table; resolve names (a name must end inside its table).
///  3. Decode structured contents by type (section_rules.h): symbols, relocations, notes,
///     attribute records, callgraph pairs. Then re-encode each one and compare with the input
///     bytes: a section whose bytes the model would not reproduce is an error, so a model that
///     reads is a model that writes back exactly.
///  4. Record non-zero bytes outside every part as `fill`, the file size, and whether the
///     offsets follow the layout rule.
/// Every read is preceded by a check against the buffer size; counts come from the header
/// and are bounded by the buffer, so a corrupt file cannot make the reader loop or allocate
/// beyond its own size.
//===----------------------------------------------------------------------------------===//
#include "encoder/cubin/byte_io.h"
#include "encoder/cubin/cubin_model.h"
#include "encoder/cubin/section_rules.h"

#include <algorithm>

namespace ptxmini::cubin {

namespace {

bool fits(uint64_t off, uint64_t len, uint64_t size) { return off <= size && len <= size - off; }

/// The NUL-terminated string at `off` inside `table`; false when it does not end in it.
bool stringAt(std::span<const uint8_t> table, uint64_t off, std::string &out) {
  if (off >= table.size())
    return false;
  auto begin = table.begin() + static_cast<ptrdiff_t>(off);
  auto nul = std::find(begin, table.end(), uint8_t(0));
  if (nul == table.end())
    return false;
  out.assign(begin, nul);
  return true;
}

std::string secLabel(size_t i, const Section &s) {
  return "section " + std::to_string(i) + (s.name.empty() ? "" : " '" + s.name + "'");
}

} // namespace

std::optional<Cubin> readCubin(std::span<const uint8_t> b, std::string &error) {
  const uint64_t size = b.size();
  if (size < elf::kEhdrSize) {
    error = "file too short for an ELF header (" + std::to_string(size) + " bytes)";
    return std::nullopt;
  }
  const uint8_t *p = b.data();
  if (p[0] != 0x7f || p[1] != 'E' || p[2] != 'L' || p[3] != 'F') {
    error = "not an ELF file (bad magic)";
    return std::nullopt;
  }
  if (p[4] != 2 || p[5] != 1) {
    error = "not a 64-bit little-endian ELF file; cubins for sm_90 are ELF64 LE";
    return std::nullopt;
  }
  Cubin c;
  std::copy(p, p + 16, c.ident);
  c.type = rd16(p + 16);
  c.machine = rd16(p + 18);
  c.version = rd32(p + 20);
  c.entry = rd64(p + 24);
  c.phoff = rd64(p + 32);
  c.shoff = rd64(p + 40);
  c.flags = rd32(p + 48);
  c.ehsize = rd16(p + 52);
  c.phentsize = rd16(p + 54);
  uint16_t phnum = rd16(p + 56);
  c.shentsize = rd16(p + 58);
  uint16_t shnum = rd16(p + 60);
  c.shstrndx = rd16(p + 62);
  if (c.machine != elf::kEmCuda) {
    error = "e_machine is " + std::to_string(c.machine) + ", not EM_CUDA (190)";
    return std::nullopt;
  }
  if (c.ehsize != elf::kEhdrSize || c.shentsize != elf::kShdrSize ||
      (phnum && c.phentsize != elf::kPhdrSize)) {
    error = "unexpected ELF header/table entry sizes";
    return std::nullopt;
  }
  if (shnum == 0) {
    error = "no section headers (extended section numbering is not used by cubins)";
    return std::nullopt;
  }
  if (!fits(c.shoff, uint64_t(shnum) * elf::kShdrSize, size)) {
    error = "section header table (" + std::to_string(shnum) + " entries at 0x" + hex(c.shoff) +
            ") runs past the end of the file (" + std::to_string(size) + " bytes)";
    return std::nullopt;
  }
  if (phnum && !fits(c.phoff, uint64_t(phnum) * elf::kPhdrSize, size)) {
    error = "program header table runs past the end of the file";
    return std::nullopt;
  }
  if (c.shstrndx >= shnum) {
    error = "e_shstrndx " + std::to_string(c.shstrndx) + " is not a section";
    return std::nullopt;
  }

  // Section headers.
  c.sections.resize(shnum);
  for (size_t i = 0; i < shnum; ++i) {
    const uint8_t *h = p + c.shoff + i * elf::kShdrSize;
    Section &s = c.sections[i];
    s.nameOffset = rd32(h);
    s.type = rd32(h + 4);
    s.flags = rd64(h + 8);
    s.addr = rd64(h + 16);
    s.offset = rd64(h + 24);
    s.size = rd64(h + 32);
    s.link = rd32(h + 40);
    s.info = rd32(h + 44);
    s.align = rd64(h + 48);
    s.entsize = rd64(h + 56);
    const SectionTypeRow *row = sectionTypeRow(s.type);
    s.kind = row ? row->kind : SectionKind::Bytes;
    if (s.kind == SectionKind::Null && (s.size != 0 || i != 0))
      s.kind = SectionKind::Bytes; // a SHT_NULL with contents: keep it as bytes
    bool hasBytes = s.kind != SectionKind::Null && s.kind != SectionKind::NoBits;
    if (hasBytes && !fits(s.offset, s.size, size)) {
      error = "section " + std::to_string(i) + " (offset 0x" + hex(s.offset) + ", size 0x" +
              hex(s.size) + ") runs past the end of the file (" + std::to_string(size) +
              " bytes)";
      return std::nullopt;
    }
  }
  auto bytesOf = [&](const Section &s) { return b.subspan(s.offset, s.size); };
  const Section &shstr = c.sections[c.shstrndx];
  if (shstr.type != elf::kShtStrtab) {
    error = "e_shstrndx names a section that is not a string table";
    return std::nullopt;
  }
  for (size_t i = 0; i < shnum; ++i) {
    Section &s = c.sections[i];
    if (i == 0 && s.nameOffset == 0 && s.type == elf::kShtNull)
      continue;
    if (!stringAt(bytesOf(shstr), s.nameOffset, s.name)) {
      error = "section " + std::to_string(i) + " name offset 0x" + hex(s.nameOffset) +
              " is outside .shstrtab";
      return std::nullopt;
    }
  }

  // Contents.
  for (size_t i = 0; i < shnum; ++i) {
    Section &s = c.sections[i];
    if (s.kind == SectionKind::Null || s.kind == SectionKind::NoBits)
      continue;
    std::span<const uint8_t> raw = bytesOf(s);
    std::string why;
    switch (s.kind) {
    case SectionKind::Bytes:
      s.data.assign(raw.begin(), raw.end());
      continue;
    case SectionKind::Symbols: {
      if (s.entsize != elf::kSymSize || s.size % elf::kSymSize) {
        why = "symbol table entry size is not 24 or the size is not a multiple of it";
        break;
      }
      std::span<const uint8_t> strtab;
      if (s.link < shnum && c.sections[s.link].type == elf::kShtStrtab)
        strtab = bytesOf(c.sections[s.link]);
      else {
        why = "sh_link does not name a string table";
        break;
      }
      for (uint64_t k = 0; k < s.size / elf::kSymSize; ++k) {
        const uint8_t *e = raw.data() + k * elf::kSymSize;
        Symbol y;
        y.nameOffset = rd32(e);
        y.info = e[4];
        y.other = e[5];
        y.shndx = rd16(e + 6);
        y.value = rd64(e + 8);
        y.size = rd64(e + 16);
        if (!stringAt(strtab, y.nameOffset, y.name)) {
          why = "symbol " + std::to_string(k) + " name offset 0x" + hex(y.nameOffset) +
                " is outside the string table";
          break;
        }
        s.symbols.push_back(std::move(y));
      }
      break;
    }
    case SectionKind::Relocations: {
      uint64_t es = s.type == elf::kShtRela ? elf::kRelaSize : elf::kRelSize;
      if (s.entsize != es || s.size % es) {
        why = "relocation entry size does not match the section type";
        break;
      }
      for (uint64_t k = 0; k < s.size / es; ++k) {
        const uint8_t *e = raw.data() + k * es;
        Relocation r;
        r.offset = rd64(e);
        uint64_t info = rd64(e + 8);
        r.type = uint32_t(info);
        r.sym = uint32_t(info >> 32);
        if (es == elf::kRelaSize)
          r.addend = static_cast<int64_t>(rd64(e + 16));
        s.relocations.push_back(r);
      }
      break;
    }
    case SectionKind::Notes:
      decodeNotes(raw, s.notes, why);
      break;
    case SectionKind::Attributes:
      decodeAttributes(raw, s.attributes, why);
      break;
    case SectionKind::Callgraph:
      if (s.size % 8) {
        why = "size is not a multiple of 8";
        break;
      }
      for (uint64_t k = 0; k < s.size / 8; ++k)
        s.edges.emplace_back(static_cast<int32_t>(rd32(raw.data() + 8 * k)),
                             static_cast<int32_t>(rd32(raw.data() + 8 * k + 4)));
      break;
    case SectionKind::Null:
    case SectionKind::NoBits:
      break;
    }
    if (why.empty() && encodeSection(s) != std::vector<uint8_t>(raw.begin(), raw.end()))
      why = "contents do not re-encode to the same bytes";
    if (!why.empty()) {
      error = secLabel(i, s) + ": " + why;
      return std::nullopt;
    }
  }

  // Program headers.
  for (size_t i = 0; i < phnum; ++i) {
    const uint8_t *h = p + c.phoff + i * elf::kPhdrSize;
    ProgramHeader ph;
    ph.type = rd32(h);
    ph.flags = rd32(h + 4);
    ph.offset = rd64(h + 8);
    ph.vaddr = rd64(h + 16);
    ph.paddr = rd64(h + 24);
    ph.filesz = rd64(h + 32);
    ph.memsz = rd64(h + 40);
    ph.align = rd64(h + 48);
    c.programHeaders.push_back(ph);
  }

  // Bytes outside every part: kept when not zero.
  std::vector<bool> covered(size, false);
  auto cover = [&](uint64_t off, uint64_t len) {
    std::fill(covered.begin() + static_cast<ptrdiff_t>(off),
              covered.begin() + static_cast<ptrdiff_t>(off + len), true);
  };
  cover(0, elf::kEhdrSize);
  cover(c.shoff, uint64_t(shnum) * elf::kShdrSize);
  if (phnum)
    cover(c.phoff, uint64_t(phnum) * elf::kPhdrSize);
  for (const Section &s : c.sections)
    if (s.kind != SectionKind::Null && s.kind != SectionKind::NoBits)
      cover(s.offset, s.size);
  for (uint64_t i = 0; i < size;) {
    if (covered[i] || p[i] == 0) {
      ++i;
      continue;
    }
    Fill f;
    f.offset = i;
    while (i < size && !covered[i] && p[i] != 0)
      f.bytes.push_back(p[i++]);
    c.fill.push_back(std::move(f));
  }
  c.fileSize = size;
  c.layoutCanonical = layoutMatchesRule(c);
  return c;
}

} // namespace ptxmini::cubin
