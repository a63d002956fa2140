//===- encoder/isa_table.cpp - parse and index an SM's encoding rows --------------------===//
///
/// \file
/// See isa_table.h. Index maps are ordered (std::map) so every walk is deterministic.
//===----------------------------------------------------------------------------------===//
#include "encoder/isa_table.h"

#include "targets/common/volta_word.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>

namespace ptxmini::enc {

bool parseBitSpec(std::string_view spec, Word128 &mask, Word128 &value, std::string &err,
                  std::vector<FieldCond> *conds) {
  size_t i = 0;
  while (i < spec.size()) {
    while (i < spec.size() && spec[i] == ' ')
      ++i;
    if (i >= spec.size())
      break;
    size_t j = spec.find(' ', i);
    if (j == std::string_view::npos)
      j = spec.size();
    std::string item(spec.substr(i, j - i));
    i = j;
    auto eq = item.find('=');
    if (eq == std::string::npos) {
      err = "missing '=' in '" + item + "'";
      return false;
    }
    bool negated = eq > 0 && item[eq - 1] == '!';
    std::string range = item.substr(0, negated ? eq - 1 : eq);
    bool pow2 = item.compare(eq + 1, std::string::npos, "pow2") == 0;
    if ((negated || pow2) && conds) {
      unsigned clo = unsigned(std::strtoul(range.c_str(), nullptr, 10));
      auto cd = range.find('-');
      unsigned chi = cd == std::string::npos ? clo : unsigned(std::strtoul(range.c_str() + cd + 1, nullptr, 10));
      FieldCond c;
      c.range = BitRange{uint16_t(clo), uint16_t(chi - clo + 1)};
      c.pow2 = pow2;
      if (negated)
        c.notValue = std::strtoull(item.c_str() + eq + 1, nullptr, 0);
      if (chi < clo || !c.range.valid()) {
        err = "bad condition '" + item + "'";
        return false;
      }
      conds->push_back(c);
      continue;
    }
    char *end = nullptr;
    unsigned long long v = std::strtoull(item.c_str() + eq + 1, &end, 0);
    if (*end != 0) {
      err = "bad value in '" + item + "'";
      return false;
    }
    unsigned lo, hi;
    auto dash = range.find('-');
    lo = unsigned(std::strtoul(range.c_str(), nullptr, 10));
    hi = dash == std::string::npos ? lo : unsigned(std::strtoul(range.c_str() + dash + 1, nullptr, 10));
    BitRange r{uint16_t(lo), uint16_t(hi - lo + 1)};
    if (hi < lo || !r.valid() || (v & ~r.maxValue())) {
      err = "bad range or value in '" + item + "'";
      return false;
    }
    mask = mask | Word128::mask(r);
    value.set(r, v);
  }
  return true;
}

Isa::Isa(const targets::IsaTables &tables, std::vector<std::string> &errors) : tables_(&tables) {
  // The SM's own rows first, then the family rows it shares (overlay: targets/common/form_row.h).
  std::vector<targets::FormRow> rows(tables.forms.begin(), tables.forms.end());
  for (const auto &row : tables.shared)
    if (std::find(tables.replaced.begin(), tables.replaced.end(), row.opcode) == tables.replaced.end())
      rows.push_back(row);
  for (size_t r = 0; r < rows.size(); ++r) {
    const auto &row = rows[r];
    std::string err;
    auto t = parseTemplate(row.text, err);
    Form f;
    f.opcode = row.opcode;
    f.row = r;
    auto where = [&] { return std::string(tables.name) + " row " + std::to_string(r) + " (" + row.text + "): "; };
    if (!t) {
      errors.push_back(where() + err);
      continue;
    }
    f.tmpl = std::move(*t);
    std::string fixed = row.fixed;
    if (auto u = fixed.find("UGUARD"); u != std::string::npos) {
      f.uniformGuard = true;
      fixed.erase(u, 6);
    }
    if (!parseBitSpec(row.match, f.matchMask, f.matchValue, err, &f.conds) ||
        !parseBitSpec(fixed, f.fixedMask, f.fixedValue, err)) {
      errors.push_back(where() + err);
      continue;
    }
    byOpcode_[f.opcode].push_back(forms_.size());
    byMnemonic_[f.tmpl.mnemonic].push_back(forms_.size());
    forms_.push_back(std::move(f));
  }
}

const std::vector<size_t> &Isa::byOpcode(uint16_t opc) const {
  static const std::vector<size_t> none;
  auto it = byOpcode_.find(opc);
  return it == byOpcode_.end() ? none : it->second;
}

const std::vector<size_t> &Isa::byMnemonic(const std::string &m) const {
  static const std::vector<size_t> none;
  auto it = byMnemonic_.find(m);
  return it == byMnemonic_.end() ? none : it->second;
}

const Isa *Isa::forSm(unsigned sm) {
  static std::mutex mu;
  static std::map<unsigned, std::unique_ptr<Isa>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(sm);
  if (it != cache.end())
    return it->second.get();
  const targets::IsaTables *t = targets::isaTablesFor(sm);
  if (!t)
    return nullptr;
  std::vector<std::string> errors;
  auto isa = std::make_unique<Isa>(*t, errors);
  for (const auto &e : errors)
    std::cerr << "internal error in encoding table: " << e << "\n";
  return (cache[sm] = std::move(isa)).get();
}

} // namespace ptxmini::enc
