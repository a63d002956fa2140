//===- targets/common/volta_word.h - the Volta+ 128-bit instruction word layout ---------===//
///
/// \file
/// What every 128-bit SASS family member (sm_70 .. sm_120) shares: the opcode and guard
/// predicate at the bottom, the control block in bits 105..125, and the register-number
/// conventions (RZ, URZ, PT). Per-SM opcode/form rows live in targets/sm_XX/.
///
/// HW: every position here was observed with nvdisasm 13.2 (`-b SM90`) flipping single bits
/// of ptxas 13.0.88 output (targets/sm_90/tools/probe.py) and agrees with the public
/// layout in shared/docs/sass-encoding.md section 2. The control block is not printed by
/// nvdisasm at all; its layout is from that doc and checked against ptxas's own scoreboard
/// use (a producer's write scoreboard is waited on by its consumer's mask), see
/// targets/sm_90/ENCODING.md.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "encoder/bit_writer.h"

namespace ptxmini::volta {

using enc::BitRange;

// ---- fixed fields -------------------------------------------------------------------------
inline constexpr BitRange kOpcode{0, 12};     ///< opcode incl. the operand-form bits 9..11
inline constexpr BitRange kGuardPred{12, 3};  ///< @Pn, 7 = PT (no guard printed)
inline constexpr BitRange kGuardNeg{15, 1};   ///< @!Pn

// ---- control block (bits 105..125), one per instruction ------------------------------------
inline constexpr BitRange kStall{105, 4};     ///< cycles to wait before issuing the next one
inline constexpr BitRange kYield{109, 1};     ///< ptxas's usual value is 1; 0 prints as `Y`
inline constexpr BitRange kWriteSb{110, 3};   ///< scoreboard set when the result lands, 7 = none
inline constexpr BitRange kReadSb{113, 3};    ///< scoreboard set when sources are read, 7 = none
inline constexpr BitRange kWaitMask{116, 6};  ///< wait on scoreboards SB0..SB5 before issue
inline constexpr BitRange kReuse{122, 4};     ///< operand-reuse cache, one bit per source slot
inline constexpr unsigned kReuseBitA = 122, kReuseBitB = 123, kReuseBitC = 124;

// ---- register-number conventions ------------------------------------------------------------
inline constexpr unsigned kRZ = 255;  ///< GPR 255 reads as zero
inline constexpr unsigned kURZ = 63;  ///< uniform GPR 63 reads as zero (below sm_100)
inline constexpr unsigned kPT = 7;    ///< predicate 7 is always true

/// The decoded control block, as the `[B------:R-:W-:Y:S04]` annotation shows it.
struct Control {
  unsigned stall = 0;
  bool yieldBit = true; ///< raw bit 109 (annotation prints `Y` when it is 0)
  unsigned writeSb = 7;
  unsigned readSb = 7;
  unsigned waitMask = 0;
};

inline Control readControl(const enc::Word128 &w) {
  return {unsigned(w.get(kStall)), w.get(kYield) != 0, unsigned(w.get(kWriteSb)),
          unsigned(w.get(kReadSb)), unsigned(w.get(kWaitMask))};
}
inline void writeControl(enc::Word128 &w, const Control &c) {
  w.set(kStall, c.stall);
  w.set(kYield, c.yieldBit ? 1 : 0);
  w.set(kWriteSb, c.writeSb);
  w.set(kReadSb, c.readSb);
  w.set(kWaitMask, c.waitMask);
}

} // namespace ptxmini::volta
