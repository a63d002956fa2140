//===- tests/unit/frontend/ptx_lexer_test.cpp - hand lexer == generated lexer ----------===//
//
// frontend/ptx_lexer.cpp codes the lexer rules of grammar/PTX.g4 by hand for speed. The
// generated PTXLexer is the reference: on every PTX file of the source tree and on a list of
// edge cases (number forms that fall back to shorter rules, unterminated strings and comments,
// scoped words, glued `.reg.b16`), both must give the same tokens with the same text, line,
// column and character range. Runs fail on the first difference and print it.
//===----------------------------------------------------------------------------------===//
#include "frontend/ptx_lexer.h"

#include "PTXLexer.h"
#include "antlr4-runtime.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Tok {
  size_t type, line, col, start, stop;
  std::string text;
  bool operator==(const Tok &) const = default;
};

std::string show(const Tok &t) {
  std::ostringstream os;
  os << "type " << t.type << " '" << t.text << "' at " << t.line << ":" << t.col << " ["
     << t.start << "," << t.stop << "]";
  return os.str();
}

/// The reference: the generated lexer, plus the split of a declaration keyword glued to the
/// type after it (`.reg.b16` -> REG ".reg", DOT_ID ".b16"), which the grammar cannot express.
std::vector<Tok> reference(const std::string &text, size_t line, size_t col) {
  using L = ptxmini_gen::PTXLexer;
  antlr4::ANTLRInputStream in(text);
  L lex(&in);
  lex.removeErrorListeners();
  lex.setLine(line);
  lex.setCharPositionInLine(col);
  std::vector<Tok> out;
  static const std::pair<std::string, size_t> kGlued[] = {
      {".reg", L::REG},       {".param", L::PARAM}, {".global", L::GLOBAL}, {".shared", L::SHARED},
      {".const", L::CONST}, {".local", L::LOCAL},   {".align", L::ALIGN}};
  while (true) {
    auto t = lex.nextToken();
    Tok k{t->getType(), t->getLine(), t->getCharPositionInLine(), t->getStartIndex(),
          t->getStopIndex(), t->getType() == antlr4::Token::EOF ? "<EOF>" : t->getText()};
    bool split = false;
    if (k.type == L::DOT_ID)
      for (const auto &[kw, type] : kGlued)
        if (k.text.size() > kw.size() && k.text.compare(0, kw.size(), kw) == 0 &&
            k.text[kw.size()] == '.') {
          out.push_back(Tok{type, k.line, k.col, k.start, k.start + kw.size() - 1, kw});
          out.push_back(Tok{L::DOT_ID, k.line, k.col + kw.size(), k.start + kw.size(), k.stop,
                            k.text.substr(kw.size())});
          split = true;
          break;
        }
    if (!split)
      out.push_back(k);
    if (k.type == antlr4::Token::EOF)
      break;
  }
  return out;
}

std::vector<Tok> handLexed(const std::string &text, size_t line, size_t col) {
  std::vector<ptxmini::frontend::LexToken> lexed =
      ptxmini::frontend::lexPtx(text, uint32_t(line), uint32_t(col));
  ptxmini::frontend::PtxTokenSource src(text, lexed);
  std::vector<Tok> out;
  while (true) {
    auto t = src.nextToken();
    out.push_back(Tok{t->getType(), t->getLine(), t->getCharPositionInLine(), t->getStartIndex(),
                      t->getStopIndex(), t->getText()});
    if (t->getType() == antlr4::Token::EOF)
      break;
  }
  return out;
}

void expectSame(const std::string &text, const std::string &what, size_t line = 1,
                size_t col = 0) {
  std::vector<Tok> a = reference(text, line, col), b = handLexed(text, line, col);
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    ASSERT_EQ(a[i], b[i]) << what << ": token " << i << ": generated " << show(a[i])
                          << ", hand " << show(b[i]);
  ASSERT_EQ(a.size(), b.size()) << what;
}

} // namespace

// Forms where the longest match falls back to a shorter rule or another token type.
TEST(PtxLexer, EdgeCasesMatchGeneratedLexer) {
  const char *cases[] = {
      "0f3F800000 0f3F80000 0F3F800000AB 0d3FF0000000000000 0d3FF00000 0dZZ",
      "0x1F 0X1fu 0x 0xg 0b101 0b12 0b 0b2 00x5 12u 12U 1.5 1. 1.x 1.e5 1.5e 1e 1e+ 1e+5 1E-3u",
      "2.u32 0e5 0x1.5 .5 . .. .% .$x ._a .a::b .a::b.c::d .a:: .a::1 .a.1.b .a. .a.:: %r1.x",
      "ld.global.nc.v4.f32 fence.proxy.async::generic cp.async.bulk.shared::cluster.global",
      "a::b a.b::c a.b:: $L__BB0_1: %tid.x _ __x $ % %%",
      ".reg.b16 .reg .b16 .regx .reg.  .param.u64 .global.align .shared.v4.u32 .align.8 .const.x",
      ".version .versions .target .address_size .file .loc .section .pragma .alias .entry .func",
      ".visible .extern .weak .common .tex .attribute .callprototype .calltargets .branchtargets",
      ".noreturn .ptr .u32 .v4.f32 .b8",
      "\"abc\" \"a\\\"b\" \"a\\\nb\" \"unterminated\n \"tab\there\" \"x\\",
      "a // comment\nb /* block\n comment */ c /* unterminated\n d",
      "<< >> < > <<< >>> = ~ & ^ | ! @ , ; : ( ) { } [ ] + - * /",
      "# ` ? \\ '\x01' \x7f end",
      "a\r\nb\tc\fd\r e",
      "",
      "   ",
  };
  for (const char *c : cases)
    expectSame(c, std::string("case: ") + c);
  // a chunk that starts mid-line and on a later line keeps the file's coordinates
  expectSame("  add.s32 %r1, %r2, 4;\n  ret;", "offset chunk", 17, 9);
}

