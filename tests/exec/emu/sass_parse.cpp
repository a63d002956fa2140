/* sass_parse.cpp - nvdisasm text syntax -> SassInst.
 *
 * Grammar accepted (HW: observed with nvdisasm 13.2 on ptxas 13.0 sm_90 output):
 *   [@[!]P|UP] OPCODE{.MOD} operand {, operand} [;]
 * where an operand is a register (R/UR/P/UP/B/SR_*, optional .suffix, ".reuse" dropped) with
 * prefixes '-', '!', '~', '|x|'; an integer immediate "0x.." (hex, optional '-'); a float
 * immediate (decimal, +INF/-INF/QNAN); c[bank][offset-expression]; a memory reference
 * "[desc[URd]][terms]" whose terms are registers and one immediate joined by '+'; or a target
 * "`(label)" / hex offset, or a bare word (TEX's dimension "2D", TXQ's query). RET/BRA may print a register and a target without a comma between
 * them ("RET.REL.NODEC R2 `(fn)"); they are split on the space. Anything else is a parse error;
 * the emulator then traps, it never guesses. */
#include "tests/exec/emu/sass_inst.h"

#include <cctype>
#include <cstdlib>
#include <cmath>
#include <limits>

namespace ptxmini::exec {
namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

bool parse_uint(const std::string& s, uint64_t& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) v = std::strtoull(s.c_str() + 2, &end, 16);
  else if (std::isdigit(static_cast<unsigned char>(s[0]))) v = std::strtoull(s.c_str(), &end, 10);
  else return false;
  return end && *end == 0 && errno == 0;
}

// Register-like token: returns true and fills kind/index for R, UR, P, UP, B, SR_.
bool parse_reg(const std::string& name, Operand& o) {
  auto num = [&](size_t from, int& out) {
    if (from >= name.size()) return false;
    for (size_t i = from; i < name.size(); ++i) if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
    out = std::atoi(name.c_str() + from);
    return true;
  };
  if (name == "RZ") { o.kind = OpndKind::Reg; o.reg = kRZ; return true; }
  if (name == "URZ") { o.kind = OpndKind::UReg; o.reg = kURZ; return true; }
  if (name == "PT") { o.kind = OpndKind::Pred; o.reg = kPT; return true; }
  if (name == "UPT") { o.kind = OpndKind::UPred; o.reg = kPT; return true; }
  if (name == "SRZ" || name.rfind("SR_", 0) == 0) { o.kind = OpndKind::SReg; o.sreg_name = name; return true; }
  // "PR": the predicate register file as a whole (P2R / R2P); parsed as a special register
  // that only P2R/R2P interpret.
  if (name == "PR" || name == "UPR") { o.kind = OpndKind::SReg; o.sreg_name = name; return true; }
  int n = 0;
  if (name[0] == 'R' && num(1, n) && n < 255) { o.kind = OpndKind::Reg; o.reg = n; return true; }
  if (name.rfind("UR", 0) == 0 && num(2, n) && n < 63) { o.kind = OpndKind::UReg; o.reg = n; return true; }
  if (name.rfind("UP", 0) == 0 && num(2, n) && n < 7) { o.kind = OpndKind::UPred; o.reg = n; return true; }
  if (name[0] == 'P' && num(1, n) && n < 7) { o.kind = OpndKind::Pred; o.reg = n; return true; }
  if (name[0] == 'B' && num(1, n) && n < 16) { o.kind = OpndKind::BarReg; o.reg = n; return true; }
  return false;
}

// "R2.64.reuse" -> reg R2, suffix "64". SR names keep their dots (SR_TID.X).
bool parse_reg_with_suffix(std::string tok, Operand& o) {
  if (tok.rfind("SR_", 0) == 0) return parse_reg(tok, o);
  size_t dot = tok.find('.');
  std::string base = tok.substr(0, dot);
  if (!parse_reg(base, o)) return false;
  if (dot != std::string::npos) {
    std::string rest = tok.substr(dot + 1);
    // drop ".reuse" anywhere in the suffix chain
    std::string out;
    size_t i = 0;
    while (i <= rest.size()) {
      size_t j = rest.find('.', i);
      if (j == std::string::npos) j = rest.size();
      std::string part = rest.substr(i, j - i);
      if (!part.empty() && part != "reuse") out += (out.empty() ? "" : ".") + part;
      i = j + 1;
    }
    o.suffix = out;
  }
  return true;
}

