//===- frontend/ptx_parse.cpp - PTX text to AST, one chunk at a time -------------------===//
///
/// \file
/// For each chunk from splitTopLevel():
///   1. lex and parse with SLL prediction and a bail-out error strategy (fast path, the
///      grammar is LL(1)/LL(2) almost everywhere);
///   2. on failure, parse again with full LL and ANTLR's default recovery to get the
///      precise offending token for the message;
///   3. walk the tree (ChunkBuilder) and append AST nodes to the module;
///   4. destroy the parser, which frees the tree and the tokens.
/// Chunks nested deeper than kMaxNesting are refused before parsing (the parser and the
/// builder recurse on nesting), so no input can exhaust the stack.
//===----------------------------------------------------------------------------------===//
#include "frontend/ptx_parse.h"

#include "frontend/ptx_chunker.h"
#include "frontend/ptx_instr_table.h"

#include "PTXLexer.h"
#include "PTXParser.h"
#include "antlr4-runtime.h"

#include <cmath>
#include <cstring>

namespace ptxmini::frontend {
namespace {

using namespace ptxmini_gen;
using antlr4::ParserRuleContext;
using antlr4::Token;
using antlr4::tree::ParseTree;
using antlr4::tree::TerminalNode;
using P = PTXParser;

constexpr unsigned kMaxNesting = 200;

/// The generated lexer, with one PTX spelling it cannot express by longest match: a
/// declaration keyword glued to the type that follows (`.reg.b16 hl, hu;`, which ptxas
/// accepts and nvcc's inline-asm headers write). DOT_ID would swallow `.reg.b16` whole; this
/// splits such a token into the keyword (REG, PARAM, ...) and a DOT_ID for the rest, with
/// the columns of the original text, so the grammar sees `.reg .b16`.
class PtxTokenSource : public PTXLexer {
public:
  using PTXLexer::PTXLexer;

  std::unique_ptr<Token> nextToken() override {
    if (!pending_.empty()) {
      std::unique_ptr<Token> t = std::move(pending_.front());
      pending_.erase(pending_.begin());
      return t;
    }
    std::unique_ptr<Token> t = PTXLexer::nextToken();
    if (t->getType() != PTXLexer::DOT_ID)
      return t;
    std::string text = t->getText();
    static constexpr std::pair<std::string_view, size_t> kKeywords[] = {
        {".reg", PTXLexer::REG},       {".param", PTXLexer::PARAM}, {".global", PTXLexer::GLOBAL},
        {".shared", PTXLexer::SHARED}, {".const", PTXLexer::CONST}, {".local", PTXLexer::LOCAL},
        {".align", PTXLexer::ALIGN}};
    for (auto [kw, type] : kKeywords) {
      if (text.size() <= kw.size() || text.compare(0, kw.size(), kw) != 0 ||
          text[kw.size()] != '.')
        continue;
      auto piece = [&](size_t from, size_t len, size_t ttype) {
        auto c = std::make_unique<antlr4::CommonToken>(
            std::make_pair<antlr4::TokenSource *, antlr4::CharStream *>(this, getInputStream()),
            ttype, t->getChannel(), t->getStartIndex() + from,
            t->getStartIndex() + from + len - 1);
        c->setText(text.substr(from, len));
        c->setLine(t->getLine());
        c->setCharPositionInLine(t->getCharPositionInLine() + from);
        return c;
      };
      pending_.push_back(piece(kw.size(), text.size() - kw.size(), PTXLexer::DOT_ID));
      return piece(0, kw.size(), type);
    }
    return t;
  }

  void reset() override {
    pending_.clear();
    PTXLexer::reset();
  }

private:
  std::vector<std::unique_ptr<Token>> pending_;
};

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
    diag_.error(SourceLoc{file_, static_cast<uint32_t>(line), static_cast<uint32_t>(col + 1)},
                "Parsing error near '" + near + "': syntax error");
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

class ChunkBuilder {
public:
  ChunkBuilder(ptx::Module &m, PendingDiags &pending, const std::string &file,
               ParseResult &res)
      : m_(m), diag_{pending}, file_(file), res_(res) {}

  void module(P::ModuleContext *ctx) {
    for (P::ItemContext *it : ctx->item())
      item(it);
  }

private:
  /// Collects errors as PendingDiag (same call shape as DiagEngine::error).
  struct Pending {
    PendingDiags &out;
    void error(const SourceLoc &loc, std::string msg) {
      out.push_back(PendingDiag{loc.line, loc.column, std::move(msg)});
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

  Val intVal(TerminalNode *t) {
    Val v;
    v.kind = Val::Kind::Int;
    if (!parseInt(t->getText(), v.i)) {
      diag_.error(loc(t->getSymbol()), "Invalid integer constant '" + t->getText() + "'");
      v.kind = Val::Kind::Bad;
    }
    return v;
  }

  static Val floatVal(TerminalNode *t, bool hex) {
    Val v;
    v.kind = Val::Kind::Float;
    std::string s = t->getText();
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
          diag_.error(loc(at), "Division by zero in constant expression");
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
    diag_.error(loc(at), "Illegal operand expression");
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
      TerminalNode *tn = asToken(c->children[k]);
      size_t op = tn->getSymbol()->getType();
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
        diag_.error(loc(tn->getSymbol()), "Illegal operand expression");
        v = Val{};
      }
    }
    return v;
  }

