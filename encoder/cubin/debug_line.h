//===- encoder/cubin/debug_line.h - DWARF 2 line tables as ptxas writes them -----------===//
///
/// \file
/// The line-number programs of `.debug_line` (code -> source file and line, from the PTX
/// `.file`/`.loc` directives) and `.nv_debug_line_sass` (code -> line of the PTX text kept in
/// `.nv_debug_ptx_txt`). Both are one DWARF version 2 unit with one sequence per function.
//===----------------------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptxmini::cubin {

/// From code offset `offset` (bytes from the start of the function's .text) on, the code is
/// line `line` of file `file` (1-based index into the unit's file table; 0 in
/// .nv_debug_line_sass, whose unit has no file table).
struct LineRow {
  uint32_t offset = 0;
  uint32_t file = 0;
  uint32_t line = 0;
  /// Code inlined from elsewhere (`.loc ..., function_name f, inlined_at F L C`): the call
  /// site (file as a table index, line, column), and `f`'s offset in .debug_str. The
  /// column is the row's own .loc column (call sites are matched on all three).
  bool inlined = false;
  uint32_t atFile = 0, atLine = 0, atColumn = 0;
  uint32_t functionName = 0;
  uint32_t column = 0;
  bool operator==(const LineRow &) const = default;
};

/// A file of the unit's file table: name, 1-based directory index (0: none), and the
/// modification time and size ptxas records (from `.file`, or from the file system).
struct LineFile {
  std::string name;
  uint32_t dir = 0;
  uint64_t mtime = 0, size = 0;
};

/// One function's sequence: its rows (offsets increasing) and the size of its .text.
struct LineSequence {
  std::vector<LineRow> rows;
  uint64_t end = 0;
};

/// Inlined rows (HW: ptxas 13.0.88 -lineinfo on PTX with `inlined_at`): when the rows' inlining
/// context changes, the extended opcode 0x90 with two ULEB128 operands -- the number (1-based,
/// counted over the unit's rows) of the row of the call site, and the function name's
/// .debug_str offset; [0, 0] back in code that is not inlined. Entering a context whose call
/// site is not in the current chain of call sites first adds a row for the call site at the
/// current address (its number is the one given); going back to an enclosing context names
/// that context's call-site row again. (Observed on Triton's nested inlining; the row count
/// running over several sequences is a GUESS, Triton's modules have one kernel.)
/// The unit's bytes; `addressOffsets` receives, per sequence, the offset of the 8-byte
/// DW_LNE_set_address operand that an R_CUDA_64 relocation against the function fills.
/// `headerPadding` zero bytes end the header (HW: ptxas writes 4 when the PTX has
/// `.loc ... inlined_at`; what they stand for is not known).
std::vector<uint8_t> encodeLineUnit(const std::vector<std::string> &dirs,
                                    const std::vector<LineFile> &files,
                                    const std::vector<LineSequence> &sequences,
                                    std::vector<size_t> &addressOffsets,
                                    unsigned headerPadding = 0);

} // namespace ptxmini::cubin