bool parse_float(const std::string& s0, double& v) {
  std::string s = s0;
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) { neg = s[0] == '-'; s = s.substr(1); }
  if (s == "INF") v = std::numeric_limits<double>::infinity();
  else if (s == "QNAN" || s == "NAN") v = std::numeric_limits<double>::quiet_NaN();
  else {
    if (s.empty() || !(std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '.')) return false;
    char* end = nullptr;
    v = std::strtod(s.c_str(), &end);
    if (!end || *end) return false;
  }
  if (neg) v = -v;
  return true;
}

// Terms "R2.64+UR4+0x10" (also "-0x4", "+-0x4") into a memory / cbank operand.
bool parse_terms(const std::string& body, Operand& o, bool cbank, std::string& err) {
  std::string cur;
  std::vector<std::string> terms;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '+' || (c == '-' && !cur.empty())) {
      if (!trim(cur).empty()) terms.push_back(trim(cur));
      cur = c == '-' ? "-" : "";
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) terms.push_back(trim(cur));
  int64_t off = 0;
  for (auto& t : terms) {
    bool neg = t[0] == '-';
    std::string u = neg ? trim(t.substr(1)) : t;
    uint64_t v;
    if (parse_uint(u, v)) { off += neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v); continue; }
    Operand r;
    if (neg || !parse_reg_with_suffix(u, r)) { err = "bad address term '" + t + "'"; return false; }
    if (r.kind == OpndKind::Reg) {
      if (cbank) { o.cbank_reg = r.reg; o.cbank_ureg = false; }
      else { o.mem_base = r.reg; o.mem_base_ureg = false; o.mem_base_64 = r.suffix == "64"; }
    } else if (r.kind == OpndKind::UReg) {
      if (cbank) { o.cbank_reg = r.reg; o.cbank_ureg = true; }
      else if (o.mem_base < 0 && terms.size() >= 1 && &t == &terms[0]) {
        o.mem_base = r.reg; o.mem_base_ureg = true; o.mem_base_64 = r.suffix == "64";
      } else {
        o.mem_ureg = r.reg;
      }
    } else {
      err = "bad address register '" + t + "'";
      return false;
    }
  }
  o.imm = static_cast<uint64_t>(off);
  return true;
}