// Every PTX file in the source tree (examples, exec kernels, lit and conformance inputs).
TEST(PtxLexer, SourceTreeFilesMatchGeneratedLexer) {
  unsigned files = 0;
  for (const auto &e : std::filesystem::recursive_directory_iterator(PTXMINI_SOURCE_DIR "/tests")) {
    if (!e.is_regular_file() || e.path().extension() != ".ptx")
      continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    bool ascii = true;
    for (unsigned char c : text)
      ascii &= c < 0x80;
    if (!ascii)
      continue; // refused before lexing (non-ASCII is fatal)
    expectSame(text, e.path().string());
    ++files;
  }
  EXPECT_GT(files, 50u);
}

// ---- the direct path: plain body statements built from tokens, not from the parse tree ----
#include "frontend/frontend.h"
#include "frontend/ptx_ast.h"

namespace {

using namespace ptxmini;

void dumpOperand(std::ostream &os, const ptx::Operand &o) {
  os << "(" << o.value.index() << "@" << o.column << " ";
  std::visit(
      [&](const auto &v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, ptx::RegOperand>)
          os << v.name << (v.negated ? "!" : "");
        else if constexpr (std::is_same_v<T, ptx::ImmOperand>)
          os << v.value;
        else if constexpr (std::is_same_v<T, ptx::FloatOperand>)
          os << v.bits << "/" << v.isDouble;
        else if constexpr (std::is_same_v<T, ptx::SymbolOperand>)
          os << v.name << "+" << v.offset;
        else if constexpr (std::is_same_v<T, ptx::AddressOperand>) {
          os << int(v.baseKind) << v.base << "+" << v.offset;
          for (const ptx::Operand &e : v.extra)
            dumpOperand(os, e);
        } else if constexpr (std::is_same_v<T, ptx::VectorOperand> ||
                             std::is_same_v<T, ptx::ListOperand>) {
          for (const ptx::Operand &e : v.elems)
            dumpOperand(os, e);
        } else if constexpr (std::is_same_v<T, ptx::PairOperand>)
          os << v.first << "|" << v.second;
      },
      o.value);
  os << ")";
}

void dumpBlock(std::ostream &os, const ptx::Block &b) {
  os << "{" << b.line << ":" << b.column << "\n";
  for (const ptx::Statement &s : b.statements) {
    if (s.is<ptx::Instruction>()) {
      const auto &i = s.as<ptx::Instruction>();
      os << "I " << i.line << ":" << i.column << " " << i.opcode << " #" << i.tableIndex;
      if (i.guard)
        os << " @" << (i.guard->negated ? "!" : "") << i.guard->predicate;
      for (const ptx::Modifier &m : i.modifiers)
        os << " ." << int(m.kind) << m.text << int(m.type) << int(m.space) << m.vectorWidth;
      for (const ptx::Operand &o : i.operands)
        dumpOperand(os, o);
    } else if (s.is<ptx::Label>()) {
      const auto &l = s.as<ptx::Label>();
      os << "L " << l.line << ":" << l.column << " " << l.name;
    } else if (s.is<ptx::VarDecl>()) {
      const auto &d = s.as<ptx::VarDecl>();
      os << "V " << d.line << ":" << d.column << " " << d.name << " " << int(d.space) << " "
         << int(d.type) << " " << d.rangeCount;
    } else if (s.is<ptx::Directive>()) {
      const auto &d = s.as<ptx::Directive>();
      os << "D " << d.line << ":" << d.column << " " << int(d.kind) << " " << d.file << " "
         << d.locLine << " " << d.locColumn << " " << d.label;
      for (const std::string &a : d.args)
        os << " " << a;
    } else if (s.is<ptx::Block>()) {
      dumpBlock(os, s.as<ptx::Block>());
    }
    os << "\n";
  }
  os << "}";
}

