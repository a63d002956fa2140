//===- ori/parse.cpp - Ori text parser --------------------------------------------------===//
///
/// \file
/// Line-oriented recursive descent over this grammar (`;` starts a comment that runs to the
/// end of the line; blank and comment-only lines are ignored anywhere):
///
///   program   := { function }
///   function  := ('func' | 'kernel') '@' NAME { ATTR '=' VALUE } '{' NL { block } '}' NL
///   ATTR      := 'maxreg' | 'local' | 'localalign' | 'framealign' | 'frame' | 'spill'
///                (Function::maxRegs and FrameInfo; `spill=SLOTS/STORES/LOADS`, in bytes)
///   block     := LABEL ':' [ '{nounroll}' ] NL { instr NL }  LABEL := [A-Za-z_.$][A-Za-z0-9_.$]*
///                ({nounroll}: Block::noUnroll, PTX's `.pragma "nounroll"`)
///   instr     := [ '@' pred ] [ operand { ',' operand } '=' ] OPCODE { '.' MODIFIER }
///                [ operand { ',' operand } ] [ '{' FLAG { ',' FLAG } '}' ] [ ctrl ]
///   operand   := { '!' | '~' | '-' } ( '|' base '|' | base ) [ '.reuse' ]
///   base      := vreg | preg | INT | FLOAT | cbank | mem | LABEL | SPECIAL | func
///   func      := '`(' NAME ')'                    (a CALL target; nvdisasm's spelling)
///   vreg      := ('%r' | '%ur' | '%p' | '%up' | '%b') DEC [ width ] [ '[' DEC ']' ]
///   preg      := ('R' | 'UR' | 'P' | 'UP' | 'B') DEC [ width ] [ '[' DEC ']' ]
///              | 'RZ' | 'URZ' | 'PT' | 'UPT'
///   width     := '.64' | '.128' | '.256'           (a pair / quad / octet of 32-bit registers)
///   INT       := ['-'] ( '0x' HEX | DEC )          FLOAT := '0f' HEX{8} | '0d' HEX{16}
///   cbank     := 'c[' INT '][' ( (vreg | preg) [ ('+' | '-') INT ] | INT ) ']'
///   mem       := [ 'desc[' (vreg | preg) ']' ] '[' ( (vreg | preg) [ ('+' | '-') INT ] | INT ) ']'
///                                                  (offsets are 32-bit; desc: sm_90 memory descriptor)
///   SPECIAL   := 'SR_' ...                         (ori/special_regs.def)
///   ctrl      := '[B' W W W W W W ':R' D ':W' D ':' ('Y'|'-') ':S' DEC DEC ']'
///                                                  (W, D: a barrier digit 0-5 or '-')
///
/// OPCODE and MODIFIER spellings come from ori/opcodes.def and ori/modifiers.def, FLAG from
/// ORI_INSTR_FLAGS in ori/ori.h. A virtual register's width is fixed by its first occurrence;
/// later occurrences must agree. Labels may be referenced before their block appears.
/// Operand counts and classes are NOT checked here; that is the validator's job, so that
/// validator tests can be written as text.
//===----------------------------------------------------------------------------------===//
#include "ori/parse.h"

#include "ori/cfg.h"

#include "llvm/ADT/StringMap.h"

#include <cctype>
#include <optional>
#include <set>

namespace ptxmini::ori {

namespace {

bool isIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}
bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}

struct PendingLabel {
  uint32_t block, instr, operand;
  std::string name;
  uint32_t line, column;
};

class Parser {
public:
  Parser(std::string_view text, const std::string &file, DiagEngine &diag)
      : text_(text), file_(file), diag_(diag) {}

  bool run(Program &out);

private:
  // ---- line cursor ----
  std::string_view line_; // current line, comment stripped
  size_t pos_ = 0;
  uint32_t lineNo_ = 0;

