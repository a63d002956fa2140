//===- compiler/debug_info.cpp - what -g adds to the line tables ----------------------===//
///
/// \file
/// See debug_info.h for what is written and why.
//===----------------------------------------------------------------------------------===//
#include "compiler/debug_info.h"
#include "frontend/ptx_ast.h"

#include <algorithm>

namespace ptxmini {

namespace {
void put(std::vector<uint8_t> &out, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i)
    out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void putString(std::vector<uint8_t> &out, const std::string &s) {
  out.insert(out.end(), s.begin(), s.end());
  out.push_back(0);
}
unsigned widthOf(const std::string &directive) {
  if (directive == "b8" || directive == "u8" || directive == "s8")
    return 1;
  if (directive == "b16" || directive == "u16" || directive == "s16")
    return 2;
  if (directive == "b32" || directive == "u32" || directive == "s32")
    return 4;
  if (directive == "b64" || directive == "u64" || directive == "s64")
    return 8;
  return 0;
}
} // namespace

DebugInfo::DebugInfo(const ptx::Module &m, DiagEngine &diag) : module_(m) {
  // HW: ptxas 13.0.88 -g on PTX compiled without -G warns so (it prints the pair twice).
  for (const char *need : {".debug_abbrev", ".debug_info"})
    if (std::none_of(m.sections.begin(), m.sections.end(),
                     [&](const ptx::Section &s) { return s.name == need; }))
      diag.warning(std::string(" ") + need + " section not found");
  for (const ptx::Function &f : m.functions) {
    if (!f.hasBody)
      continue;
    FunctionLabels fl;
    collect(f.body, fl);
    for (const auto &[label, line] : fl.labels)
      labelOwner_[label] = f.name;
    functionOrder_.push_back(f.name);
    functions_[f.name] = std::move(fl);
  }
}

void DebugInfo::collect(const ptx::Block &b, FunctionLabels &out) {
  for (const ptx::Statement &st : b.statements) {
    if (st.is<ptx::Block>()) {
      collect(st.as<ptx::Block>(), out);
    } else if (st.is<ptx::Label>()) {
      out.labels[st.as<ptx::Label>().name] = st.as<ptx::Label>().line;
    } else if (st.is<ptx::Instruction>() && !out.firstInstrLine) {
      out.firstInstrLine = st.as<ptx::Instruction>().line;
    }
  }
}

void DebugInfo::placeFunction(const std::string &function, const std::vector<uint32_t> &lines,
                              uint32_t base, const std::string &text) {
  auto it = functions_.find(function);
  if (it == functions_.end())
    return;
  // A function reached from several kernels has a copy in each .text: the DWARF describes
  // one subprogram, so the first copy placed is the one it points at.
  if (std::find(emitted_.begin(), emitted_.end(), function) != emitted_.end())
    return;
  emitted_.push_back(function);
  const uint32_t end = base + static_cast<uint32_t>(lines.size()) * 16;
  for (const auto &[label, line] : it->second.labels) {
    uint32_t at = end;
    if (!it->second.firstInstrLine || line < it->second.firstInstrLine) {
      at = base; // before the body's first instruction: the function's start
    } else {
      for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i] > line) {
          at = base + static_cast<uint32_t>(i) * 16;
          break;
        }
    }
    placed_[label] = Place{text, at};
  }
}

void DebugInfo::placeParams(const std::string &kernel, const std::vector<uint32_t> &addresses) {
  const ptx::Function *f = module_.findFunction(kernel);
  if (!f)
    return;
  for (size_t i = 0; i < f->params.size() && i < addresses.size(); ++i)
    params_[f->params[i].name] = addresses[i];
}

void DebugInfo::placeShared(const std::map<std::string, uint32_t> &addresses) {
  for (const auto &[name, at] : addresses)
    shared_.emplace(name, at);
}

