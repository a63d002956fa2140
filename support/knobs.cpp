//===- support/knobs.cpp - knob registry, value parsing and knobs files -----------------===//
#include "support/knobs.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>

#include <array>
#include <cassert>
#include <cerrno>
#include <cstdlib>
#include <fstream>

namespace ptxmini {
namespace {

// Spellings for knobs.def; not every type has a knob yet.
[[maybe_unused]] constexpr KnobType BOOL = KnobType::Bool, INT = KnobType::Int, FLOAT = KnobType::Float,
                   DOUBLE = KnobType::Double, STRING = KnobType::String,
                   INT_LIST = KnobType::IntList, STRING_LIST = KnobType::StringList;

constexpr std::array kKnobs = {
#define KNOB(Name, Type, Default, Desc) KnobInfo{KnobId::Name, #Name, Type, Default, Desc},
#include "support/knobs.def"
#undef KNOB
};
static_assert(kKnobs.size() == static_cast<size_t>(KnobId::NumKnobs));

std::optional<int64_t> parseInt(llvm::StringRef s) {
  s = s.trim();
  int64_t v = 0;
  // getAsInteger accepts 0x.. hex and 0.. octal with radix 0; plain decimal otherwise.
  if (s.getAsInteger(0, v))
    return std::nullopt;
  return v;
}

std::optional<double> parseDouble(llvm::StringRef s) {
  std::string str = s.trim().str();
  if (str.empty())
    return std::nullopt;
  errno = 0;
  char *end = nullptr;
  double v = std::strtod(str.c_str(), &end);
  if (errno != 0 || end != str.c_str() + str.size())
    return std::nullopt;
  return v;
}

} // namespace

std::string_view knobTypeName(KnobType t) {
  switch (t) {
  case KnobType::Bool:
    return "BOOL";
  case KnobType::Int:
    return "INT";
  case KnobType::Float:
    return "FLOAT";
  case KnobType::Double:
    return "DOUBLE";
  case KnobType::String:
    return "STRING";
  case KnobType::IntList:
    return "INT_LIST";
  case KnobType::StringList:
    return "STRING_LIST";
  }
  return "?";
}

std::span<const KnobInfo> allKnobs() { return kKnobs; }

const KnobInfo *findKnob(std::string_view name) {
  for (const KnobInfo &k : kKnobs)
    if (llvm::StringRef(k.name).equals_insensitive(name))
      return &k;
  return nullptr;
}

std::string_view closestKnobName(std::string_view name) {
  std::string_view best;
  unsigned bestDist = ~0u;
  std::string lower = llvm::StringRef(name).lower();
  for (const KnobInfo &k : kKnobs) {
    unsigned d = llvm::StringRef(llvm::StringRef(k.name).lower()).edit_distance(lower);
    if (d < bestDist) {
      bestDist = d;
      best = k.name;
    }
  }
  return best;
}

std::optional<KnobValue> parseKnobValue(KnobType t, std::string_view text) {
  llvm::StringRef s = llvm::StringRef(text).trim();
  switch (t) {
  case KnobType::Bool: {
    std::string l = s.lower();
    if (l == "1" || l == "true" || l == "yes" || l == "on")
      return KnobValue(true);
    if (l == "0" || l == "false" || l == "no" || l == "off")
      return KnobValue(false);
    return std::nullopt;
  }
  case KnobType::Int:
    if (auto v = parseInt(s))
      return KnobValue(*v);
    return std::nullopt;
  case KnobType::Float:
  case KnobType::Double:
    if (auto v = parseDouble(s))
      return KnobValue(*v);
    return std::nullopt;
  case KnobType::String:
    return KnobValue(s.str());
  case KnobType::IntList: {
    std::vector<int64_t> out;
    if (s.empty())
      return KnobValue(out);
    llvm::SmallVector<llvm::StringRef, 8> parts;
    s.split(parts, ',');
    for (llvm::StringRef p : parts) {
      auto v = parseInt(p);
      if (!v)
        return std::nullopt;
      out.push_back(*v);
    }
    return KnobValue(out);
  }
  case KnobType::StringList: {
    std::vector<std::string> out;
    if (s.empty())
      return KnobValue(out);
    llvm::SmallVector<llvm::StringRef, 8> parts;
    s.split(parts, ',');
    for (llvm::StringRef p : parts) {
      if (p.trim().empty())
        return std::nullopt;
      out.push_back(p.trim().str());
    }
    return KnobValue(out);
  }
  }
  return std::nullopt;
}

Knobs::Knobs() {
  values_.reserve(kKnobs.size());
  for (const KnobInfo &k : kKnobs) {
    auto v = parseKnobValue(k.type, k.defaultValue);
    assert(v && "malformed default in knobs.def");
    values_.push_back(std::move(*v));
  }
  set_.assign(kKnobs.size(), false);
}

bool Knobs::set(std::string_view name, std::string_view value, std::string &err) {
  const KnobInfo *k = findKnob(llvm::StringRef(name).trim());
  if (!k) {
    err = "Unknown knob '" + std::string(llvm::StringRef(name).trim()) + "'";
    std::string_view close = closestKnobName(llvm::StringRef(name).trim());
    if (!close.empty())
      err += "; did you mean '" + std::string(close) + "'?";
    return false;
  }
  auto v = parseKnobValue(k->type, value);
  if (!v) {
    err = "Invalid value '" + std::string(value) + "' for knob '" + std::string(k->name) +
          "' of type " + std::string(knobTypeName(k->type));
    return false;
  }
  values_[index(k->id)] = std::move(*v);
  set_[index(k->id)] = true;
  return true;
}

bool Knobs::assign(std::string_view assignment, std::string &err) {
  llvm::StringRef a(assignment);
  auto [name, value] = a.split('=');
  if (name.trim().empty()) {
    err = "Malformed knob '" + a.str() + "', expected Name=Value";
    return false;
  }
  if (!a.contains('=')) {
    // A bare name switches a BOOL knob on, as `-knob Name` does in ptxas's usage strings.
    const KnobInfo *k = findKnob(name.trim());
    if (k && k->type == KnobType::Bool)
      return set(name, "true", err);
    if (k) {
      err = "Missing value for knob '" + std::string(k->name) + "' of type " +
            std::string(knobTypeName(k->type));
      return false;
    }
  }
  return set(name, value, err);
}

bool Knobs::loadFile(const std::string &path, std::string &err) {
  std::ifstream in(path);
  if (!in) {
    err = "Knobs file not found: '" + path + "'";
    return false;
  }
  std::string line;
  unsigned lineNo = 0;
  bool sawHeader = false;
  while (std::getline(in, line)) {
    ++lineNo;
    llvm::StringRef l = llvm::StringRef(line).trim();
    if (l.empty() || l.starts_with("#") || l.starts_with("//"))
      continue;
    if (!sawHeader) {
      if (l != "[knobs]") {
        err = "Knobs header not found in '" + path + "' (line " + std::to_string(lineNo) +
              " should be [knobs])";
        return false;
      }
      sawHeader = true;
      continue;
    }
    std::string e;
    if (!assign(l, e)) {
      err = path + ", line " + std::to_string(lineNo) + ": " + e;
      return false;
    }
  }
  if (!sawHeader) {
    err = "Knobs header not found in '" + path + "'";
    return false;
  }
  return true;
}

} // namespace ptxmini