bool parse_operand(std::string tok, const std::vector<std::pair<std::string, uint32_t>>& labels, Operand& o,
                   std::string& err) {
  tok = trim(tok);
  if (tok.empty()) { err = "empty operand"; return false; }
  // Target `(label)
  if (tok[0] == '`') {
    size_t a = tok.find('('), b = tok.rfind(')');
    if (a == std::string::npos || b == std::string::npos || b < a) { err = "bad target '" + tok + "'"; return false; }
    std::string name = tok.substr(a + 1, b - a - 1);
    for (auto& [n, off] : labels)
      if (n == name) { o.kind = OpndKind::Target; o.imm = off; return true; }
    err = "unknown label '" + name + "'";
    return false;
  }
  // c[bank][expr]
  if (tok.rfind("c[", 0) == 0 || tok.rfind("-c[", 0) == 0 || tok.rfind("|c[", 0) == 0 || tok.rfind("-|c[", 0) == 0 ||
      tok.rfind("~c[", 0) == 0) {
    size_t p = 0;
    while (tok[p] == '-' || tok[p] == '|' || tok[p] == '~') {
      if (tok[p] == '-') o.neg = true;
      if (tok[p] == '|') o.abs = true;
      if (tok[p] == '~') o.bnot = true;
      ++p;
    }
    size_t b1 = tok.find(']', p);
    size_t b2o = tok.find('[', b1);
    size_t b2c = tok.find(']', b2o);
    if (b1 == std::string::npos || b2o == std::string::npos || b2c == std::string::npos) { err = "bad cbank '" + tok + "'"; return false; }
    uint64_t bank;
    if (!parse_uint(tok.substr(p + 2, b1 - p - 2), bank)) { err = "bad cbank number in '" + tok + "'"; return false; }
    o.kind = OpndKind::CBank;
    o.bank = static_cast<int>(bank);
    if (!parse_terms(tok.substr(b2o + 1, b2c - b2o - 1), o, true, err)) return false;
    std::string rest = tok.substr(b2c + 1);
    if (!rest.empty() && rest[0] == '|') rest = rest.substr(1);
    if (!rest.empty() && rest[0] == '.') o.suffix = rest.substr(1);
    return true;
  }
  // gdesc[URx][.negA.tnspB...]: the UR quad of a warpgroup MMA's matrix descriptors
  // (ops_gmma.cpp): a UReg with sreg_name "gdesc" and the modifiers in suffix.
  if (tok.rfind("gdesc[", 0) == 0) {
    size_t c = tok.find(']');
    if (c == std::string::npos || !parse_reg(tok.substr(6, c - 6), o) || o.kind != OpndKind::UReg) { err = "bad gdesc in '" + tok + "'"; return false; }
    o.sreg_name = "gdesc";
    if (c + 1 < tok.size()) {
      if (tok[c + 1] != '.') { err = "bad gdesc in '" + tok + "'"; return false; }
      o.suffix = tok.substr(c + 2);
    }
    return true;
  }
  // The wgmma group scoreboard of HGMMA's last operand and WARPGROUP.DEPBAR (a word).
  if (tok == "gsb0") {
    o.kind = OpndKind::Word;
    o.sreg_name = tok;
    return true;
  }
  // memory: [..] or desc[URx][..]
  if (tok[0] == '[' || tok.rfind("desc[", 0) == 0) {
    o.kind = OpndKind::Mem;
    size_t p = 0;
    if (tok[0] == 'd') {
      size_t c = tok.find(']');
      Operand d;
      if (c == std::string::npos || !parse_reg(tok.substr(5, c - 5), d) || d.kind != OpndKind::UReg) { err = "bad desc in '" + tok + "'"; return false; }
      o.desc_ureg = d.reg;
      p = c + 1;
    }
    if (p >= tok.size() || tok[p] != '[' || tok.back() != ']') { err = "bad memory operand '" + tok + "'"; return false; }
    return parse_terms(tok.substr(p + 1, tok.size() - p - 2), o, false, err);
  }
  // prefixes
  size_t p = 0;
  while (p < tok.size() && (tok[p] == '-' || tok[p] == '!' || tok[p] == '~' || tok[p] == '|' || tok[p] == '+')) {
    if (tok[p] == '+' ) { if (tok.substr(p) == "+INF") break; ++p; continue; }
    if (tok[p] == '-') {
      // "-0x1" / "-1.5" / "-INF" / "-QNAN" are immediates
      if (p + 1 < tok.size() && (std::isdigit(static_cast<unsigned char>(tok[p + 1])) || tok[p + 1] == 'I' || tok[p + 1] == 'Q')) break;
      o.neg = true;
    }
    if (tok[p] == '!') o.lnot = true;
    if (tok[p] == '~') o.bnot = true;
    if (tok[p] == '|') o.abs = true;
    ++p;
  }
  std::string body = tok.substr(p);
  if (o.abs) {
    size_t bar = body.find('|');
    if (bar == std::string::npos) { err = "unbalanced |x| in '" + tok + "'"; return false; }
    body = body.substr(0, bar) + body.substr(bar + 1);
  }
  if (body.empty()) { err = "bad operand '" + tok + "'"; return false; }
  // integer immediate
  {
    bool neg = body[0] == '-';
    std::string u = neg ? body.substr(1) : body;
    uint64_t v;
    if (u.size() > 2 && u[0] == '0' && u[1] == 'x' && parse_uint(u, v)) {
      o.kind = OpndKind::Imm;
      o.imm = neg ? static_cast<uint64_t>(-static_cast<int64_t>(v)) : v;
      return true;
    }
  }
  double f;
  // "-QNAN(0xffefffff)": a NaN immediate with its exact bits (load_cubin.cpp adds them).
  if (size_t lp = body.find("QNAN(0x"); lp != std::string::npos && body.back() == ')') {
    uint64_t bits;
    if (parse_uint(body.substr(lp + 5, body.size() - lp - 6), bits) && parse_float(body.substr(0, lp + 4), f)) {
      o.kind = OpndKind::FImm;
      o.fimm = f;
      o.has_fbits = true;
      o.fbits = static_cast<uint32_t>(bits);
      return true;
    }
  }
  if (parse_float(body, f)) { o.kind = OpndKind::FImm; o.fimm = f; return true; }
  if (parse_reg_with_suffix(body, o)) return true;
  // A bare word (TEX's "2D", "ARRAY_CUBE", TXQ's "TEX_HEADER_DIMENSION", DEPBAR's "SB5"):
  // capitals, digits and '_' with at least one capital, no prefix, and not shaped like a
  // register out of range ("R999", "UP9" stay errors).
  bool word = p == 0, upper = false;
  for (char c : body) {
    upper |= std::isupper(static_cast<unsigned char>(c)) != 0;
    word &= std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  }
  size_t letters = 0;
  while (letters < body.size() && std::isupper(static_cast<unsigned char>(body[letters]))) ++letters;
  std::string prefix = body.substr(0, letters);
  bool reg_shaped = (prefix == "R" || prefix == "UR" || prefix == "P" || prefix == "UP" || prefix == "B") &&
                    letters < body.size() && body.find_first_not_of("0123456789", letters) == std::string::npos;
  word &= upper && !reg_shaped;
  if (word) {
    o.kind = OpndKind::Word;
    o.sreg_name = body;
    return true;
  }
  err = "unknown operand '" + tok + "'";
  return false;
}

}  // namespace

