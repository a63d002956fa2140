//===- frontend/ptx_instr_table.cpp - queries over ptx_instructions.def ----------------===//
///
/// \file
/// Builds, once, a map from an opcode's first word to its candidate rows (longest name
/// first) and a map of every modifier word, so classifying an instruction costs a few hash
/// lookups.
//===----------------------------------------------------------------------------------===//
#include "frontend/ptx_instr_table.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_map>
#include <vector>

namespace ptxmini::frontend {
namespace {

using ptx::Modifier;
using ptx::ScalarType;
using ptx::StateSpace;

constexpr unsigned countWords(std::string_view s) {
  unsigned n = 1;
  for (char c : s)
    n += c == '.';
  return n;
}

const InstrInfo kInstrs[] = {
#define PTX_INSTR(NAME, SIG, TYPES, MINPTX, MINTARGET, FLAGS)                                    \
  {NAME, SIG, TypeSet::TYPES, MINPTX, MINTARGET, FLAGS, countWords(NAME)},
#include "frontend/ptx_instructions.def"
};

const char *const kModifierWords[] = {
#define PTX_MOD(W) #W,
#include "frontend/ptx_modifiers.def"
};

struct Tables {
  /// first word -> rows, longest name first
  std::unordered_map<std::string_view, std::vector<unsigned>> byFirstWord;
  /// every word that is a type, a space or a plain known modifier
  std::unordered_map<std::string_view, Modifier> words;

