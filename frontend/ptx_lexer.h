//===- frontend/ptx_lexer.h - hand-written token source for the generated PTX parser ----===//
///
/// \file
/// A direct-coded lexer that produces exactly the token stream of the lexer rules of
/// grammar/PTX.g4 (same token types from PTXLexer.h, same text, line, column and character
/// range), for the generated ANTLR parser to consume. It exists for speed (issue 23): the
/// generated lexer runs ANTLR's lexer ATN interpreter one character at a time through virtual
/// calls, over a UTF-32 copy of the text, and every getText() of its tokens converts that
/// copy back to UTF-8. Here each rule is a few loops over the bytes and a token's text is
/// set once.
///
/// How the rules map (longest match; on equal length the earlier rule wins, as in ANTLR):
///   keywords vs DOT_ID      scan DOT_ID; a keyword when the whole word is one
///   HEX_FLOAT/DEC_FLOAT/INT scan all three from a digit, keep the longest
///   ID                      [a-zA-Z_$%] IDCHAR* ('.' IDCHAR+ ('::' IDCHAR+)*)*
///   STRING                  unterminated -> '"' is one BAD_CHAR, as ANTLR falls back
///   BLOCK_COMMENT           unterminated -> SLASH, then STAR, as ANTLR falls back
///   anything else           one BAD_CHAR
/// Plus the one spelling the grammar cannot express (formerly a subclass of the generated
/// lexer): a declaration keyword glued to the type that follows (`.reg.b16 hl;`, as nvcc's
/// inline-asm headers write it) is split into the keyword token and a DOT_ID for the rest.
///
/// The generated PTXLexer stays in the build: the unit test (tests/unit/ptx_lexer_test.cpp)
/// checks that both produce identical token streams.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "antlr4-runtime.h"

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace ptxmini::frontend {

/// One token: its type (PTXLexer::ID, ...; antlr4::Token::EOF last), its byte range in the
/// lexed text, and where it starts (line 1-based, column 0-based, as ANTLR counts them).
/// LexToken::type of the token that ends the text (antlr4::Token::EOF does not fit 32 bits).
inline constexpr uint32_t kLexEof = UINT32_MAX;

struct LexToken {
  uint32_t type;
  uint32_t begin, end;
  uint32_t line, col;
};

/// Lexes all of `text` (which starts at `line`/`column` of its file); the last token is EOF.
std::vector<LexToken> lexPtx(std::string_view text, uint32_t line, uint32_t column);

/// Hands the tokens of lexPtx() to the ANTLR parser as CommonTokens (text set once), all of
/// them, or only those whose `keep` flag is set (the frontend builds the others' AST itself).
class PtxTokenSource final : public antlr4::TokenSource {
public:
  PtxTokenSource(std::string_view text, const std::vector<LexToken> &tokens,
                 const std::vector<bool> *keep = nullptr)
      : s_(text), toks_(tokens), keep_(keep) {}

  std::unique_ptr<antlr4::Token> nextToken() override;
  size_t getLine() const override { return toks_[next_].line; }
  size_t getCharPositionInLine() override { return toks_[next_].col; }
  antlr4::CharStream *getInputStream() override { return nullptr; }
  std::string getSourceName() override { return "<ptx>"; }
  antlr4::TokenFactory<antlr4::CommonToken> *getTokenFactory() override;

  /// Whether the text at byte `index` opens a /* comment that is never closed (the lexer
  /// then gives SLASH, STAR, ... as ANTLR's does; ptxas reports the unexpected end).
  bool unterminatedCommentAt(size_t index) const {
    return index + 1 < s_.size() && s_[index] == '/' && s_[index + 1] == '*' &&
           s_.find("*/", index + 2) == std::string_view::npos;
  }

private:
  std::string_view s_;
  const std::vector<LexToken> &toks_;
  const std::vector<bool> *keep_;
  size_t next_ = 0;
};

} // namespace ptxmini::frontend
