//===- encoder/cubin/cubin_writer.cpp - the cubin model to bytes ----------------------===//
///
/// \file
/// Writes the header, each section's encoded contents at its recorded offset, the section
/// and program header tables, and any kept fill bytes, into a zeroed buffer of `fileSize`
/// bytes. Layout is not decided here: the reader keeps the input's offsets, the builder calls
/// computeLayout(). The writer only checks the model is consistent (each part fits in the
/// file, each section's encoded size equals its sh_size).
//===----------------------------------------------------------------------------------===//
#include "encoder/cubin/byte_io.h"
#include "encoder/cubin/cubin_model.h"
#include "encoder/cubin/section_rules.h"

#include <algorithm>

namespace ptxmini::cubin {

std::optional<std::vector<uint8_t>> writeCubin(const Cubin &c, std::string &error) {
  const uint64_t size = c.fileSize;
  auto fits = [&](uint64_t off, uint64_t len) { return off <= size && len <= size - off; };
  if (c.sections.size() > 0xff00) {
    error = "too many sections for the ELF header";
    return std::nullopt;
  }
  uint64_t shBytes = c.sections.size() * uint64_t(elf::kShdrSize);
  uint64_t phBytes = c.programHeaders.size() * uint64_t(elf::kPhdrSize);
  // An empty table may sit anywhere (e_phoff of a file without program headers is not read).
  if (size < elf::kEhdrSize || !fits(c.shoff, shBytes) || (phBytes && !fits(c.phoff, phBytes))) {
    error = "header tables do not fit in the file size " + std::to_string(size);
    return std::nullopt;
  }
  std::vector<uint8_t> out(size, 0);
  uint8_t *p = out.data();
  std::copy(c.ident, c.ident + 16, p);
  wr16(p + 16, c.type);
  wr16(p + 18, c.machine);
  wr32(p + 20, c.version);
  wr64(p + 24, c.entry);
  wr64(p + 32, c.phoff);
  wr64(p + 40, c.shoff);
  wr32(p + 48, c.flags);
  wr16(p + 52, c.ehsize);
  wr16(p + 54, c.phentsize);
  wr16(p + 56, static_cast<uint16_t>(c.programHeaders.size()));
  wr16(p + 58, c.shentsize);
  wr16(p + 60, static_cast<uint16_t>(c.sections.size()));
  wr16(p + 62, c.shstrndx);

  for (size_t i = 0; i < c.sections.size(); ++i) {
    const Section &s = c.sections[i];
    if (s.kind != SectionKind::Null && s.kind != SectionKind::NoBits) {
      std::vector<uint8_t> bytes = encodeSection(s);
      if (bytes.size() != s.size) {
        error = "section " + std::to_string(i) + " '" + s.name + "': contents are " +
                std::to_string(bytes.size()) + " bytes but sh_size is " + std::to_string(s.size);
        return std::nullopt;
      }
      if (!fits(s.offset, s.size)) {
        error = "section " + std::to_string(i) + " '" + s.name + "' lies past the file end";
        return std::nullopt;
      }
      std::copy(bytes.begin(), bytes.end(), p + s.offset);
    }
    uint8_t *h = p + c.shoff + i * elf::kShdrSize;
    wr32(h, s.nameOffset);
    wr32(h + 4, s.type);
    wr64(h + 8, s.flags);
    wr64(h + 16, s.addr);
    wr64(h + 24, s.offset);
    wr64(h + 32, s.size);
    wr32(h + 40, s.link);
    wr32(h + 44, s.info);
    wr64(h + 48, s.align);
    wr64(h + 56, s.entsize);
  }
  for (size_t i = 0; i < c.programHeaders.size(); ++i) {
    const ProgramHeader &ph = c.programHeaders[i];
    uint8_t *h = p + c.phoff + i * elf::kPhdrSize;
    wr32(h, ph.type);
    wr32(h + 4, ph.flags);
    wr64(h + 8, ph.offset);
    wr64(h + 16, ph.vaddr);
    wr64(h + 24, ph.paddr);
    wr64(h + 32, ph.filesz);
    wr64(h + 40, ph.memsz);
    wr64(h + 48, ph.align);
  }
  for (const Fill &f : c.fill) {
    if (!fits(f.offset, f.bytes.size())) {
      error = "fill bytes lie past the file end";
      return std::nullopt;
    }
    std::copy(f.bytes.begin(), f.bytes.end(), p + f.offset);
  }
  return out;
}

} // namespace ptxmini::cubin