/// The module's functions and bodies as text (everything the direct path builds), or the
/// diagnostics when it is refused.
std::string parseDump(const std::string &text, bool direct) {
  std::ostringstream diags, os;
  DiagEngine diag("ptxas-mini");
  diag.setStream(diags);
  frontend::FrontendOptions opts;
  opts.arch = "sm_90a";
  opts.directStatements = direct;
  std::unique_ptr<ptx::Module> m;
  try {
    m = frontend::parseText(text, "t.ptx", opts, diag);
  } catch (const FatalError &) {
  }
  os << "diags: " << diags.str() << "\n";
  if (m) {
    for (const ptx::VarDecl &g : m->globals) {
      os << "G " << g.name << " " << g.line << ":" << g.column << " " << g.hasInit;
      for (const ptx::InitValue &v : g.init)
        os << " " << int(v.kind) << ":" << v.intValue << ":" << v.floatValue.bits << ":"
           << v.symbol << "+" << v.offset;
      os << "\n";
    }
  }
  if (m)
    for (const ptx::Function &f : m->functions) {
      os << "F " << f.name << " " << f.hasBody << "\n";
      dumpBlock(os, f.body);
      os << "\n";
    }
  return os.str();
}

const char *kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"a.cu\"\n";

} // namespace

// Every PTX file in the source tree gives the same AST (and the same diagnostics) with and
// without the direct path.
TEST(PtxDirectPath, SourceTreeFilesSameAst) {
  unsigned files = 0;
  for (const auto &e : std::filesystem::recursive_directory_iterator(PTXMINI_SOURCE_DIR "/tests")) {
    if (!e.is_regular_file() || e.path().extension() != ".ptx")
      continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string a = parseDump(ss.str(), true), b = parseDump(ss.str(), false);
    ASSERT_EQ(a, b) << e.path();
    ++files;
  }
  EXPECT_GT(files, 50u);
}

// The direct path takes the plain forms and leaves the rest to the parser, interleaved in one
// body; errors found while building (unknown opcode or modifier, bad integer) are the same.
TEST(PtxDirectPath, MixedBodiesAndErrorsSameAst) {
  const std::string body =
      std::string(kHeader) +
      ".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<9>;\n .reg .pred %p<3>;\n"
      " .reg .b64 %rd<4>;\n ld.param.u64 %rd1, [p];\n ld.param.u64 %rd2, [p+8];\n"
      " ld.global.u32 %r1, [%rd1+-4];\n ld.global.u32 %r2, [%rd1-4];\n ld.global.u32 %r3, [0x10];\n"
      "$L__BB0_1:\n @!%p1 bra $L__BB0_1;\n @%p2 add.s32 %r4, %r1, -1;\n .loc 1 2 3\n"
      " mov.b64 {%r5, %r6}, %rd1;\n setp.ne.s32 %p1|%p2, %r1, 0;\n mov.f32 %r7, 0f3F800000;\n"
      " add.s32 %r4, %r1, 4+4;\n { .reg .b32 %t; mov.b32 %t, 1; }\n mov.pred %p1, !%p2;\n"
      " mov.f64 %rd3, -0d3FF0000000000000;\n ret;\n}\n";
  EXPECT_EQ(parseDump(body, true), parseDump(body, false));
  EXPECT_NE(parseDump(body, true).find("I 26:2 ret"), std::string::npos) << parseDump(body, true);
  // numeric initializer lists (flattened, signs applied) next to symbolic ones
  const std::string tables = std::string(kHeader) +
                             ".global .align 4 .b8 t8[7] = {1, -2, 0x3, {4, 5}, {}, 0b11};\n"
                             ".global .f32 tf[3] = {1.5, -0f3F800000, 2};\n"
                             ".global .u64 tp[2] = {generic(t8), t8+4};\n"
                             ".global .u32 a = 5, b[2] = {7, 8};\n";
  std::string t = parseDump(tables, true);
  EXPECT_EQ(t, parseDump(tables, false));
  EXPECT_NE(t.find("G t8 5:22 1 0:1:"), std::string::npos) << t;
  EXPECT_NE(t.find("G b "), std::string::npos) << t;
  const std::string bad = std::string(kHeader) +
                          ".visible .entry k()\n{\n .reg .b32 %r<3>;\n frob.s32 %r1, %r2;\n"
                          " add.bogus.s32 %r1, %r2, %r2;\n add.s32 %r1, %r2, 99999999999999999999999;\n"
                          " mov.u32 %r1, 099;\n ret;\n}\n";
  std::string a = parseDump(bad, true);
  const std::string badTable = std::string(kHeader) + ".global .u32 t[3] = {1, 099, 3};\n";
  EXPECT_EQ(parseDump(badTable, true), parseDump(badTable, false));
  EXPECT_NE(parseDump(badTable, true).find("Invalid integer constant '099'"), std::string::npos);
  EXPECT_EQ(a, parseDump(bad, false));
  EXPECT_NE(a.find("Not a name of any known instruction"), std::string::npos) << a;
  const std::string syntax = std::string(kHeader) +
                             ".visible .entry k()\n{\n add.s32 %r1, , %r2;\n ret;\n}\n";
  a = parseDump(syntax, true);
  EXPECT_EQ(a, parseDump(syntax, false));
  EXPECT_NE(a.find("Parsing error"), std::string::npos) << a;
}