  Val atom(TerminalNode *tn) {
    switch (tn->getSymbol()->getType()) {
    case P::INT: return intVal(tn);
    case P::DEC_FLOAT: return floatVal(tn, false);
    case P::HEX_FLOAT: return floatVal(tn, true);
    default: {
      Val v;
      v.kind = Val::Kind::Name;
      v.name = tn->getText();
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
      ptx::AddressOperand a;
      auto parts = c->operand();
      ptx::Operand base = operand(parts[0]);
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
      for (size_t k = 1; k < parts.size(); ++k)
        a.extra.push_back(operand(parts[k]));
      op.value = std::move(a);
      return op;
    }
    if (c->children.size() == 1 && asToken(c->children[0]))
      return valueOperand(atom(asToken(c->children[0])), op.column);
    auto exprs = c->expr();
    Val v = expr(exprs[0]);
    if (exprs.size() == 2) {
      Val w = expr(exprs[1]);
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
    TerminalNode *opTok = asToken(c->children[k]);
    std::string text = opTok->getText();
    std::vector<std::string_view> words;
    std::string_view rest = text;
    while (true) {
      size_t dot = rest.find('.');
      words.push_back(rest.substr(0, dot));
      if (dot == std::string_view::npos)
        break;
      rest = rest.substr(dot + 1);
    }
    SourceLoc at = loc(opTok->getSymbol());
    size_t consumed = 0;
    std::optional<unsigned> row = matchFamily(words, consumed);
    if (!row) {
      diag_.error(at, "Not a name of any known instruction: '" + std::string(words[0]) + "'");
      return;
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
        diag_.error(at, "Unknown modifier '." + std::string(words[w]) + "'");
        bad = true;
      }
      ins.modifiers.push_back(std::move(m));
    }
    if (bad)
      return;
    for (size_t j = k + 1; j < c->children.size(); j += 2)
      ins.operands.push_back(operand(static_cast<P::OperandContext *>(c->children[j])));
    out.push_back(ptx::Statement{std::move(ins)});
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
      if (v <= 0 || (v & (v - 1)) != 0 || v > (1 << 20)) {
        diag_.error(loc(q), "Invalid alignment " + q->INT()->getText());
        v = 1;
      }
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
      if (d.isPtr)
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
        d.ptrSpace = s;
      } else {
        diag_.error(loc(q), "Unknown type or qualifier '." + std::string(w) + "' in declaration");
      }
    }
  }

  void initializer(P::InitializerContext *c, std::vector<ptx::InitValue> &out) {
    size_t first = tokenType(c->children[0]);
    if (first == P::LBRACE) {
      for (size_t k = 1; k < c->children.size(); k += 2)
        if (!asToken(c->children[k]))
          initializer(static_cast<P::InitializerContext *>(c->children[k]), out);
      return;
    }
    ptx::InitValue iv;
    if (c->children.size() == 1 && first != 0) {
      Val v = atom(asToken(c->children[0]));
      if (v.kind == Val::Kind::Int) {
        iv.kind = ptx::InitValue::Kind::Int;
        iv.intValue = v.i;
      } else if (v.kind == Val::Kind::Float) {
        iv.kind = ptx::InitValue::Kind::Float;
        iv.floatValue = v.f;
      } else {
        return;
      }
      out.push_back(std::move(iv));
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
  void block(P::BlockContext *c, ptx::Block &b) {
    b.line = line(c);
    b.column = col(c);
    for (size_t k = 1; k + 1 < c->children.size(); ++k)
      statement(static_cast<P::StatementContext *>(c->children[k]), b.statements);
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
            diag_.error(loc(w->getSymbol()), "Parsing error near '" + w->getText() +
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
  void noteItem(ParserRuleContext *c, bool isVersion) {
    if (res_.firstItemLine == 0) {
      res_.firstItemLine = line(c);
      res_.versionFirst = isVersion;
    } else if (res_.secondItemLine == 0) {
      res_.secondItemLine = line(c);
    }
  }

  void item(P::ItemContext *c) {
    if (auto *v = c->versionDir()) {
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
    noteItem(c, false);
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
        diag_.error(loc(a), "Invalid address size " + a->INT()->getText());
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
    for (size_t k = 1; k < c->children.size(); ++k) {
      ParseTree *ch = c->children[k];
      size_t t = tokenType(ch);
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
            diag_.error(loc(a), "Parsing error near '." + attr.name + "': syntax error");
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
                     DiagEngine &diag, unsigned maxErrors, PendingDiags &pending) {
  ParseResult res;
  ErrorListener listener(diag, fileName);
  ChunkBuilder builder(m, pending, fileName, res);
  const unsigned errorsAtStart = diag.errorCount();
  for (const Chunk &ch : splitTopLevel(text)) {
    if (diag.errorCount() - errorsAtStart >= maxErrors || pending.size() >= 16 * maxErrors)
      break;
    if (ch.maxDepth > kMaxNesting) {
      diag.error(SourceLoc{fileName, ch.deepLine, 0},
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
    antlr4::ANTLRInputStream input(part.data(), part.size());
    PtxTokenSource lexer(&input);
    lexer.setLine(ch.line);
    lexer.setCharPositionInLine(ch.column);
    lexer.removeErrorListeners();
    lexer.addErrorListener(&listener);
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
    if (tree && listener.count() == 0) {
      builder.module(tree);
      continue;
    }
    // Slow path: full LL with recovery, for a precise message (first error only).
    tokens.seek(0);
    parser.reset();
    lexer.reset();
    lexer.setLine(ch.line);
    lexer.setCharPositionInLine(ch.column);
    antlr4::CommonTokenStream tokens2(&lexer);
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
