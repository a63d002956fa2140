//===- frontend/ptx_lexer.cpp - hand-written token source for the generated PTX parser --===//
///
/// \file
/// See ptx_lexer.h: the lexer rules of grammar/PTX.g4 coded directly.
//===----------------------------------------------------------------------------------===//
#include "frontend/ptx_lexer.h"

#include "PTXLexer.h"

#include <array>

namespace ptxmini::frontend {
namespace {

using L = ptxmini_gen::PTXLexer;
constexpr uint32_t kEof = kLexEof;

// Character classes of the grammar's fragments, one table lookup each.
enum : uint8_t { kIdChar = 1, kIdStart = 2, kDigit = 4, kHex = 8, kBlank = 16 };
constexpr std::array<uint8_t, 256> makeClasses() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    bool lower = c >= 'a' && c <= 'z', upper = c >= 'A' && c <= 'Z', dig = c >= '0' && c <= '9';
    uint8_t v = 0;
    if (lower || upper || dig || c == '_' || c == '$')
      v |= kIdChar;                                   // IDCHAR : [a-zA-Z0-9_$]
    if (lower || upper || c == '_' || c == '$' || c == '%')
      v |= kIdStart;                                  // ID : [a-zA-Z_$%] ...
    if (dig)
      v |= kDigit;
    if (dig || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
      v |= kHex;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f')
      v |= kBlank;                                    // WS : [ \t\r\n\f]+
    t[static_cast<size_t>(c)] = v;
  }
  return t;
}
constexpr std::array<uint8_t, 256> kClass = makeClasses();

inline bool is(std::string_view s, size_t p, uint8_t cls) {
  return p < s.size() && (kClass[static_cast<unsigned char>(s[p])] & cls);
}
inline size_t skipIdChars(std::string_view s, size_t p) {
  while (is(s, p, kIdChar))
    ++p;
  return p;
}
/// ('::' IDCHAR+)* from p.
inline size_t scopeParts(std::string_view s, size_t p) {
  while (p + 2 < s.size() && s[p] == ':' && s[p + 1] == ':' && is(s, p + 2, kIdChar))
    p = skipIdChars(s, p + 3);
  return p;
}
/// ('.' IDCHAR+ ('::' IDCHAR+)*)* from p.
inline size_t dotParts(std::string_view s, size_t p) {
  while (p + 1 < s.size() && s[p] == '.' && is(s, p + 1, kIdChar))
    p = scopeParts(s, skipIdChars(s, p + 2));
  return p;
}

/// The keyword rules, which win over DOT_ID on equal length (they come first in the grammar).
struct Keyword {
  std::string_view text;
  size_t type;
};
constexpr Keyword kKeywords[] = {
    {".version", L::VERSION},   {".target", L::TARGET},       {".address_size", L::ADDRESS_SIZE},
    {".file", L::FILE},         {".loc", L::LOC},             {".section", L::SECTION},
    {".pragma", L::PRAGMA},     {".alias", L::ALIAS},         {".entry", L::ENTRY},
    {".func", L::FUNC},         {".visible", L::VISIBLE},     {".extern", L::EXTERN},
    {".weak", L::WEAK},         {".common", L::COMMON},       {".align", L::ALIGN},
    {".reg", L::REG},           {".param", L::PARAM},         {".global", L::GLOBAL},
    {".shared", L::SHARED},     {".const", L::CONST},         {".local", L::LOCAL},
    {".tex", L::TEX},           {".attribute", L::ATTRIBUTE}, {".callprototype", L::CALLPROTOTYPE},
    {".calltargets", L::CALLTARGETS}, {".branchtargets", L::BRANCHTARGETS},
    {".noreturn", L::NORETURN}};
/// Declaration keywords that may be glued to the type after them (`.reg.b16`).
constexpr Keyword kGlued[] = {{".reg", L::REG},       {".param", L::PARAM}, {".global", L::GLOBAL},
                              {".shared", L::SHARED}, {".const", L::CONST}, {".local", L::LOCAL},
                              {".align", L::ALIGN}};

/// Length of the longest of HEX_FLOAT / DEC_FLOAT / INT at p (a digit), and its type.
std::pair<size_t, size_t> number(std::string_view s, size_t p) {
  const size_t n = s.size();
  // HEX_FLOAT : '0' [fF] HEXDIG{8} | '0' [dD] HEXDIG{16}
  size_t hexFloat = 0;
  if (s[p] == '0' && p + 1 < n) {
    char k = s[p + 1];
    size_t want = (k == 'f' || k == 'F') ? 8 : (k == 'd' || k == 'D') ? 16 : 0;
    if (want) {
      size_t q = p + 2;
      while (q < p + 2 + want && is(s, q, kHex))
        ++q;
      if (q == p + 2 + want)
        hexFloat = want + 2;
    }
  }
  size_t digits = p;
  while (is(s, digits, kDigit))
    ++digits;
  // DEC_FLOAT : DIGIT+ '.' DIGIT* EXPONENT? | DIGIT+ EXPONENT
  auto exponent = [&](size_t q) -> size_t { // end of EXPONENT at q, or q when none
    if (q < n && (s[q] == 'e' || s[q] == 'E')) {
      size_t r = q + 1;
      if (r < n && (s[r] == '+' || s[r] == '-'))
        ++r;
      if (is(s, r, kDigit)) {
        while (is(s, r, kDigit))
          ++r;
        return r;
      }
    }
    return q;
  };
  size_t decFloat = 0;
  if (digits < n && s[digits] == '.') {
    size_t q = digits + 1;
    while (is(s, q, kDigit))
      ++q;
    decFloat = exponent(q) - p;
  } else if (size_t q = exponent(digits); q != digits) {
    decFloat = q - p;
  }
  // INT : ( '0' [xX] HEXDIG+ | '0' [bB] [01]+ | DIGIT+ ) [uU]?
  size_t intEnd = digits;
  if (s[p] == '0' && p + 2 < n) {
    char k = s[p + 1];
    if ((k == 'x' || k == 'X') && is(s, p + 2, kHex)) {
      size_t q = p + 2;
      while (is(s, q, kHex))
        ++q;
      intEnd = std::max(intEnd, q);
    } else if ((k == 'b' || k == 'B') && (s[p + 2] == '0' || s[p + 2] == '1')) {
      size_t q = p + 2;
      while (q < n && (s[q] == '0' || s[q] == '1'))
        ++q;
      intEnd = std::max(intEnd, q);
    }
  }
  if (intEnd < n && (s[intEnd] == 'u' || s[intEnd] == 'U'))
    ++intEnd;
  size_t intLen = intEnd - p;
  // longest wins; on a tie the earlier rule (HEX_FLOAT, DEC_FLOAT, INT)
  if (hexFloat && hexFloat >= decFloat && hexFloat >= intLen)
    return {hexFloat, L::HEX_FLOAT};
  if (decFloat && decFloat >= intLen)
    return {decFloat, L::DEC_FLOAT};
  return {intLen, L::INT};
}

/// Single-character tokens (and the first character of '<<' / '>>').
size_t punct(char c) {
  switch (c) {
  case '(': return L::LPAREN;
  case ')': return L::RPAREN;
  case '{': return L::LBRACE;
  case '}': return L::RBRACE;
  case '[': return L::LBRACK;
  case ']': return L::RBRACK;
  case ',': return L::COMMA;
  case ';': return L::SEMI;
  case ':': return L::COLON;
  case '@': return L::AT;
  case '!': return L::BANG;
  case '|': return L::PIPE;
  case '+': return L::PLUS;
  case '-': return L::MINUS;
  case '*': return L::STAR;
  case '/': return L::SLASH;
  case '<': return L::LT;
  case '>': return L::GT;
  case '=': return L::EQ;
  case '~': return L::TILDE;
  case '&': return L::AMP;
  case '^': return L::CARET;
  default: return L::BAD_CHAR;
  }
}

} // namespace