  Tables() {
    for (unsigned i = 0; i < std::size(kInstrs); ++i) {
      std::string_view n = kInstrs[i].name;
      byFirstWord[n.substr(0, n.find('.'))].push_back(i);
    }
    for (auto &[w, rows] : byFirstWord)
      std::stable_sort(rows.begin(), rows.end(), [](unsigned a, unsigned b) {
        return kInstrs[a].words > kInstrs[b].words;
      });
    for (const char *w : kModifierWords) {
      Modifier m;
      m.text = w;
      words.emplace(w, m);
    }
    static const char *const kSpaces[] = {"reg",   "sreg",  "const",       "global",
                                          "local", "param", "shared",      "shared::cta",
                                          "tex",   "shared::cluster"};
    for (const char *w : kSpaces) {
      Modifier m;
      m.kind = Modifier::Kind::Space;
      m.text = w;
      m.space = ptx::parseStateSpace(w);
      words[w] = m;
    }
#define PTX_TYPE(E, TEXT, BITS, KIND)                                                            \
  {                                                                                              \
    Modifier m;                                                                                  \
    m.kind = Modifier::Kind::Type;                                                               \
    m.text = TEXT;                                                                               \
    m.type = ScalarType::E;                                                                      \
    words[TEXT] = m;                                                                             \
  }
#include "frontend/ptx_types.def"
  }
};

const Tables &tables() {
  static const Tables t;
  return t;
}

bool wordMatches(std::string_view word, std::string_view rowWord) {
  if (word == rowWord)
    return true;
  return word.size() > rowWord.size() + 2 && word.starts_with(rowWord) &&
         word.substr(rowWord.size(), 2) == "::";
}

bool allDigits(std::string_view s) {
  if (s.empty())
    return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  return true;
}

/// .m16n8k16, .m8n8, .m64n128k16: matrix shapes.
bool isShape(std::string_view w) {
  if (w.size() < 4 || w[0] != 'm')
    return false;
  size_t i = 1;
  for (char part : {'m', 'n', 'k'}) {
    if (part != 'm') {
      if (i >= w.size())
        return part == 'k';
      if (w[i] != part)
        return false;
      ++i;
    }
    size_t j = i;
    while (j < w.size() && std::isdigit(static_cast<unsigned char>(w[j])))
      ++j;
    if (j == i)
      return false;
    i = j;
  }
  return i == w.size();
}

} // namespace

unsigned instrCount() { return std::size(kInstrs); }
const InstrInfo &instrInfo(unsigned index) { return kInstrs[index]; }

std::optional<unsigned> matchFamily(const std::vector<std::string_view> &words,
                                    size_t &consumed) {
  if (words.empty())
    return std::nullopt;
  const Tables &t = tables();
  // The first word may itself carry `::` (tcgen05.fence::x has it on the second word only,
  // but be general).
  std::string_view first = words[0];
  auto it = t.byFirstWord.find(first);
  if (it == t.byFirstWord.end()) {
    size_t cc = first.find("::");
    if (cc == std::string_view::npos)
      return std::nullopt;
    it = t.byFirstWord.find(first.substr(0, cc));
    if (it == t.byFirstWord.end())
      return std::nullopt;
  }
  for (unsigned row : it->second) {
    const InstrInfo &info = kInstrs[row];
    if (info.words > words.size())
      continue;
    std::string_view name = info.name;
    bool ok = true;
    for (unsigned w = 0; w < info.words && ok; ++w) {
      size_t dot = name.find('.');
      std::string_view rowWord = name.substr(0, dot);
      name = dot == std::string_view::npos ? std::string_view() : name.substr(dot + 1);
      ok = wordMatches(words[w], rowWord);
    }
    if (ok) {
      consumed = info.words;
      return row;
    }
  }
  return std::nullopt;
}

Modifier classifyModifier(std::string_view word, bool &known) {
  const Tables &t = tables();
  known = true;
  if (auto it = t.words.find(word); it != t.words.end())
    return it->second;
  Modifier m;
  m.text = std::string(word);
  // HW (ptxas 13.0.88): .v2/.v4/.v8 are vector widths; .v3, .v5, .v16 are "Unknown modifier".
  if (word == "v1" || word == "v2" || word == "v4" || word == "v8") {
    m.kind = Modifier::Kind::Vector;
    m.vectorWidth = static_cast<unsigned>(std::stoul(std::string(word.substr(1))));
    return m;
  }
  // Pattern words: shapes, .x1/.x2/.x4 counts, words starting with a digit (.2d, .16x256b,
  // .128B), and scoped words with `::` whose head is a known word or L1/L2.
  if (isShape(word))
    return m;
  if (word.size() >= 2 && word[0] == 'x' && allDigits(word.substr(1)))
    return m;
  if (!word.empty() && std::isdigit(static_cast<unsigned char>(word[0])))
    return m;
  if (size_t cc = word.find("::"); cc != std::string_view::npos && cc > 0) {
    // `shared::cta`-like spaces were found above; accept scoped policy words whose head
    // is known (L2::cache_hint, mbarrier::complete_tx::bytes, kind::f16, cta_group::1).
    std::string_view head = word.substr(0, cc);
    if (t.words.count(head) || head == "L1" || head == "L2" || isShape(head))
      return m;
  }
  known = false;
  return m;
}

bool typeInSet(ScalarType t, TypeSet set) {
  using ptx::TypeKind;
  TypeKind k = ptx::typeKind(t);
  unsigned bits = ptx::typeBits(t);
  bool isInt = (k == TypeKind::Bit || k == TypeKind::Unsigned || k == TypeKind::Signed) &&
               bits >= 8 && bits <= 64;
  bool isFloat = k == TypeKind::Float;
  switch (set) {
  case TypeSet::Any:
    return true;
  case TypeSet::Int:
    return isInt;
  case TypeSet::Arith:
    // .u16x2 / .s16x2: min and max (PTX ISA 8.0), the only Arith families taking them that
    // ptxas accepts; the others' lowering refuses them.
    return isInt || isFloat || t == ScalarType::U16X2 || t == ScalarType::S16X2;
  case TypeSet::Float:
    return isFloat;
  case TypeSet::Logic:
    return k == TypeKind::Pred || (k == TypeKind::Bit && bits >= 16 && bits <= 64);
  case TypeSet::Signed:
    return (k == TypeKind::Signed && bits >= 16) || isFloat;
  }
  return false;
}

} // namespace ptxmini::frontend
