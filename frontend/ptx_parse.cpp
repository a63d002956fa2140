//===- frontend/ptx_parse.cpp - PTX text to AST, one chunk at a time -------------------===//
///
/// \file
/// For each chunk from splitTopLevel():
///   1. lex (ptx_lexer.h, a hand-coded copy of the grammar's lexer rules), set aside the
///      plain body statements and numeric initializer lists that are built straight from
///      the tokens (FastScanner below), and parse the rest with SLL prediction and a
///      bail-out error strategy (the grammar is LL(1)/LL(2) almost everywhere);
///   2. on failure, parse again with full LL and ANTLR's default recovery to get the
///      precise offending token for the message;
///   3. walk the tree (ChunkBuilder) and append AST nodes to the module, merging in the
///      statements built from tokens by source position;
///   4. destroy the parser, which frees the tree and the tokens.
/// Chunks nested deeper than kMaxNesting are refused before parsing (the parser and the
/// builder recurse on nesting), so no input can exhaust the stack.
//===----------------------------------------------------------------------------------===//
#include "frontend/ptx_parse.h"

#include "frontend/ptx_chunker.h"
#include "frontend/ptx_instr_table.h"
#include "frontend/ptx_lexer.h"

#include "PTXLexer.h"
#include "PTXParser.h"
#include "antlr4-runtime.h"

#include <cmath>
#include <cstring>
#include <optional>

namespace ptxmini::frontend {
namespace {

using namespace ptxmini_gen;
using antlr4::ParserRuleContext;
using antlr4::Token;
using antlr4::tree::ParseTree;
using antlr4::tree::TerminalNode;
using P = PTXParser;

constexpr unsigned kMaxNesting = 200;

/// Turns ANTLR's syntax errors into ptxas-shaped diagnostics; keeps only the first one of
/// a chunk (the rest are mostly consequences of it).
class ErrorListener : public antlr4::BaseErrorListener {
public:
  ErrorListener(DiagEngine &diag, const std::string &file) : diag_(diag), file_(file) {}

  void syntaxError(antlr4::Recognizer *, Token *offending, size_t line, size_t col,
                   const std::string &, std::exception_ptr) override {
    if (count_++ != 0 || !report_)
      return;
    std::string near;
    if (offending && offending->getType() != Token::EOF)
      near = offending->getText();
    if (near.size() > 40)
      near = near.substr(0, 40);
    // HW (ptxas 13.0.88): an unterminated /* comment is "Parsing error near '': unexpected
    // EOF while scanning" at the line where the comment starts.
    bool eofInComment = false;
    if (offending && offending->getType() == P::SLASH)
      if (auto *src = dynamic_cast<PtxTokenSource *>(offending->getTokenSource()))
        eofInComment = src->unterminatedCommentAt(offending->getStartIndex());
    if (eofInComment)
      near.clear();
    diag_.parseError(SourceLoc{file_, static_cast<uint32_t>(line), static_cast<uint32_t>(col + 1)},
                "Parsing error near '" + near + "': " +
                    (eofInComment ? "unexpected EOF while scanning" : "syntax error"));
  }
  unsigned count() const { return count_; }
  void reset(bool report) {
    count_ = 0;
    report_ = report;
  }

private:
  DiagEngine &diag_;
  const std::string &file_;
  unsigned count_ = 0;
  bool report_ = true;
};

/// The tree only holds TerminalNodeImpl leaves when it is built (error nodes only appear
/// in trees that are thrown away), so an exact typeid test replaces dynamic_cast.
TerminalNode *asToken(ParseTree *t) {
  return typeid(*t) == typeid(antlr4::tree::TerminalNodeImpl) ? static_cast<TerminalNode *>(t)
                                                               : nullptr;
}
bool isToken(ParseTree *t, size_t type) {
  TerminalNode *tn = asToken(t);
  return tn && tn->getSymbol()->getType() == type;
}
size_t tokenType(ParseTree *t) {
  TerminalNode *tn = asToken(t);
  return tn ? tn->getSymbol()->getType() : 0;
}
/// The rule index of a child that is a rule context, or SIZE_MAX.
size_t ruleOf(ParseTree *t) {
  if (asToken(t))
    return SIZE_MAX;
  return static_cast<ParserRuleContext *>(t)->getRuleIndex();
}

/// A constant expression's value while it is folded.
struct Val {
  enum class Kind { Int, Float, Name, Bad } kind = Kind::Bad;
  int64_t i = 0;
  ptx::FloatOperand f;
  std::string name;
  bool negated = false;
  int64_t offset = 0;
};

/// A numeric atom as an initializer element; nullopt for anything else.
std::optional<ptx::InitValue> numericInit(const Val &v) {
  ptx::InitValue iv;
  if (v.kind == Val::Kind::Int) {
    iv.kind = ptx::InitValue::Kind::Int;
    iv.intValue = v.i;
  } else if (v.kind == Val::Kind::Float) {
    iv.kind = ptx::InitValue::Kind::Float;
    iv.floatValue = v.f;
  } else {
    return std::nullopt;
  }
  return iv;
}

// ---- the direct path for plain body statements ------------------------------------------------
//
// Most of a function body is instructions with plain operands, labels and `.loc` lines, and
// for those ANTLR's parse tree costs more than it gives (prediction, one context object per
// rule, the tree's teardown). scanFastBodies() recognises them in the token vector, before
// the parse: their tokens are left out of what the parser sees, and ChunkBuilder builds their
// AST straight from the tokens, merging them by source position with the statements the
// parser built. Everything else (declarations, directives, calls, any operand beyond the
// forms below) still goes through the grammar; a nested block's braces do too, and the
// statements inside it are taken the same way. The shapes are a subset of
// `statement`, so leaving them out never turns a valid chunk into an invalid one or the
// reverse; a chunk with a syntax error is parsed again whole by the error path.
//   instruction : ('@' '!'? ID)? ID (plainOperand (',' plainOperand)*)? ';'
//   plainOperand: ID | INT | HEX_FLOAT | DEC_FLOAT | '!' ID | '-' (INT|HEX_FLOAT|DEC_FLOAT)
//               | ID '|' ID | '{' atom (',' atom)* '}'
//               | '[' (ID | INT | ID ('+'|'-') INT | ID '+' '-' INT) ']'   (ID not `_`)
//   label       : ID ':'          (not when a directive that takes the label follows)
//   loc         : '.loc' INT INT INT   (without the inlined_at attributes)
// and, at the top level, an initializer list of numbers (the tables of curand and friends
// run to 200,000 elements; a parse-tree node, a token object and a context per element
// tripled the peak memory of such files):
//   '=' numList   with  numList : '{' (numElem (',' numElem)*)? '}',
//                       numElem : numList | INT | HEX_FLOAT | DEC_FLOAT | '-' (the same)
// whose tokens inside the outer braces are left out (the parser sees `= { }`).

/// One statement of a body built without the parser: tokens [first, end).
struct FastStmt {
  enum class Kind : uint8_t { Instruction, Label, Loc };
  Kind kind;
  uint32_t first, end;
};
/// The directly built statements of one function body, and where its '{' is.
struct FastBody {
  uint32_t line = 0, col = 0;
  std::vector<FastStmt> stmts;
};
/// A top-level numeric initializer list: tokens of its outer '{' and '}'.
struct FastInit {
  uint32_t open, close;
};

class FastScanner {
public:
  FastScanner(const std::vector<LexToken> &t, std::string_view text) : t_(t), s_(text) {}

  /// Fills `keep` (false for the tokens of directly built statements) and `bodies`; false
  /// when the chunk holds something this scan does not follow (then the parser gets it all).
  bool scan(std::vector<bool> &keep, std::vector<FastBody> &bodies,
            std::vector<FastInit> &inits) {
    int depth = 0;
    bool sawFunc = false; // .entry/.func since the last ';' or '}' at depth 0
    for (size_t i = 0; type(i) != kLexEof; ++i) {
      uint32_t ty = type(i);
      if (depth == 0 && (ty == P::ENTRY || ty == P::FUNC))
        sawFunc = true;
      else if (depth == 0 && ty == P::SEMI)
        sawFunc = false;
      else if (depth == 0 && ty == P::EQ && type(i + 1) == P::LBRACE) {
        if (size_t close = numList(i + 1)) {
          inits.push_back(FastInit{uint32_t(i + 1), uint32_t(close)});
          i = close;
          continue;
        }
      } else if (depth == 0 && ty == P::LBRACE && sawFunc) {
        size_t close = 0;
        if (!body(i, close, bodies))
          return false;
        i = close;
        sawFunc = false;
        continue;
      }
      if (ty == P::LPAREN || ty == P::LBRACK || ty == P::LBRACE)
        ++depth;
      else if (ty == P::RPAREN || ty == P::RBRACK || ty == P::RBRACE) {
        depth = depth > 0 ? depth - 1 : 0;
        if (depth == 0 && ty == P::RBRACE)
          sawFunc = false;
      }
    }
    keep.assign(t_.size(), true);
    for (const FastInit &in : inits)
      for (uint32_t k = in.open + 1; k < in.close; ++k)
        keep[k] = false;
    for (const FastBody &b : bodies)
      for (const FastStmt &st : b.stmts)
        for (uint32_t k = st.first; k < st.end; ++k)
          keep[k] = false;
    return true;
  }

private:
  const std::vector<LexToken> &t_;
  std::string_view s_;

