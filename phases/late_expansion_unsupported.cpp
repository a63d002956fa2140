//===- phases/late_expansion_unsupported.cpp - LateExpansionUnsupportedOps (phase 78) ----===//
///
/// \file
/// Rewrites every instruction whose opcode the target SM lacks into ones it has, as the
/// target's capability table says (targets/isa_caps.h; the rows and their evidence are in
/// targets/sm_80/isa_caps.def). The lowering and the optimizing phases speak the reference
/// ISA (sm_90: VIADD, VIMNMX, I2FP); on sm_80 this phase is where the difference is paid.
/// Placement follows seed 004's phase list: 78 is "expand operations the target lacks",
/// after predication and before the last invariant hoisting (79), so an expansion's
/// invariant parts still leave loops. It runs at every optimization level (an opcode the SM
/// lacks is never optional), and does nothing on an SM that lacks nothing.
///
/// Rewrites (one instruction in, one out; guard, source line and operand modifiers kept):
///   Iadd3  VIADD d, a, b            -> IADD3 d, a, b, RZ
///   Imnmx  VIMNMX[.U32] d, a, b, p  -> IMNMX[.U32] d, a, b, p
///   I2f    I2FP.F32.S32[.RZ] d, a   -> I2F[.RZ] d, a;  I2FP.F32.U32 -> I2F.U32
///   Drop   removed (CGAERRBAR: no clusters on sm_8x)
/// A form with no rewrite (VIMNMX's packed 16x2 and RELU forms, from PTX that needs sm_90;
/// ELECT, Refuse) is an error naming the instruction, not a word the SM would not execute.
//===----------------------------------------------------------------------------------===//
#include "phases/phase_manager.h"

#include "support/diag.h"
#include "targets/isa_caps.h"

#include <algorithm>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Modifier;
using ori::Opcode;

void dropModifier(Instr &in, Modifier m) {
  in.mods.erase(std::remove(in.mods.begin(), in.mods.end(), m), in.mods.end());
}

/// Rewrites `in` in place; false when the form has no rewrite.
bool rewrite(Instr &in, OpRewrite how) {
  switch (how) {
  case OpRewrite::Iadd3:
    if (!in.mods.empty() || in.numDefs != 1 || in.uses().size() != 2)
      return false;
    in.op = Opcode::IADD3;
    in.addUse(ori::Operand::fixed(ori::RegClass::R));
    return true;
  case OpRewrite::Imnmx:
    for (Modifier m : in.mods)
      if (m != Modifier::U32 && m != Modifier::S32)
        return false;
    in.op = Opcode::IMNMX;
    dropModifier(in, Modifier::S32); // IMNMX is signed unless .U32
    return true;
  case OpRewrite::I2f:
    in.op = Opcode::I2F;
    dropModifier(in, Modifier::F32); // I2F's result is F32 unless a float type says otherwise
    dropModifier(in, Modifier::S32); // and its source S32 unless an integer type does
    return true;
  case OpRewrite::Drop:
    return true; // removed by the caller
  case OpRewrite::Refuse:
    return false;
  }
  return false;
}

} // namespace

void runLateExpansionUnsupportedOps(ori::Function &f, PhaseContext &pc) {
  const IsaCaps &caps = isaCapsFor(pc.target->arch().sm);
  if (caps.missing.empty())
    return;
  unsigned rewritten = 0;
  for (ori::Block &b : f.blocks) {
    std::vector<bool> drop(b.instrs.size(), false);
    for (size_t i = 0; i < b.instrs.size(); ++i) {
      Instr &in = b.instrs[i];
      const MissingOp *m = caps.lacks(in.op);
      if (!m)
        continue;
      std::string name(in.info().name);
      if (!rewrite(in, m->how)) {
        if (pc.diag)
          pc.diag->error("Function '" + f.name + "': " + name + " (or this form of it) " +
                         "does not exist on sm_" + std::to_string(pc.target->arch().sm) +
                         " and ptxas-mini cannot expand it yet");
        continue;
      }
      drop[i] = m->how == OpRewrite::Drop;
      ++rewritten;
    }
    size_t kept = 0;
    for (size_t i = 0; i < b.instrs.size(); ++i)
      if (!drop[i])
        b.instrs[kept++] = std::move(b.instrs[i]);
    b.instrs.resize(kept);
  }
  if (rewritten)
    pc.dumpNotes += "LateExpansionUnsupportedOps: " + std::to_string(rewritten) +
                    " instructions rewritten for sm_" + std::to_string(pc.target->arch().sm) + "\n";
  f.recomputeRegTable();
}

} // namespace ptxmini