antlr4::TokenFactory<antlr4::CommonToken> *PtxTokenSource::getTokenFactory() {
  return antlr4::CommonTokenFactory::DEFAULT.get();
}

std::unique_ptr<antlr4::Token> PtxTokenSource::nextToken() {
  while (keep_ && next_ + 1 < toks_.size() && !(*keep_)[next_])
    ++next_;
  const LexToken &k = toks_[next_];
  if (next_ + 1 < toks_.size())
    ++next_;
  auto t = std::make_unique<antlr4::CommonToken>(
      std::pair<antlr4::TokenSource *, antlr4::CharStream *>(this, nullptr),
      k.type == kEof ? antlr4::Token::EOF : size_t(k.type), antlr4::Token::DEFAULT_CHANNEL,
      k.begin, size_t(k.end) - 1);
  t->setText(k.type == kEof ? std::string("<EOF>") : std::string(s_.substr(k.begin, k.end - k.begin)));
  t->setLine(k.line);
  t->setCharPositionInLine(k.col);
  return t;
}

std::vector<LexToken> lexPtx(std::string_view s_, uint32_t line, uint32_t column) {
  std::vector<LexToken> out;
  out.reserve(s_.size() / 4 + 1);
  const size_t n = s_.size();
  size_t pos_ = 0;
  size_t line_ = line;
  ptrdiff_t lineStart_ = -static_cast<ptrdiff_t>(column);
  auto advanceTo = [&](size_t end) { // consume [pos_, end), counting lines
    for (size_t p = pos_; p < end; ++p)
      if (s_[p] == '\n') {
        ++line_;
        lineStart_ = static_cast<ptrdiff_t>(p + 1);
      }
    pos_ = end;
  };
  while (true) {
    const size_t begin = pos_;
    const uint32_t ln = static_cast<uint32_t>(line_);
    const uint32_t col = static_cast<uint32_t>(static_cast<ptrdiff_t>(begin) - lineStart_);
    auto make = [&](size_t type, size_t b, size_t e, uint32_t c) {
      out.push_back(LexToken{static_cast<uint32_t>(type), static_cast<uint32_t>(b),
                             static_cast<uint32_t>(e), ln, c});
    };
    if (begin >= n) {
      make(kEof, begin, begin, col);
      return out;
    }
    const char c = s_[begin];
    const uint8_t cls = kClass[static_cast<unsigned char>(c)];
    if (cls & kBlank) { // WS -> skip
      size_t end = begin + 1;
      while (is(s_, end, kBlank))
        ++end;
      advanceTo(end);
      continue;
    }
    if (cls & kIdStart) { // ID
      size_t end = dotParts(s_, skipIdChars(s_, begin + 1));
      pos_ = end;
      make(L::ID, begin, end, col);
      continue;
    }
    if (cls & kDigit) {
      auto [len, type] = number(s_, begin);
      pos_ = begin + len;
      make(type, begin, begin + len, col);
      continue;
    }
    switch (c) {
    case '.': {
      // DOT_ID : '.' [a-zA-Z_] IDCHAR* ('::' IDCHAR+)* ('.' IDCHAR+ ('::' IDCHAR+)*)*
      if (!is(s_, begin + 1, kIdStart) || s_[begin + 1] == '$' || s_[begin + 1] == '%')
        break;
      size_t end = dotParts(s_, scopeParts(s_, skipIdChars(s_, begin + 2)));
      std::string_view word = s_.substr(begin, end - begin);
      size_t type = L::DOT_ID;
      for (const Keyword &k : kKeywords)
        if (word == k.text) {
          type = k.type;
          break;
        }
      if (type == L::DOT_ID)
        for (const Keyword &k : kGlued)
          if (word.size() > k.text.size() && word.substr(0, k.text.size()) == k.text &&
              word[k.text.size()] == '.') {
            size_t split = begin + k.text.size();
            make(k.type, begin, split, col);
            make(L::DOT_ID, split, end, static_cast<uint32_t>(col + k.text.size()));
            type = 0;
            break;
          }
      if (type)
        make(type, begin, end, col);
      pos_ = end;
      continue;
    }
    case '"': { // STRING : '"' (~["\\\r\n] | '\\' .)* '"'
      size_t p = begin + 1;
      bool closed = false;
      while (p < n) {
        char d = s_[p];
        if (d == '"') {
          closed = true;
          break;
        }
        if (d == '\r' || d == '\n')
          break;
        if (d == '\\') {
          if (p + 1 >= n)
            break;
          p += 2;
          continue;
        }
        ++p;
      }
      if (!closed)
        break; // BAD_CHAR
      make(L::STRING, begin, p + 1, col);
      advanceTo(p + 1); // an escaped newline counts as a line
      continue;
    }
    case '/':
      if (begin + 1 < n && s_[begin + 1] == '/') { // LINE_COMMENT -> skip
        size_t end = begin + 2;
        while (end < n && s_[end] != '\r' && s_[end] != '\n')
          ++end;
        pos_ = end;
        continue;
      }
      if (begin + 1 < n && s_[begin + 1] == '*') { // BLOCK_COMMENT -> skip
        size_t close = s_.find("*/", begin + 2);
        if (close != std::string_view::npos) {
          advanceTo(close + 2);
          continue;
        }
      }
      break; // SLASH
    case '<':
    case '>':
      if (begin + 1 < n && s_[begin + 1] == c) {
        pos_ = begin + 2;
        make(c == '<' ? L::SHL : L::SHR, begin, begin + 2, col);
        continue;
      }
      break;
    default: break;
    }
    // one-character token (BAD_CHAR for anything the grammar does not know)
    make(punct(c), begin, begin + 1, col);
    advanceTo(begin + 1);
  }
}

} // namespace ptxmini::frontend
