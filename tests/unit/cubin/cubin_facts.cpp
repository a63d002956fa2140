//===- tests/unit/cubin/cubin_facts.cpp - facts from a ptxas cubin, and a cubin diff ---===//
///
/// \file
/// See cubin_facts.h. Facts come from the attributes ptxas wrote (the same values the
/// compiler computes) and from the code bytes; the diff compares section by section so a
/// test can say which part of the builder's output differs.
//===----------------------------------------------------------------------------------===//
#include "tests/unit/cubin/cubin_facts.h"
#include "encoder/cubin/byte_io.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace ptxmini::cubin::testing {

namespace {
const Attribute *findAttr(const Section *s, uint8_t code) {
  if (!s)
    return nullptr;
  for (const Attribute &a : s->attributes)
    if (a.attr == code)
      return &a;
  return nullptr;
}
std::array<uint32_t, 3> triple(const Attribute &a) { return {a.u32(0), a.u32(1), a.u32(2)}; }

/// The code offsets of the first DW_CFA_def_cfa and of the last advance in the FDE whose
/// initial_location is relocated against `sym` with addend 0 (the function's own FDE).
std::pair<std::optional<uint32_t>, std::optional<uint32_t>> cfaPointsFromFde(const Cubin &c,
                                                                            uint32_t sym) {
  const Section *df = c.find(".debug_frame");
  const Section *rel = c.find(".rela.debug_frame");
  if (!df || !rel)
    return {};
  for (const Relocation &r : rel->relocations) {
    if (r.sym != sym || r.type != 2 || r.addend != 0 || r.offset < 0x14 ||
        r.offset + 12 > df->data.size())
      continue;
    size_t fde = r.offset - 0x14, p = fde + 0x24;
    if (fde + 12 > df->data.size())
      return {};
    size_t end = std::min<size_t>(df->data.size(), fde + 12 + rd64(&df->data[fde + 4]));
    uint32_t loc = 0;
    std::optional<uint32_t> start, mark;
    while (p < end) {
      uint8_t op = df->data[p];
      if (op == 0x04 && p + 5 <= end) {
        loc += rd32(&df->data[p + 1]) * 4;
        p += 5;
        // An advance not followed by a rule is the closing marker.
        if (p >= end || df->data[p] != 0x0c)
          mark = loc;
      } else if (op == 0x0c) {
        start = loc;
        p += 5;
        while (p < end && (df->data[p] & 0x80)) // ULEB offset
          ++p;
        ++p;
      } else {
        break; // DW_CFA_nop padding
      }
    }
    return {start, mark};
  }
  return {};
}

/// Callee frame facts: the FDE relocated against `sym` + lf.offset gives the CFA program
/// (up to the DW_CFA_nop padding) and its CIE the RA register (the 4-byte register ULEB
/// after DW_CFA_same_value that precedes DW_CFA_val_expression).
void calleeFrameFacts(const Cubin &c, uint32_t sym, LocalFunction &lf) {
  const Section *df = c.find(".debug_frame");
  const Section *rel = c.find(".rela.debug_frame");
  if (!df || !rel)
    return;
  const auto &d = df->data;
  for (const Relocation &r : rel->relocations) {
    if (r.sym != sym || r.type != 2 || r.addend != static_cast<int64_t>(lf.offset) ||
        r.offset < 0x14 || r.offset + 0x10 > d.size())
      continue;
    size_t fde = r.offset - 0x14;
    size_t end = std::min<size_t>(d.size(), fde + 12 + rd64(&d[fde + 4]));
    size_t p = fde + 0x24;
    std::vector<uint8_t> prog(d.begin() + static_cast<ptrdiff_t>(std::min(p, end)),
                              d.begin() + static_cast<ptrdiff_t>(end));
    while (!prog.empty() && prog.back() == 0)
      prog.pop_back();
    lf.cfaProgram = prog;
    uint64_t cie = rd64(&d[fde + 12]);
    if (cie + 0x30 > d.size())
      return;
    for (size_t q = cie + 0x10; q + 6 < std::min<size_t>(d.size(), cie + 0x48); ++q)
      if (d[q] == 0x16 && q >= 5 && d[q - 5] == 0x08) {
        uint32_t x = (d[q - 4] & 0x7f) | (d[q - 3] & 0x7f) << 7 | (d[q - 2] & 0x7f) << 14;
        lf.raRegister = x;
        return;
      }
  }
}

} // namespace