  uint32_t type(size_t i) const { return i < t_.size() ? t_[i].type : kLexEof; }
  static bool isNumber(uint32_t ty) {
    return ty == P::INT || ty == P::HEX_FLOAT || ty == P::DEC_FLOAT;
  }
  static bool isAtom(uint32_t ty) { return ty == P::ID || isNumber(ty); }

  /// numList at i ('{'): the index of its '}', or 0 when it is not one.
  size_t numList(size_t i) const {
    ++i;
    if (type(i) == P::RBRACE)
      return i;
    while (true) {
      if (type(i) == P::LBRACE) {
        size_t close = numList(i);
        if (!close)
          return 0;
        i = close + 1;
      } else if (type(i) == P::MINUS && isNumber(type(i + 1))) {
        i += 2;
      } else if (isNumber(type(i))) {
        ++i;
      } else {
        return 0;
      }
      if (type(i) == P::RBRACE)
        return i;
      if (type(i) != P::COMMA)
        return 0;
      ++i;
    }
  }

  /// The ';' ending the statement at i (brackets balanced), or 0 when there is none before
  /// the body's end.
  size_t semicolon(size_t i) const {
    int d = 0;
    for (; type(i) != kLexEof; ++i) {
      uint32_t ty = type(i);
      if (ty == P::LPAREN || ty == P::LBRACK || ty == P::LBRACE)
        ++d;
      else if (ty == P::RPAREN || ty == P::RBRACK || ty == P::RBRACE) {
        if (d-- == 0)
          return 0;
      } else if (ty == P::SEMI && d == 0)
        return i;
    }
    return 0;
  }

  /// A body or nested block from its '{' at `open`; `close` = its '}'. Bodies are
  /// appended in the order of their '{' (a block before the blocks nested in it).
  bool body(size_t open, size_t &close, std::vector<FastBody> &bodies) {
    const size_t self = bodies.size();
    bodies.emplace_back();
    bodies[self].line = t_[open].line;
    bodies[self].col = t_[open].col;
    auto stmts = [&]() -> std::vector<FastStmt> & { return bodies[self].stmts; };
    size_t i = open + 1;
    // a label directly before a statement that goes to the parser goes with it
    auto deferred = [&] {
      if (!stmts().empty() && stmts().back().kind == FastStmt::Kind::Label &&
          stmts().back().end == i)
        stmts().pop_back();
    };
    while (true) {
      uint32_t ty = type(i);
      if (ty == P::RBRACE) {
        close = i;
        return true;
      }
      if (ty == P::ID && type(i + 1) == P::COLON) {
        stmts().push_back(FastStmt{FastStmt::Kind::Label, uint32_t(i), uint32_t(i + 2)});
        i += 2;
        continue;
      }
      if (ty == P::LOC) {
        if (!(type(i + 1) == P::INT && type(i + 2) == P::INT && type(i + 3) == P::INT))
          return false;
        if (type(i + 4) != P::COMMA) {
          stmts().push_back(FastStmt{FastStmt::Kind::Loc, uint32_t(i), uint32_t(i + 4)});
          i += 4;
          continue;
        }
        // ',' ID ID ('+' INT)? ',' ID INT INT INT
        size_t k = i + 4;
        if (!(type(k + 1) == P::ID && type(k + 2) == P::ID))
          return false;
        k += 3;
        if (type(k) == P::PLUS) {
          if (type(k + 1) != P::INT)
            return false;
          k += 2;
        }
        if (!(type(k) == P::COMMA && type(k + 1) == P::ID && type(k + 2) == P::INT &&
              type(k + 3) == P::INT && type(k + 4) == P::INT))
          return false;
        deferred();
        i = k + 5;
        continue;
      }
      if (ty == P::LBRACE) { // nested block: its braces go to the parser, its insides here
        deferred();
        size_t k = 0;
        if (!body(i, k, bodies))
          return false;
        i = k + 1;
        continue;
      }
      bool instr = ty == P::AT || ty == P::ID;
      bool decl = ty == P::REG || ty == P::PARAM || ty == P::GLOBAL || ty == P::SHARED ||
                  ty == P::CONST || ty == P::LOCAL || ty == P::TEX || ty == P::PRAGMA ||
                  ty == P::CALLPROTOTYPE || ty == P::BRANCHTARGETS || ty == P::CALLTARGETS;
      if (!instr && !decl)
        return false;
      size_t semi = semicolon(i);
      if (!semi)
        return false;
      if (instr && plainInstruction(i, semi)) {
        stmts().push_back(
            FastStmt{FastStmt::Kind::Instruction, uint32_t(i), uint32_t(semi + 1)});
      } else {
        deferred();
      }
      i = semi + 1;
    }
  }

  bool plainInstruction(size_t i, size_t semi) const {
    size_t k = i;
    if (type(k) == P::AT) {
      ++k;
      if (type(k) == P::BANG)
        ++k;
      if (type(k) != P::ID)
        return false;
      ++k;
    }
    if (type(k) != P::ID)
      return false;
    ++k;
    if (k == semi)
      return true;
    while (true) {
      k = plainOperand(k);
      if (!k)
        return false;
      if (k == semi)
        return true;
      if (type(k) != P::COMMA)
        return false;
      ++k;
    }
  }

  /// The end of the plain operand at k, or 0.
  size_t plainOperand(size_t k) const {
    uint32_t ty = type(k);
    if (ty == P::ID && type(k + 1) == P::PIPE)
      return type(k + 2) == P::ID ? k + 3 : 0;
    if (isAtom(ty))
      return k + 1;
    if (ty == P::BANG)
      return type(k + 1) == P::ID ? k + 2 : 0;
    if (ty == P::MINUS)
      return isNumber(type(k + 1)) ? k + 2 : 0;
    if (ty == P::LBRACE) {
      ++k;
      while (true) {
        if (!isAtom(type(k)))
          return 0;
        ++k;
        if (type(k) == P::RBRACE)
          return k + 1;
        if (type(k) != P::COMMA)
          return 0;
        ++k;
      }
    }
    if (ty == P::LBRACK) {
      ++k;
      if (type(k) == P::INT)
        return type(k + 1) == P::RBRACK ? k + 2 : 0;
      if (type(k) != P::ID || underscore(k))
        return 0;
      ++k;
      if (type(k) == P::PLUS && type(k + 1) == P::MINUS)
        ++k;
      else if (type(k) != P::PLUS && type(k) != P::MINUS)
        return type(k) == P::RBRACK ? k + 1 : 0;
      if (type(k + 1) != P::INT || type(k + 2) != P::RBRACK)
        return 0;
      return k + 3;
    }
    return 0;
  }
  bool underscore(size_t k) const { return t_[k].end - t_[k].begin == 1 && s_[t_[k].begin] == '_'; }
};

class ChunkBuilder {
public:
  ChunkBuilder(ptx::Module &m, PendingDiags &pending, const std::string &file,
               ParseResult &res)
      : m_(m), diag_{pending}, file_(file), res_(res) {}

  void module(P::ModuleContext *ctx) {
    for (P::ItemContext *it : ctx->item())
      item(it);
  }

  /// The chunk's tokens and the statements scanFast found, for the function bodies of the
  /// next module() call (nullptr: none).
  void setDirect(std::string_view text, const std::vector<LexToken> *toks,
                 const std::vector<FastBody> *bodies, const std::vector<FastInit> *inits) {
    text_ = text;
    toks_ = toks;
    bodies_ = bodies;
    inits_ = inits;
    nextBody_ = 0;
    nextInit_ = 0;
  }