  bool error(size_t col0, const std::string &msg) {
    if (!failed_)
      diag_.error(SourceLoc{file_, lineNo_, static_cast<uint32_t>(col0 + 1)}, msg);
    failed_ = true;
    return false;
  }
  bool errorHere(const std::string &msg) { return error(pos_, msg); }
  void skipSpace() {
    while (pos_ < line_.size() && (line_[pos_] == ' ' || line_[pos_] == '\t' || line_[pos_] == '\r'))
      ++pos_;
  }
  bool atEnd() {
    skipSpace();
    return pos_ >= line_.size();
  }
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < line_.size() ? line_[pos_ + ahead] : '\0';
  }
  bool consume(char c) {
    skipSpace();
    if (peek() == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  std::string_view readIdent() {
    size_t start = pos_;
    while (pos_ < line_.size() && isIdentChar(line_[pos_]))
      ++pos_;
    return line_.substr(start, pos_ - start);
  }

  bool parseInt(int64_t &v);
  bool parseUnsignedDec(uint32_t &v);
  bool parseRegSuffix(Operand &o, size_t start);
  bool parseRegister(Operand &o); // %vreg or physical register at pos_
  bool parseOperand(Operand &o, uint32_t block, uint32_t instr, uint32_t index);
  bool parseCtrl(CtrlCode &c);
  bool looksLikeCtrl() const;
  bool parseInstr(Function &f, uint32_t block);
  bool finishFunction(Function &f);
  bool parseFunctionAttrs(Function &f);
  bool noteVReg(Function &f, const Operand &o, size_t col);

  std::string_view text_;
  const std::string &file_;
  DiagEngine &diag_;
  bool failed_ = false;
  std::vector<PendingLabel> pending_;
  llvm::StringMap<uint32_t> blockIndex_; // labels of the current function
  Function *cur_ = nullptr;
};

bool Parser::parseUnsignedDec(uint32_t &v) {
  size_t start = pos_;
  uint64_t acc = 0;
  while (std::isdigit(static_cast<unsigned char>(peek()))) {
    acc = acc * 10 + (peek() - '0');
    if (acc > 0xFFFFFFFEull)
      return error(start, "number too large");
    ++pos_;
  }
  if (pos_ == start)
    return errorHere("expected a decimal number");
  v = static_cast<uint32_t>(acc);
  return true;
}

bool Parser::parseInt(int64_t &v) {
  skipSpace();
  size_t start = pos_;
  bool neg = false;
  if (peek() == '-') {
    neg = true;
    ++pos_;
  }
  uint64_t acc = 0;
  bool any = false;
  if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
    pos_ += 2;
    while (std::isxdigit(static_cast<unsigned char>(peek()))) {
      if (acc >> 60)
        return error(start, "integer constant too large");
      char c = static_cast<char>(std::tolower(static_cast<unsigned char>(peek())));
      acc = acc * 16 + (std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : c - 'a' + 10);
      ++pos_;
      any = true;
    }
  } else {
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      uint64_t d = static_cast<uint64_t>(peek() - '0');
      if (acc > (UINT64_MAX - d) / 10)
        return error(start, "integer constant too large");
      acc = acc * 10 + d;
      ++pos_;
      any = true;
    }
  }
  if (!any)
    return error(start, "expected an integer");
  if (isIdentChar(peek()))
    return errorHere("unexpected character '" + std::string(1, peek()) + "' in number");
  if (neg) {
    if (acc > static_cast<uint64_t>(INT64_MAX) + 1)
      return error(start, "integer constant too large");
    v = static_cast<int64_t>(0 - acc);
  } else {
    if (acc > static_cast<uint64_t>(INT64_MAX))
      return error(start, "integer constant too large");
    v = static_cast<int64_t>(acc);
  }
  return true;
}

