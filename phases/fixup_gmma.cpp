//===- phases/fixup_gmma.cpp - FixupGmmaSequence (phase 87): wgmma pipeline constraints ----===//
///
/// \file
/// Seed 004 places FixupGmmaSequence at phase 87, after late expansion (78) and LICM #3 (79)
/// and before LICM #4 (88): "GMMA fixup reorders/inserts instructions for wgmma hardware
/// constraints". The seed gives no algorithm; the rules below are ptxas 13.0.88's behaviour
/// on probe kernels (sm_90a, read with cuobjdump 13.2), GUESS where they generalize it.
///
/// A warpgroup MMA (HGMMA/IGMMA/QGMMA) reads its operands when the warpgroup arrives
/// (WARPGROUP.ARRIVE, wgmma.fence) and writes its accumulator until a WARPGROUP.DEPBAR.LE
/// retires its group. frontend/lower/lower_wgmma.cpp places every accumulator in physical
/// registers (tuples never live together may share them), so the registers of a pipeline are
/// known here. A forward data-flow over the
/// blocks (union at joins, to a fixed point over loops) tracks two register sets:
///   in flight   accumulator registers written by an MMA and not retired by a
///               `WARPGROUP.DEPBAR.LE gsb0, 0x0` since;
///   unarrived   accumulator registers written by a non-MMA instruction since the last
///               WARPGROUP.ARRIVE.
/// Then, in one pass over each block from its entry state:
///   1. a non-MMA instruction that reads or writes an in-flight register gets
///      `WARPGROUP.DEPBAR.LE gsb0, 0x0` in front of it (the MMA before it closes its group:
///      gsb0), and ptxas's info "(C7517) warpgroup.wait is injected in around line L by
///      compiler to allow use of registers defined by GMMA in function 'F'", L being the
///      instruction's PTX line (HW: probes c2/c4: a store of the accumulator between the MMA
///      and the wait, or with no wait at all);
///   2. an MMA that reads an unarrived register gets WARPGROUP.ARRIVE in front of it and the
///      info "(C7519) warpgroup.arrive is injected in around line L by compiler to allow use of
///      registers in GMMA in function 'F'", L the MMA's line (HW: probes c3/c5: no fence, or a
///      mov to the accumulator between the fence and the MMA).
/// A `wait_group n` with n > 0 retires nothing here (which groups it retires is not tracked),
/// so an accumulator read after it gets a full wait: safe, possibly slower than ptxas.
/// DUMPIR after this phase lists the MMAs found per block and every insertion.
///
/// Not done (see the branch report): ptxas's serialization of whole pipelines ("(C7520)
/// Potential Performance Loss: wgmma.mma_async instructions are serialized due to ...", e.g.
/// "program dependence on compiler-inserted WG.AR in divergent path"), the dummy
/// `HGMMA.64x8x16.F16 RZ, gdesc[URZ], RZ, !UPT, gsb0` ptxas emits for a commit whose group an
/// injected wait already closed, and tracking register-A fragments (virtual registers).
//===----------------------------------------------------------------------------------===//
#include "ori/analysis/rpo.h"
#include "phases/phase_manager.h"

#include <llvm/ADT/BitVector.h>

#include <algorithm>

#include <string>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

constexpr unsigned kGprs = 256;

bool isMma(const Instr &in) {
  return in.op == Opcode::HGMMA || in.op == Opcode::IGMMA || in.op == Opcode::QGMMA;
}
bool isArrive(const Instr &in) {
  return in.op == Opcode::WARPGROUP && in.hasModifier(ori::Modifier::ARRIVE);
}
/// `WARPGROUP.DEPBAR.LE gsb0, n`: n, or -1 for another instruction.
int64_t waitCount(const Instr &in) {
  if (in.op != Opcode::WARPGROUP || !in.hasModifier(ori::Modifier::DEPBAR))
    return -1;
  return in.uses().empty() ? 0 : in.uses()[0].imm;
}

/// The physical GPRs an operand names (whole pairs and quads).
void gprsOf(const Operand &o, llvm::BitVector &out) {
  if (o.kind != OperandKind::PReg || o.cls != RegClass::R || o.isFixed())
    return;
  if (o.sub != ori::kWholeReg) {
    if (o.reg + o.sub < kGprs)
      out.set(o.reg + o.sub);
    return;
  }
  for (unsigned k = 0; k < std::max<unsigned>(1, o.width) && o.reg + k < kGprs; ++k)
    out.set(o.reg + k);
}

struct State {
  llvm::BitVector inFlight = llvm::BitVector(kGprs), unarrived = llvm::BitVector(kGprs);
  bool operator==(const State &o) const {
    return inFlight == o.inFlight && unarrived == o.unarrived;
  }
};

struct Fixup {
  ori::Function &f;
  PhaseContext &pc;
  llvm::BitVector accumulators = llvm::BitVector(kGprs);
  unsigned waits = 0, arrives = 0;