  /// Whether the function bodies (and nested blocks) and the top-level initializers of `tree`
  /// are, in order, those the scan found (always, for a chunk the scan followed; checked
  /// before anything is built, so the caller can fall back to the whole parse).
  static bool directMatch(P::ModuleContext *tree, const std::vector<FastBody> &bodies,
                          const std::vector<FastInit> &inits, const std::vector<LexToken> &toks) {
    size_t nextInit = 0;
    for (P::ItemContext *it : tree->item())
      if (P::VarDeclContext *v = it->varDecl())
        for (P::DeclaratorContext *d : v->declarator())
          if (P::InitializerContext *in = d->initializer()) {
            if (nextInit < inits.size() && sameStart(in->getStart(), toks[inits[nextInit].open]))
              ++nextInit;
          }
    if (nextInit != inits.size())
      return false;
    size_t next = 0;
    // a block, then the blocks nested in it, in source order (FastScanner::body's order)
    auto walk = [&](auto &self, P::BlockContext *b) -> bool {
      Token *t = b->getStart();
      if (next >= bodies.size() || bodies[next].line != t->getLine() ||
          bodies[next].col != t->getCharPositionInLine())
        return false;
      ++next;
      for (size_t k = 1; k + 1 < b->children.size(); ++k) {
        auto *sc = static_cast<ParserRuleContext *>(b->children[k]);
        if (ruleOf(sc->children[0]) == P::RuleBlock &&
            !self(self, static_cast<P::BlockContext *>(sc->children[0])))
          return false;
      }
      return true;
    };
    for (P::ItemContext *it : tree->item())
      if (P::FunctionDeclContext *f = it->functionDecl())
        if (P::BlockContext *b = f->block())
          if (!walk(walk, b))
            return false;
    return next == bodies.size();
  }

private:
  std::string_view text_;
  const std::vector<LexToken> *toks_ = nullptr;
  const std::vector<FastBody> *bodies_ = nullptr;
  const std::vector<FastInit> *inits_ = nullptr;
  size_t nextBody_ = 0, nextInit_ = 0;

  static bool sameStart(Token *t, const LexToken &k) {
    return k.line == t->getLine() && k.col == t->getCharPositionInLine();
  }

  /// The flattened numbers of a FastInit, as initializer() would give them.
  void fastInit(const FastInit &fi, ptx::InitList &out) {
    size_t count = 0;
    for (uint32_t k = fi.open + 1; k < fi.close; ++k)
      count += tok(k).type == P::INT || tok(k).type == P::HEX_FLOAT ||
               tok(k).type == P::DEC_FLOAT;
    out.reserve(out.size() + count);
    for (uint32_t k = fi.open + 1; k < fi.close; ++k) {
      const uint32_t ty = tok(k).type;
      Val v;
      if (ty == P::MINUS) {
        v = tokAtom(k + 1);
        prefix(v, ty, tok(k).line, tokCol(k));
        ++k;
      } else if (ty == P::INT || ty == P::HEX_FLOAT || ty == P::DEC_FLOAT) {
        v = tokAtom(k);
      } else {
        continue; // braces and commas
      }
      if (std::optional<ptx::InitValue> iv = numericInit(v))
        out.push_back(std::move(*iv));
    }
  }

  // ---- statements built straight from tokens (see FastScanner) ----------------------------
  const LexToken &tok(uint32_t k) const { return (*toks_)[k]; }
  std::string tokText(uint32_t k) const {
    return std::string(text_.substr(tok(k).begin, tok(k).end - tok(k).begin));
  }
  uint32_t tokCol(uint32_t k) const { return tok(k).col + 1; }
  Val tokAtom(uint32_t k) { return atom(tok(k).type, tokText(k), tok(k).line, tokCol(k)); }

  /// The plain operand at k (FastScanner::plainOperand), built as operand() would; k moves
  /// past it.
  ptx::Operand fastOperand(uint32_t &k) {
    const uint32_t column = tokCol(k);
    const uint32_t ty = tok(k).type;
    ptx::Operand op;
    op.column = column;
    if (ty == P::ID && tok(k + 1).type == P::PIPE) { // `%p|%q`
      op.value = ptx::PairOperand{tokText(k), tokText(k + 2)};
      k += 3;
      return op;
    }
    if (ty == P::BANG || ty == P::MINUS) {
      Val v = tokAtom(k + 1);
      prefix(v, ty, tok(k).line, column);
      k += 2;
      return valueOperand(v, column);
    }
    if (ty == P::LBRACE) {
      std::vector<ptx::Operand> elems;
      ++k;
      while (true) {
        elems.push_back(fastOperand(k));
        if (tok(k++).type == P::RBRACE)
          break;
      }
      op.value = ptx::VectorOperand{std::move(elems)};
      return op;
    }
    if (ty == P::LBRACK) {
      ++k;
      const uint32_t inner = tokCol(k);
      ptx::Operand base;
      if (tok(k + 1).type == P::RBRACK) {
        base = valueOperand(tokAtom(k), inner);
        k += 2;
      } else { // ID ('+'|'-') INT  or  ID '+' '-' INT
        Val a = tokAtom(k);
        const uint32_t opTok = k + 1;
        Val b;
        if (tok(k + 2).type == P::MINUS) {
          b = tokAtom(k + 3);
          prefix(b, P::MINUS, tok(k + 2).line, tokCol(k + 2));
          k += 5;
        } else {
          b = tokAtom(k + 2);
          k += 4;
        }
        base = valueOperand(binary(a, b, tok(opTok).type, tok(opTok).line, tokCol(opTok)),
                            inner);
      }
      op.value = address(std::move(base), {});
      return op;
    }
    Val v = tokAtom(k); // ID, INT, HEX_FLOAT, DEC_FLOAT
    ++k;
    return valueOperand(v, column);
  }

  void fastStatement(const FastStmt &st, std::vector<ptx::Statement> &out) {
    uint32_t k = st.first;
    switch (st.kind) {
    case FastStmt::Kind::Label:
      out.push_back(ptx::Statement{ptx::Label{tokText(k), tok(k).line, tokCol(k)}});
      return;
    case FastStmt::Kind::Loc: {
      ptx::Directive d;
      d.line = tok(k).line;
      d.column = tokCol(k);
      d.kind = ptx::Directive::Kind::Loc;
      int64_t v[3] = {0, 0, 0};
      for (uint32_t j = 0; j < 3; ++j)
        parseInt(tokText(k + 1 + j), v[j]);
      d.file = static_cast<unsigned>(v[0]);
      d.locLine = static_cast<unsigned>(v[1]);
      d.locColumn = static_cast<unsigned>(v[2]);
      out.push_back(ptx::Statement{std::move(d)});
      return;
    }
    case FastStmt::Kind::Instruction: {
      ptx::Instruction ins;
      ins.line = tok(k).line;
      ins.column = tokCol(k);
      if (tok(k).type == P::AT) {
        bool neg = tok(k + 1).type == P::BANG;
        k += neg ? 2 : 1;
        ins.guard = ptx::Guard{tokText(k), neg};
        ++k;
      }
      if (!opcode(ins, tokText(k), tok(k).line, tokCol(k)))
        return;
      ++k;
      const uint32_t semi = st.end - 1;
      while (k < semi) {
        ins.operands.push_back(fastOperand(k));
        if (k < semi)
          ++k; // ','
      }
      out.push_back(ptx::Statement{std::move(ins)});
      return;
    }
    }
  }

  /// Whether the directly built statement starts before token t.
  bool before(const FastStmt &f, Token *t) const {
    const LexToken &x = tok(f.first);
    return x.line < t->getLine() || (x.line == t->getLine() && x.col < t->getCharPositionInLine());
  }
  /// Collects errors as PendingDiag (same call shape as DiagEngine::error).
  struct Pending {
    PendingDiags &out;
    void error(const SourceLoc &loc, std::string msg) {
      out.push_back(PendingDiag{loc.line, loc.column, std::move(msg)});
    }
    void parseError(const SourceLoc &loc, std::string msg) {
      out.push_back(PendingDiag{loc.line, loc.column, std::move(msg), true});
    }
  };
  ptx::Module &m_;
  Pending diag_;
  const std::string &file_;
  ParseResult &res_;

