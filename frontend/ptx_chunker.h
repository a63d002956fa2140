//===- frontend/ptx_chunker.h - split PTX text into top-level chunks --------------------===//
///
/// \file
/// The frontend never holds a whole module's parse tree: it cuts the text into chunks of
/// complete top-level items (about `targetSize` bytes each), parses a chunk, turns its tree
/// into AST and drops the tree before the next chunk.
///
/// Algorithm: one linear scan that skips comments and strings and tracks the nesting depth
/// of (), [] and {}. A top-level item ends at a `;` at depth 0, or at a `}` that returns to
/// depth 0 and is not followed by `;`, `,` or `=` (an initializer `= {...};` continues).
/// Items without a terminator (.version, .target, .file ...) just join the next chunk, which
/// the grammar allows (a chunk is `item*`). The scan also records each chunk's deepest
/// nesting so absurdly nested input is refused before it reaches the recursive parser.
//===----------------------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace ptxmini::frontend {

struct Chunk {
  size_t begin = 0, end = 0; ///< byte range in the text
  uint32_t line = 1;         ///< line and 0-based column of `begin`
  uint32_t column = 0;
  unsigned maxDepth = 0;     ///< deepest (), [], {} nesting inside
  uint32_t deepLine = 0;     ///< where maxDepth was first reached
};

std::vector<Chunk> splitTopLevel(std::string_view text, size_t targetSize = 64 * 1024);

} // namespace ptxmini::frontend
