//===- scheduler/instr_deps.h - the registers an allocated Ori instruction touches ------===//
///
/// \file
/// What the list scheduler and ComputeControlCodes need to know about one instruction on
/// physical registers: the register keys it writes and reads (64/128-bit operands expand to
/// their pairs and quads; memory bases and descriptors are reads; the guard and the predicate
/// sources of OP_PCTRL instructions are guard reads), its latency class, and the target's
/// flags for its opcode (variable latency, late reads, control flow).
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"
#include "scheduler/reg_keys.h"
#include "targets/target.h"

#include "llvm/ADT/SmallVector.h"

namespace ptxmini::sched {

struct RegRead {
  uint16_t key;
  ReadKind kind;
};

struct InstrDeps {
  llvm::SmallVector<uint16_t, 4> defs;     ///< register keys written
  llvm::SmallVector<uint8_t, 4> defCls;    ///< the latency class each of them lands as
  llvm::SmallVector<RegRead, 8> reads;     ///< register keys read (guard first)
  llvm::SmallVector<uint16_t, 8> lateSrcs; ///< GPR sources a late reader reads after issue
  ori::LatClass cls = ori::LatClass::Alu;
  bool vlat = false;    ///< result tracked by a write scoreboard
  bool late = false;    ///< reads operands after issue
  bool guarded = false;
  /// Takes no scoreboard wait: WARPGROUP.DEPBAR, whose implicit accumulator operands only
  /// order code (HW: nvdisasm 13.2 refuses a WARPGROUP.DEPBAR with a wait mask, "Unrecognized
  /// operation for functional unit 'uC'"; ptxas 13.0 never sets one). It reads and writes no
  /// register, so an instruction after it waits for its own producers.
  bool noWaits = false;
  uint16_t opFlags = 0; ///< SassOpFlag bits of the opcode
  bool has(SassOpFlag f) const { return (opFlags & f) != 0; }
};

InstrDeps instrDeps(const ori::Instr &in, const Target &target);

} // namespace ptxmini::sched
