//===- encoder/cubin/cubin_layout.cpp - file offsets the way ptxas assigns them -------===//
///
/// \file
/// Rule (HW: observed on ptxas 13.0 sm_90 cubins with a byte-level reader, checked over the
/// round-trip corpus by `layoutCanonical`): after the 64-byte ELF header, sections follow in
/// index order, each at the next multiple of its sh_addralign; sections that take no file
/// space (NOBITS, CUDA_GLOBAL, CUDA_SHARED) get that offset but do not advance it. The
/// section header table follows at the next multiple of 8, the program header table right
/// after it, and the file ends there.
///
/// Known exception: ptxas leaves a run of zero bytes between .shstrtab and .strtab whose
/// length this rule does not predict, so most ptxas cubins are not "canonical"; the reader
/// keeps their offsets and the writer honours them.
//===----------------------------------------------------------------------------------===//
#include "encoder/cubin/cubin_model.h"
#include "encoder/cubin/section_rules.h"

namespace ptxmini::cubin {

static uint64_t alignUp(uint64_t x, uint64_t a) { return a > 1 ? (x + a - 1) / a * a : x; }

namespace {
struct Offsets {
  std::vector<uint64_t> section;
  uint64_t shoff = 0, phoff = 0, end = 0;
};
Offsets ruleOffsets(const Cubin &c) {
  Offsets o;
  uint64_t off = c.ehsize;
  o.section.push_back(0);
  for (size_t i = 1; i < c.sections.size(); ++i) {
    const Section &s = c.sections[i];
    off = alignUp(off, s.align);
    o.section.push_back(off);
    if (occupiesFile(s.type))
      off += s.size;
  }
  o.shoff = alignUp(off, 8);
  o.end = o.shoff + c.sections.size() * c.shentsize;
  o.phoff = c.programHeaders.empty() ? 0 : o.end;
  o.end += c.programHeaders.size() * c.phentsize;
  return o;
}
} // namespace

void computeLayout(Cubin &c) {
  Offsets o = ruleOffsets(c);
  for (size_t i = 0; i < c.sections.size(); ++i)
    c.sections[i].offset = o.section[i];
  c.shoff = o.shoff;
  c.phoff = o.phoff;
  c.fileSize = o.end;
}

bool layoutMatchesRule(const Cubin &c) {
  Offsets o = ruleOffsets(c);
  for (size_t i = 0; i < c.sections.size(); ++i)
    if (c.sections[i].offset != o.section[i])
      return false;
  return c.shoff == o.shoff && c.phoff == o.phoff && c.fileSize == o.end && c.fill.empty();
}

} // namespace ptxmini::cubin
