//===- scheduler/sass_deps.h - which registers a SASS instruction reads and writes ------===//
///
/// \file
/// The hazard checker's view of one decoded instruction: nvdisasm-syntax text (as
/// encoder/sass_codec decodeText prints it) in, register accesses out. Which printed operands
/// are written and how many 32-bit registers each stands for comes from the target's SASS
/// opcode table (targets/<sm>/sass_ops.def); this file only knows the text syntax:
///
///   [@[!]P<n> | @[!]UP<n>] MNEMONIC[.MOD]* [operand {, operand}]
///   operand: [-|!|~|'|'] register [.suffix]*  |  [desc[URn]][base[.64][+URn][+imm]]
///            |  c[bank][reg+imm]  |  immediate  |  label address  |  SR_xxx  |  SBn
///
/// RZ, URZ, PT and UPT are never accesses; `PR` is the predicate file (P2R, R2P), narrowed by
/// the instruction's mask immediate; convergence-barrier registers (B0..B15) are not tracked.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"
#include "scheduler/reg_keys.h"
#include "targets/target.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxmini::sched {

enum class Access : uint8_t { Read, Guard, Write };

struct RegAccess {
  ori::RegClass file;
  uint16_t first;  ///< register number in its file
  uint8_t count;   ///< consecutive 32-bit registers
  Access how;
  int8_t operand;  ///< index in the printed operand list, -1 for the guard
};

struct SassDeps {
  std::string mnemonic;
  std::vector<std::string> mods;
  const SassOpInfo *op = nullptr; ///< nullptr: the opcode table has no row
  ori::LatClass cls = ori::LatClass::Alu;
  bool guarded = false;  ///< a guard other than PT
  bool opaque = false;   ///< unknown or OP_OPAQUE: register roles not modelled
  bool conditional = false; ///< a branch with a predicate / UR condition operand
  std::vector<RegAccess> regs;
  std::vector<uint64_t> targets; ///< label operands of branches (absolute addresses)
  int depbarSb = -1;             ///< DEPBAR.LE SBn, count
  unsigned depbarCount = 0;

  bool has(SassOpFlag f) const { return op && op->has(f); }
  bool hasMod(std::string_view m) const;
};

/// Analyses one instruction's text. False (with `err`) only for text it cannot parse; an
/// unknown mnemonic is not an error (the result is opaque).
bool analyzeSass(std::string_view text, const Target &target, SassDeps &out, std::string &err);

} // namespace ptxmini::sched
