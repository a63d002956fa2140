//===- phases/extract_shader_consts.cpp - ExtractShaderConsts (phase 34) ------------------===//
///
/// \file
/// Seed 004 names phase 34 between GeneralOptimize (29) and the first LICM (35): "shader
/// constant extraction hoists uniform loads". What ptxas visibly does with such values (HW:
/// ptxas 13.0.88 -O3, sm_90: `ULDC UR6, c[0x0][0x220]` then `ISETP.GT.AND P0, PT, R9, UR6, PT`
/// and `IADD3 R9, R2, -UR6, RZ`) is to read a kernel parameter or another constant-bank word
/// once into a uniform register, on the uniform datapath, and let the vector instructions
/// take it from there: a constant is the same for every thread, so it needs no per-thread
/// register and no per-thread load.
///
/// The algorithm, on non-SSA Ori:
///   candidates: `%r = LDC[.64] c[bank][offset]` with no index register, unguarded, not
///     volatile, writing a whole virtual GPR (32 or 64 bits) that has no other definition in
///     the function (so every read of %r sees this load's value);
///   a candidate moves when every instruction reading %r still encodes with %r replaced by a
///     fresh uniform register %ur (enc::canEncode asks the target's form tables: a vector ALU
///     source takes a UR where its form has a UR slot; a memory base or a constant-bank index
///     does not) and the reads are plain register operands (not memory bases, descriptors,
///     constant-bank indices or guards);
///   then the LDC becomes `%ur = ULDC[.64] c[bank][offset]` in place and every read of %r
///     reads %ur (components included: `%r.64[1]` -> `%ur.64[1]`).
/// Candidates are taken in layout order, each rewrite visible to the next check (an
/// instruction that took one UR may not have a form for a second). At most
/// ExtractShaderConstsBudget uniform register words are filled (GUESS: the seeds name no
/// knob; the UR file has 63 registers and the lowering already keeps memory descriptors
/// there). Nothing happens on a target without uniform registers.
/// Afterwards the vector register is gone; the allocator gives %ur a UR.
//===----------------------------------------------------------------------------------===//
#include "encoder/emit_function.h"
#include "phases/phase_manager.h"

#include <cassert>
#include <sstream>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

struct UseSite {
  uint32_t block;
  uint32_t instr;
  uint32_t op; ///< index into Instr::ops
};

bool isCandidate(const ori::Function &f, const Instr &in) {
  if (in.op != Opcode::LDC || in.guard.kind != OperandKind::None || in.numDefs != 1 ||
      in.hasFlag(ori::IF_Volatile_bit) || in.uses().size() != 1)
    return false;
  const Operand &d = in.defs()[0];
  const Operand &c = in.uses()[0];
  if (d.kind != OperandKind::VReg || d.cls != RegClass::R || d.sub != ori::kWholeReg ||
      (d.width != 1 && d.width != 2))
    return false;
  if (c.kind != OperandKind::CBank || c.hasCbankIndex())
    return false;
  // Sub-word loads (LDC.U8/.S8/.U16/.S16) stay on the vector path: nvdisasm 13.2 rejects
  // ULDC.U16 ("Unrecognized operation for functional unit 'uC'", corpus ggml clamp.ptx, the
  // half kernel), although our ULDC form row spells those sizes (a GUESS carried over from LDC).
  for (ori::Modifier m : {ori::Modifier::U8, ori::Modifier::S8, ori::Modifier::U16, ori::Modifier::S16})
    if (in.hasModifier(m))
      return false;
  return f.regInfo(d.cls, d.reg).defCount == 1;
}

/// Every place %r is read, or false when one of them is not a plain register operand.
bool collectUses(const ori::Function &f, const Operand &r, std::vector<UseSite> &out) {
  for (uint32_t b = 0; b < f.blocks.size(); ++b) {
    const std::vector<Instr> &instrs = f.blocks[b].instrs;
    for (uint32_t k = 0; k < instrs.size(); ++k) {
      const Instr &in = instrs[k];
      if (in.guard.kind == OperandKind::VReg && in.guard.cls == r.cls && in.guard.reg == r.reg)
        return false;
      for (uint32_t o = 0; o < in.ops.size(); ++o) {
        const Operand &op = in.ops[o];
        if (o < in.numDefs) {
          if (op.kind == OperandKind::VReg && op.cls == r.cls && op.reg == r.reg)
            continue; // the definition itself
        }
        if (op.kind == OperandKind::VReg && op.cls == r.cls && op.reg == r.reg) {
          if (o < in.numDefs)
            return false;
          out.push_back(UseSite{b, k, o});
          continue;
        }
        for (const Operand &v : op.vregs())
          if (v.cls == r.cls && v.reg == r.reg)
            return false; // a memory base, descriptor or constant-bank index
      }
    }
  }
  return true;
}

