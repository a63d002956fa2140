//===- encoder/sass_template.cpp - parse, render and match encoding templates -----------===//
///
/// \file
/// render() walks the pieces and prints each field as nvdisasm does. match() walks the same
/// pieces over the text with backtracking (an enumerator alternative or an optional offset
/// may be taken or not), writing each field into a copy of the word; the first complete
/// match wins. Numbers are accepted only when printing the encoded value gives back the very
/// same text, which keeps the assembler exactly inverse to the disassembler.
//===----------------------------------------------------------------------------------===//
#include "encoder/sass_template.h"

#include "targets/common/volta_word.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ptxmini::enc {

namespace {

bool parseUnsigned(std::string_view s, unsigned &out) {
  if (s.empty())
    return false;
  unsigned v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
    v = v * 10 + unsigned(c - '0');
  }
  out = v;
  return true;
}

/// "lo/w" or "lo" (width from the kind).
bool parseRange(std::string_view s, unsigned defWidth, BitRange &r) {
  unsigned lo = 0, w = defWidth;
  auto slash = s.find('/');
  if (!parseUnsigned(s.substr(0, slash), lo))
    return false;
  if (slash != std::string_view::npos && !parseUnsigned(s.substr(slash + 1), w))
    return false;
  r = BitRange{uint16_t(lo), uint16_t(w)};
  return r.valid();
}

std::vector<std::string_view> splitSpaces(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ')
      ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ')
      ++j;
    if (j > i)
      out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

int64_t signExtend(uint64_t v, unsigned width) {
  if (width >= 64)
    return int64_t(v);
  uint64_t sign = 1ULL << (width - 1);
  return int64_t((v ^ sign) - sign);
}

std::string regText(PieceKind k, uint64_t v) {
  switch (k) {
  case PieceKind::Reg:
    return v == volta::kRZ ? "RZ" : "R" + std::to_string(v);
  case PieceKind::UReg:
    return v == volta::kURZ ? "URZ" : "UR" + std::to_string(v);
  case PieceKind::Pred:
    return v == volta::kPT ? "PT" : "P" + std::to_string(v);
  case PieceKind::UPred:
    return v == volta::kPT ? "UPT" : "UP" + std::to_string(v);
  case PieceKind::Bar:
    return "B" + std::to_string(v);
  default:
    return {};
  }
}

/// Parses a register name of kind `k` at the start of `s`; returns chars consumed or 0.
size_t parseReg(PieceKind k, std::string_view s, uint64_t &v, const BitRange &r) {
  const char *prefix = "";
  const char *zero = "";
  uint64_t zeroVal = 0;
  switch (k) {
  case PieceKind::Reg: prefix = "R"; zero = "RZ"; zeroVal = volta::kRZ; break;
  case PieceKind::UReg: prefix = "UR"; zero = "URZ"; zeroVal = volta::kURZ; break;
  case PieceKind::Pred: prefix = "P"; zero = "PT"; zeroVal = volta::kPT; break;
  case PieceKind::UPred: prefix = "UP"; zero = "UPT"; zeroVal = volta::kPT; break;
  case PieceKind::Bar: prefix = "B"; zero = "\x01"; break;
  default: return 0;
  }
  size_t zl = std::strlen(zero);
  auto isIdent = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (s.substr(0, zl) == zero && (s.size() == zl || !isIdent(s[zl]))) {
    v = zeroVal;
    return zl;
  }
  size_t pl = std::strlen(prefix);
  if (s.substr(0, pl) != prefix)
    return 0;
  size_t i = pl;
  uint64_t n = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && i - pl < 4)
    n = n * 10 + uint64_t(s[i++] - '0');
  if (i == pl || (i < s.size() && isIdent(s[i])))
    return 0;
  if (n > r.maxValue() || (n == zeroVal && k != PieceKind::Bar))
    return 0;
  v = n;
  return i;
}

/// The extent of a number-like token at the start of s (up to , ] space or end).
size_t tokenEnd(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && s[i] != ',' && s[i] != ']' && s[i] != ' ' && s[i] != '|' &&
         !(i > 0 && s[i] == '+' && s[i - 1] != 'e' && s[i - 1] != 'E'))
    ++i;
  return i;
}

std::string withPrecision(const char *fmt, double d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, d);
  return buf;
}