  SourceLoc loc(Token *t) const {
    return SourceLoc{file_, static_cast<uint32_t>(t->getLine()),
                     static_cast<uint32_t>(t->getCharPositionInLine() + 1)};
  }
  SourceLoc loc(ParserRuleContext *c) const { return loc(c->getStart()); }
  static uint32_t line(ParserRuleContext *c) {
    return static_cast<uint32_t>(c->getStart()->getLine());
  }
  static uint32_t col(ParserRuleContext *c) {
    return static_cast<uint32_t>(c->getStart()->getCharPositionInLine() + 1);
  }

  // ---- literals ---------------------------------------------------------------------------
  bool parseInt(const std::string &text, int64_t &out) {
    std::string_view s = text;
    if (!s.empty() && (s.back() == 'U' || s.back() == 'u'))
      s.remove_suffix(1);
    unsigned base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
      base = 16;
      s.remove_prefix(2);
    } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
      base = 2;
      s.remove_prefix(2);
    } else if (s.size() > 1 && s[0] == '0') {
      base = 8;
      s.remove_prefix(1);
    }
    uint64_t v = 0;
    bool overflow = false;
    for (char c : s) {
      unsigned d = c >= '0' && c <= '9'   ? unsigned(c - '0')
                   : c >= 'a' && c <= 'f' ? unsigned(c - 'a' + 10)
                   : c >= 'A' && c <= 'F' ? unsigned(c - 'A' + 10)
                                          : 99;
      if (d >= base)
        return false;
      if (v > (UINT64_MAX - d) / base)
        overflow = true;
      v = v * base + d;
    }
    out = static_cast<int64_t>(v);
    return !overflow;
  }

  /// An INT token's value; `line`/`col` (1-based) place the error.
  Val intVal(const std::string &text, uint32_t line, uint32_t col) {
    Val v;
    v.kind = Val::Kind::Int;
    if (!parseInt(text, v.i)) {
      diag_.error(SourceLoc{file_, line, col}, "Invalid integer constant '" + text + "'");
      v.kind = Val::Kind::Bad;
    }
    return v;
  }

  static Val floatVal(const std::string &s, bool hex) {
    Val v;
    v.kind = Val::Kind::Float;
    if (hex) {
      uint64_t bits = std::strtoull(s.c_str() + 2, nullptr, 16);
      v.f.bits = bits;
      v.f.isDouble = s[1] == 'd' || s[1] == 'D';
      if (v.f.isDouble) {
        double d;
        std::memcpy(&d, &bits, 8);
        v.f.value = d;
      } else {
        uint32_t b32 = static_cast<uint32_t>(bits);
        float f;
        std::memcpy(&f, &b32, 4);
        v.f.value = f;
      }
    } else {
      v.f.value = std::strtod(s.c_str(), nullptr);
      v.f.isDouble = true;
      std::memcpy(&v.f.bits, &v.f.value, 8);
    }
    return v;
  }

  static std::string unquote(const std::string &s) {
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"')
      return s.substr(1, s.size() - 2);
    return s;
  }

  // ---- expressions ------------------------------------------------------------------------
  Val binary(const Val &a, const Val &b, size_t op, Token *at) {
    return binary(a, b, op, static_cast<uint32_t>(at->getLine()),
                  static_cast<uint32_t>(at->getCharPositionInLine() + 1));
  }
  /// Folds `a op b`; line/col (1-based) place an error.
  Val binary(const Val &a, const Val &b, size_t op, uint32_t line, uint32_t col) {
    if (a.kind == Val::Kind::Bad || b.kind == Val::Kind::Bad)
      return Val{};
    if (a.kind == Val::Kind::Int && b.kind == Val::Kind::Int) {
      Val r;
      r.kind = Val::Kind::Int;
      uint64_t x = static_cast<uint64_t>(a.i), y = static_cast<uint64_t>(b.i);
      switch (op) {
      case P::PLUS: r.i = static_cast<int64_t>(x + y); break;
      case P::MINUS: r.i = static_cast<int64_t>(x - y); break;
      case P::STAR: r.i = static_cast<int64_t>(x * y); break;
      case P::SLASH:
        if (b.i == 0 || (a.i == INT64_MIN && b.i == -1)) {
          diag_.error(SourceLoc{file_, line, col}, "Division by zero in constant expression");
          return Val{};
        }
        r.i = a.i / b.i;
        break;
      case P::SHL: r.i = static_cast<int64_t>(x << (y & 63)); break;
      case P::SHR: r.i = a.i >> (y & 63); break;
      case P::AMP: r.i = static_cast<int64_t>(x & y); break;
      case P::CARET: r.i = static_cast<int64_t>(x ^ y); break;
      default: return Val{};
      }
      return r;
    }
    // name +/- constant, constant + name
    if (a.kind == Val::Kind::Name && b.kind == Val::Kind::Int &&
        (op == P::PLUS || op == P::MINUS)) {
      Val r = a;
      r.offset = static_cast<int64_t>(static_cast<uint64_t>(a.offset) +
                                      (op == P::PLUS ? static_cast<uint64_t>(b.i)
                                                     : 0 - static_cast<uint64_t>(b.i)));
      return r;
    }
    if (a.kind == Val::Kind::Int && b.kind == Val::Kind::Name && op == P::PLUS) {
      Val r = b;
      r.offset = static_cast<int64_t>(static_cast<uint64_t>(b.offset) +
                                      static_cast<uint64_t>(a.i));
      return r;
    }
    diag_.error(SourceLoc{file_, line, col}, "Illegal operand expression");
    return Val{};
  }

  static int precedence(size_t op) {
    switch (op) {
    case P::STAR:
    case P::SLASH: return 4;
    case P::PLUS:
    case P::MINUS: return 3;
    case P::SHL:
    case P::SHR: return 2;
    default: return 1; // & ^
    }
  }

  /// expr : term (binop term)* -- folded with precedence climbing.
  Val expr(P::ExprContext *c) {
    std::vector<Val> vals;
    std::vector<std::pair<size_t, Token *>> ops;
    auto reduce = [&] {
      Val b = std::move(vals.back());
      vals.pop_back();
      Val a = std::move(vals.back());
      vals.back() = binary(a, b, ops.back().first, ops.back().second);
      ops.pop_back();
    };
    for (ParseTree *ch : c->children) {
      auto *rc = static_cast<ParserRuleContext *>(ch);
      if (rc->getRuleIndex() == P::RuleTerm) {
        vals.push_back(term(static_cast<P::TermContext *>(rc)));
      } else {
        TerminalNode *tn = asToken(rc->children[0]);
        size_t op = tn->getSymbol()->getType();
        while (!ops.empty() && precedence(ops.back().first) >= precedence(op))
          reduce();
        ops.emplace_back(op, tn->getSymbol());
      }
    }
    while (!ops.empty())
      reduce();
    return vals.empty() ? Val{} : vals.back();
  }

  Val term(P::TermContext *c) {
    // ('-' | '!' | '~')* (INT | DEC_FLOAT | HEX_FLOAT | ID | '(' expr ')')
    Val v;
    size_t firstOperand = 0;
    while (firstOperand < c->children.size()) {
      size_t t = tokenType(c->children[firstOperand]);
      if (t != P::MINUS && t != P::BANG && t != P::TILDE)
        break;
      ++firstOperand;
    }
    ParseTree *p = c->children[firstOperand];
    if (TerminalNode *tn = asToken(p); tn && tn->getSymbol()->getType() != P::LPAREN)
      v = atom(tn);
    else
      v = expr(static_cast<P::ExprContext *>(c->children[firstOperand + 1]));
    // prefix operators, innermost first
    for (size_t k = firstOperand; k-- > 0;) {
      Token *tok = asToken(c->children[k])->getSymbol();
      prefix(v, tok->getType(), static_cast<uint32_t>(tok->getLine()),
             static_cast<uint32_t>(tok->getCharPositionInLine() + 1));
    }
    return v;
  }

  /// Applies a prefix operator ('-', '!', '~' at line/col) to a folded value.
  void prefix(Val &v, size_t op, uint32_t line, uint32_t col) {
    if (v.kind == Val::Kind::Int) {
      uint64_t x = static_cast<uint64_t>(v.i);
      v.i = op == P::MINUS  ? static_cast<int64_t>(0 - x)
            : op == P::BANG ? (v.i == 0)
                            : static_cast<int64_t>(~x);
    } else if (v.kind == Val::Kind::Float && op == P::MINUS) {
      v.f.value = -v.f.value;
      v.f.bits ^= v.f.isDouble ? (uint64_t(1) << 63) : (uint64_t(1) << 31);
    } else if (v.kind == Val::Kind::Name && op == P::BANG) {
      v.negated = !v.negated;
    } else if (v.kind != Val::Kind::Bad) {
      diag_.error(SourceLoc{file_, line, col}, "Illegal operand expression");
      v = Val{};
    }
  }