// Width (`.64`/`.128`/`.256`) and component (`[k]`) after a register name; `start` is the name's
// column for messages. pos_ is right after the name's digits.
bool Parser::parseRegSuffix(Operand &o, size_t start) {
  if (peek() == '.' && std::isdigit(static_cast<unsigned char>(peek(1)))) {
    ++pos_;
    uint32_t w = 0;
    size_t wcol = pos_;
    if (!parseUnsignedDec(w))
      return false;
    if (w == 64)
      o.width = 2;
    else if (w == 128)
      o.width = 4;
    else if (w == 256)
      o.width = 8;
    else
      return error(wcol, "register width must be 64, 128 or 256");
  }
  if (peek() == '[') {
    ++pos_;
    uint32_t k = 0;
    size_t kcol = pos_;
    if (!parseUnsignedDec(k))
      return false;
    if (k >= o.width)
      return error(kcol, "component " + std::to_string(k) + " is outside the register");
    o.sub = static_cast<uint8_t>(k);
    if (peek() != ']')
      return errorHere("expected ']' after the register component");
    ++pos_;
  }
  (void)start;
  return true;
}

bool Parser::parseRegister(Operand &o) {
  size_t start = pos_;
  if (peek() == '%') {
    ++pos_;
    size_t p0 = pos_;
    while (std::islower(static_cast<unsigned char>(peek())))
      ++pos_;
    std::string_view prefix = line_.substr(p0, pos_ - p0);
    std::optional<RegClass> cls;
    for (unsigned c = 0; c < kNumRegClasses; ++c)
      if (vregPrefix(static_cast<RegClass>(c)).substr(1) == prefix)
        cls = static_cast<RegClass>(c);
    if (!cls)
      return error(start, "unknown virtual register class '%" + std::string(prefix) +
                              "' (expected %r, %ur, %p, %up or %b)");
    uint32_t n = 0;
    if (!parseUnsignedDec(n))
      return false;
    o = Operand::vreg(*cls, n);
    return parseRegSuffix(o, start);
  }
  // Physical register: the name up to the first non-alphanumeric character.
  size_t p0 = pos_;
  while (std::isalpha(static_cast<unsigned char>(peek())))
    ++pos_;
  std::string_view letters = line_.substr(p0, pos_ - p0);
  for (unsigned c = 0; c < kNumRegClasses; ++c) {
    RegClass rc = static_cast<RegClass>(c);
    if (!fixedRegName(rc).empty() && letters == fixedRegName(rc) &&
        !std::isdigit(static_cast<unsigned char>(peek()))) {
      o = Operand::fixed(rc);
      return parseRegSuffix(o, start);
    }
  }
  for (unsigned c = 0; c < kNumRegClasses; ++c) {
    RegClass rc = static_cast<RegClass>(c);
    if (letters == pregPrefix(rc) && std::isdigit(static_cast<unsigned char>(peek()))) {
      uint32_t n = 0;
      if (!parseUnsignedDec(n))
        return false;
      o = Operand::preg(rc, n);
      return parseRegSuffix(o, start);
    }
  }
  pos_ = start;
  return error(start, "expected a register");
}

// True when the identifier starting at pos_ spells a physical register.
static bool spellsPhysReg(std::string_view id) {
  size_t i = 0;
  while (i < id.size() && std::isalpha(static_cast<unsigned char>(id[i])))
    ++i;
  std::string_view letters = id.substr(0, i);
  std::string_view rest = id.substr(i);
  for (unsigned c = 0; c < kNumRegClasses; ++c) {
    RegClass rc = static_cast<RegClass>(c);
    if (!fixedRegName(rc).empty() && letters == fixedRegName(rc) &&
        (rest.empty() || rest[0] == '.'))
      return true;
    if (letters == pregPrefix(rc) && !rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0])))
      return true;
  }
  return false;
}

