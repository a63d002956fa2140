//===- encoder/cubin/cubin_model.cpp - encoders for structured section contents -------===//
///
/// \file
/// The byte formats of the sections the model holds as structure, in one place so that the
/// reader (which re-encodes what it decoded to prove the model is exact) and the writer use
/// the same code:
///   - .nv.info / .nv.compat: records {u8 format, u8 attr, ...} (cubin-format.md §7);
///   - notes: {u32 namesz, u32 descsz, u32 type, name, desc}, name and desc padded to 4;
///   - symbols: Elf64_Sym; relocations: Elf64_Rela / Elf64_Rel;
///   - .nv.callgraph: {i32 caller, i32 callee} pairs.
/// Plus the name tables (eiattr.def, eicompat.def, rcuda.def).
//===----------------------------------------------------------------------------------===//
#include "encoder/cubin/cubin_model.h"
#include "encoder/cubin/byte_io.h"

#include <cstdio>

namespace ptxmini::cubin {

uint32_t Attribute::u32(size_t i) const {
  if (format != SVal || i * 4 + 4 > payload.size())
    return 0;
  return rd32(payload.data() + i * 4);
}

Section *Cubin::find(std::string_view name) {
  for (auto &s : sections)
    if (s.name == name)
      return &s;
  return nullptr;
}
const Section *Cubin::find(std::string_view name) const {
  return const_cast<Cubin *>(this)->find(name);
}
const Section *Cubin::symtab() const {
  for (auto &s : sections)
    if (s.kind == SectionKind::Symbols)
      return &s;
  return nullptr;
}

std::vector<uint8_t> encodeAttributes(const std::vector<Attribute> &attrs) {
  std::vector<uint8_t> out;
  for (const auto &a : attrs) {
    out.push_back(a.format);
    out.push_back(a.attr);
    if (a.format == Attribute::SVal) {
      put16(out, static_cast<uint16_t>(a.payload.size()));
      out.insert(out.end(), a.payload.begin(), a.payload.end());
    } else {
      put16(out, a.value);
    }
  }
  return out;
}

bool decodeAttributes(std::span<const uint8_t> b, std::vector<Attribute> &out,
                      std::string &error) {
  size_t p = 0;
  while (p < b.size()) {
    if (p + 4 > b.size()) {
      error = "attribute record at +" + hex(p) + " is truncated";
      return false;
    }
    Attribute a;
    a.format = b[p];
    a.attr = b[p + 1];
    uint16_t v = rd16(b.data() + p + 2);
    p += 4;
    if (a.format == Attribute::SVal) {
      if (p + v > b.size()) {
        error = "attribute 0x" + hex(a.attr) + " payload of " + std::to_string(v) +
                " bytes runs past the section";
        return false;
      }
      a.payload.assign(b.begin() + p, b.begin() + p + v);
      p += v;
    } else if (a.format >= Attribute::NVal && a.format <= Attribute::HVal) {
      a.value = v;
    } else {
      error = "attribute record at +" + hex(p - 4) + " has unknown format " +
              std::to_string(a.format);
      return false;
    }
    out.push_back(std::move(a));
  }
  return true;
}

static size_t pad4(size_t n) { return (n + 3) & ~size_t(3); }

std::vector<uint8_t> encodeNotes(const std::vector<Note> &notes) {
  std::vector<uint8_t> out;
  for (const auto &n : notes) {
    put32(out, static_cast<uint32_t>(n.name.size()));
    put32(out, static_cast<uint32_t>(n.desc.size()));
    put32(out, n.type);
    out.insert(out.end(), n.name.begin(), n.name.end());
    out.resize(pad4(out.size()), 0);
    out.insert(out.end(), n.desc.begin(), n.desc.end());
    out.resize(pad4(out.size()), 0);
  }
  return out;
}

bool decodeNotes(std::span<const uint8_t> b, std::vector<Note> &out, std::string &error) {
  size_t p = 0;
  while (p < b.size()) {
    if (p + 12 > b.size()) {
      error = "note header at +" + hex(p) + " is truncated";
      return false;
    }
    uint64_t namesz = rd32(b.data() + p), descsz = rd32(b.data() + p + 4);
    Note n;
    n.type = rd32(b.data() + p + 8);
    p += 12;
    if (pad4(namesz) > b.size() - p) {
      error = "note name runs past the section";
      return false;
    }
    n.name.assign(b.begin() + p, b.begin() + p + namesz);
    p += pad4(namesz);
    if (pad4(descsz) > b.size() - p) {
      error = "note descriptor runs past the section";
      return false;
    }
    n.desc.assign(b.begin() + p, b.begin() + p + descsz);
    p += pad4(descsz);
    out.push_back(std::move(n));
  }
  return true;
}

std::vector<uint8_t> encodeSection(const Section &s) {
  std::vector<uint8_t> out;
  switch (s.kind) {
  case SectionKind::Null:
  case SectionKind::NoBits:
    break;
  case SectionKind::Bytes:
    out = s.data;
    break;
  case SectionKind::Symbols:
    for (const auto &y : s.symbols) {
      put32(out, y.nameOffset);
      out.push_back(y.info);
      out.push_back(y.other);
      put16(out, y.shndx);
      put64(out, y.value);
      put64(out, y.size);
    }
    break;
  case SectionKind::Relocations:
    for (const auto &r : s.relocations) {
      put64(out, r.offset);
      put64(out, (uint64_t(r.sym) << 32) | r.type);
      if (s.type == elf::kShtRela)
        put64(out, static_cast<uint64_t>(r.addend));
    }
    break;
  case SectionKind::Notes:
    out = encodeNotes(s.notes);
    break;
  case SectionKind::Attributes:
    out = encodeAttributes(s.attributes);
    break;
  case SectionKind::Callgraph:
    for (auto [a, b] : s.edges) {
      put32(out, static_cast<uint32_t>(a));
      put32(out, static_cast<uint32_t>(b));
    }
    break;
  }
  return out;
}

// ---- names ---------------------------------------------------------------------------
namespace {
struct NameRow {
  unsigned code;
  const char *name;
};
constexpr NameRow kEiattr[] = {
#define EIATTR(code, NAME, shape) {code, #NAME},
#include "encoder/cubin/eiattr.def"
};
constexpr NameRow kEicompat[] = {
#define EICOMPAT(code, NAME, shape) {code, #NAME},
#include "encoder/cubin/eicompat.def"
};
constexpr NameRow kRcuda[] = {
#define RCUDA(number, NAME) {number, #NAME},
#include "encoder/cubin/rcuda.def"
};
template <size_t N> const char *lookup(const NameRow (&t)[N], unsigned code) {
  for (const auto &r : t)
    if (r.code == code)
      return r.name;
  return nullptr;
}
} // namespace

std::string eiattrName(uint8_t code) {
  const char *n = lookup(kEiattr, code);
  return n ? std::string("EIATTR_") + n : "EIATTR_0x" + hex(code);
}
std::string eicompatName(uint8_t code) {
  const char *n = lookup(kEicompat, code);
  return n ? std::string("EICOMPAT_ATTR_") + n : "EICOMPAT_ATTR_0x" + hex(code);
}
std::string relocName(uint32_t type) {
  const char *n = lookup(kRcuda, type);
  return n ? std::string("R_CUDA_") + n : "R_CUDA_" + std::to_string(type);
}
int eiattrCode(std::string_view shortName) {
  for (const auto &r : kEiattr)
    if (shortName == r.name)
      return static_cast<int>(r.code);
  return -1;
}

} // namespace ptxmini::cubin
