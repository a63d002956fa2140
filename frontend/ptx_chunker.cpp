//===- frontend/ptx_chunker.cpp - split PTX text into top-level chunks ------------------===//
///
/// \file
/// See ptx_chunker.h for the algorithm.
//===----------------------------------------------------------------------------------===//
#include "frontend/ptx_chunker.h"

namespace ptxmini::frontend {

std::vector<Chunk> splitTopLevel(std::string_view text, size_t targetSize) {
  std::vector<Chunk> chunks;
  Chunk cur;
  uint32_t line = 1;
  size_t lineStart = 0;
  int depth = 0;
  size_t i = 0;
  const size_t n = text.size();

  // Skips blanks and comments from `j`, counting lines; returns the next significant index.
  auto skipBlank = [&](size_t j, uint32_t &ln, size_t &ls) {
    while (j < n) {
      char c = text[j];
      if (c == '\n') {
        ++ln;
        ls = j + 1;
        ++j;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        ++j;
      } else if (c == '/' && j + 1 < n && text[j + 1] == '/') {
        while (j < n && text[j] != '\n')
          ++j;
      } else if (c == '/' && j + 1 < n && text[j + 1] == '*') {
        j += 2;
        while (j < n && !(text[j] == '*' && j + 1 < n && text[j + 1] == '/')) {
          if (text[j] == '\n') {
            ++ln;
            ls = j + 1;
          }
          ++j;
        }
        j = j < n ? j + 2 : n;
      } else {
        break;
      }
    }
    return j;
  };

  auto boundary = [&](size_t endPos) {
    if (endPos - cur.begin < targetSize)
      return;
    cur.end = endPos;
    chunks.push_back(cur);
    cur = Chunk{};
    cur.begin = endPos;
    cur.line = line;
    cur.column = static_cast<uint32_t>(endPos - lineStart);
  };

  while (i < n) {
    char c = text[i];
    switch (c) {
    case '\n':
      ++line;
      lineStart = i + 1;
      ++i;
      break;
    case '/':
      if (i + 1 < n && (text[i + 1] == '/' || text[i + 1] == '*'))
        i = skipBlank(i, line, lineStart);
      else
        ++i;
      break;
    case '"':
      ++i;
      while (i < n && text[i] != '"' && text[i] != '\n') {
        if (text[i] == '\\' && i + 1 < n && text[i + 1] != '\n')
          ++i;
        ++i;
      }
      if (i < n && text[i] == '"')
        ++i;
      break;
    case '{':
    case '(':
    case '[':
      ++depth;
      if (static_cast<unsigned>(depth) > cur.maxDepth) {
        cur.maxDepth = static_cast<unsigned>(depth);
        cur.deepLine = line;
      }
      ++i;
      break;
    case ')':
    case ']':
      depth = depth > 0 ? depth - 1 : 0;
      ++i;
      break;
    case '}': {
      depth = depth > 0 ? depth - 1 : 0;
      ++i;
      if (depth == 0) {
        uint32_t ln = line;
        size_t ls = lineStart;
        size_t j = skipBlank(i, ln, ls);
        if (j >= n || (text[j] != ';' && text[j] != ',' && text[j] != '='))
          boundary(i);
      }
      break;
    }
    case ';':
      ++i;
      if (depth == 0)
        boundary(i);
      break;
    default:
      ++i;
      break;
    }
  }
  if (n > cur.begin || chunks.empty()) {
    cur.end = n;
    chunks.push_back(cur);
  }
  return chunks;
}

} // namespace ptxmini::frontend