  Val atom(TerminalNode *tn) {
    Token *t = tn->getSymbol();
    return atom(t->getType(), t->getText(), static_cast<uint32_t>(t->getLine()),
                static_cast<uint32_t>(t->getCharPositionInLine() + 1));
  }
  /// INT, DEC_FLOAT, HEX_FLOAT or a name (ID) at line/col.
  Val atom(size_t type, std::string text, uint32_t line, uint32_t col) {
    switch (type) {
    case P::INT: return intVal(text, line, col);
    case P::DEC_FLOAT: return floatVal(text, false);
    case P::HEX_FLOAT: return floatVal(text, true);
    default: {
      Val v;
      v.kind = Val::Kind::Name;
      v.name = std::move(text);
      return v;
    }
    }
  }

  // ---- operands ---------------------------------------------------------------------------
  ptx::Operand valueOperand(const Val &v, uint32_t column) {
    ptx::Operand op;
    op.column = column;
    switch (v.kind) {
    case Val::Kind::Int: op.value = ptx::ImmOperand{v.i}; break;
    case Val::Kind::Float: op.value = v.f; break;
    case Val::Kind::Name:
      if (v.name == "_")
        op.value = ptx::SinkOperand{};
      // A negated name is a predicate register even without the '%' (`!p` of a
      // `.reg .pred p` in inline PTX); as a symbol it would lose its '!'.
      else if ((v.name[0] == '%' || v.negated) && v.offset == 0)
        op.value = ptx::RegOperand{v.name, v.negated};
      else
        op.value = ptx::SymbolOperand{v.name, v.offset, ptx::SymbolOperand::Kind::Unresolved};
      break;
    case Val::Kind::Bad: op.value = ptx::ImmOperand{0}; break;
    }
    return op;
  }

  ptx::Operand operand(P::OperandContext *c) {
    ptx::Operand op;
    op.column = col(c);
    size_t first = tokenType(c->children[0]);
    if (first == P::LPAREN || first == P::LBRACE) {
      std::vector<ptx::Operand> elems;
      for (size_t k = 1; k < c->children.size(); k += 2)
        if (!asToken(c->children[k]))
          elems.push_back(operand(static_cast<P::OperandContext *>(c->children[k])));
      if (first == P::LPAREN)
        op.value = ptx::ListOperand{std::move(elems)};
      else
        op.value = ptx::VectorOperand{std::move(elems)};
      return op;
    }
    if (first == P::LBRACK) {
      std::vector<ptx::Operand> extra;
      ptx::Operand base;
      bool firstPart = true;
      for (size_t k = 1; k < c->children.size(); k += 2) {
        (firstPart ? base : extra.emplace_back()) =
            operand(static_cast<P::OperandContext *>(c->children[k]));
        firstPart = false;
      }
      op.value = address(std::move(base), std::move(extra));
      return op;
    }
    if (c->children.size() == 1 && asToken(c->children[0]))
      return valueOperand(atom(asToken(c->children[0])), op.column);
    Val v = expr(static_cast<P::ExprContext *>(c->children[0]));
    if (c->children.size() == 3) {
      Val w = expr(static_cast<P::ExprContext *>(c->children[2]));
      if (v.kind != Val::Kind::Name || w.kind != Val::Kind::Name || v.offset || w.offset) {
        diag_.error(loc(c), "Illegal operand expression");
        op.value = ptx::ImmOperand{0};
        return op;
      }
      op.value = ptx::PairOperand{v.name, w.name};
      return op;
    }
    return valueOperand(v, op.column);
  }

  /// `[base, extra...]`: the first element decides register, symbol or absolute address.
  static ptx::AddressOperand address(ptx::Operand base, std::vector<ptx::Operand> extra) {
    ptx::AddressOperand a;
    if (base.is<ptx::RegOperand>()) {
      a.baseKind = ptx::AddressOperand::BaseKind::Register;
      a.base = base.as<ptx::RegOperand>().name;
    } else if (base.is<ptx::SymbolOperand>()) {
      // `[%rd1+8]` folds to a symbol-with-offset whose name starts with '%'; the checker
      // decides register versus variable.
      const auto &s = base.as<ptx::SymbolOperand>();
      a.baseKind = s.name[0] == '%' ? ptx::AddressOperand::BaseKind::Register
                                    : ptx::AddressOperand::BaseKind::Symbol;
      a.base = s.name;
      a.offset = s.offset;
    } else if (base.is<ptx::ImmOperand>()) {
      a.offset = base.as<ptx::ImmOperand>().value;
    } else {
      // `[{...}]` or nested brackets: keep as extra
      a.extra.push_back(std::move(base));
    }
    for (ptx::Operand &e : extra)
      a.extra.push_back(std::move(e));
    return a;
  }

  // ---- instructions -----------------------------------------------------------------------
  void instruction(P::InstructionContext *c, std::vector<ptx::Statement> &out) {
    ptx::Instruction ins;
    ins.line = line(c);
    ins.column = col(c);
    // children: guard? ID (operand (',' operand)*)?
    size_t k = 0;
    if (ruleOf(c->children[0]) == P::RuleGuard) {
      auto *g = static_cast<P::GuardContext *>(c->children[0]);
      bool neg = g->children.size() == 3;
      ins.guard = ptx::Guard{g->children.back()->getText(), neg};
      k = 1;
    }
    Token *opTok = asToken(c->children[k])->getSymbol();
    if (!opcode(ins, opTok->getText(), static_cast<uint32_t>(opTok->getLine()),
                static_cast<uint32_t>(opTok->getCharPositionInLine() + 1)))
      return;
    for (size_t j = k + 1; j < c->children.size(); j += 2)
      ins.operands.push_back(operand(static_cast<P::OperandContext *>(c->children[j])));
    out.push_back(ptx::Statement{std::move(ins)});
  }

  /// Splits the opcode token (`ld.global.nc.v4.f32`) into the family from the instruction
  /// table and the modifiers; false (with the error pending) when either is unknown.
  bool opcode(ptx::Instruction &ins, const std::string &text, uint32_t line, uint32_t col) {
    std::vector<std::string_view> words;
    std::string_view rest = text;
    while (true) {
      size_t dot = rest.find('.');
      words.push_back(rest.substr(0, dot));
      if (dot == std::string_view::npos)
        break;
      rest = rest.substr(dot + 1);
    }
    auto at = [&] { return SourceLoc{file_, line, col}; }; // only built for an error
    size_t consumed = 0;
    std::optional<unsigned> row = matchFamily(words, consumed);
    if (!row) {
      diag_.error(at(), "Not a name of any known instruction: '" + std::string(words[0]) + "'");
      return false;
    }
    const InstrInfo &info = instrInfo(*row);
    ins.tableIndex = *row;
    ins.opcode = std::string(info.name);
    // A family word written with a `::` tail (tcgen05.fence::before_thread_sync) keeps the
    // tail as a modifier.
    {
      std::string_view name = info.name;
      for (size_t w = 0; w < consumed; ++w) {
        size_t dot = name.find('.');
        std::string_view rowWord = name.substr(0, dot);
        name = dot == std::string_view::npos ? std::string_view() : name.substr(dot + 1);
        if (words[w].size() > rowWord.size()) {
          ptx::Modifier m;
          m.text = std::string(words[w].substr(rowWord.size() + 2));
          ins.modifiers.push_back(std::move(m));
        }
      }
    }
    bool bad = false;
    for (size_t w = consumed; w < words.size(); ++w) {
      bool known = false;
      ptx::Modifier m = classifyModifier(words[w], known);
      if (!known) {
        diag_.error(at(), "Unknown modifier '." + std::string(words[w]) + "'");
        bad = true;
      }
      ins.modifiers.push_back(std::move(m));
    }
    return !bad;
  }

  // ---- declarations -----------------------------------------------------------------------
  static ptx::StateSpace spaceOfToken(size_t type) {
    switch (type) {
    case P::REG: return ptx::StateSpace::Reg;
    case P::PARAM: return ptx::StateSpace::Param;
    case P::GLOBAL: return ptx::StateSpace::Global;
    case P::SHARED: return ptx::StateSpace::Shared;
    case P::CONST: return ptx::StateSpace::Const;
    case P::LOCAL: return ptx::StateSpace::Local;
    case P::TEX: return ptx::StateSpace::Tex;
    default: return ptx::StateSpace::None;
    }
  }

