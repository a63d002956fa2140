//===- scheduler/sass_deps.cpp - SASS text to register accesses ----------------------===//
///
/// \file
/// Splits the text into guard, mnemonic, modifiers and top-level operands, classifies each
/// operand (register, memory, constant bank, immediate), then applies the opcode row's def
/// pattern and width rule (targets/<sm>/sass_ops.def documents both).
//===----------------------------------------------------------------------------------===//
#include "scheduler/sass_deps.h"

#include <cctype>
#include <charconv>

namespace ptxmini::sched {

using ori::RegClass;

bool SassDeps::hasMod(std::string_view m) const {
  for (const std::string &x : mods)
    if (x == m)
      return true;
  return false;
}

namespace {

/// One printed register (not memory): file, number (kFixed for RZ/URZ/PT/UPT), PR = whole
/// predicate file.
struct RegTok {
  RegClass file = RegClass::R;
  int num = -1;       ///< -1: none; kFixed: RZ/URZ/PT/UPT
  bool predFile = false; ///< `PR`
  bool printed64 = false;
};
constexpr int kFixed = 1000;

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Parses a register name at the start of `s` (after prefixes). Returns the characters used.
size_t parseRegName(std::string_view s, RegTok &t) {
  auto digits = [&](size_t from, int &n) {
    size_t i = from;
    n = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
      n = n * 10 + (s[i++] - '0');
    return i - from;
  };
  auto endsIdent = [&](size_t i) { return i >= s.size() || !isIdentChar(s[i]); };
  int n;
  if (s.starts_with("URZ") && endsIdent(3)) {
    t.file = RegClass::UR, t.num = kFixed;
    return 3;
  }
  if (s.starts_with("UPT") && endsIdent(3)) {
    t.file = RegClass::UP, t.num = kFixed;
    return 3;
  }
  if (s.starts_with("UR")) {
    if (size_t d = digits(2, n); d && endsIdent(2 + d)) {
      t.file = RegClass::UR, t.num = n;
      return 2 + d;
    }
  }
  if (s.starts_with("UP")) {
    if (size_t d = digits(2, n); d && endsIdent(2 + d)) {
      t.file = RegClass::UP, t.num = n;
      return 2 + d;
    }
  }
  if (s.starts_with("RZ") && endsIdent(2)) {
    t.file = RegClass::R, t.num = kFixed;
    return 2;
  }
  if (s.starts_with("PT") && endsIdent(2)) {
    t.file = RegClass::P, t.num = kFixed;
    return 2;
  }
  if (s.starts_with("PR") && endsIdent(2)) {
    t.file = RegClass::P, t.predFile = true, t.num = 0;
    return 2;
  }
  if (s.starts_with("R")) {
    if (size_t d = digits(1, n); d && endsIdent(1 + d)) {
      t.file = RegClass::R, t.num = n;
      return 1 + d;
    }
  }
  if (s.starts_with("P")) {
    if (size_t d = digits(1, n); d && endsIdent(1 + d)) {
      t.file = RegClass::P, t.num = n;
      return 1 + d;
    }
  }
  return 0;
}

enum class OpKind : uint8_t { Reg, Mem, CBank, Other };

struct MemReg {
  RegTok reg;
  bool isDesc = false;
};

struct Opnd {
  OpKind kind = OpKind::Other;
  RegTok reg;                   ///< Reg
  std::vector<MemReg> memRegs;  ///< Mem / CBank: registers inside the brackets
  std::string_view text;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

/// Registers named inside a bracketed address: `R2.64`, `UR4`, `R2`, `URZ` between '+'.
void scanBracketRegs(std::string_view s, bool isDesc, std::vector<MemReg> &out) {
  for (size_t i = 0; i < s.size();) {
    if (std::isalpha(static_cast<unsigned char>(s[i])) && (i == 0 || !isIdentChar(s[i - 1]))) {
      RegTok t;
      size_t n = parseRegName(s.substr(i), t);
      if (n) {
        if (s.substr(i + n).starts_with(".64"))
          t.printed64 = true;
        out.push_back({t, isDesc});
        i += n;
        continue;
      }
      while (i < s.size() && isIdentChar(s[i]))
        ++i;
      continue;
    }
    ++i;
  }
}

Opnd classify(std::string_view s) {
  Opnd o;
  o.text = s;
  if (s.starts_with("c[")) {
    o.kind = OpKind::CBank;
    size_t second = s.find('[', 2);
    if (second != std::string_view::npos)
      scanBracketRegs(s.substr(second), false, o.memRegs);
    return o;
  }
  if (s.find('[') != std::string_view::npos) {
    o.kind = OpKind::Mem;
    size_t d = s.find("desc[");
    if (d != std::string_view::npos) {
      size_t e = s.find(']', d);
      scanBracketRegs(s.substr(d + 5, e - d - 5), true, o.memRegs);
      s = s.substr(e + 1);
    }
    size_t b = s.find('[');
    if (b != std::string_view::npos)
      scanBracketRegs(s.substr(b), false, o.memRegs);
    return o;
  }
  std::string_view r = s;
  while (!r.empty() && (r.front() == '-' || r.front() == '!' || r.front() == '~' || r.front() == '|'))
    r.remove_prefix(1);
  RegTok t;
  if (size_t n = parseRegName(r, t)) {
    o.kind = OpKind::Reg;
    o.reg = t;
    (void)n;
  }
  return o;
}

std::vector<std::string_view> splitOperands(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '[' || s[i] == '(' || s[i] == '{')
      ++depth;
    else if (s[i] == ']' || s[i] == ')' || s[i] == '}')
      --depth;
    else if (s[i] == ',' && depth == 0) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (std::string_view last = trim(s.substr(start)); !last.empty())
    out.push_back(last);
  return out;
}

bool parseNumber(std::string_view s, uint64_t &v) {
  s = trim(s);
  bool neg = false;
  if (s.starts_with("-")) {
    neg = true;
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.starts_with("0x")) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty())
    return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size())
    return false;
  if (neg)
    v = 0 - v;
  return true;
}

