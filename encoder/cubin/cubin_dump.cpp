//===- encoder/cubin/cubin_dump.cpp - print the model as `cuobjdump -elf` does ---------===//
///
/// \file
/// Text for `sass-mc -elf`: the header line, the section table, the symbol table, every
/// relocation section, .nv.info / .nv.compat records by attribute name with decoded values,
/// notes, the callgraph and the program headers. The attribute block copies cuobjdump's
/// shape ("<0xN>", "Attribute:", "Format:", "Value:") so the two outputs can be compared line
/// by line (tests/lit/cubin/attr-names.test does exactly that for the names). Code and
/// constant-bank bytes are not printed; `sass-mc -disassemble` is for code.
//===----------------------------------------------------------------------------------===//
#include "encoder/cubin/cubin_dump.h"
#include "encoder/cubin/byte_io.h"
#include "encoder/cubin/section_rules.h"

#include <iomanip>
#include <ostream>
#include <sstream>

namespace ptxmini::cubin {

namespace {

enum class Shape { Raw, SymVal, KParam, ParamCbank, Version };

Shape eiattrShape(uint8_t code) {
  switch (code) {
#define EIATTR(c, NAME, shape)                                                              \
  case c:                                                                                  \
    return Shape::shape;
#include "encoder/cubin/eiattr.def"
  default:
    return Shape::Raw;
  }
}
Shape eicompatShape(uint8_t code) {
  switch (code) {
#define EICOMPAT(c, NAME, shape)                                                            \
  case c:                                                                                  \
    return Shape::shape;
#include "encoder/cubin/eicompat.def"
  default:
    return Shape::Raw;
  }
}

std::string h(uint64_t v) { return "0x" + hex(v); }

const char *formatName(uint8_t f) {
  switch (f) {
  case Attribute::NVal:
    return "EIFMT_NVAL";
  case Attribute::BVal:
    return "EIFMT_BVAL";
  case Attribute::HVal:
    return "EIFMT_HVAL";
  default:
    return "EIFMT_SVAL";
  }
}

std::string typeName(uint32_t t) {
  if (const SectionTypeRow *r = sectionTypeRow(t))
    return r->name;
  return h(t);
}

std::string symName(const Cubin &c, uint32_t idx) {
  const Section *st = c.symtab();
  if (!st || idx >= st->symbols.size())
    return "<sym " + std::to_string(idx) + ">";
  const Symbol &y = st->symbols[idx];
  if (!y.name.empty())
    return y.name;
  if (y.type() == elf::kSttSection && y.shndx < c.sections.size())
    return c.sections[y.shndx].name;
  return "(null)";
}

void dumpAttributes(const Cubin &c, const Section &s, bool compat, std::ostream &os) {
  unsigned n = 0;
  for (const Attribute &a : s.attributes) {
    os << "\t<" << h(++n) << ">\n";
    os << "\tAttribute:\t" << (compat ? eicompatName(a.attr) : eiattrName(a.attr)) << "\n";
    os << "\tFormat:\t" << formatName(a.format) << "\n";
    if (a.format == Attribute::NVal)
      continue;
    Shape shape = compat ? eicompatShape(a.attr) : eiattrShape(a.attr);
    os << "\tValue:\t";
    if (a.format != Attribute::SVal) {
      uint16_t v = a.format == Attribute::BVal ? (a.value & 0xff) : a.value;
      if (shape == Shape::Version)
        os << (v >> 8) << "." << (v & 0xff);
      else
        os << h(v);
      os << "\n";
      continue;
    }
    if (shape == Shape::SymVal && a.payload.size() == 8) {
      os << "function: " << symName(c, a.u32(0)) << "(" << h(a.u32(0)) << ")\tvalue: "
         << h(a.u32(1)) << "\n";
    } else if (shape == Shape::KParam && a.payload.size() == 12) {
      uint32_t w = a.u32(2);
      // HW: size = w >> 18 (matches the PTX parameter sizes); cbank in bits 12-16 (0x1f, as
      // cuobjdump prints it); logAlignment bits 0-7, space bits 8-11 (cuobjdump 13.2 on
      // ptxas 13.0.88 cubins of `.ptr .shared .align 4` etc. parameters).
      os << "Index : " << h(a.u32(0)) << "\tOrdinal : " << h(a.u32(1) & 0xffff)
         << "\tOffset  : " << h(a.u32(1) >> 16) << "\tSize    : " << h(w >> 18)
         << "\n\t\tPointee's logAlignment : " << h(w & 0xff) << "\tSpace : "
         << h((w >> 8) & 0xf) << "\tcbank : " << h((w >> 12) & 0x1f) << "\n";
    } else if (shape == Shape::ParamCbank && a.payload.size() == 8) {
      os << "section: " << symName(c, a.u32(0)) << "(" << h(a.u32(0)) << ")\toffset: "
         << h(a.u32(1) & 0xffff) << "\tsize: " << h(a.u32(1) >> 16) << "\n";
    } else {
      for (size_t i = 0; i < a.words(); ++i)
        os << h(a.u32(i)) << " ";
      for (size_t i = a.words() * 4; i < a.payload.size(); ++i)
        os << "b:" << h(a.payload[i]) << " ";
      os << "\n";
    }
  }
}

void dumpNotes(const Section &s, std::ostream &os) {
  for (const Note &n : s.notes) {
    std::string owner(n.name.begin(), n.name.end());
    while (!owner.empty() && owner.back() == '\0')
      owner.pop_back();
    os << "  Owner: " << owner << "  type: " << n.type << "  desc size: " << n.desc.size()
       << "\n";
    // HW: .note.nv.cuinfo desc = {u16 version, u16 virtual SM, u32 toolkit version};
    // .note.nv.tkinfo desc = {u32 version, 5 x u32 string offsets} + string pool
    // (cubin-format.md §9, re-checked against cuobjdump's note printout).
    if (n.type == 1000 && n.desc.size() == 8) {
      os << "\tNote Version: " << rd16(n.desc.data()) << "\n\tCUDA Virtual SM: sm_"
         << rd16(n.desc.data() + 2) << "\n\tCUDA Tool Kit Version: "
         << rd32(n.desc.data() + 4) / 10 << "." << rd32(n.desc.data() + 4) % 10 << "\n";
    } else if (n.type == 2000 && n.desc.size() >= 24) {
      static const char *kFields[] = {"Object Filename", "Tool Name", "Tool Version",
                                      "Tool Branch", "Tool Command Line Arguments"};
      os << "\tNote Version: " << rd32(n.desc.data()) << "\n";
      for (int f = 0; f < 5; ++f) {
        uint64_t off = 24 + uint64_t(rd32(n.desc.data() + 4 + 4 * f));
        std::string str;
        for (uint64_t k = off; k < n.desc.size() && n.desc[k]; ++k)
          str.push_back(static_cast<char>(n.desc[k]));
        os << "\t" << kFields[f] << ": " << str << "\n";
      }
    }
  }
}

} // namespace

void dumpCubin(const Cubin &c, std::ostream &os) {
  os << "64-bit ELF: type="
     << (c.type == elf::kEtExec ? "ET_EXEC" : c.type == elf::kEtRel ? "ET_REL" : h(c.type))
     << ", ABI=" << unsigned(c.ident[8]) << ", sm=" << ((c.flags >> 8) & 0xff)
     << ", flags=" << h(c.flags) << "\n";
  os << "Layout: " << (c.layoutCanonical ? "follows the ptxas rule" : "kept as read (not the ptxas rule)")
     << "\n";
  os << "Sections:\nIndex Offset   Size ES Align             Type    Flags Link     Info Name\n";
  for (size_t i = 1; i < c.sections.size(); ++i) {
    const Section &s = c.sections[i];
    os << std::setw(5) << hex(i) << " " << std::setw(6) << hex(s.offset) << " " << std::setw(6)
       << hex(s.size) << " " << std::setw(2) << hex(s.entsize) << " " << std::setw(5)
       << hex(s.align) << " " << std::setw(16) << typeName(s.type) << " " << std::setw(8)
       << hex(s.flags) << " " << std::setw(4) << hex(s.link) << " " << std::setw(8)
       << hex(s.info) << " " << s.name << "\n";
  }
  for (const Section &s : c.sections) {
    switch (s.kind) {
    case SectionKind::Symbols: {
      os << "\n.section " << s.name << "\n index  value  size  info  other  shndx  name\n";
      for (size_t i = 0; i < s.symbols.size(); ++i) {
        const Symbol &y = s.symbols[i];
        os << " " << h(i) << "  " << h(y.value) << "  " << h(y.size) << "  " << h(y.info)
           << "  " << h(y.other) << "  " << h(y.shndx) << "  "
           << (y.name.empty() ? "(null)" : y.name) << "\n";
      }
      break;
    }
    case SectionKind::Relocations:
      os << "\n.section " << s.name << "\t" << (s.type == elf::kShtRela ? "RELA" : "REL")
         << "\n";
      for (const Relocation &r : s.relocations)
        os << h(r.offset) << "    " << symName(c, r.sym) << "    " << relocName(r.type)
           << "    " << h(static_cast<uint64_t>(r.addend)) << "\n";
      break;
    case SectionKind::Attributes:
      os << "\n" << s.name << "\n";
      dumpAttributes(c, s, s.type == elf::kShtCudaCompat, os);
      break;
    case SectionKind::Notes:
      os << "\n.section " << s.name << "\n";
      dumpNotes(s, os);
      break;
    case SectionKind::Callgraph:
      os << "\n" << s.name << "\n";
      for (auto [a, b] : s.edges)
        os << " <" << a << "," << b << ">\n";
      break;
    default:
      break;
    }
  }
  if (!c.programHeaders.empty()) {
    os << "\nProgram Headers:\n  Type  Flags  Offset  FileSz  MemSz  Align\n";
    for (const ProgramHeader &p : c.programHeaders) {
      os << "  " << (p.type == elf::kPtPhdr ? "PHDR" : p.type == elf::kPtLoad ? "LOAD" : h(p.type))
         << "  " << ((p.flags & elf::kPfR) ? "R" : "") << ((p.flags & elf::kPfW) ? "W" : "")
         << ((p.flags & elf::kPfX) ? "E" : "") << "  " << h(p.offset) << "  " << h(p.filesz)
         << "  " << h(p.memsz) << "  " << h(p.align) << "\n";
    }
  }
}

} // namespace ptxmini::cubin
