/* op_table.cpp - the opcode table (rows from opcodes.def) and its lookups. */
#include "tests/exec/emu/ops.h"

#include <cstring>
#include <sstream>

namespace ptxmini::exec {
namespace {
// Several rows share a handler, so declarations are deduplicated by the compiler; the table
// itself is one entry per row.
const OpRow kRows[] = {
#define OP(NAME, FN, MODS, FLAGS) {#NAME, &FN, MODS, FLAGS},
#include "tests/exec/emu/opcodes.def"
#undef OP
};
}  // namespace

const OpRow* op_table() { return kRows; }
size_t op_table_size() { return sizeof(kRows) / sizeof(kRows[0]); }

int find_op(const std::string& opcode) {
  for (size_t i = 0; i < op_table_size(); ++i)
    if (opcode == kRows[i].name) return static_cast<int>(i);
  return -1;
}

bool mods_known(const OpRow& row, const SassInst& in, std::string& bad) {
  for (const auto& m : in.mods) {
    std::istringstream ss(row.mods);
    std::string w;
    bool ok = false;
    // A word ending in '*' matches every modifier with that prefix (GMMA shapes "64x*").
    while (ss >> w)
      if (w == m || (w.back() == '*' && m.compare(0, w.size() - 1, w, 0, w.size() - 1) == 0)) { ok = true; break; }
    if (!ok) { bad = m; return false; }
  }
  return true;
}

}  // namespace ptxmini::exec