bool isPred(const Opnd &o) {
  return o.kind == OpKind::Reg && (o.reg.file == RegClass::P || o.reg.file == RegClass::UP);
}

/// Indices of the printed operands the def pattern marks as written.
std::vector<bool> defOperands(std::string_view pat, const std::vector<Opnd> &ops) {
  std::vector<bool> def(ops.size(), false);
  size_t i = 0;
  auto markOne = [&]() {
    if (i < ops.size() && ops[i].kind == OpKind::Reg)
      def[i++] = true;
    else
      i = ops.size(); // a memory or immediate operand where a def was expected: no more defs
  };
  if (pat == "A-1") {
    for (size_t k = 0; k + 1 < ops.size(); ++k)
      def[k] = ops[k].kind == OpKind::Reg;
    return def;
  }
  for (size_t p = 0; p < pat.size(); ++p) {
    if (pat.substr(p).starts_with("P*")) {
      while (i < ops.size() && isPred(ops[i]))
        def[i++] = true;
      ++p;
    } else if (pat[p] == 'D') {
      markOne();
    }
  }
  return def;
}

unsigned memDataWidth(const SassDeps &d) {
  if (d.hasMod("128"))
    return 4;
  if (d.hasMod("64") || d.hasMod("F64") || d.hasMod("S64") || d.hasMod("U64"))
    return 2;
  return 1;
}

bool isFloatType(std::string_view m) {
  return m == "F16" || m == "BF16" || m == "F32" || m == "F64" || m == "TF32" || m == "E4M3" ||
         m == "E5M2" || m == "BF16_V2" || m == "F16_V2";
}

} // namespace