Operand renamed(const Operand &use, const Operand &ur) {
  Operand o = use;
  o.cls = ur.cls;
  o.reg = ur.reg;
  return o;
}

} // namespace

void runExtractShaderConsts(ori::Function &f, PhaseContext &pc) {
  if (pc.target->registers().numUgprs == 0)
    return;
  int64_t budget = pc.knobs.getInt(KnobId::ExtractShaderConstsBudget);
  if (budget <= 0)
    return;
  const unsigned sm = pc.target->arch().sm;
  f.recomputeRegTable();
  std::ostringstream notes;
  unsigned moved = 0;
  for (uint32_t b = 0; b < f.blocks.size(); ++b) {
    for (uint32_t k = 0; k < f.blocks[b].instrs.size(); ++k) {
      Instr &ld = f.blocks[b].instrs[k];
      if (!isCandidate(f, ld))
        continue;
      const Operand r = ld.defs()[0];
      if (r.width > budget)
        continue;
      std::vector<UseSite> uses;
      if (!collectUses(f, r, uses) || uses.empty())
        continue;
      Operand ur = Operand::vreg(RegClass::UR, f.numRegs(RegClass::UR), r.width);
      // The load itself must have a uniform form (ULDC takes .64 and no other size).
      Instr uld = ld;
      uld.op = Opcode::ULDC;
      uld.ops[0] = ur;
      if (!enc::canEncode(uld, sm))
        continue;
      // Every reading instruction must encode with all its reads of %r renamed, as it is
      // or with its first two sources swapped where they commute (OF_COMM: the uniform
      // register usually has a slot in the second source only).
      bool ok = true;
      std::vector<Instr> rewritten;
      for (size_t i = 0; i < uses.size() && ok; ++i) {
        if (i > 0 && uses[i].block == uses[i - 1].block && uses[i].instr == uses[i - 1].instr)
          continue;
        Instr trial = f.blocks[uses[i].block].instrs[uses[i].instr];
        for (size_t j = i; j < uses.size() && uses[j].block == uses[i].block &&
                           uses[j].instr == uses[i].instr;
             ++j)
          trial.ops[uses[j].op] = renamed(trial.ops[uses[j].op], ur);
        ok = enc::canEncode(trial, sm);
        if (!ok && trial.info().has(ori::OF_COMM) && trial.uses().size() >= 2) {
          std::swap(trial.uses()[0], trial.uses()[1]);
          ok = enc::canEncode(trial, sm);
        }
        rewritten.push_back(std::move(trial));
      }
      if (!ok)
        continue;
      ur = f.newReg(RegClass::UR, r.width);
      assert(ur.reg == uld.ops[0].reg);
      {
        size_t n = 0;
        for (size_t i = 0; i < uses.size(); ++i) {
          if (i > 0 && uses[i].block == uses[i - 1].block && uses[i].instr == uses[i - 1].instr)
            continue;
          Instr &dst = f.blocks[uses[i].block].instrs[uses[i].instr];
          dst = std::move(rewritten[n++]); // names %ur: newReg gave the number it tried
        }
      }
      Instr &load = f.blocks[b].instrs[k];
      load.op = Opcode::ULDC;
      load.ops[0] = ur;
      budget -= r.width;
      ++moved;
      notes << "# ExtractShaderConsts: " << ori::vregPrefix(RegClass::R) << r.reg << " -> "
            << ori::vregPrefix(RegClass::UR) << ur.reg << " (" << uses.size() << " reads)\n";
    }
  }
  pc.dumpNotes += notes.str();
  if (moved)
    f.recomputeRegTable();
}

} // namespace ptxmini