std::optional<ModuleInfo> factsFromCubin(const Cubin &c, std::string &error) {
  ModuleInfo m;
  m.sm = (c.flags >> 8) & 0xff;
  m.relocatable = c.type == elf::kEtRel;
  switch (c.flags >> 24) {
  case 0x06:
    m.debug = ModuleInfo::Debug::None;
    break;
  case 0x09:
    m.debug = ModuleInfo::Debug::LineInfo;
    break;
  case 0x0b:
    m.debug = ModuleInfo::Debug::Full;
    break;
  default:
    error = "debug mode e_flags 0x" + hex(c.flags >> 24) + " is not modelled";
    return std::nullopt;
  }
  if (const Section *compat = c.find(".nv.compat")) {
    if (const Attribute *a = findAttr(compat, 0x09))
      m.archSpecific = a->value & 0xff;
    if (const Attribute *a = findAttr(compat, 0x02))
      m.isaClass = a->value & 0xff;
    if (const Attribute *a = findAttr(compat, 0x03))
      m.usesTensormap = a->value & 0xff;
  }
  if (const Section *cu = c.find(".note.nv.cuinfo"); cu && !cu->notes.empty() &&
                                                     cu->notes[0].desc.size() >= 4)
    m.ptxTargetSm = rd16(&cu->notes[0].desc[2]);
  if (const Section *tk = c.find(".note.nv.tkinfo"); tk && !tk->notes.empty()) {
    const auto &d = tk->notes[0].desc;
    if (d.size() >= 24) {
      std::string s;
      for (size_t k = 24 + rd32(&d[20]); k < d.size() && d[k]; ++k)
        s.push_back(static_cast<char>(d[k]));
      m.toolOptions = s;
    }
  }
  const Section *symtab = c.symtab();
  const Section *info = c.find(".nv.info");
  if (!symtab || !info) {
    error = "no symbol table or .nv.info";
    return std::nullopt;
  }
  auto globalValue = [&](uint8_t code, uint32_t sym) -> uint32_t {
    for (const Attribute &a : info->attributes)
      if (a.attr == code && a.u32(0) == sym)
        return a.u32(1);
    return 0;
  };
  // Attributes the builder derives from FunctionInfo fields; any other goes to extras.
  static const std::set<uint8_t> kDerived = {0x37, 0x17, 0x3e, 0x3d, 0x3f, 0x50, 0x1b, 0x4c,
                                             0x5f, 0x1c, 0x05, 0x10, 0x1e, 0x19, 0x0a, 0x36,
                                             0x0f, 0x46};
  std::vector<FunctionInfo> processing;
  for (size_t idx = 0; idx < c.sections.size(); ++idx) {
    const Section &t = c.sections[idx];
    if (!t.name.starts_with(".text."))
      continue;
    FunctionInfo f;
    f.name = t.name.substr(6);
    uint32_t sym = 0;
    for (size_t k = 0; k < symtab->symbols.size(); ++k) {
      const Symbol &y = symtab->symbols[k];
      if (y.type() == elf::kSttFunc && y.shndx == idx && y.name == f.name)
        sym = static_cast<uint32_t>(k);
      if (y.type() == elf::kSttFunc && y.shndx == idx && y.name != f.name) {
        LocalFunction lf;
        lf.name = y.name;
        lf.offset = y.value;
        lf.size = y.size;
        lf.binding = y.bind();
        lf.frameSize = globalValue(0x11, static_cast<uint32_t>(k));
        f.localFunctions.push_back(lf);
      }
    }
    if (!sym) {
      error = "no function symbol for " + t.name;
      return std::nullopt;
    }
    f.isKernel = symtab->symbols[sym].other & 0x10;
    f.visible = symtab->symbols[sym].bind() != elf::kStbLocal;
    auto codeSize = codeSizeOfText(t.data);
    if (!codeSize) {
      error = t.name + " does not end in BRA-to-self + NOPs";
      return std::nullopt;
    }
    f.code.assign(t.data.begin(), t.data.begin() + static_cast<ptrdiff_t>(*codeSize));
    f.regCount = globalValue(0x2f, sym);
    f.frameSize = globalValue(0x11, sym);
    f.minStackSize = globalValue(m.relocatable ? 0x23 : 0x12, sym);
    const Section *fi = c.find(".nv.info." + f.name);
    if (fi) {
      for (const Attribute &a : fi->attributes) {
        switch (a.attr) {
        case 0x17: {
          uint32_t ordinal = a.u32(1) & 0xffff;
          if (f.params.size() <= ordinal)
            f.params.resize(ordinal + 1);
          f.params[ordinal] = {a.u32(1) >> 16, a.u32(2) >> 18, a.u32(2) & 0xff};
          break;
        }
        case 0x19:
          f.paramBytes = a.value;
          break;
        case 0x1b:
          f.maxReg = a.value;
          break;
        case 0x4c:
          f.numBarriers = a.value & 0xff;
          break;
        case 0x1c:
          for (size_t k = 0; k < a.words(); ++k)
            f.exitOffsets.push_back(a.u32(k));
          break;
        case 0x05:
          f.maxntid = triple(a);
          break;
        case 0x10:
          f.reqntid = triple(a);
          break;
        case 0x3d:
          f.clusterDims = triple(a);
          break;
        case 0x3e:
          f.explicitCluster = true;
          break;
        case 0x3f:
          f.maxClusterRank = a.u32(0);
          break;
        case 0x1e:
          f.crsStackSize = a.u32(0);
          break;
        case 0x0f: // EXTERNS: symbol indices
          for (size_t k = 0; k < a.words(); ++k)
            if (a.u32(k) < symtab->symbols.size())
              f.externs.push_back(symtab->symbols[a.u32(k)].name);
          break;
        case 0x46:
          for (size_t k = 0; k < a.words(); ++k)
            f.syscallOffsets.push_back(a.u32(k));
          break;
        default:
          if (!kDerived.count(a.attr))
            f.extraAttributes.push_back(a);
        }
      }
    }
    if (const Section *sh = c.find(".nv.shared." + f.name)) {
      f.usesShared = true;
      // Relocatable cubins have no 1 KB reserve in .nv.shared.<fn>.
      uint64_t reserve = m.relocatable ? 0 : 0x400;
      f.sharedBytes = static_cast<uint32_t>(sh->size >= reserve ? sh->size - reserve : 0);
      f.sharedAlign = static_cast<uint32_t>(sh->align);
      size_t shIdx = static_cast<size_t>(sh - c.sections.data());
      for (const Symbol &y : symtab->symbols)
        if (m.relocatable && y.type() == 13 && y.shndx == shIdx)
          f.sharedVars.push_back({y.name, static_cast<uint32_t>(y.size),
                                  static_cast<uint32_t>(y.value)});
    }
    // A .rela.text section means the code references shared memory or calls (the builder
    // only needs to know whether one is there).
    if (c.find(".rela.text." + f.name))
      (f.usesShared ? f.referencesShared : f.hasCalls) = true;
    // Where the CFA rule starts and where the FDE's last advance points are code positions
    // only the compiler knows (ptxas picks them: after the first block's EXIT, at a CALL,
    // after the stack set-up; the last EXIT or a later block); read them from ptxas's FDE.
    // The builder still has to encode the FDE around them.
    std::tie(f.cfaStart, f.cfaEnd) = cfaPointsFromFde(c, sym);
    // Callees: the return-address register and the CFA program are the compiler's (ABI
    // and register allocation); read them from ptxas's callee CIE/FDE.
    for (LocalFunction &lf : f.localFunctions)
      calleeFrameFacts(c, sym, lf);
    if (const Section *rt = c.find(".rela.text." + f.name))
      for (const Relocation &r : rt->relocations)
        f.relocations.push_back({r.offset, r.type,
                                 r.sym < symtab->symbols.size() ? symtab->symbols[r.sym].name : "",
                                 r.addend});
    processing.push_back(std::move(f));
  }
  m.functions.assign(processing.rbegin(), processing.rend());
  // Module variables: LOCAL OBJECT symbols in the data sections, in symbol order (= PTX
  // declaration order). The alignment a compiler takes from `.align` is approximated by the
  // section's alignment.
  std::map<uint32_t, uint32_t> slotted; // symbol -> slot offset
  if (const Section *r = c.find(".rela.nv.constant4"))
    for (const Relocation &x : r->relocations)
      slotted[x.sym] = static_cast<uint32_t>(x.offset);
  // Extern functions: the undefined FUNC symbols a .nv.constant4 slot is relocated against
  // (the builder places their symbols by the functions' EXTERNS, not by this order).
  for (const auto &[sym, off] : slotted) {
    if (sym >= symtab->symbols.size())
      continue;
    const Symbol &y = symtab->symbols[sym];
    if (y.shndx == 0 && y.type() == elf::kSttFunc)
      m.externs.push_back({y.name, off});
  }
  for (size_t k = 0; k < symtab->symbols.size(); ++k) {
    const Symbol &y = symtab->symbols[k];
    bool varType = y.type() == elf::kSttObject || (m.relocatable && y.type() == 13);
    if (!varType || y.bind() != elf::kStbLocal || y.shndx >= c.sections.size())
      continue;
    const Section &sec = c.sections[y.shndx];
    GlobalVar g;
    g.name = y.name;
    g.size = static_cast<uint32_t>(y.size);
    g.align = static_cast<uint32_t>(sec.align);
    g.addressSlot = slotted.count(static_cast<uint32_t>(k));
    if (g.addressSlot)
      g.slot = slotted.at(static_cast<uint32_t>(k));
    g.offset = y.value; // ptxas sorts .global variables; keep where it put them
    if (sec.name == ".nv.constant3")
      g.space = GlobalVar::Space::Const;
    else if (sec.name != ".nv.global.init" && sec.name != ".nv.global")
      continue;
    if (sec.kind == SectionKind::Bytes) {
      if (y.value + y.size > sec.data.size()) {
        error = "variable " + y.name + " lies outside its section";
        return std::nullopt;
      }
      g.init.assign(sec.data.begin() + static_cast<ptrdiff_t>(y.value),
                    sec.data.begin() + static_cast<ptrdiff_t>(y.value + y.size));
      if (g.space == GlobalVar::Space::Global &&
          std::all_of(g.init.begin(), g.init.end(), [](uint8_t b) { return b == 0; }))
        g.init.assign(1, 0); // still an initialised variable (.nv.global.init)
    }
    m.globals.push_back(std::move(g));
  }
  return m;
}