bool analyzeSass(std::string_view text, const Target &target, SassDeps &out, std::string &err) {
  out = SassDeps{};
  std::string_view s = trim(text);
  if (s.ends_with(";"))
    s = trim(s.substr(0, s.size() - 1));
  // Guard.
  Opnd guard;
  bool guardNeg = false;
  if (s.starts_with("@")) {
    size_t sp = s.find(' ');
    if (sp == std::string_view::npos) {
      err = "guard without an instruction";
      return false;
    }
    std::string_view g = s.substr(1, sp - 1);
    if (g.starts_with("!")) {
      guardNeg = true;
      g.remove_prefix(1);
    }
    guard = classify(g);
    if (guard.kind != OpKind::Reg || !(guard.reg.file == RegClass::P || guard.reg.file == RegClass::UP)) {
      err = "bad guard '" + std::string(g) + "'";
      return false;
    }
    s = trim(s.substr(sp + 1));
  }
  out.guarded = guard.kind == OpKind::Reg && (guard.reg.num != kFixed || guardNeg);
  // Mnemonic and modifiers.
  size_t sp = s.find(' ');
  std::string_view head = s.substr(0, sp);
  std::string_view rest = sp == std::string_view::npos ? std::string_view{} : s.substr(sp + 1);
  size_t dot = head.find('.');
  out.mnemonic = std::string(head.substr(0, dot));
  while (dot != std::string_view::npos) {
    size_t next = head.find('.', dot + 1);
    out.mods.emplace_back(head.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1));
    dot = next;
  }
  std::vector<std::string_view> modViews(out.mods.begin(), out.mods.end());
  out.op = target.sassOp(out.mnemonic);
  out.cls = target.latClass(out.mnemonic, modViews, ori::LatClass::Alu);
  out.opaque = !out.op || out.op->has(OP_OPAQUE);

  std::vector<std::string_view> texts = splitOperands(rest);
  std::vector<Opnd> ops;
  for (std::string_view t : texts)
    ops.push_back(classify(t));

  // Branch targets and DEPBAR operands (numbers only; no registers involved).
  if (out.has(OP_BRANCH) && !out.has(OP_INDIRECT) && !ops.empty()) {
    uint64_t v;
    if (parseNumber(texts.back(), v))
      out.targets.push_back(v);
    for (size_t k = 0; k + 1 < ops.size(); ++k)
      if (ops[k].kind == OpKind::Reg && ops[k].reg.num != kFixed)
        out.conditional = true;
    if (out.hasMod("DIV") || out.hasMod("CONV") || out.hasMod("ANY") || out.hasMod("ALL"))
      out.conditional = true;
  }
  if (out.has(OP_DEPBAR) && ops.size() >= 2 && ops[0].text.starts_with("SB")) {
    uint64_t sb = 0, n = 0;
    if (parseNumber(ops[0].text.substr(2), sb) && parseNumber(ops[1].text, n)) {
      out.depbarSb = static_cast<int>(sb);
      out.depbarCount = static_cast<unsigned>(n);
    }
  }

  // The guard is read before anything else.
  if (guard.kind == OpKind::Reg && guard.reg.num != kFixed)
    out.regs.push_back({guard.reg.file, static_cast<uint16_t>(guard.reg.num), 1, Access::Guard, -1});
  if (out.opaque)
    return true;

  const SassOpInfo &op = *out.op;
  std::vector<bool> isDef = defOperands(op.defs, ops);
  WidthRule widthRule = op.width;
  if (const ClassByModifier *ref = target.refinement(out.mnemonic, modViews))
    widthRule = ref->width;

  // Width rule: how many registers each register operand stands for.
  std::vector<uint8_t> width(ops.size(), 1);
  // The last operand that is not a predicate, of any kind: IMAD.WIDE's third source may be a
  // constant (`IMAD.WIDE.U32 R4, R4, R5, c[0x0][0x180]`, ptxas's sm_80 code), and then no
  // register of it is a pair (setGprWidth leaves non-registers alone).
  auto lastNonPred = [&]() -> int {
    for (int k = static_cast<int>(ops.size()) - 1; k >= 0; --k)
      if (!isPred(ops[k]))
        return k;
    return -1;
  };
  auto setGprWidth = [&](size_t k, uint8_t w) {
    if (ops[k].kind == OpKind::Reg && (ops[k].reg.file == RegClass::R || ops[k].reg.file == RegClass::UR))
      width[k] = w;
  };
  switch (widthRule) {
  case WidthRule::Plain:
    break;
  case WidthRule::Mem: {
    unsigned w = memDataWidth(out);
    for (size_t k = 0; k < ops.size(); ++k)
      setGprWidth(k, static_cast<uint8_t>(w));
    break;
  }
  case WidthRule::F64:
    for (size_t k = 0; k < ops.size(); ++k)
      setGprWidth(k, 2);
    break;
  case WidthRule::Wide:
    if (!ops.empty())
      setGprWidth(0, 2);
    if (int c = lastNonPred(); c > 0)
      setGprWidth(static_cast<size_t>(c), 2);
    break;
  case WidthRule::Hi:
    if (int c = lastNonPred(); c > 0)
      setGprWidth(static_cast<size_t>(c), 2);
    break;
  case WidthRule::F2I:
  case WidthRule::I2F:
  case WidthRule::F2F:
  case WidthRule::Frnd: {
    bool dstWide = false, srcWide = false;
    if (widthRule == WidthRule::F2I) {
      dstWide = out.hasMod("S64") || out.hasMod("U64");
      srcWide = out.hasMod("F64");
    } else if (widthRule == WidthRule::I2F) {
      dstWide = out.hasMod("F64");
      srcWide = out.hasMod("S64") || out.hasMod("U64");
    } else if (widthRule == WidthRule::F2F) {
      std::vector<std::string_view> types;
      for (const std::string &m : out.mods)
        if (isFloatType(m))
          types.push_back(m);
      dstWide = !types.empty() && types[0] == "F64";
      srcWide = types.size() > 1 && types[1] == "F64";
    } else {
      dstWide = srcWide = out.hasMod("F64");
    }
    for (size_t k = 0; k < ops.size(); ++k)
      setGprWidth(k, isDef[k] ? (dstWide ? 2 : 1) : (srcWide ? 2 : 1));
    break;
  }
  case WidthRule::Pair:
    for (size_t k = 0; k < ops.size(); ++k) {
      if (isDef[k] && ops[k].kind == OpKind::Reg && ops[k].reg.file == RegClass::R && !out.hasMod("32"))
        setGprWidth(k, 2);
      else if (!isDef[k] && out.hasMod("64"))
        setGprWidth(k, 2);
    }
    break;
  case WidthRule::Mma:
    if (const MmaShape *shape = target.mmaShape(out.mnemonic, modViews)) {
      const uint8_t counts[4] = {shape->d, shape->a, shape->b, shape->c};
      unsigned n = 0;
      for (size_t k = 0; k < ops.size() && n < 4; ++k)
        if (ops[k].kind == OpKind::Reg && ops[k].reg.file == RegClass::R)
          width[k] = counts[n++];
    } else {
      out.opaque = true; // a shape the table does not know
      return true;
    }
    break;
  case WidthRule::Ldsm: {
    uint8_t w = 1;
    for (const std::string &m : out.mods)
      if (m == "2" || m == "4")
        w = static_cast<uint8_t>(m[0] - '0');
    if (!ops.empty())
      setGprWidth(0, w);
    break;
  }
  case WidthRule::U64:
    if (out.hasMod("U64") || out.hasMod("64"))
      for (size_t k = 0; k < ops.size(); ++k)
        if (!isDef[k])
          setGprWidth(k, 2);
    break;
  }

  // Predicate-file mask of P2R / R2P (the last immediate), all of P0-P6 without one.
  uint64_t prMask = 0x7f;
  if (!texts.empty())
    if (uint64_t v; parseNumber(texts.back(), v))
      prMask = v & 0x7f;

  bool globalAddr = out.hasMod("E");
  int lastMem = -1;
  for (size_t k = 0; k < ops.size(); ++k)
    if (ops[k].kind == OpKind::Mem)
      lastMem = static_cast<int>(k);

  for (size_t k = 0; k < ops.size(); ++k) {
    const Opnd &o = ops[k];
    int8_t idx = static_cast<int8_t>(k);
    if (o.kind == OpKind::Reg) {
      if (o.reg.num == kFixed || o.reg.num < 0)
        continue;
      if (o.reg.predFile) {
        for (unsigned p = 0; p < 7; ++p)
          if (prMask >> p & 1)
            out.regs.push_back({RegClass::P, static_cast<uint16_t>(p), 1,
                                isDef[k] ? Access::Write : Access::Read, idx});
        continue;
      }
      Access how = isDef[k] ? Access::Write : Access::Read;
      if (how == Access::Read && op.has(OP_PCTRL) &&
          (o.reg.file == RegClass::P || o.reg.file == RegClass::UP))
        how = Access::Guard;
      out.regs.push_back({o.reg.file, static_cast<uint16_t>(o.reg.num), width[k], how, idx});
    } else if (o.kind == OpKind::Mem || o.kind == OpKind::CBank) {
      for (const MemReg &m : o.memRegs) {
        if (m.reg.num == kFixed || m.reg.num < 0)
          continue;
        uint8_t w = 1;
        if (m.isDesc || m.reg.printed64)
          w = 2;
        else if (globalAddr && o.kind == OpKind::Mem && static_cast<int>(k) == lastMem &&
                 m.reg.file == RegClass::R)
          w = 2; // `.E`: a 64-bit address even where it prints as [R4]
        out.regs.push_back({m.reg.file, static_cast<uint16_t>(m.reg.num), w, Access::Read, idx});
      }
    }
  }
  return true;
}

} // namespace ptxmini::sched