  /// Runs block `b` from `s`; with `apply`, inserts the waits and arrives and reports them.
  void run(uint32_t b, State &s, bool apply) {
    auto &instrs = f.blocks[b].instrs;
    int64_t lastMma = -1; // index of the last MMA in this block (after insertions)
    for (size_t i = 0; i < instrs.size(); ++i) {
      Instr &in = instrs[i];
      if (isArrive(in)) {
        s.unarrived.reset();
        continue;
      }
      if (int64_t n = waitCount(in); n >= 0) {
        if (n == 0)
          s.inFlight.reset();
        continue;
      }
      llvm::BitVector reads(kGprs), writes(kGprs);
      for (size_t k = 0; k < in.ops.size(); ++k)
        gprsOf(in.ops[k], k < in.numDefs ? writes : reads);
      reads &= accumulators;
      writes &= accumulators;
      if (isMma(in)) {
        if (reads.anyCommon(s.unarrived)) {
          if (apply) {
            Instr arrive(Opcode::WARPGROUP);
            arrive.mods.push_back(ori::Modifier::ARRIVE);
            for (unsigned r : accumulators.set_bits()) {
              Operand o = Operand::preg(RegClass::R, r);
              o.mods |= ori::OM_IMPLICIT;
              arrive.addDef(o);
              arrive.addUse(o);
            }
            report("(C7519) warpgroup.arrive is injected in around line " +
                   std::to_string(in.srcLine) +
                   " by compiler to allow use of registers in GMMA in function '" + f.name +
                   "'");
            note(b, "arrive injected before the MMA of line " + std::to_string(in.srcLine));
            ++arrives;
            instrs.insert(instrs.begin() + static_cast<ptrdiff_t>(i), std::move(arrive));
            ++i;
          }
          s.unarrived.reset();
        }
        s.inFlight |= writes;
        lastMma = static_cast<int64_t>(i);
        continue;
      }
      llvm::BitVector touched = reads;
      touched |= writes;
      if (touched.anyCommon(s.inFlight)) {
        if (apply) {
          Instr wait(Opcode::WARPGROUP);
          wait.mods = {ori::Modifier::DEPBAR, ori::Modifier::LE};
          wait.addUse(Operand::intImm(0));
          for (unsigned r : accumulators.set_bits()) {
            Operand o = Operand::preg(RegClass::R, r);
            o.mods |= ori::OM_IMPLICIT;
            wait.addDef(o);
            wait.addUse(o);
          }
          // The MMA before it closes its group (HW: probe c1, `..., gsb0` on the second
          // HGMMA although the commit comes after the injected wait).
          if (lastMma >= 0) {
            Instr &mma = instrs[static_cast<size_t>(lastMma)];
            if (!mma.hasModifier(ori::Modifier::GSB0))
              mma.mods.push_back(ori::Modifier::GSB0);
          }
          report("(C7517) warpgroup.wait is injected in around line " +
                 std::to_string(in.srcLine) +
                 " by compiler to allow use of registers defined by GMMA in function '" +
                 f.name + "'");
          note(b, "wait injected before line " + std::to_string(in.srcLine) + " (" +
                      std::string(in.info().name) + " uses an in-flight accumulator)");
          ++waits;
          instrs.insert(instrs.begin() + static_cast<ptrdiff_t>(i), std::move(wait));
          ++i;
        }
        s.inFlight.reset();
      }
      s.unarrived |= writes;
    }
  }

  void report(const std::string &msg) {
    if (pc.diag)
      pc.diag->info(msg);
  }
  void note(uint32_t b, const std::string &what) {
    pc.dumpNotes += "FixupGmmaSequence: " + f.name + " block " + std::to_string(b) + ": " +
                    what + "\n";
  }
};

} // namespace

void runFixupGmmaSequence(ori::Function &f, PhaseContext &pc) {
  Fixup fx{f, pc};
  bool any = false;
  for (const ori::Block &blk : f.blocks)
    for (const Instr &in : blk.instrs)
      if (isMma(in)) {
        any = true;
        for (const Operand &d : in.defs())
          gprsOf(d, fx.accumulators);
      }
  if (!any)
    return; // "FixupGmmaSequence: no wgmma" is not worth a line per function
  // Block entry states to a fixed point (sets only grow), in layout order: the lowering
  // keeps blocks in source order, so loops converge in a few rounds.
  std::vector<State> in(f.blocks.size());
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = 0; b < f.blocks.size(); ++b) {
      State s = in[b];
      fx.run(b, s, false);
      for (uint32_t succ : f.blocks[b].succs) {
        State merged = in[succ];
        merged.inFlight |= s.inFlight;
        merged.unarrived |= s.unarrived;
        if (!(merged == in[succ])) {
          in[succ] = merged;
          changed = true;
        }
      }
    }
  }
  for (uint32_t b = 0; b < f.blocks.size(); ++b) {
    unsigned mmas = 0;
    for (const Instr &i : f.blocks[b].instrs)
      mmas += isMma(i);
    if (mmas)
      fx.note(b, std::to_string(mmas) + " warpgroup MMA(s)" +
                     (in[b].inFlight.any() ? ", accumulators in flight at entry" : ""));
    State s = in[b];
    fx.run(b, s, true);
  }
  fx.note(0, "pipelines kept; " + std::to_string(fx.waits) + " wait(s) and " +
                 std::to_string(fx.arrives) + " arrive(s) injected");
}

} // namespace ptxmini