void DebugInfo::finish(cubin::ModuleInfo &mi, DiagEngine &diag) const {
  // Labels inside the debug sections: their offsets, for references between sections.
  std::map<std::string, uint64_t> dataLabels;
  for (const ptx::Section &s : module_.sections) {
    uint64_t at = 0;
    for (const ptx::SectionItem &item : s.items) {
      if (item.kind == ptx::SectionItem::Kind::Label)
        dataLabels[item.label] = at;
      else
        at += uint64_t{widthOf(item.directive)} * item.values.size();
    }
  }
  const bool haveAbbrev =
      std::any_of(module_.sections.begin(), module_.sections.end(),
                  [](const ptx::Section &s) { return s.name == ".debug_abbrev"; });
  for (const ptx::Section &s : module_.sections) {
    // HW (ptxas 13.0.88 -g): an empty section is not written, nor .debug_info without the
    // .debug_abbrev that decodes it.
    if (s.items.empty() || (s.name == ".debug_info" && !haveAbbrev))
      continue;
    cubin::DebugSection ds;
    ds.name = s.name;
    for (const ptx::SectionItem &item : s.items) {
      if (item.kind == ptx::SectionItem::Kind::Label)
        continue;
      unsigned w = widthOf(item.directive);
      if (!w)
        diag.fatal(SourceLoc{module_.fileName, s.line, 0},
                   "Unsupported data directive '." + item.directive + "' in section " + s.name);
      for (const ptx::InitValue &v : item.values) {
        uint64_t value = 0;
        if (v.kind == ptx::InitValue::Kind::Int) {
          value = static_cast<uint64_t>(v.intValue);
        } else if (v.kind == ptx::InitValue::Kind::Symbol) {
          if (auto code = placed_.find(v.symbol); code != placed_.end()) {
            ds.relocs.push_back(cubin::DebugSection::Reloc{
                ds.bytes.size(), code->second.text,
                code->second.offset + static_cast<uint64_t>(v.offset), w == 8, {}});
          } else if (auto p = params_.find(v.symbol); p != params_.end()) {
            value = p->second + static_cast<uint64_t>(v.offset);
          } else if (auto sh = shared_.find(v.symbol); sh != shared_.end()) {
            value = sh->second + static_cast<uint64_t>(v.offset);
          } else if (variables_.count(v.symbol)) {
            cubin::DebugSection::Reloc r;
            r.offset = ds.bytes.size();
            r.addend = static_cast<uint64_t>(v.offset);
            r.wide = w == 8;
            r.variable = v.symbol;
            ds.relocs.push_back(std::move(r));
          } else if (auto d = dataLabels.find(v.symbol); d != dataLabels.end()) {
            value = d->second + static_cast<uint64_t>(v.offset);
          } else if (v.symbol.rfind(".debug_", 0) == 0 || v.symbol.rfind(".nv_debug_", 0) == 0) {
            // A section: the PTX's own or one the compiler writes (.debug_line). One unit
            // per section, so the unit starts at offset 0.
            value = static_cast<uint64_t>(v.offset);
          } else if (labelOwner_.count(v.symbol)) {
            // A label of a function no kernel reaches: it has no code, so no address.
            value = 0;
          } else {
            diag.fatal(SourceLoc{module_.fileName, s.line, 0},
                       "Unknown symbol '" + v.symbol + "' in section " + s.name);
          }
        } else {
          diag.fatal(SourceLoc{module_.fileName, s.line, 0},
                     "Unsupported value in section " + s.name);
        }
        if (w < 8 && !ds.relocs.empty() && ds.relocs.back().offset == ds.bytes.size() && w != 4)
          diag.fatal(SourceLoc{module_.fileName, s.line, 0},
                     "A code address in section " + s.name + " needs .b32 or .b64");
        put(ds.bytes, value, w);
      }
    }
    mi.debugSections.push_back(std::move(ds));
  }
  // Register maps: one record per function with code, in PTX order, no entries (see the
  // header).
  for (const std::string &f : functionOrder_) {
    if (std::find(emitted_.begin(), emitted_.end(), f) == emitted_.end())
      continue;
    putString(mi.regSass, f);
    put(mi.regSass, 0, 4);
    putString(mi.regType, f);
    put(mi.regType, 0, 4);
  }
}

} // namespace ptxmini