// HW: nvdisasm 13.2 prints float immediates (f32 and the f64 upper halves alike) as C's
// %.20g (0.5, 105615, -12583039, 1.175494350822287508e-38, -11.09999847412109375) but
// switches to %.20e for large magnitudes (1.84467440737095516160e+19,
// -4.76741304320000000000e+10, 6.75539944105574400000e+15). HW: the switch is at a
// magnitude of 1e9: probed with nvdisasm on MUFU.RCP64H's f64 immediate (999817216 plain,
// 1e9 and 1000079360 exponent) and FMUL's f32 one (999999936 plain, +-1e9 exponent).
std::string formatFloat(double d) {
  if (std::fabs(d) >= 1e9)
    return withPrecision("%.20e", d);
  return withPrecision("%.20g", d);
}

} // namespace

std::string formatHex(int64_t v) {
  char buf[32];
  if (v < 0)
    std::snprintf(buf, sizeof buf, "-0x%llx", (unsigned long long)(-(uint64_t)v));
  else
    std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

// HW: nvdisasm 13.2 prints f32 immediates as C's %.20g (0.5, 105615, -12583039,
// 1.4426950216293334961), infinities as +INF/-INF. Observed on ptxas output.
std::string formatF32(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  if (std::isinf(f))
    return f > 0 ? "+INF" : "-INF";
  if (std::isnan(f))
    return (bits >> 31) ? "-QNAN" : "+QNAN"; // HW: 0xffc00000 prints -QNAN (MUFU.RSQ)
  return formatFloat(double(f));
}

// HW: f64 immediates (the upper 32 bits of the double) print as %g when that is exact
// (1, 0.5, 2) and as %.20e otherwise (6.75539944105574400000e+15). Observed on DFMA/DADD/DMUL.
std::string formatF64High(uint32_t hiBits) {
  uint64_t bits = uint64_t(hiBits) << 32;
  double d;
  std::memcpy(&d, &bits, 8);
  if (std::isinf(d))
    return d > 0 ? "+INF" : "-INF";
  if (std::isnan(d))
    return (hiBits >> 31) ? "-QNAN" : "+QNAN"; // GUESS
  return formatFloat(d);
}

std::string formatF16(uint16_t h) {
  unsigned sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 0x1f)
    return man ? (sign ? "-QNAN" : "+QNAN") : (sign ? "-INF" : "+INF"); // GUESS for NaN
  if (exp == 0 && man == 0)
    return sign ? "-0.0" : "0"; // HW: HFMA2.MMA prints a negative zero half as -0.0
  double v = exp == 0 ? std::ldexp(double(man), -24) : std::ldexp(double(man | 0x400), int(exp) - 25);
  if (sign)
    v = -v;
  return withPrecision("%.20g", v);
}

// HW: a bf16 immediate prints as the f32 whose upper half it is: nvdisasm 13.2 shows
// `HMUL2.BF16_V2 R3, R6, 0.25, 0.25` for halves 0x3e80 and -6.4623485355705287099e-27 for
// 0x9400 (HFMA2 with bit 85 set), i.e. formatF32(h << 16).
std::string formatBF16(uint16_t h) { return formatF32(uint32_t(h) << 16); }

std::string canonicalSpacing(std::string_view text) {
  std::string out;
  bool pendingSpace = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      pendingSpace = !out.empty();
      continue;
    }
    if (c == ',') {
      out += ", ";
      pendingSpace = false;
      // skip following spaces
      while (i + 1 < text.size() && (text[i + 1] == ' ' || text[i + 1] == '\t'))
        ++i;
      continue;
    }
    if (pendingSpace && !out.empty() && out.back() != ' ' && out.back() != '[' && c != ']')
      out += ' ';
    pendingSpace = false;
    out += c;
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

