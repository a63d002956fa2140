//===- encoder/sass_codec.cpp - table-driven encode/decode of one instruction -----------===//
///
/// \file
/// decodeText: opcode bits 0..11 select the candidate rows; the first whose match bits hold
/// and whose fields all have text renders the instruction. encodeText: the mnemonic selects
/// the candidate rows; each starts from opcode | match | fixed bits and the template writes
/// the fields as it matches the text; the first complete match is the word.
//===----------------------------------------------------------------------------------===//
#include "encoder/sass_codec.h"

#include <cctype>
#include <cstdio>

namespace ptxmini::enc {

namespace {

/// Splits "@!P0 REST" into the guard bits and REST. Returns false on a malformed guard.
bool parseGuard(std::string_view &text, unsigned &pred, bool &neg, bool &uniform) {
  uniform = false;
  pred = volta::kPT;
  neg = false;
  if (!text.starts_with("@"))
    return true;
  size_t sp = text.find(' ');
  if (sp == std::string_view::npos)
    return false;
  std::string_view g = text.substr(1, sp - 1);
  text = text.substr(sp + 1);
  if (g.starts_with("!")) {
    neg = true;
    g.remove_prefix(1);
  }
  if (g.starts_with("U")) {
    uniform = true;
    g.remove_prefix(1);
  }
  if (g == "PT") {
    pred = volta::kPT;
    return true;
  }
  if (g.size() == 2 && g[0] == 'P' && g[1] >= '0' && g[1] <= '6') {
    pred = unsigned(g[1] - '0');
    return true;
  }
  return false;
}

bool condsHold(const Form &f, const Word128 &w) {
  for (const auto &c : f.conds)
    if (!c.holds(w))
      return false;
  return true;
}

} // namespace

std::optional<std::string> decodeText(const Isa &isa, const Word128 &w, uint64_t pc) {
  TemplateEnv env{&isa.tables(), pc};
  for (size_t fi : isa.byOpcode(uint16_t(w.get(volta::kOpcode)))) {
    const Form &f = isa.forms()[fi];
    if ((w & f.matchMask) != f.matchValue || !condsHold(f, w))
      continue;
    auto body = render(f.tmpl, w, env);
    if (!body)
      continue;
    std::string guard;
    unsigned p = unsigned(w.get(volta::kGuardPred));
    bool neg = w.get(volta::kGuardNeg) != 0;
    if (p != volta::kPT || neg)
      guard = std::string("@") + (neg ? "!" : "") + (f.uniformGuard ? "U" : "") +
              (p == volta::kPT ? "PT" : "P" + std::to_string(p)) + " ";
    return guard + *body;
  }
  return std::nullopt;
}

bool encodeText(const Isa &isa, std::string_view text, uint64_t pc, Word128 &out, std::string &err) {
  std::string canon = canonicalSpacing(text);
  std::string_view rest = canon;
  unsigned pred;
  bool neg, uniform;
  std::string_view guardText = rest;
  if (!parseGuard(rest, pred, neg, uniform)) {
    err = "bad guard predicate in '" + canon + "'";
    return false;
  }
  size_t e = rest.find_first_of(". ");
  std::string mnemonic(rest.substr(0, e));
  const auto &cands = isa.byMnemonic(mnemonic);
  if (cands.empty()) {
    err = "unknown instruction '" + mnemonic + "'";
    return false;
  }
  TemplateEnv env{&isa.tables(), pc};
  for (size_t fi : cands) {
    const Form &f = isa.forms()[fi];
    if (rest.size() != guardText.size() && f.uniformGuard != uniform)
      continue;
    Word128 w = f.fixedValue | f.matchValue;
    w.set(volta::kOpcode, f.opcode);
    w.set(volta::kGuardPred, pred);
    w.set(volta::kGuardNeg, neg ? 1 : 0);
    if (match(f.tmpl, rest, env, w) && condsHold(f, w)) {
      out = w;
      return true;
    }
  }
  err = "no form of " + mnemonic + " matches '" + std::string(rest) + "'";
  return false;
}

std::string formatControl(const volta::Control &c) {
  std::string s = "[B";
  for (unsigned i = 0; i < 6; ++i)
    s += (c.waitMask >> i) & 1 ? char('0' + i) : '-';
  s += ":R";
  s += c.readSb == 7 ? '-' : char('0' + c.readSb);
  s += ":W";
  s += c.writeSb == 7 ? '-' : char('0' + c.writeSb);
  s += c.yieldBit ? ":-" : ":Y";
  char buf[8];
  std::snprintf(buf, sizeof buf, ":S%02u]", c.stall);
  return s + buf;
}

bool parseControl(std::string_view s, volta::Control &c) {
  // [B012345:R0:W1:Y:S04]
  if (s.size() != 21 || s.substr(0, 2) != "[B" || s[8] != ':' || s[9] != 'R' || s[11] != ':' ||
      s[12] != 'W' || s[14] != ':' || s[16] != ':' || s[17] != 'S' || s[20] != ']')
    return false;
  volta::Control r;
  r.waitMask = 0;
  for (unsigned i = 0; i < 6; ++i) {
    char ch = s[2 + i];
    if (ch == char('0' + i))
      r.waitMask |= 1u << i;
    else if (ch != '-')
      return false;
  }
  auto sb = [](char ch, unsigned &v) {
    if (ch == '-') { v = 7; return true; }
    if (ch >= '0' && ch <= '6') { v = unsigned(ch - '0'); return true; }
    return false;
  };
  if (!sb(s[10], r.readSb) || !sb(s[13], r.writeSb))
    return false;
  if (s[15] == 'Y')
    r.yieldBit = false;
  else if (s[15] == '-')
    r.yieldBit = true;
  else
    return false;
  if (!std::isdigit(static_cast<unsigned char>(s[18])) || !std::isdigit(static_cast<unsigned char>(s[19])))
    return false;
  r.stall = unsigned((s[18] - '0') * 10 + (s[19] - '0'));
  if (r.stall > 15)
    return false;
  c = r;
  return true;
}

} // namespace ptxmini::enc