bool Parser::parseOperand(Operand &o, uint32_t block, uint32_t instr, uint32_t index) {
  skipSpace();
  size_t start = pos_;
  uint8_t mods = 0;
  for (;;) {
    char c = peek();
    if (c == '^' && !mods)
      mods |= OM_IMPLICIT;
    else if (c == '!' && !(mods & OM_NOT))
      mods |= OM_NOT;
    else if (c == '~' && !(mods & OM_INV))
      mods |= OM_INV;
    else if (c == '-' && !std::isdigit(static_cast<unsigned char>(peek(1))) && !(mods & OM_NEG))
      mods |= OM_NEG;
    else
      break;
    ++pos_;
  }
  bool abs = false;
  if (peek() == '|') {
    abs = true;
    mods |= OM_ABS;
    ++pos_;
  }
  size_t baseCol = pos_;
  char c = peek();
  if (c == '\0')
    return errorHere("expected an operand");
  if (c == '%') {
    if (!parseRegister(o) || !noteVReg(*cur_, o, baseCol))
      return false;
  } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
    if (c == '0' && (peek(1) == 'f' || peek(1) == 'd')) {
      bool is64 = peek(1) == 'd';
      pos_ += 2;
      size_t digits = is64 ? 16 : 8;
      uint64_t bits = 0;
      for (size_t i = 0; i < digits; ++i) {
        char h = static_cast<char>(std::tolower(static_cast<unsigned char>(peek())));
        if (!std::isxdigit(static_cast<unsigned char>(h)))
          return error(baseCol, std::string("a float constant needs exactly ") +
                                    (is64 ? "16" : "8") + " hex digits after '0" +
                                    (is64 ? "d'" : "f'"));
        bits = bits * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : h - 'a' + 10);
        ++pos_;
      }
      if (isIdentChar(peek()))
        return errorHere("too many digits in float constant");
      o = is64 ? Operand::fimm64(bits) : Operand::fimm32(static_cast<uint32_t>(bits));
    } else {
      int64_t v = 0;
      if (!parseInt(v))
        return false;
      o = Operand::intImm(v);
    }
  } else if (c == '`' && peek(1) == '(') {
    pos_ += 2;
    size_t n = line_.find(')', pos_);
    if (n == std::string_view::npos || n == pos_)
      return errorHere("expected a function name and ')' in a call target `(name)");
    o = Operand::func(cur_->calleeIndex(line_.substr(pos_, n - pos_)));
    pos_ = n + 1;
  } else if (c == 'c' && peek(1) == '[') {
    pos_ += 2;
    int64_t bank = 0, off = 0;
    if (!parseInt(bank))
      return false;
    if (bank < 0 || bank > 0xFFFF)
      return error(baseCol, "constant bank number out of range");
    if (!consume(']') || !consume('['))
      return errorHere("expected '][' in constant-bank reference c[bank][offset]");
    skipSpace();
    Operand index;
    if (peek() == '%' || (isIdentStart(peek()) && spellsPhysReg(line_.substr(pos_)))) {
      // c[bank][index+offset] (LDC with a register index)
      size_t xcol = pos_;
      if (!parseRegister(index) ||
          (index.kind == OperandKind::VReg && !noteVReg(*cur_, index, xcol)))
        return false;
      if (index.sub != kWholeReg || (index.reg >= 0xFFFFFFu && index.reg != kFixedReg))
        return error(xcol, "a constant-bank index must be a whole register");
      skipSpace();
      if (peek() == '+' || peek() == '-') {
        bool neg = peek() == '-';
        ++pos_;
        skipSpace();
        if (!parseInt(off))
          return false;
        if (neg)
          off = -off;
      }
      if (!consume(']'))
        return errorHere("expected ']' after constant-bank offset");
    } else if (!parseInt(off) || !consume(']')) {
      return failed_ ? false : errorHere("expected ']' after constant-bank offset");
    }
    if (off < INT32_MIN || off > UINT32_MAX)
      return error(baseCol, "constant-bank offset does not fit in 32 bits");
    o = Operand::cbank(static_cast<uint32_t>(bank), off, index);
  } else if (c == '[' || line_.substr(pos_).starts_with("desc[")) {
    Operand desc;
    if (c != '[') {
      pos_ += 5;
      skipSpace();
      size_t dcol = pos_;
      if (!parseRegister(desc) || !noteVReg(*cur_, desc, dcol))
        return false;
      if (desc.sub != kWholeReg || (desc.reg >= 0xFFFFFFu && desc.reg != kFixedReg))
        return error(dcol, "a memory descriptor must be a whole register");
      if (!consume(']') || !consume('['))
        return failed_ ? false : errorHere("expected '][' after the memory descriptor");
    } else {
      ++pos_;
    }
    skipSpace();
    Operand base;
    int64_t off = 0;
    if (peek() == '%' || (isIdentStart(peek()) && spellsPhysReg(line_.substr(pos_)))) {
      size_t bcol = pos_;
      if (!parseRegister(base))
        return false;
      if (base.kind == OperandKind::VReg && !noteVReg(*cur_, base, bcol))
        return false;
      skipSpace();
      if (peek() == '+' || peek() == '-') {
        bool neg = peek() == '-';
        ++pos_;
        skipSpace();
        if (peek() == '-')
          return errorHere("expected an offset");
        if (!parseInt(off))
          return false;
        if (neg)
          off = -off;
      }
    } else if (!parseInt(off)) {
      return false;
    }
    if (off < INT32_MIN || off > INT32_MAX)
      return error(baseCol, "memory offset does not fit in 32 bits");
    if (!consume(']'))
      return errorHere("expected ']' to close the memory address");
    o = Operand::mem(base, static_cast<int32_t>(off), desc);
  } else if (isIdentStart(c)) {
    std::string_view id = line_.substr(pos_);
    size_t n = 0;
    while (n < id.size() && isIdentChar(id[n]))
      ++n;
    id = id.substr(0, n);
    if (id.starts_with("SR_")) {
      pos_ += n;
      SpecialReg r;
      if (!lookupSpecialReg(id, r))
        return error(baseCol, "unknown special register '" + std::string(id) + "'");
      o = Operand::sreg(r);
    } else if (spellsPhysReg(id)) {
      if (!parseRegister(o))
        return false;
    } else {
      pos_ += n;
      std::string_view label = id;
      if (label.ends_with(".reuse"))
        return error(baseCol, "'.reuse' applies to registers only");
      o = Operand::block(0);
      pending_.push_back({block, instr, index, std::string(label), lineNo_,
                          static_cast<uint32_t>(baseCol + 1)});
    }
  } else {
    return error(baseCol, std::string("unexpected character '") + c + "' in operand");
  }
  if (abs && !consume('|'))
    return errorHere("expected '|' to close the absolute value");
  if (line_.substr(pos_).starts_with(".reuse")) {
    if (!o.isReg())
      return errorHere("'.reuse' applies to registers only");
    pos_ += 6;
    mods |= OM_REUSE;
  }
  o.mods |= mods;
  (void)start;
  return true;
}