  void qualifier(P::QualifierContext *q, ptx::VarDecl &d) {
    size_t t = tokenType(q->children[0]);
    if (t == P::ALIGN) {
      int64_t v = 0;
      parseInt(q->INT()->getText(), v);
      // HW: ptxas 13.0.88 "Alignment must be a power of two" for .align 0 and .align 3.
      if (v <= 0 || (v & (v - 1)) != 0) {
        diag_.error(loc(q), "Alignment must be a power of two");
        v = 1;
      } else if (v > (1 << 20)) {
        diag_.error(loc(q), "Invalid alignment " + q->INT()->getText());
        v = 1;
      }
      // HW: ptxas 13.0.88 refuses a second .align after .ptr as a syntax error.
      if (d.isPtr && d.ptrAlign)
        diag_.parseError(loc(q), "Parsing error near '.align': syntax error");
      (d.isPtr ? d.ptrAlign : d.align) = static_cast<unsigned>(v);
      return;
    }
    if (t == P::ATTRIBUTE) {
      for (TerminalNode *w : q->DOT_ID())
        d.attributes.push_back(w->getText().substr(1));
      return;
    }
    if (t != P::DOT_ID) {
      ptx::StateSpace s = spaceOfToken(t);
      // HW: ptxas 13.0.88 takes `.ptr .global .align 4` but refuses the space after the
      // alignment (`.ptr .align 4 .global`: "Parsing error near '.global': syntax error").
      // `.ptr .param` likewise (ptxas: "Parsing error near '.param'").
      if (d.isPtr && (d.ptrAlign || s == ptx::StateSpace::Param))
        diag_.parseError(loc(q), "Parsing error near '" + q->getText() + "': syntax error");
      else if (d.isPtr)
        d.ptrSpace = s;
      else
        diag_.error(loc(q), "Illegal state space '" + q->getText() + "' in declaration");
      return;
    }
    std::string text = q->getText();
    std::string_view rest = std::string_view(text).substr(1);
    while (!rest.empty()) {
      size_t dot = rest.find('.');
      std::string_view w = rest.substr(0, dot);
      rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
      if (ptx::ScalarType ty = ptx::parseType(w); ty != ptx::ScalarType::None) {
        if (d.type != ptx::ScalarType::None)
          diag_.error(loc(q), "Multiple types in declaration");
        d.type = ty;
      } else if (w.size() >= 2 && w[0] == 'v' && (w == "v2" || w == "v4" || w == "v8")) {
        d.vectorWidth = static_cast<unsigned>(w[1] - '0');
      } else if (w == "ptr") {
        d.isPtr = true;
      } else if (ptx::StateSpace s = ptx::parseStateSpace(w); s != ptx::StateSpace::None && d.isPtr) {
        if (d.ptrAlign) // HW: as above
          diag_.parseError(loc(q), "Parsing error near '." + std::string(w) + "': syntax error");
        d.ptrSpace = s;
      } else {
        diag_.error(loc(q), "Unknown type or qualifier '." + std::string(w) + "' in declaration");
      }
    }
  }

  void initializer(P::InitializerContext *c, ptx::InitList &out) {
    size_t first = tokenType(c->children[0]);
    if (first == P::LBRACE) {
      for (size_t k = 1; k < c->children.size(); k += 2)
        if (!asToken(c->children[k]))
          initializer(static_cast<P::InitializerContext *>(c->children[k]), out);
      return;
    }
    ptx::InitValue iv;
    if (c->children.size() == 1 && first != 0) {
      if (std::optional<ptx::InitValue> n = numericInit(atom(asToken(c->children[0]))))
        out.push_back(std::move(*n));
      return;
    }
    if (first == P::ID && c->children.size() >= 2 && isToken(c->children[1], P::EQ)) {
      iv.kind = ptx::InitValue::Kind::Field;
      iv.symbol = c->ID(0)->getText();
      iv.field = c->ID(1) ? c->ID(1)->getText() : c->expr()->getText();
      out.push_back(std::move(iv));
      return;
    }
    if (first == P::ID && c->children.size() >= 2 && isToken(c->children[1], P::LPAREN)) {
      std::string fn = c->ID(0)->getText();
      iv.kind = ptx::InitValue::Kind::Symbol;
      iv.symbol = c->ID(1)->getText();
      iv.isGeneric = fn == "generic";
      iv.isMask = fn == "mask";
      if (!iv.isGeneric && !iv.isMask)
        diag_.error(loc(c), "Unknown initializer operator '" + fn + "'");
      if (c->expr()) {
        Val off = expr(c->expr());
        if (off.kind == Val::Kind::Int)
          iv.offset = isToken(c->children[c->children.size() - 2], P::MINUS) ? -off.i : off.i;
      }
      out.push_back(std::move(iv));
      return;
    }
    Val v = expr(c->expr());
    switch (v.kind) {
    case Val::Kind::Int: iv.kind = ptx::InitValue::Kind::Int; iv.intValue = v.i; break;
    case Val::Kind::Float: iv.kind = ptx::InitValue::Kind::Float; iv.floatValue = v.f; break;
    case Val::Kind::Name:
      iv.kind = ptx::InitValue::Kind::Symbol;
      iv.symbol = v.name;
      iv.offset = v.offset;
      break;
    case Val::Kind::Bad: return;
    }
    out.push_back(std::move(iv));
  }

  void declarator(P::DeclaratorContext *c, ptx::VarDecl d, std::vector<ptx::VarDecl> &out) {
    d.name = c->ID()->getText();
    d.line = line(c);
    d.column = col(c);
    if (c->LT()) {
      int64_t n = 0;
      if (!parseInt(c->INT()->getText(), n) || n <= 0 || n > (int64_t(1) << 24)) {
        diag_.error(loc(c), "Invalid register range count " + c->INT()->getText());
        n = 1;
      }
      d.rangeCount = static_cast<unsigned>(n);
    }
    for (P::ArraySuffixContext *a : c->arraySuffix())
      d.dims.push_back(arrayDim(a));
    if (P::InitializerContext *init = c->initializer()) {
      d.hasInit = true;
      if (inits_ && nextInit_ < inits_->size() &&
          sameStart(init->getStart(), tok((*inits_)[nextInit_].open)))
        fastInit((*inits_)[nextInit_++], d.init);
      else
        initializer(init, d.init);
    }
    out.push_back(std::move(d));
  }

  uint64_t arrayDim(P::ArraySuffixContext *a) {
    if (!a->INT())
      return 0;
    int64_t n = 0;
    if (!parseInt(a->INT()->getText(), n) || n < 0) {
      diag_.error(loc(a), "Invalid array size " + a->INT()->getText());
      n = 1;
    }
    return static_cast<uint64_t>(n);
  }

  void varDecl(P::VarDeclContext *c, ptx::Linkage link, std::vector<ptx::VarDecl> &out) {
    ptx::VarDecl proto;
    proto.linkage = link;
    proto.space = spaceOfToken(tokenType(c->stateSpace()->children[0]));
    for (P::QualifierContext *q : c->qualifier())
      qualifier(q, proto);
    if (proto.type == ptx::ScalarType::None)
      diag_.error(loc(c), "Missing type in declaration");
    for (P::DeclaratorContext *d : c->declarator())
      declarator(d, proto, out);
  }

  ptx::VarDecl paramDecl(P::ParamDeclContext *c) {
    ptx::VarDecl d;
    d.space = spaceOfToken(tokenType(c->children[0]));
    for (P::QualifierContext *q : c->qualifier())
      qualifier(q, d);
    if (d.type == ptx::ScalarType::None)
      diag_.error(loc(c), "Missing type in parameter declaration");
    d.name = c->ID()->getText();
    d.line = line(c);
    d.column = col(c);
    for (P::ArraySuffixContext *a : c->arraySuffix())
      d.dims.push_back(arrayDim(a));
    return d;
  }

  std::vector<ptx::VarDecl> paramList(P::ParamListContext *c) {
    std::vector<ptx::VarDecl> out;
    if (c)
      for (P::ParamDeclContext *p : c->paramDecl())
        out.push_back(paramDecl(p));
    return out;
  }