bool parse_sass(const std::string& line0, uint32_t pc, const std::vector<std::pair<std::string, uint32_t>>& labels,
                SassInst& out, std::string& err) {
  out = SassInst{};
  out.pc = pc;
  std::string line = trim(line0);
  if (!line.empty() && line.back() == ';') line = trim(line.substr(0, line.size() - 1));
  // nvdisasm annotations such as (*"BRANCH_TARGETS .L_x_14,.L_x_15"*) are comments.
  if (size_t a = line.find("(*"); a != std::string::npos) {
    size_t b = line.find("*)", a);
    line = trim(line.substr(0, a) + (b == std::string::npos ? "" : line.substr(b + 2)));
    if (!line.empty() && line.back() == ';') line = trim(line.substr(0, line.size() - 1));
  }
  out.text = line;
  if (line.empty()) { err = "empty instruction"; return false; }
  size_t p = 0;
  if (line[0] == '@') {
    size_t sp = line.find_first_of(" \t");
    if (sp == std::string::npos) { err = "guard without instruction"; return false; }
    std::string g = line.substr(1, sp - 1);
    if (!g.empty() && g[0] == '!') { out.guard_not = true; g = g.substr(1); }
    Operand go;
    if (!parse_reg(g, go) || (go.kind != OpndKind::Pred && go.kind != OpndKind::UPred)) { err = "bad guard '" + g + "'"; return false; }
    out.guard = go.reg;
    out.guard_uniform = go.kind == OpndKind::UPred;
    p = sp;
    while (p < line.size() && std::isspace(static_cast<unsigned char>(line[p]))) ++p;
  }
  size_t sp = line.find_first_of(" \t", p);
  std::string opfull = line.substr(p, sp == std::string::npos ? std::string::npos : sp - p);
  std::string rest = sp == std::string::npos ? "" : line.substr(sp + 1);
  size_t d = opfull.find('.');
  out.opcode = opfull.substr(0, d);
  while (d != std::string::npos) {
    size_t e = opfull.find('.', d + 1);
    out.mods.push_back(opfull.substr(d + 1, e == std::string::npos ? std::string::npos : e - d - 1));
    d = e;
  }
  for (char c : out.opcode)
    if (!(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_')) {
      err = "bad opcode '" + out.opcode + "'";
      return false;
    }
  // split operands on top-level commas
  std::vector<std::string> toks;
  std::string cur;
  int depth = 0;
  for (char c : rest) {
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) { toks.push_back(cur); cur.clear(); continue; }
    cur += c;
  }
  if (!trim(cur).empty()) toks.push_back(cur);
  for (auto& t0 : toks) {
    std::string t = trim(t0);
    // "R2 `(fn)" : a register and a target printed without a comma
    size_t bt = t.find('`');
    if (bt != std::string::npos && bt > 0) {
      Operand a;
      if (!parse_operand(t.substr(0, bt), labels, a, err)) return false;
      out.ops.push_back(a);
      t = t.substr(bt);
    }
    Operand o;
    std::string e1;
    if (!parse_operand(t, labels, o, e1)) {
      // "BRX R4 -0x2f0": operands separated by a space only.
      size_t sp2 = t.find_first_of(" \t");
      Operand a, b;
      std::string e2;
      if (sp2 == std::string::npos || t.find('[') != std::string::npos ||
          !parse_operand(t.substr(0, sp2), labels, a, e2) || !parse_operand(t.substr(sp2 + 1), labels, b, e2)) {
        err = e1;
        return false;
      }
      out.ops.push_back(a);
      o = b;
    }
    out.ops.push_back(o);
  }
  return true;
}

}  // namespace ptxmini::exec