bool Parser::parseFunctionAttrs(Function &f) {
  for (;;) {
    skipSpace();
    if (!isIdentStart(peek()))
      return true;
    size_t col = pos_;
    std::string_view key = readIdent();
    if (peek() != '=')
      return errorHere("expected '=' after function attribute '" + std::string(key) + "'");
    ++pos_;
    uint32_t v = 0;
    if (!parseUnsignedDec(v))
      return false;
    if (key == "maxreg") {
      f.maxRegs = v;
    } else if (key == "local") {
      f.frame.localBytes = v;
    } else if (key == "localalign") {
      f.frame.localAlign = v;
    } else if (key == "framealign") {
      f.minFrameAlign = v;
    } else if (key == "frame") {
      f.frame.size = v;
    } else if (key == "spill") {
      uint32_t st = 0, ld = 0;
      if (peek() != '/' || (++pos_, !parseUnsignedDec(st)) || peek() != '/' ||
          (++pos_, !parseUnsignedDec(ld)))
        return failed_ ? false : errorHere("expected spill=SLOTS/STORES/LOADS");
      f.frame.spillSlotBytes = v, f.frame.spillStoreBytes = st, f.frame.spillLoadBytes = ld;
    } else {
      return error(col, "unknown function attribute '" + std::string(key) + "'");
    }
  }
}

