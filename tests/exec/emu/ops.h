/* ops.h - opcode handlers and the opcode table built from opcodes.def. */
#pragma once

#include "tests/exec/emu/emulator.h"

#include <cstddef>

namespace ptxmini::exec {

using OpHandler = void (*)(Exec&);

inline constexpr unsigned kWarpWide = 1;  // handler combines the lanes of the group

struct OpRow {
  const char* name;
  OpHandler fn;
  const char* mods;  // space-separated modifiers the handler understands
  unsigned flags;
};

const OpRow* op_table();
size_t op_table_size();
// Index of the row for `opcode`, or -1.
int find_op(const std::string& opcode);
// True if every modifier of `in` is listed in `row.mods`; else sets `bad`.
bool mods_known(const OpRow& row, const SassInst& in, std::string& bad);

#define OP(NAME, FN, MODS, FLAGS) void FN(Exec&);
#include "tests/exec/emu/opcodes.def"
#undef OP

}  // namespace ptxmini::exec
