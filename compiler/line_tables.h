//===- compiler/line_tables.h - line tables from .file/.loc and the PTX text -----------===//
///
/// \file
/// What ptxas writes for `-lineinfo` (and for any PTX that carries `.loc`): the
/// compiler-side half. It knows the module's `.file` table, the `.loc` directives of every
/// function and the PTX text; given the PTX lines of a function's instructions in code
/// order (ori::Instr::srcLine after the phases) it makes the rows of `.debug_line` and
/// `.nv_debug_line_sass`. The cubin builder encodes them (encoder/cubin/debug_line.h).
//===----------------------------------------------------------------------------------===//
#pragma once

#include "encoder/cubin/cubin_builder.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ptxmini::ptx {
struct Module;
struct Block;
} // namespace ptxmini::ptx

namespace ptxmini {

class LineTables {
public:
  /// `ptxText` is the module's source text (what `.nv_debug_ptx_txt` keeps, line by line).
  LineTables(const ptx::Module &m, std::string_view ptxText);

  /// Whether the module has any `.loc` (ptxas then writes line tables without -lineinfo).
  bool hasLocs() const { return hasLocs_; }

  /// The module part: the .debug_line file table and the PTX text section.
  cubin::LineInfo moduleInfo() const { return info_; }

  /// Appends the rows of one function's code placed at byte offset `base` of a .text:
  /// `lines[i]` is the PTX line of its i-th instruction (0: none, e.g. set-up code, which
  /// ptxas attributes to the body's `{` line in .nv_debug_line_sass and which extends the
  /// previous row of .debug_line).
  void addRows(const std::string &function, const std::vector<uint32_t> &lines, uint32_t base,
               std::vector<cubin::LineRow> &sourceRows,
               std::vector<cubin::LineRow> &ptxRows) const;

private:
  struct Loc {
    uint32_t ptxLine; ///< where the .loc directive is
    uint32_t file;    ///< 1-based index into the .debug_line file table
    uint32_t line;
    uint32_t column = 0;
    /// `inlined_at`: the call site (file as a table index) and the function name's
    /// .debug_str offset (cubin::LineRow).
    bool inlined = false;
    uint32_t atFile = 0, atLine = 0, atColumn = 0, functionName = 0;
  };
  struct FunctionLocs {
    uint32_t bodyLine = 0;
    std::vector<Loc> locs; ///< by ptxLine
  };
  void collect(const ptx::Block &b, FunctionLocs &out);

  cubin::LineInfo info_;
  std::map<unsigned, uint32_t> fileIndex_; ///< .file number -> table index (1-based)
  std::map<std::string, uint32_t> strLabels_; ///< .debug_str label -> its offset there
  std::map<std::string, FunctionLocs> functions_;
  bool hasLocs_ = false;
};

/// The `.nv_debug_ptx_txt` bytes for PTX text (HW: ptxas 13.0.88): one NUL-terminated string
/// per source line, leading blanks removed; `.loc` and `.file` lines, lines that start with
/// `//` and debug-section data lines (`.b8`/`.b16`/`.b32`/`.b64`) become empty.
std::vector<uint8_t> ptxDebugText(std::string_view text);

} // namespace ptxmini