bool Parser::noteVReg(Function &f, const Operand &o, size_t col) {
  if (o.kind != OperandKind::VReg)
    return true;
  if (o.reg >= 1u << 24)
    return error(col, "virtual register number too large");
  bool fresh = o.reg >= f.numRegs(o.cls) || f.regInfo(o.cls, o.reg).width == 0;
  RegInfo &ri = f.declareReg(o.cls, o.reg, o.width);
  if (!fresh && ri.width != o.width)
    return error(col, "virtual register " + std::string(vregPrefix(o.cls)) +
                          std::to_string(o.reg) + " has width " + std::to_string(ri.width * 32) +
                          " elsewhere but " + std::to_string(o.width * 32) + " here");
  return true;
}

bool Parser::looksLikeCtrl() const {
  std::string_view s = line_.substr(pos_);
  if (s.size() < 21 || !s.starts_with("[B"))
    return false;
  for (size_t i = 2; i < 8; ++i)
    if (s[i] != '-' && !(s[i] >= '0' && s[i] <= '5'))
      return false;
  return s[8] == ':';
}

bool Parser::parseCtrl(CtrlCode &c) {
  size_t start = pos_;
  std::string_view s = line_.substr(pos_);
  auto bad = [&]() {
    return error(start, "malformed control code (expected e.g. [B------:R-:W0:Y:S04])");
  };
  // [B012345:R0:W0:Y:S04] is 21 characters.
  if (s.size() < 21 || s.substr(8, 2) != ":R" || s.substr(11, 2) != ":W" || s[14] != ':' ||
      s.substr(16, 2) != ":S" || s[20] != ']')
    return bad();
  c = CtrlCode{};
  c.valid = true;
  for (unsigned i = 0; i < 6; ++i) {
    char ch = s[2 + i];
    if (ch == char('0' + i))
      c.waitMask |= 1u << i;
    else if (ch != '-')
      return bad();
  }
  auto barrier = [&](char ch, uint8_t &out) {
    if (ch == '-')
      out = CtrlCode::kNoBarrier;
    else if (ch >= '0' && ch <= '5')
      out = static_cast<uint8_t>(ch - '0');
    else
      return false;
    return true;
  };
  if (!barrier(s[10], c.readBarrier) || !barrier(s[13], c.writeBarrier))
    return bad();
  if (s[15] != 'Y' && s[15] != '-')
    return bad();
  c.yield = s[15] == 'Y';
  if (!std::isdigit(static_cast<unsigned char>(s[18])) || !std::isdigit(static_cast<unsigned char>(s[19])))
    return bad();
  unsigned stall = (s[18] - '0') * 10 + (s[19] - '0');
  if (stall > 15)
    return error(start + 18, "stall count must be 0-15");
  c.stall = static_cast<uint8_t>(stall);
  pos_ += 21;
  return true;
}