std::optional<Template> parseTemplate(std::string_view text, std::string &err) {
  Template t;
  size_t i = 0;
  std::string lit;
  auto flushLit = [&] {
    if (!lit.empty()) {
      Piece p;
      p.kind = PieceKind::Lit;
      p.lit = lit;
      t.pieces.push_back(std::move(p));
      lit.clear();
    }
  };
  while (i < text.size()) {
    if (text[i] != '{') {
      lit += text[i++];
      continue;
    }
    size_t close = text.find('}', i);
    if (close == std::string_view::npos) {
      err = "unclosed '{'";
      return std::nullopt;
    }
    flushLit();
    std::string_view body = text.substr(i + 1, close - i - 1);
    i = close + 1;
    Piece p;
    if (body.starts_with("?")) {
      auto sp = body.find(' ');
      std::string_view num = body.substr(1, sp == std::string_view::npos ? body.size() - 1 : sp - 1);
      if (num.ends_with("!")) {
        p.flagWhenZero = true;
        num.remove_suffix(1);
      }
      unsigned bit;
      if (!parseUnsigned(num, bit) || sp == std::string_view::npos) {
        err = "bad flag placeholder {" + std::string(body) + "}";
        return std::nullopt;
      }
      p.kind = PieceKind::Flag;
      p.field = BitRange{uint16_t(bit), 1};
      p.lit = std::string(body.substr(sp + 1));
      t.owned = t.owned | Word128::mask(p.field);
      t.pieces.push_back(std::move(p));
      continue;
    }
    auto at = body.find('@');
    if (at == std::string_view::npos) {
      err = "placeholder without '@': {" + std::string(body) + "}";
      return std::nullopt;
    }
    std::string_view kind = body.substr(0, at);
    std::string_view rest = body.substr(at + 1);
    std::string_view rangeText = rest.substr(0, rest.find(' '));
    std::string_view attrs = rest.size() > rangeText.size() ? rest.substr(rangeText.size() + 1) : "";
    unsigned defWidth = 0;
    if (kind == "R") { p.kind = PieceKind::Reg; defWidth = 8; }
    else if (kind == "UR") { p.kind = PieceKind::UReg; defWidth = 6; }
    else if (kind == "P") { p.kind = PieceKind::Pred; defWidth = 3; }
    else if (kind == "UP") { p.kind = PieceKind::UPred; defWidth = 3; }
    else if (kind == "B") { p.kind = PieceKind::Bar; defWidth = 4; }
    else if (kind == "I") { p.kind = PieceKind::Int; defWidth = 32; }
    else if (kind == "F") { p.kind = PieceKind::F32; defWidth = 32; }
    else if (kind == "D") { p.kind = PieceKind::F64H; defWidth = 32; }
    else if (kind == "H") { p.kind = PieceKind::F16; defWidth = 16; }
    else if (kind == "BH") { p.kind = PieceKind::BF16; defWidth = 16; }
    else if (kind == "E") { p.kind = PieceKind::Enum; defWidth = 1; }
    else if (kind == "SR") { p.kind = PieceKind::SReg; defWidth = 8; }
    else if (kind == "SB") { p.kind = PieceKind::SbSet; defWidth = 6; }
    else if (kind == "T") { p.kind = PieceKind::Target; defWidth = 8; }
    else if (kind == "A") {
      p.kind = PieceKind::Addr;
      for (std::string_view a : splitSpaces(rest)) {
        bool ok = true;
        if (a == "R!") p.aRegAlways = true;
        else if (a == "U!") p.aURegAlways = true;
        else if (a.starts_with("R@")) ok = parseRange(a.substr(2), 8, p.aReg);
        else if (a.starts_with("UR@")) ok = parseRange(a.substr(3), 6, p.aUReg);
        else if (a.starts_with("I@")) ok = parseRange(a.substr(2), 24, p.aImm);
        else if (a.starts_with("X@")) {
          unsigned b;
          ok = parseUnsigned(a.substr(2), b);
          p.aWide = int(b);
          if (ok) t.owned = t.owned | Word128::mask(BitRange{uint16_t(b), 1});
        } else ok = false;
        if (!ok) {
          err = "bad address term '" + std::string(a) + "'";
          return std::nullopt;
        }
      }
      for (BitRange r : {p.aReg, p.aUReg, p.aImm})
        if (r.width)
          t.owned = t.owned | Word128::mask(r);
      t.pieces.push_back(std::move(p));
      continue;
    }
    else {
      err = "unknown placeholder kind '" + std::string(kind) + "'";
      return std::nullopt;
    }
    std::string_view r1 = rangeText.substr(0, rangeText.find(','));
    if (!parseRange(r1, defWidth, p.field)) {
      err = "bad bit range in {" + std::string(body) + "}";
      return std::nullopt;
    }
    t.owned = t.owned | Word128::mask(p.field);
    if (p.kind == PieceKind::Target || p.kind == PieceKind::Int) {
      auto comma = rangeText.find(',');
      if (comma != std::string_view::npos) {
        if (!parseRange(rangeText.substr(comma + 1), 48, p.field2)) {
          err = "bad second range in {" + std::string(body) + "}";
          return std::nullopt;
        }
        t.owned = t.owned | Word128::mask(p.field2);
      }
    }
    if (p.kind == PieceKind::Enum) {
      std::string alts(attrs);
      size_t s = 0;
      while (true) {
        size_t bar = alts.find('|', s);
        p.alts.push_back(alts.substr(s, bar == std::string::npos ? std::string::npos : bar - s));
        if (bar == std::string::npos)
          break;
        s = bar + 1;
      }
      if (p.alts.size() > (size_t(1) << p.field.width)) {
        err = "more alternatives than values in {" + std::string(body) + "}";
        return std::nullopt;
      }
      t.pieces.push_back(std::move(p));
      continue;
    }
    if (p.kind == PieceKind::Reg && (p.field.lo == 24 || p.field.lo == 32 || p.field.lo == 64))
      p.reuseBit = p.field.lo == 24 ? volta::kReuseBitA
                   : p.field.lo == 32 ? volta::kReuseBitB : volta::kReuseBitC;
    for (std::string_view a : splitSpaces(attrs)) {
      unsigned bit = 0;
      auto takeBit = [&](int &slot) {
        if (!parseUnsigned(a.substr(1), bit))
          return false;
        slot = int(bit);
        t.owned = t.owned | Word128::mask(BitRange{uint16_t(bit), 1});
        return true;
      };
      bool ok = true;
      if (a == "s") p.isSigned = true;
      else if (a == "+") p.offset = true;
      else if (a == "d") p.decimal = true;
      else if (a == "b") p.byteUnits = true;
      else if (a == "o") p.relative = true;
      else if (a == "r-") p.reuseBit = -1;
      else if (a[0] == '^') { unsigned x = 0; ok = parseUnsigned(a.substr(1), x); p.xorValue = x; }
      else if (a[0] == '-') ok = takeBit(p.negBit);
      else if (a[0] == '|') ok = takeBit(p.absBit);
      else if (a[0] == '~') ok = takeBit(p.invBit);
      else if (a[0] == '!') ok = takeBit(p.notBit);
      else if (a[0] == 'r') ok = takeBit(p.reuseBit);
      else ok = false;
      if (!ok) {
        err = "bad attribute '" + std::string(a) + "' in {" + std::string(body) + "}";
        return std::nullopt;
      }
    }
    t.pieces.push_back(std::move(p));
  }
  flushLit();
  // The mnemonic: the leading literal up to '.', ' ' or a placeholder.
  if (!t.pieces.empty() && t.pieces[0].kind == PieceKind::Lit) {
    const std::string &l = t.pieces[0].lit;
    t.mnemonic = l.substr(0, l.find_first_of(". "));
  }
  if (t.mnemonic.empty()) {
    err = "template does not start with a mnemonic";
    return std::nullopt;
  }
  return t;
}