  // ---- statements -------------------------------------------------------------------------
  /// A `{ }` block (a function body or nested); the statements FastScanner found in it are
  /// built straight from the tokens and merged in by source position with the parser's.
  void block(P::BlockContext *c, ptx::Block &b) {
    b.line = line(c);
    b.column = col(c);
    const FastBody *direct = nullptr;
    if (bodies_ && nextBody_ < bodies_->size()) {
      const FastBody &fb = (*bodies_)[nextBody_];
      Token *t = c->getStart();
      if (fb.line == t->getLine() && fb.col == t->getCharPositionInLine()) {
        direct = &fb;
        ++nextBody_;
      }
    }
    size_t fi = 0;
    for (size_t k = 1; k + 1 < c->children.size(); ++k) {
      auto *sc = static_cast<P::StatementContext *>(c->children[k]);
      if (direct)
        for (Token *t = sc->getStart(); fi < direct->stmts.size() && before(direct->stmts[fi], t);)
          fastStatement(direct->stmts[fi++], b.statements);
      statement(sc, b.statements);
    }
    if (direct)
      while (fi < direct->stmts.size())
        fastStatement(direct->stmts[fi++], b.statements);
  }

  void statement(P::StatementContext *c, std::vector<ptx::Statement> &out) {
    ParseTree *first = c->children[0];
    size_t rule = ruleOf(first);
    if (rule == P::RuleInstruction) {
      instruction(static_cast<P::InstructionContext *>(first), out);
      return;
    }
    if (rule == P::RuleVarDecl) {
      auto *v = static_cast<P::VarDeclContext *>(first);
      std::vector<ptx::VarDecl> decls;
      varDecl(v, ptx::Linkage::None, decls);
      for (ptx::VarDecl &d : decls)
        out.push_back(ptx::Statement{std::move(d)});
      return;
    }
    if (rule == P::RuleBlock) {
      auto *bc = static_cast<P::BlockContext *>(first);
      ptx::Block b;
      block(bc, b);
      out.push_back(ptx::Statement{std::move(b)});
      return;
    }
    size_t t = tokenType(first);
    if (t == P::ID) {
      out.push_back(ptx::Statement{ptx::Label{c->ID(0)->getText(), line(c), col(c)}});
      return;
    }
    ptx::Directive d;
    d.line = line(c);
    d.column = col(c);
    // a label right before .callprototype/.branchtargets/.calltargets names it
    auto takeLabel = [&] {
      if (!out.empty() && out.back().is<ptx::Label>())
        d.label = out.back().as<ptx::Label>().name;
    };
    switch (t) {
    case P::LOC: {
      d.kind = ptx::Directive::Kind::Loc;
      int64_t v[3] = {0, 0, 0};
      for (int k = 0; k < 3; ++k)
        parseInt(c->INT(k)->getText(), v[k]);
      d.file = static_cast<unsigned>(v[0]);
      d.locLine = static_cast<unsigned>(v[1]);
      d.locColumn = static_cast<unsigned>(v[2]);
      if (P::LocAttrsContext *a = c->locAttrs()) {
        P::LocFunctionContext *fn = a->locFunction();
        P::LocInlinedAtContext *in = a->locInlinedAt();
        // HW: ptxas names the word it did not expect ("Parsing error near 'x'").
        for (TerminalNode *w : {fn->ID(0), in->ID()})
          if (w->getText() != (w == fn->ID(0) ? "function_name" : "inlined_at"))
            diag_.parseError(loc(w->getSymbol()), "Parsing error near '" + w->getText() +
                                                 "': syntax error");
        d.args.push_back(fn->ID(1)->getText()); // the function's name label
        for (int k = 0; k < 3; ++k) {
          int64_t v = 0;
          parseInt(in->INT(k)->getText(), v);
          d.inlinedAt[k] = static_cast<unsigned>(v);
        }
        d.hasInlinedAt = true;
      }
      break;
    }
    case P::PRAGMA:
      d.kind = ptx::Directive::Kind::Pragma;
      for (TerminalNode *s : c->STRING())
        d.args.push_back(unquote(s->getText()));
      break;
    case P::CALLPROTOTYPE: {
      d.kind = ptx::Directive::Kind::CallPrototype;
      takeLabel();
      auto lists = c->paramList();
      // `( rets ) _ ( params )` or `_ ( params )`: the ID's position tells which is which
      bool hasRet = isToken(c->children[1], P::LPAREN);
      size_t li = 0;
      size_t k = 1;
      if (hasRet) {
        if (k + 1 < c->children.size() && !isToken(c->children[k + 1], P::RPAREN))
          d.protoReturns = paramList(lists[li++]);
      }
      if (li < lists.size())
        d.protoParams = paramList(lists[li]);
      if (c->NORETURN())
        d.args.push_back("noreturn");
      break;
    }
    case P::BRANCHTARGETS:
    case P::CALLTARGETS:
      d.kind = t == P::BRANCHTARGETS ? ptx::Directive::Kind::BranchTargets
                                     : ptx::Directive::Kind::CallTargets;
      takeLabel();
      for (TerminalNode *id : c->ID())
        d.args.push_back(id->getText());
      break;
    case P::SECTION:
      d.kind = ptx::Directive::Kind::Section;
      break;
    default:
      return;
    }
    out.push_back(ptx::Statement{std::move(d)});
  }

  // ---- top level --------------------------------------------------------------------------
  void noteItem(ParserRuleContext *c, bool isVersion, bool isTarget = false) {
    if (res_.firstItemLine == 0) {
      res_.firstItemLine = line(c);
      res_.versionFirst = isVersion;
    } else if (res_.secondItemLine == 0) {
      res_.secondItemLine = line(c);
      res_.targetSecond = isTarget;
    }
  }

  void item(P::ItemContext *c) {
    if (auto *v = c->versionDir()) {
      // HW (ptxas 13.0.88): a .version after the header is a syntax error that names the
      // whole directive ("Parsing error near '.version 8.0': syntax error").
      if (res_.firstItemLine != 0 && res_.secondItemLine != 0) {
        diag_.parseError(loc(v), "Parsing error near '.version " + v->children[1]->getText() +
                                     "': syntax error");
        ++res_.syntaxErrors;
        return;
      }
      noteItem(c, true);
      res_.sawVersion = true;
      std::string s = v->children[1]->getText();
      size_t dot = s.find('.');
      int64_t major = 0, minor = 0;
      parseInt(s.substr(0, dot), major);
      if (dot != std::string::npos && dot + 1 < s.size())
        parseInt(s.substr(dot + 1), minor);
      m_.versionMajor = static_cast<unsigned>(major);
      m_.versionMinor = static_cast<unsigned>(minor);
      m_.versionLine = line(v);
      return;
    }
    noteItem(c, false, c->targetDir() != nullptr);
    if (auto *t = c->targetDir()) {
      for (TerminalNode *id : t->ID())
        m_.targets.push_back(id->getText());
      m_.targetLine = line(t);
      return;
    }
    if (auto *a = c->addressSizeDir()) {
      int64_t v = 0;
      parseInt(a->INT()->getText(), v);
      if (v != 32 && v != 64)
        diag_.error(loc(a), "Illegal value for .address_size directive (must be 32 or 64)");
      m_.addressSize = static_cast<unsigned>(v);
      return;
    }
    if (auto *f = c->fileDir()) {
      ptx::FileEntry e;
      int64_t v = 0;
      parseInt(f->INT(0)->getText(), v);
      e.index = static_cast<unsigned>(v);
      e.path = unquote(f->STRING()->getText());
      if (f->INT().size() == 3) {
        parseInt(f->INT(1)->getText(), v);
        e.timestamp = static_cast<uint64_t>(v);
        parseInt(f->INT(2)->getText(), v);
        e.size = static_cast<uint64_t>(v);
      }
      m_.files.push_back(std::move(e));
      return;
    }
    if (auto *s = c->sectionDir()) {
      ptx::Section sec;
      sec.name = s->children[1]->getText();
      sec.line = line(s);
      for (P::SectionItemContext *it : s->sectionItem())
        sectionItem(it, sec);
      m_.sections.push_back(std::move(sec));
      return;
    }
    if (auto *p = c->pragmaDir()) {
      for (TerminalNode *s : p->STRING())
        m_.pragmas.push_back(unquote(s->getText()));
      return;
    }
    if (auto *a = c->aliasDir()) {
      m_.aliases.emplace_back(a->ID(0)->getText(), a->ID(1)->getText());
      return;
    }
    ptx::Linkage link = ptx::Linkage::None;
    for (P::LinkageContext *l : c->linkage()) {
      switch (tokenType(l->children[0])) {
      case P::VISIBLE: link = ptx::Linkage::Visible; break;
      case P::EXTERN: link = ptx::Linkage::Extern; break;
      case P::WEAK: link = ptx::Linkage::Weak; break;
      case P::COMMON: link = ptx::Linkage::Common; break;
      default: break;
      }
    }
    if (auto *v = c->varDecl()) {
      varDecl(v, link, m_.globals);
      return;
    }
    if (auto *f = c->functionDecl())
      function(f, link);
  }