bool Parser::parseInstr(Function &f, uint32_t block) {
  Block &blk = f.blocks[block];
  uint32_t instrIdx = static_cast<uint32_t>(blk.instrs.size());
  Instr in;
  in.srcLine = lineNo_;
  skipSpace();
  if (peek() == '@') {
    ++pos_;
    size_t gcol = pos_;
    if (!parseOperand(in.guard, block, instrIdx, 0))
      return false;
    if (!in.guard.isReg() || !isPredicateClass(in.guard.cls) ||
        (in.guard.mods & ~OM_NOT) != 0 || in.guard.width != 1 || in.guard.sub != kWholeReg)
      return error(gcol, "a guard must be a predicate register, optionally negated with '!'");
  }
  // Definitions, when the line has an '='.
  if (line_.find('=', pos_) != std::string_view::npos) {
    for (;;) {
      Operand d;
      if (!parseOperand(d, block, instrIdx, static_cast<uint32_t>(in.ops.size())))
        return false;
      in.ops.push_back(d);
      if (consume(','))
        continue;
      if (consume('='))
        break;
      return errorHere("expected ',' or '=' after a definition");
    }
    in.numDefs = static_cast<uint8_t>(in.ops.size());
  }
  skipSpace();
  size_t opcol = pos_;
  std::string_view word = readIdent();
  if (word.empty())
    return errorHere("expected an opcode");
  size_t dot = word.find('.');
  std::string_view opname = word.substr(0, dot);
  if (!lookupOpcode(opname, in.op))
    return error(opcol, "unknown opcode '" + std::string(opname) + "'");
  size_t mcol = opcol + opname.size();
  while (dot != std::string_view::npos) {
    size_t next = word.find('.', dot + 1);
    std::string_view m = word.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1);
    Modifier mod;
    if (!lookupModifier(m, mod))
      return error(mcol + 1, "unknown modifier '." + std::string(m) + "' on " + std::string(opname));
    in.mods.push_back(mod);
    mcol += m.size() + 1;
    dot = next;
  }
  // Uses.
  skipSpace();
  if (!atEnd() && peek() != '{' && !looksLikeCtrl()) {
    for (;;) {
      Operand u;
      if (!parseOperand(u, block, instrIdx, static_cast<uint32_t>(in.ops.size())))
        return false;
      in.ops.push_back(u);
      if (!consume(','))
        break;
    }
  }
  if (consume('{')) {
    for (;;) {
      skipSpace();
      size_t fcol = pos_;
      std::string_view name = readIdent();
      bool found = false;
      for (unsigned b = 0; b < IF_NumFlags; ++b)
        if (instrFlagName(static_cast<InstrFlag>(b)) == name) {
          in.flags |= static_cast<uint16_t>(1u << b);
          found = true;
        }
      if (!found)
        return error(fcol, "unknown instruction flag '" + std::string(name) + "'");
      if (consume(','))
        continue;
      if (consume('}'))
        break;
      return errorHere("expected ',' or '}' in the instruction flags");
    }
  }
  skipSpace();
  if (peek() == '[' && !parseCtrl(in.ctrl))
    return false;
  if (!atEnd())
    return errorHere("unexpected '" + std::string(line_.substr(pos_, 1)) + "' after the instruction");
  if (in.ops.size() > 255)
    return error(0, "too many operands");
  blk.instrs.push_back(std::move(in));
  return true;
}

bool Parser::finishFunction(Function &f) {
  for (const PendingLabel &p : pending_) {
    auto it = blockIndex_.find(p.name);
    int32_t b = it == blockIndex_.end() ? kNoBlock : static_cast<int32_t>(it->second);
    if (b == kNoBlock) {
      if (!failed_)
        diag_.error(SourceLoc{file_, p.line, p.column},
                    "unknown block label '" + p.name + "' in @" + f.name);
      failed_ = true;
      return false;
    }
    Instr &in = f.blocks[p.block].instrs[p.instr];
    in.ops[p.operand].reg = static_cast<uint32_t>(b);
  }
  pending_.clear();
  blockIndex_.clear();
  buildCFG(f);
  f.recomputeRegTable();
  return true;
}