namespace {

uint64_t targetValue(const Piece &p, const Word128 &w, unsigned &width) {
  uint64_t v = w.get(p.field);
  width = p.field.width;
  if (p.field2.width) {
    v |= w.get(p.field2) << p.field.width;
    width += p.field2.width;
  }
  return v;
}

std::optional<std::string> renderPiece(const Piece &p, const Word128 &w, const TemplateEnv &env) {
  auto bitSet = [&](int b) { return b >= 0 && w.bit(unsigned(b)); };
  switch (p.kind) {
  case PieceKind::Lit:
    return p.lit;
  case PieceKind::Flag:
    return w.bit(p.field.lo) != p.flagWhenZero ? p.lit : std::string();
  case PieceKind::Enum: {
    uint64_t v = w.get(p.field);
    if (v >= p.alts.size() || p.alts[v] == "?")
      return std::nullopt;
    return p.alts[v];
  }
  case PieceKind::Reg:
  case PieceKind::UReg:
  case PieceKind::Pred:
  case PieceKind::UPred:
  case PieceKind::Bar: {
    std::string core = regText(p.kind, w.get(p.field) ^ p.xorValue);
    if (bitSet(p.absBit))
      core = "|" + core + "|";
    std::string s;
    if (bitSet(p.notBit))
      s += "!";
    if (bitSet(p.negBit))
      s += "-";
    if (bitSet(p.invBit))
      s += "~";
    s += core;
    if (bitSet(p.reuseBit))
      s += ".reuse";
    return s;
  }
  case PieceKind::Int: {
    uint64_t raw = w.get(p.field);
    unsigned width = p.field.width;
    if (p.field2.width) {
      raw |= w.get(p.field2) << p.field.width;
      width += p.field2.width;
    }
    int64_t v = p.isSigned ? signExtend(raw, width) : int64_t(raw);
    if (p.offset) {
      if (v == 0)
        return std::string();
      return "+" + formatHex(v);
    }
    if (p.decimal)
      return std::to_string(v);
    std::string s = formatHex(v);
    if (bitSet(p.negBit))
      s = "-" + s;
    return s;
  }
  case PieceKind::F32:
  case PieceKind::F64H:
  case PieceKind::F16:
  case PieceKind::BF16: {
    uint64_t raw = w.get(p.field);
    std::string s = p.kind == PieceKind::F32    ? formatF32(uint32_t(raw))
                    : p.kind == PieceKind::F64H ? formatF64High(uint32_t(raw))
                    : p.kind == PieceKind::BF16 ? formatBF16(uint16_t(raw))
                                                : formatF16(uint16_t(raw));
    if (bitSet(p.absBit))
      s = "|" + s + "|";
    if (bitSet(p.negBit))
      s = "-" + s;
    return s;
  }
  case PieceKind::SReg: {
    uint64_t v = w.get(p.field);
    if (env.tables)
      for (const auto &nv : env.tables->specialRegs)
        if (nv.value == v)
          return std::string(nv.name);
    return "SR" + std::to_string(v);
  }
  case PieceKind::Addr: {
    std::string s;
    if (p.aReg.width) {
      uint64_t r = w.get(p.aReg);
      if (r != volta::kRZ || p.aRegAlways || (p.aWide >= 0 && w.bit(unsigned(p.aWide))))
        s = regText(PieceKind::Reg, r) + (p.aWide >= 0 && w.bit(unsigned(p.aWide)) ? ".64" : "");
    }
    if (p.aUReg.width) {
      uint64_t u = w.get(p.aUReg);
      if (u != volta::kURZ || p.aURegAlways)
        s += (s.empty() ? "" : "+") + regText(PieceKind::UReg, u);
    }
    if (p.aImm.width) {
      int64_t v = signExtend(w.get(p.aImm), p.aImm.width);
      if (v != 0)
        s += (s.empty() ? "" : "+") + formatHex(v);
    }
    // HW: an address with nothing in it prints as RZ (`LDS R11, [RZ]`, `c[0x0][RZ]`).
    if (s.empty())
      s = "RZ";
    return s;
  }
  case PieceKind::SbSet: {
    // HW: nvdisasm 13.2 prints DEPBAR's scoreboard mask (bits 32..37) as `{5,4,3,2,1,0}`,
    // highest first, no spaces (probed on ptxas's 0x3f0000791a 0xfc80000000000).
    uint64_t v = w.get(p.field);
    if (!v)
      return std::nullopt;
    std::string s = "{";
    for (int b = int(p.field.width) - 1; b >= 0; --b)
      if (v >> b & 1)
        s += (s.size() > 1 ? "," : "") + std::to_string(b);
    return s + "}";
  }
  case PieceKind::Target: {
    unsigned width = 0;
    uint64_t rawUnits = targetValue(p, w, width);
    int64_t units = signExtend(rawUnits, width);
    int64_t base = p.relative ? 0 : int64_t(env.pc) + 16;
    return formatHex(base + (p.byteUnits ? 1 : 4) * units);
  }
  }
  return std::nullopt;
}

struct Matcher {
  const Template &t;
  std::string_view text;
  const TemplateEnv &env;