  void sectionItem(P::SectionItemContext *c, ptx::Section &sec) {
    ptx::SectionItem it;
    if (c->ID()) {
      it.kind = ptx::SectionItem::Kind::Label;
      it.label = c->ID()->getText();
    } else {
      it.directive = c->DOT_ID()->getText().substr(1);
      for (P::SectionValContext *v : c->sectionVal()) {
        ptx::InitValue iv;
        if (v->DOT_ID() || v->STRING()) {
          iv.kind = ptx::InitValue::Kind::Symbol;
          iv.symbol = v->children[0]->getText();
          if (v->INT()) {
            int64_t off = 0;
            parseInt(v->INT()->getText(), off);
            iv.offset = isToken(v->children[1], P::MINUS) ? -off : off;
          }
        } else {
          Val x = expr(v->expr());
          if (x.kind == Val::Kind::Int) {
            iv.kind = ptx::InitValue::Kind::Int;
            iv.intValue = x.i;
          } else if (x.kind == Val::Kind::Name) {
            iv.kind = ptx::InitValue::Kind::Symbol;
            iv.symbol = x.name;
            iv.offset = x.offset;
          }
        }
        it.values.push_back(std::move(iv));
      }
    }
    sec.items.push_back(std::move(it));
  }

  void function(P::FunctionDeclContext *c, ptx::Linkage link) {
    ptx::Function f;
    f.linkage = link;
    f.isEntry = tokenType(c->children[0]) == P::ENTRY;
    f.line = line(c);
    f.column = col(c);
    // children: (ENTRY|FUNC) ['(' list? ')'] ID ['(' list? ')'] attrs* (block|';')
    bool seenName = false;
    auto lists = c->paramList();
    size_t li = 0;
    bool afterParams = false; // the previous child closed the parameter list
    for (size_t k = 1; k < c->children.size(); ++k) {
      ParseTree *ch = c->children[k];
      size_t t = tokenType(ch);
      if (afterParams && !f.isEntry) {
        f.declLine = t ? static_cast<uint32_t>(static_cast<TerminalNode *>(ch)->getSymbol()->getLine())
                       : line(static_cast<ParserRuleContext *>(ch));
        afterParams = false;
      }
      if (t == P::RPAREN && seenName) {
        if (f.isEntry)
          f.declLine = static_cast<uint32_t>(static_cast<TerminalNode *>(ch)->getSymbol()->getLine());
        else
          afterParams = true;
      }
      if (t == P::ID) {
        f.name = ch->getText();
        seenName = true;
      } else if (t == P::LPAREN) {
        std::vector<ptx::VarDecl> params;
        if (k + 1 < c->children.size() && !isToken(c->children[k + 1], P::RPAREN) &&
            li < lists.size())
          params = paramList(lists[li++]);
        (seenName ? f.params : f.returns) = std::move(params);
      } else if (ruleOf(ch) == P::RuleFuncAttr) {
        auto *a = static_cast<P::FuncAttrContext *>(ch);
        ptx::FunctionAttr attr;
        attr.line = line(a);
        if (a->PRAGMA()) {
          attr.name = "pragma";
          for (TerminalNode *s : a->STRING())
            attr.strings.push_back(unquote(s->getText()));
        } else {
          attr.name = a->children[0]->getText().substr(1);
          // Performance-tuning directives a function may carry (PTX ISA 9.0 section 11.4
          // and .noreturn); ptxas refuses anything else at this place as a syntax error.
          static constexpr std::string_view kFuncDirectives[] = {
              "maxnreg",         "maxntid",         "reqntid",           "minnctapersm",
              "reqnctapercluster", "explicitcluster", "maxclusterrank",  "noreturn",
              "blocksareclusters", "abi_preserve",   "abi_preserve_control"};
          bool known = false;
          for (std::string_view d : kFuncDirectives)
            known |= d == attr.name;
          if (attr.name == "maxnctapersm")
            diag_.error(loc(a), "Deprecated feature: '.maxnctapersm directive' not supported "
                                "as of PTX version 2.1");
          else if (!known)
            diag_.parseError(loc(a), "Parsing error near '." + attr.name + "': syntax error");
          for (TerminalNode *n : a->INT()) {
            int64_t v = 0;
            parseInt(n->getText(), v);
            attr.values.push_back(static_cast<uint64_t>(v));
          }
        }
        f.attrs.push_back(std::move(attr));
      } else if (ruleOf(ch) == P::RuleBlock) {
        auto *b = static_cast<P::BlockContext *>(ch);
        f.hasBody = true;
        block(b, f.body);
      }
    }
    if (f.isEntry && !f.returns.empty())
      diag_.error(loc(c), "Return parameters are not allowed on .entry '" + f.name + "'");
    m_.functions.push_back(std::move(f));
  }
};

} // namespace

ParseResult parsePtx(std::string_view text, const std::string &fileName, ptx::Module &m,
                     DiagEngine &diag, unsigned maxErrors, PendingDiags &pending,
                     bool directStatements) {
  ParseResult res;
  ErrorListener listener(diag, fileName);
  ChunkBuilder builder(m, pending, fileName, res);
  const unsigned errorsAtStart = diag.errorCount();
  for (const Chunk &ch : splitTopLevel(text)) {
    if (diag.errorCount() - errorsAtStart >= maxErrors || pending.size() >= 16 * maxErrors)
      break;
    if (ch.maxDepth > kMaxNesting) {
      diag.parseError(SourceLoc{fileName, ch.deepLine, 0},
                 "Parsing error near '{': syntax error (nesting deeper than " +
                     std::to_string(kMaxNesting) + ")");
      ++res.syntaxErrors;
      continue;
    }
    std::string_view part = text.substr(ch.begin, ch.end - ch.begin);
    // PTX is ASCII. The runtime decodes its input as UTF-8 and throws on invalid bytes, so
    // every byte >= 0x80 becomes \x01: inside comments and strings it is harmless (a
    // string keeps a placeholder), anywhere else it is a BAD_CHAR token -> syntax error.
    std::string sanitized;
    for (unsigned char c : part)
      if (c >= 0x80) {
        sanitized.assign(part);
        for (char &d : sanitized)
          if (static_cast<unsigned char>(d) >= 0x80)
            d = '\x01';
        part = sanitized;
        break;
      }
    std::vector<LexToken> lexed = lexPtx(part, ch.line, ch.column);
    std::vector<bool> keep;
    std::vector<FastBody> bodies;
    std::vector<FastInit> inits;
    const bool direct = directStatements && FastScanner(lexed, part).scan(keep, bodies, inits);
    PtxTokenSource lexer(part, lexed, direct ? &keep : nullptr);
    antlr4::CommonTokenStream tokens(&lexer);
    PTXParser parser(&tokens);
    parser.removeErrorListeners();
    // Fast path: SLL prediction, stop at the first error.
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::SLL);
    parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
    PTXParser::ModuleContext *tree = nullptr;
    listener.reset(false);
    try {
      tree = parser.module();
    } catch (const antlr4::ParseCancellationException &) {
      tree = nullptr;
    } catch (const antlr4::RecognitionException &) {
      tree = nullptr;
    }
    if (tree && listener.count() == 0 &&
        (!direct || ChunkBuilder::directMatch(tree, bodies, inits, lexed))) {
      builder.setDirect(part, &lexed, direct ? &bodies : nullptr, direct ? &inits : nullptr);
      builder.module(tree);
      builder.setDirect({}, nullptr, nullptr, nullptr);
      continue;
    }
    // Slow path: full LL with recovery, for a precise message (first error only).
    parser.reset();
    PtxTokenSource lexer2(part, lexed);
    antlr4::CommonTokenStream tokens2(&lexer2);
    parser.setTokenStream(&tokens2);
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::LL);
    parser.setErrorHandler(std::make_shared<antlr4::DefaultErrorStrategy>());
    parser.addErrorListener(&listener);
    listener.reset(true);
    tree = parser.module();
    if (listener.count() == 0) {
      builder.module(tree); // SLL was too weak for this chunk; LL parsed it
      continue;
    }
    ++res.syntaxErrors;
  }
  return res;
}

} // namespace ptxmini::frontend