std::vector<std::string> diffCubins(const Cubin &e, const std::vector<uint8_t> &eb,
                                    const Cubin &a, const std::vector<uint8_t> &ab) {
  std::vector<std::string> d;
  if (eb == ab)
    return d;
  if (e.type != a.type || e.flags != a.flags || e.phoff != a.phoff || e.shoff != a.shoff ||
      e.shstrndx != a.shstrndx || std::string((const char *)e.ident, 16) != std::string((const char *)a.ident, 16))
    d.push_back("ELF header");
  if (e.sections.size() != a.sections.size())
    d.push_back("section count " + std::to_string(e.sections.size()) + " vs " +
                std::to_string(a.sections.size()));
  for (size_t i = 0; i < std::min(e.sections.size(), a.sections.size()); ++i) {
    const Section &x = e.sections[i], &y = a.sections[i];
    std::string label = "section " + std::to_string(i) + " " + x.name;
    if (x.name != y.name) {
      d.push_back(label + ": name (built " + y.name + ")");
      continue;
    }
    std::vector<std::string> what;
    if (x.type != y.type) what.push_back("type");
    if (x.flags != y.flags) what.push_back("flags");
    if (x.offset != y.offset) what.push_back("offset");
    if (x.size != y.size) what.push_back("size 0x" + hex(x.size) + " vs 0x" + hex(y.size));
    if (x.link != y.link) what.push_back("link");
    if (x.info != y.info) what.push_back("info " + std::to_string(x.info) + " vs " + std::to_string(y.info));
    if (x.align != y.align) what.push_back("align");
    if (x.entsize != y.entsize) what.push_back("entsize");
    if (encodeSection(x) != encodeSection(y)) what.push_back("contents");
    if (x.kind == SectionKind::Symbols)
      for (size_t k = 0; k < std::max(x.symbols.size(), y.symbols.size()); ++k) {
        if (k >= x.symbols.size() || k >= y.symbols.size()) {
          what.push_back("symbol count");
          break;
        }
        const Symbol &p = x.symbols[k], &q = y.symbols[k];
        if (p.name != q.name || p.info != q.info || p.other != q.other || p.shndx != q.shndx ||
            p.value != q.value || p.size != q.size || p.nameOffset != q.nameOffset) {
          what.push_back("symbol " + std::to_string(k) + " (" + p.name + " vs " + q.name + ")");
          break;
        }
      }
    if (x.kind == SectionKind::Attributes)
      for (size_t k = 0; k < std::max(x.attributes.size(), y.attributes.size()); ++k) {
        if (k >= x.attributes.size() || k >= y.attributes.size()) {
          what.push_back("attribute count");
          break;
        }
        const Attribute &p = x.attributes[k], &q = y.attributes[k];
        if (p.attr != q.attr || p.format != q.format || p.value != q.value || p.payload != q.payload) {
          what.push_back("record " + std::to_string(k) + " " + eiattrName(p.attr) + " vs " +
                         eiattrName(q.attr));
          break;
        }
      }
    if (!what.empty()) {
      std::string s = label + ":";
      for (auto &w : what)
        s += " " + w;
      d.push_back(s);
    }
  }
  if (e.programHeaders.size() != a.programHeaders.size())
    d.push_back("program header count");
  else
    for (size_t i = 0; i < e.programHeaders.size(); ++i) {
      const ProgramHeader &x = e.programHeaders[i], &y = a.programHeaders[i];
      if (x.type != y.type || x.flags != y.flags || x.offset != y.offset || x.filesz != y.filesz ||
          x.memsz != y.memsz || x.align != y.align)
        d.push_back("program header " + std::to_string(i));
    }
  if (d.empty())
    d.push_back("bytes differ outside the modelled parts (file size " + std::to_string(eb.size()) +
                " vs " + std::to_string(ab.size()) + ")");
  return d;
}

} // namespace ptxmini::cubin::testing
