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
#include <set>

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

/// The code offset of the first DW_CFA_def_cfa in the FDE whose initial_location is
/// relocated against `sym` (executables: one R_CUDA_64 at FDE + 0x14).
std::optional<uint32_t> cfaStartFromFde(const Cubin &c, uint32_t sym) {
  const Section *df = c.find(".debug_frame");
  const Section *rel = c.find(".rela.debug_frame");
  if (!df || !rel)
    return std::nullopt;
  for (const Relocation &r : rel->relocations) {
    if (r.sym != sym || r.type != 2 || r.addend != 0 || r.offset < 0x14)
      continue;
    size_t fde = r.offset - 0x14, p = fde + 0x24;
    if (fde + 12 > df->data.size())
      return std::nullopt;
    size_t end = std::min<size_t>(df->data.size(), fde + 12 + rd64(&df->data[fde + 4]));
    uint32_t loc = 0;
    while (p < end) {
      uint8_t op = df->data[p];
      if (op == 0x04 && p + 5 <= end) {
        loc += rd32(&df->data[p + 1]) * 4;
        p += 5;
      } else if (op == 0x0c) {
        return loc;
      } else {
        return std::nullopt;
      }
    }
  }
  return std::nullopt;
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
                                             0x5f, 0x1c, 0x05, 0x10, 0x1e, 0x19, 0x0a, 0x36};
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
      if (y.type() == elf::kSttFunc && y.shndx == idx && y.bind() == elf::kStbLocal) {
        LocalFunction lf{y.name, y.value, y.size, 0};
        lf.frameSize = globalValue(0x11, static_cast<uint32_t>(k));
        f.localFunctions.push_back(lf);
      }
    }
    if (!sym) {
      error = "no function symbol for " + t.name;
      return std::nullopt;
    }
    f.isKernel = symtab->symbols[sym].other & 0x10;
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
        default:
          if (!kDerived.count(a.attr))
            f.extraAttributes.push_back(a);
        }
      }
    }
    if (const Section *sh = c.find(".nv.shared." + f.name)) {
      f.usesShared = true;
      f.sharedBytes = static_cast<uint32_t>(sh->size >= 0x400 ? sh->size - 0x400 : 0);
      f.sharedAlign = static_cast<uint32_t>(sh->align);
    }
    // A .rela.text section without shared memory means calls (the builder only needs to
    // know whether one is there).
    if (c.find(".rela.text." + f.name))
      f.hasCalls = !f.usesShared;
    // Where the CFA rule starts is a code position only the compiler knows (ptxas picks
    // it: after the first block's EXIT, at a CALL, after the stack set-up); read it from
    // ptxas's FDE. The builder still has to encode the FDE around it.
    f.cfaStart = cfaStartFromFde(c, sym);
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
  std::set<uint32_t> slotted;
  if (const Section *r = c.find(".rela.nv.constant4"))
    for (const Relocation &x : r->relocations)
      slotted.insert(x.sym);
  for (size_t k = 0; k < symtab->symbols.size(); ++k) {
    const Symbol &y = symtab->symbols[k];
    if (y.type() != elf::kSttObject || y.bind() != elf::kStbLocal || y.shndx >= c.sections.size())
      continue;
    const Section &sec = c.sections[y.shndx];
    GlobalVar g;
    g.name = y.name;
    g.size = static_cast<uint32_t>(y.size);
    g.align = static_cast<uint32_t>(sec.align);
    g.addressSlot = slotted.count(static_cast<uint32_t>(k));
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
