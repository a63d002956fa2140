//===- scheduler/compute_control_codes.cpp - ComputeControlCodes: stalls and scoreboards -===//
///
/// \file
/// Gives every instruction a control code that is safe without a latency model. It is
/// deliberately conservative (correct first; the latency-driven version replaces it):
///   - stall: 15 cycles after every instruction, which covers every fixed-latency result
///     on sm_90 (GUESS-free bound: the longest fixed latencies published for Volta+ GPRs
///     and predicates are 6 and 13 cycles, sass-encoding.md 2.3), so no fixed-latency
///     consumer can read early;
///   - variable-latency producers (opcodes.def OF_VLAT) get a write scoreboard, and
///     instructions whose register operands may be read after issue (memory operations and
///     variable-latency ones) a read scoreboard, each a free one of the six (the oldest is
///     waited for and reused when none is free);
///   - an instruction waits on every scoreboard whose pending writes it reads or writes
///     (RAW, WAW) and whose pending reads it overwrites (WAR);
///   - every branch, call and exit waits on all pending scoreboards, so a block entered by a
///     branch starts with none pending and a linear walk in layout order is sound across
///     control flow.
/// Runs after register allocation, on physical registers.
//===----------------------------------------------------------------------------------===//
#include "phases/phase_manager.h"

#include <array>
#include <set>

namespace ptxmini {
namespace {

using ori::Operand;
using ori::OperandKind;

constexpr unsigned kNumScoreboards = 6; // HW: wait mask bits 116-121 (sass-encoding.md 2.2)
constexpr uint8_t kSafeStall = 15;

using RegKey = std::pair<uint8_t, uint32_t>; // class, physical number
using RegSet = std::set<RegKey>;

void addReg(const Operand &r, RegSet &out) {
  if (r.kind != OperandKind::PReg || r.isFixed())
    return;
  for (unsigned k = 0; k < std::max<unsigned>(1, r.width); ++k)
    out.insert({static_cast<uint8_t>(r.cls), r.reg + k});
}

void operandRegs(const Operand &o, RegSet &out) {
  if (o.kind == OperandKind::Mem) {
    if (o.hasMemBase())
      addReg(o.memBase(), out);
    addReg(o.memDesc(), out);
  } else if (o.hasCbankIndex()) {
    addReg(o.cbankIndex(), out);
  } else {
    addReg(o, out);
  }
}

bool intersects(const RegSet &a, const RegSet &b) {
  for (const RegKey &k : a)
    if (b.count(k))
      return true;
  return false;
}

struct Scoreboards {
  std::array<RegSet, kNumScoreboards> writes, reads;
  std::array<bool, kNumScoreboards> busy{};
  std::array<uint64_t, kNumScoreboards> age{};
  uint64_t clock = 0;

  void release(unsigned k) {
    writes[k].clear();
    reads[k].clear();
    busy[k] = false;
  }
  /// A free scoreboard, or the oldest busy one added to `wait` and released.
  unsigned take(uint8_t &wait) {
    unsigned best = 0;
    for (unsigned k = 0; k < kNumScoreboards; ++k) {
      if (!busy[k] && !(wait & (1u << k))) {
        best = k;
        goto found;
      }
    }
    for (unsigned k = 1; k < kNumScoreboards; ++k)
      if (age[k] < age[best])
        best = k;
    wait |= static_cast<uint8_t>(1u << best);
    release(best);
  found:
    busy[best] = true;
    age[best] = ++clock;
    return best;
  }
};

} // namespace

void runComputeControlCodes(ori::Function &f, PhaseContext &) {
  Scoreboards sb;
  for (ori::Block &b : f.blocks) {
    for (ori::Instr &in : b.instrs) {
      RegSet reads, writes;
      for (const Operand &d : in.defs())
        operandRegs(d, writes);
      for (const Operand &u : in.uses())
        operandRegs(u, reads);
      operandRegs(in.guard, reads);

      ori::CtrlCode cc;
      cc.valid = true;
      cc.stall = kSafeStall;
      // HW: nvdisasm 13.2 rejects a stall of 15 with the raw yield bit (109) set ("undefined
      // value 0x1f for table TABLES_opex"), so the safe stall goes with the bit clear.
      cc.yield = true;
      uint8_t wait = 0;
      // A CALL leaves for code that knows nothing of this function's scoreboards (and may
      // overwrite a register a pending load still writes): it waits on all of them too. HW:
      // ptxas 13.0's CALL.ABS.NOINC to vprintf waits on every scoreboard pending there.
      bool endsFlow = in.info().has(ori::OF_BR) || in.info().has(ori::OF_TERM) ||
                      in.op == ori::Opcode::CALL;
      for (unsigned k = 0; k < kNumScoreboards; ++k) {
        if (!sb.busy[k])
          continue;
        if (endsFlow || intersects(sb.writes[k], reads) || intersects(sb.writes[k], writes) ||
            intersects(sb.reads[k], writes))
          wait |= static_cast<uint8_t>(1u << k);
      }
      for (unsigned k = 0; k < kNumScoreboards; ++k)
        if (wait & (1u << k))
          sb.release(k);

      bool lateReads = in.info().has(ori::OF_VLAT) || in.info().has(ori::OF_LD) ||
                       in.info().has(ori::OF_ST);
      if (in.info().has(ori::OF_VLAT) && !writes.empty()) {
        unsigned k = sb.take(wait);
        sb.writes[k] = writes;
        cc.writeBarrier = static_cast<uint8_t>(k);
      }
      if (lateReads && !reads.empty()) {
        unsigned k = sb.take(wait);
        sb.reads[k] = reads;
        cc.readBarrier = static_cast<uint8_t>(k);
      }
      // HW: ptxas 13.0 gives LDGDEPBAR (cp.async.commit_group) write scoreboard 0, the one
      // DEPBAR.LE SB0, N (cp.async.wait_group) counts; scoreboards count, so other users of
      // scoreboard 0 only make those waits longer.
      if (in.op == ori::Opcode::LDGDEPBAR) {
        if (!sb.busy[0]) {
          sb.busy[0] = true;
          sb.age[0] = ++sb.clock;
        }
        cc.writeBarrier = 0;
      }
      cc.waitMask = wait;
      in.ctrl = cc;
    }
  }
}

} // namespace ptxmini