bool Parser::run(Program &out) {
  std::set<std::string, std::less<>> functionNames;
  Function fn;
  bool inFunction = false;
  int32_t curBlock = -1;
  uint32_t headerLine = 0;
  size_t lineStart = 0;
  while (lineStart <= text_.size() && !failed_) {
    size_t nl = text_.find('\n', lineStart);
    std::string_view raw =
        text_.substr(lineStart, nl == std::string_view::npos ? std::string_view::npos : nl - lineStart);
    lineStart = nl == std::string_view::npos ? text_.size() + 1 : nl + 1;
    ++lineNo_;
    size_t semi = raw.find(';');
    line_ = semi == std::string_view::npos ? raw : raw.substr(0, semi);
    pos_ = 0;
    if (line_.find('\0') != std::string_view::npos)
      return error(line_.find('\0'), "NUL character in input");
    if (atEnd())
      continue;
    if (!inFunction) {
      size_t kcol = pos_;
      std::string_view kw = readIdent();
      if (kw != "func" && kw != "kernel")
        return error(kcol, "expected 'func' or 'kernel' to start a function");
      fn = Function{};
      cur_ = &fn;
      blockIndex_.clear();
      pending_.clear();
      fn.isKernel = kw == "kernel";
      skipSpace();
      if (peek() != '@')
        return errorHere("expected '@' before the function name");
      ++pos_;
      size_t ncol = pos_;
      std::string_view name = readIdent();
      if (name.empty())
        return errorHere("expected a function name");
      if (functionNames.count(name))
        return error(ncol, "function @" + std::string(name) + " is defined twice");
      functionNames.insert(std::string(name));
      fn.name = std::string(name);
      if (!parseFunctionAttrs(fn))
        return false;
      if (!consume('{'))
        return errorHere("expected '{' after the function name");
      if (!atEnd())
        return errorHere("expected the end of the line after '{'");
      inFunction = true;
      curBlock = -1;
      headerLine = lineNo_;
      continue;
    }
    if (peek() == '}') {
      ++pos_;
      if (!atEnd())
        return errorHere("unexpected text after '}'");
      if (fn.blocks.empty())
        return error(0, "function @" + fn.name + " has no blocks");
      if (!finishFunction(fn))
        return false;
      out.functions.push_back(std::move(fn));
      cur_ = nullptr;
      inFunction = false;
      continue;
    }
    // A label line: IDENT ':' alone.
    size_t save = pos_;
    if (isIdentStart(peek())) {
      std::string_view id = readIdent();
      if (peek() == ':') {
        ++pos_;
        skipSpace();
        bool noUnroll = false;
        if (line_.substr(pos_).starts_with("{nounroll}")) {
          noUnroll = true;
          pos_ += std::string_view("{nounroll}").size();
        }
        if (!atEnd())
          return errorHere("a block label must be alone on its line (or followed by {nounroll})");
        if (id.starts_with("SR_") || spellsPhysReg(id) || id.starts_with("c["))
          return error(save, "'" + std::string(id) + "' is reserved and cannot name a block");
        if (!blockIndex_.try_emplace(id, static_cast<uint32_t>(fn.blocks.size())).second)
          return error(save, "block '" + std::string(id) + "' is defined twice in @" + fn.name);
        fn.blocks.emplace_back();
        fn.blocks.back().name = std::string(id);
        fn.blocks.back().noUnroll = noUnroll;
        curBlock = static_cast<int32_t>(fn.blocks.size() - 1);
        continue;
      }
    }
    pos_ = save;
    if (curBlock < 0)
      return errorHere("instruction before the first block label");
    if (!parseInstr(fn, static_cast<uint32_t>(curBlock)))
      return false;
  }
  if (failed_)
    return false;
  if (inFunction) {
    if (!failed_)
      diag_.error(SourceLoc{file_, headerLine, 1},
                  "function @" + fn.name + " is not closed with '}'");
    return false;
  }
  return true;
}

} // namespace

bool parseProgram(std::string_view text, const std::string &fileName, DiagEngine &diag,
                  Program &out) {
  Parser p(text, fileName, diag);
  return p.run(out);
}

} // namespace ptxmini::ori