  bool run(size_t pi, size_t pos, Word128 w, Word128 &out) {
    if (pi == t.pieces.size()) {
      if (pos != text.size())
        return false;
      out = w;
      return true;
    }
    const Piece &p = t.pieces[pi];
    std::string_view s = text.substr(pos);
    switch (p.kind) {
    case PieceKind::Lit:
      return s.starts_with(p.lit) && run(pi + 1, pos + p.lit.size(), w, out);
    case PieceKind::Flag: {
      Word128 w2 = w;
      w2.setBit(p.field.lo, !p.flagWhenZero);
      if (s.starts_with(p.lit) && run(pi + 1, pos + p.lit.size(), w2, out))
        return true;
      w.setBit(p.field.lo, p.flagWhenZero);
      return run(pi + 1, pos, w, out);
    }
    case PieceKind::Enum: {
      // Longest alternative first, so ".GEU" is not taken for ".GE"; among equal texts the
      // lowest value wins.
      std::vector<size_t> order(p.alts.size());
      for (size_t k = 0; k < order.size(); ++k)
        order[k] = k;
      std::stable_sort(order.begin(), order.end(),
                       [&](size_t a, size_t b) { return p.alts[a].size() > p.alts[b].size(); });
      for (size_t k : order) {
        const std::string &a = p.alts[k];
        if (a == "?" || !s.starts_with(a))
          continue;
        Word128 w2 = w;
        w2.set(p.field, k);
        if (run(pi + 1, pos + a.size(), w2, out))
          return true;
      }
      return false;
    }
    case PieceKind::Reg:
    case PieceKind::UReg:
    case PieceKind::Pred:
    case PieceKind::UPred:
    case PieceKind::Bar: {
      size_t i = 0;
      auto opt = [&](int bit, char c) {
        if (bit >= 0) {
          bool has = i < s.size() && s[i] == c;
          w.setBit(unsigned(bit), has);
          if (has)
            ++i;
        }
      };
      opt(p.notBit, '!');
      opt(p.negBit, '-');
      opt(p.invBit, '~');
      opt(p.absBit, '|');
      uint64_t v;
      size_t n = parseReg(p.kind, s.substr(i), v, p.field);
      if (!n)
        return false;
      i += n;
      w.set(p.field, v ^ p.xorValue);
      if (p.absBit >= 0 && w.bit(unsigned(p.absBit))) {
        if (i >= s.size() || s[i] != '|')
          return false;
        ++i;
      }
      if (p.reuseBit >= 0) {
        bool has = s.substr(i).starts_with(".reuse");
        w.setBit(unsigned(p.reuseBit), has);
        if (has)
          i += 6;
      }
      return run(pi + 1, pos + i, w, out);
    }
    case PieceKind::Int: {
      size_t i = 0;
      if (p.offset) {
        if (!s.starts_with("+")) {
          w.set(p.field, 0);
          return run(pi + 1, pos, w, out);
        }
        i = 1;
      }
      if (p.negBit >= 0) {
        bool has = i < s.size() && s[i] == '-';
        w.setBit(unsigned(p.negBit), has);
        if (has)
          ++i;
      }
      size_t e = i + tokenEnd(s.substr(i));
      std::string tok(s.substr(i, e - i));
      if (tok.empty())
        return false;
      bool neg = tok[0] == '-';
      const char *digits = tok.c_str() + (neg ? 1 : 0);
      char *end = nullptr;
      unsigned long long mag = std::strtoull(digits, &end, p.decimal ? 10 : 16);
      if (*end != 0 || (!p.decimal && std::strncmp(digits, "0x", 2) != 0))
        return false;
      int64_t v = neg ? -int64_t(mag) : int64_t(mag);
      unsigned width = p.field.width + p.field2.width;
      uint64_t raw = width >= 64 ? uint64_t(v) : uint64_t(v) & ((1ULL << width) - 1);
      if (!w.set(p.field, raw & p.field.maxValue()))
        return false;
      if (p.field2.width && !w.set(p.field2, raw >> p.field.width))
        return false;
      auto back = renderPiece(p, w, env);
      std::string expect = std::string(s.substr(0, e));
      if (!back || *back != expect)
        return false;
      return run(pi + 1, pos + e, w, out);
    }
    case PieceKind::F32:
    case PieceKind::F64H:
    case PieceKind::F16:
    case PieceKind::BF16: {
      size_t i = 0;
      if (p.negBit >= 0) {
        bool has = s.starts_with("-") && p.kind != PieceKind::F32;
        (void)has;
      }
      size_t e = tokenEnd(s);
      // an |abs| float: include the closing bar
      if (p.absBit >= 0 && s.starts_with("|")) {
        size_t bar = s.find('|', 1);
        if (bar == std::string_view::npos)
          return false;
        e = bar + 1;
      } else if (p.absBit >= 0 && s.starts_with("-|")) {
        size_t bar = s.find('|', 2);
        if (bar == std::string_view::npos)
          return false;
        e = bar + 1;
      }
      std::string tok(s.substr(i, e - i));
      std::string core = tok;
      if (p.negBit >= 0)
        w.setBit(unsigned(p.negBit), false);
      if (p.absBit >= 0)
        w.setBit(unsigned(p.absBit), false);
      if (p.negBit >= 0 && core.starts_with("-") && core.size() > 1 && core[1] == '|') {
        w.setBit(unsigned(p.negBit), true);
        core = core.substr(1);
      }
      if (p.absBit >= 0 && core.starts_with("|")) {
        w.setBit(unsigned(p.absBit), true);
        core = core.substr(1, core.size() - 2);
      }
      double d;
      if (core == "+INF" || core == "INF")
        d = HUGE_VAL;
      else if (core == "-INF")
        d = -HUGE_VAL;
      else if (core == "+QNAN" || core == "-QNAN" || core == "QNAN")
        d = core[0] == '-' ? -NAN : NAN;
      else {
        char *end = nullptr;
        d = std::strtod(core.c_str(), &end);
        if (core.empty() || *end != 0)
          return false;
      }
      uint64_t raw;
      if (p.kind == PieceKind::BF16) {
        // the f32 of the text must be exact and have a zero lower half
        float f = float(d);
        uint32_t b;
        std::memcpy(&b, &f, 4);
        if (std::isnan(d))
          b = (core[0] == '-' ? 0xffc00000u : 0x7fc00000u); // GUESS: canonical quiet NaN
        if ((b & 0xffffu) || (!std::isnan(d) && double(f) != d))
          return false;
        raw = b >> 16;
      } else if (p.kind == PieceKind::F32) {
        float f = float(d);
        uint32_t b;
        std::memcpy(&b, &f, 4);
        if (std::isnan(d))
          b = (core[0] == '-' ? 0xffc00000u : 0x7fc00000u); // GUESS: canonical quiet NaN
        raw = b;
      } else if (p.kind == PieceKind::F64H) {
        uint64_t b;
        std::memcpy(&b, &d, 8);
        if (std::isnan(d))
          b = core[0] == '-' ? 0xfff8000000000000ull : 0x7ff8000000000000ull;
        if (b & 0xffffffffull)
          return false;
        raw = b >> 32;
      } else {
        // f16: search the value whose text is this token (only 64k values; cache-free)
        bool found = false;
        raw = 0;
        for (uint32_t h = 0; h < 0x10000 && !found; ++h)
          if (formatF16(uint16_t(h)) == core) {
            raw = h;
            found = true;
          }
        if (!found)
          return false;
      }
      if (!w.set(p.field, raw))
        return false;
      auto back = renderPiece(p, w, env);
      if (!back || *back != tok)
        return false;
      return run(pi + 1, pos + e, w, out);
    }
    case PieceKind::SbSet: {
      // `{5, 4, 0}` (canonical spacing) or `{5,4,0}`: strictly descending, inside the field
      if (!s.starts_with("{"))
        return false;
      size_t i = 1;
      uint64_t v = 0;
      int last = int(p.field.width);
      while (true) {
        size_t d = i;
        int n = 0;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && i - d < 3)
          n = n * 10 + (s[i++] - '0');
        if (i == d || n >= last)
          return false;
        v |= uint64_t(1) << n;
        last = n;
        if (i < s.size() && s[i] == '}')
          break;
        if (i >= s.size() || s[i] != ',')
          return false;
        ++i;
        if (i < s.size() && s[i] == ' ')
          ++i;
      }
      w.set(p.field, v);
      return run(pi + 1, pos + i + 1, w, out);
    }
    case PieceKind::SReg: {
      if (!env.tables)
        return false;
      size_t e = 0;
      while (e < s.size() && s[e] != ',' && s[e] != ' ' && s[e] != ']')
        ++e;
      std::string_view tok = s.substr(0, e);
      for (const auto &nv : env.tables->specialRegs)
        if (tok == nv.name) {
          Word128 w2 = w;
          if (w2.set(p.field, nv.value) && run(pi + 1, pos + e, w2, out))
            return true;
        }
      if (tok.starts_with("SR")) {
        unsigned v;
        if (parseUnsigned(tok.substr(2), v) && w.set(p.field, v))
          return run(pi + 1, pos + e, w, out);
      }
      return false;
    }
    case PieceKind::Addr: {
      size_t e = s.find(']');
      if (e == std::string_view::npos)
        return false;
      std::string_view body = s.substr(0, e);
      Word128 w2 = w;
      if (p.aReg.width) w2.set(p.aReg, volta::kRZ);
      if (p.aUReg.width) w2.set(p.aUReg, volta::kURZ);
      if (p.aImm.width) w2.set(p.aImm, 0);
      if (p.aWide >= 0) w2.setBit(unsigned(p.aWide), false);
      size_t i = 0;
      while (i < body.size()) {
        size_t j = i + 1;
        while (j < body.size() && body[j] != '+')
          ++j;
        std::string_view term = body.substr(i, j - i);
        uint64_t v;
        if (p.aUReg.width && term == "URZ") {
          w2.set(p.aUReg, volta::kURZ);
        } else if (p.aUReg.width && parseReg(PieceKind::UReg, term, v, p.aUReg) == term.size()) {
          w2.set(p.aUReg, v);
        } else if (p.aReg.width && term.starts_with("R")) {
          std::string_view core = term;
          if (core.ends_with(".64") && p.aWide >= 0) {
            w2.setBit(unsigned(p.aWide), true);
            core.remove_suffix(3);
          }
          if (parseReg(PieceKind::Reg, core, v, p.aReg) != core.size())
            return false;
          w2.set(p.aReg, v);
        } else if (p.aImm.width) {
          std::string tok(term);
          bool neg = tok.starts_with("-");
          const char *d = tok.c_str() + (neg ? 1 : 0);
          if (std::strncmp(d, "0x", 2) != 0)
            return false;
          char *end = nullptr;
          unsigned long long mag = std::strtoull(d, &end, 16);
          if (*end != 0)
            return false;
          int64_t iv = neg ? -int64_t(mag) : int64_t(mag);
          if (signExtend(uint64_t(iv) & p.aImm.maxValue(), p.aImm.width) != iv)
            return false;
          w2.set(p.aImm, uint64_t(iv) & p.aImm.maxValue());
        } else {
          return false;
        }
        i = j + 1;
      }
      auto back = renderPiece(p, w2, env);
      if (!back || *back != body)
        return false;
      return run(pi + 1, pos + e, w2, out);
    }
    case PieceKind::Target: {
      size_t e = tokenEnd(s);
      std::string tok(s.substr(0, e));
      bool neg = tok.starts_with("-");
      const char *digits = tok.c_str() + (neg ? 1 : 0);
      if (std::strncmp(digits, "0x", 2) != 0)
        return false;
      char *end = nullptr;
      unsigned long long mag = std::strtoull(digits, &end, 16);
      if (*end != 0)
        return false;
      int64_t target = neg ? -int64_t(mag) : int64_t(mag);
      int64_t delta = target - (p.relative ? 0 : int64_t(env.pc) + 16);
      int64_t scale = p.byteUnits ? 1 : 4;
      if (delta % scale != 0)
        return false;
      int64_t units = delta / scale;
      unsigned width = p.field.width + p.field2.width;
      uint64_t raw = uint64_t(units) & (width >= 64 ? ~0ULL : (1ULL << width) - 1);
      if (signExtend(raw, width) != units)
        return false;
      w.set(p.field, raw & p.field.maxValue());
      if (p.field2.width)
        w.set(p.field2, (raw >> p.field.width) & p.field2.maxValue());
      return run(pi + 1, pos + e, w, out);
    }
    }
    return false;
  }
};

} // namespace

std::optional<std::string> render(const Template &t, const Word128 &w, const TemplateEnv &env) {
  std::string out;
  for (const Piece &p : t.pieces) {
    auto s = renderPiece(p, w, env);
    if (!s)
      return std::nullopt;
    out += *s;
  }
  return out;
}

bool match(const Template &t, std::string_view text, const TemplateEnv &env, Word128 &w) {
  Matcher m{t, text, env};
  return m.run(0, 0, w, w);
}

} // namespace ptxmini::enc
