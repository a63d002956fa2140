//===- phases/strength_reduce.cpp - OriStrengthReduce (phase 21) ------------------------===//
///
/// \file
/// Seed 004, phase table: "21 OriStrengthReduce -- induction variable strength reduction",
/// placed after loop simplification (it needs the preheaders of phase 18) and before
/// unrolling ("so that induction variable simplifications are already applied, avoiding
/// redundant computation in unrolled copies"). The seed gives no algorithm or knobs for it;
/// this is the classic reduction of a multiply by a basic induction variable to an add.
///
/// Algorithm, per natural loop with a dedicated preheader (innermost loops first):
///   1. basic induction variables: 32-bit R registers i every one of whose definitions in
///      the loop (inner loops included) is an unguarded `i = IADD3 i, imm, RZ` (operands in
///      any order) or `i = VIADD i, imm`: i changes in the loop only by adding constants;
///   2. candidates: unguarded `t = IMAD i, m, c` (32-bit, no modifier; i and the immediate m
///      in either of the first two slots) anywhere in the loop, with c loop-invariant (an
///      immediate, RZ, a constant-bank operand or a register the loop does not write);
///   3. each distinct (i, m, c) gets a new register j with the invariant j == i*m + c
///      (mod 2^32) at every point of the loop: j is initialized at the end of the preheader
///      by a copy of the candidate (i and c have their loop-entry values there), and every
///      definition `i = i + k` in the loop is followed by `j = IADD3 j, k*m, RZ`; each
///      candidate becomes `t = MOV j`, which copy propagation (GeneralOptimize) removes.
///   Exact for every path through the loop: 32-bit multiplication and addition are a ring
///   modulo 2^32, so (i + k)*m + c == (i*m + c) + k*m with wrap-around, and j is updated
///   exactly where i is.
/// Not reduced: IMAD.WIDE (a 64-bit address from a 32-bit index, `base + i*stride`): the
/// 64-bit sum is only equal to the extended index's when i does not wrap, which needs the
/// loop's bound (left for later); shifts and LEA (already single ALU operations).
/// Rejections are counted for DUMPIR: `# [strength-reduced multiplies=N] [new induction
/// variables=M]`. Knob: StrengthReduceMaxIVs (ours: the most new induction variables per
/// loop, each a register live across the loop; 0 disables the phase).
//===----------------------------------------------------------------------------------===//
#include "ori/cfg.h"
#include "phases/loop_simplification.h"
#include "phases/phase_manager.h"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;


/// The constant a definition `i = i + k` adds, when `in` is one (for register i).
std::optional<uint32_t> addedConstant(const Instr &in, uint32_t i) {
  if (in.isGuarded() || !in.mods.empty() || in.numDefs != 1 || !isLoopPlainR(in.ops[0]) ||
      in.ops[0].reg != i)
    return std::nullopt;
  unsigned self = 0;
  uint32_t sum = 0;
  auto term = [&](const Operand &u) {
    if (isLoopPlainR(u) && u.reg == i)
      return ++self, true;
    if (u.kind == OperandKind::Imm && u.mods == 0)
      return sum += static_cast<uint32_t>(u.imm), true;
    return u.isFixed() && u.cls == RegClass::R && u.mods == 0;
  };
  if (in.op == Opcode::IADD3 && in.uses().size() == 3) {
    for (const Operand &u : in.uses())
      if (!term(u))
        return std::nullopt;
  } else if (in.op == Opcode::VIADD && in.uses().size() == 2) {
    for (const Operand &u : in.uses())
      if (!term(u))
        return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (self != 1)
    return std::nullopt;
  return sum;
}

struct Candidate {
  uint32_t block;
  size_t index;
  uint32_t iv;
  uint32_t mult;
  Operand addend;
};

struct Stats {
  unsigned reduced = 0, newIVs = 0;
};

/// Reduces the candidates of loop `l`; returns whether anything changed.
bool reduceLoop(ori::Function &f, const ori::Loop &l, uint32_t pre, int64_t maxIVs,
                Stats &st) {
  // Registers written in the loop, and whether each R register is a basic IV.
  std::map<std::pair<RegClass, uint32_t>, unsigned> writes;
  std::map<uint32_t, bool> basic;
  for (uint32_t b : l.blocks)
    for (const Instr &in : f.blocks[b].instrs)
      for (const Operand &d : in.defs())
        if (d.kind == OperandKind::VReg) {
          ++writes[{d.cls, d.reg}];
          if (d.cls == RegClass::R) {
            auto it = basic.try_emplace(d.reg, true).first;
            it->second = it->second && addedConstant(in, d.reg).has_value();
          }
        }
  auto invariant = [&](const Operand &o) {
    if (o.kind == OperandKind::Imm || o.isFixed())
      return o.kind == OperandKind::Imm || o.cls == RegClass::R;
    if (o.kind == OperandKind::CBank)
      return !o.hasCbankIndex();
    if (o.kind == OperandKind::VReg)
      return o.cls == RegClass::R && !writes.count({o.cls, o.reg});
    return false;
  };
  std::vector<Candidate> cands;
  for (uint32_t b : l.blocks) {
    const auto &ins = f.blocks[b].instrs;
    for (size_t k = 0; k < ins.size(); ++k) {
      const Instr &in = ins[k];
      if (in.op != Opcode::IMAD || in.isGuarded() || !in.mods.empty() || in.numDefs != 1 ||
          !isLoopPlainR(in.ops[0]) || in.uses().size() != 3)
        continue;
      const Operand &a = in.uses()[0], &m = in.uses()[1], &c = in.uses()[2];
      const Operand *iv = nullptr, *imm = nullptr;
      if (isLoopPlainR(a) && m.kind == OperandKind::Imm && m.mods == 0)
        iv = &a, imm = &m;
      else if (isLoopPlainR(m) && a.kind == OperandKind::Imm && a.mods == 0)
        iv = &m, imm = &a;
      if (!iv)
        continue;
      auto bi = basic.find(iv->reg);
      if (bi == basic.end() || !bi->second || !invariant(c))
        continue;
      cands.push_back({b, k, iv->reg, static_cast<uint32_t>(imm->imm), c});
    }
  }
  if (cands.empty())
    return false;
  // One new IV per distinct (i, m, c), in the order first seen.
  struct NewIV {
    uint32_t iv, mult;
    Operand addend, reg;
    Instr init;
  };
  std::vector<NewIV> ivs;
  std::vector<int> which(cands.size(), -1);
  for (size_t k = 0; k < cands.size(); ++k) {
    const Candidate &c = cands[k];
    for (size_t j = 0; j < ivs.size(); ++j)
      if (ivs[j].iv == c.iv && ivs[j].mult == c.mult && ivs[j].addend == c.addend)
        which[k] = static_cast<int>(j);
    if (which[k] >= 0)
      continue;
    if (static_cast<int64_t>(ivs.size()) >= maxIVs)
      continue;
    NewIV n{c.iv, c.mult, c.addend, f.newReg(RegClass::R), f.blocks[c.block].instrs[c.index]};
    n.init.ops[0] = n.reg;
    n.init.srcLine = 0;
    which[k] = static_cast<int>(ivs.size());
    ivs.push_back(std::move(n));
  }
  // Candidates become copies of their IV.
  for (size_t k = 0; k < cands.size(); ++k) {
    if (which[k] < 0)
      continue;
    Instr &in = f.blocks[cands[k].block].instrs[cands[k].index];
    Instr mov(Opcode::MOV);
    mov.srcLine = in.srcLine;
    mov.addDef(in.ops[0]);
    mov.addUse(ivs[which[k]].reg);
    in = std::move(mov);
    ++st.reduced;
  }
  // Each `i = i + k` is followed by the updates of the IVs derived from i.
  for (uint32_t b : l.blocks) {
    auto &ins = f.blocks[b].instrs;
    for (size_t k = 0; k < ins.size(); ++k) {
      if (ins[k].numDefs != 1 || !isLoopPlainR(ins[k].ops[0]))
        continue;
      const uint32_t i = ins[k].ops[0].reg;
      auto add = addedConstant(ins[k], i);
      if (!add)
        continue;
      std::vector<Instr> ups;
      for (const NewIV &n : ivs)
        if (n.iv == i) {
          Instr up(Opcode::IADD3);
          up.addDef(n.reg);
          up.addUse(n.reg);
          up.addUse(Operand::intImm(static_cast<uint32_t>(*add * n.mult)));
          up.addUse(Operand::fixed(RegClass::R));
          ori::spellImmediates(up);
          ups.push_back(std::move(up));
        }
      ins.insert(ins.begin() + static_cast<ptrdiff_t>(k) + 1, ups.begin(), ups.end());
      k += ups.size();
    }
  }
  // Initializations at the end of the preheader (before its branch to the header, if any).
  auto &pi = f.blocks[pre].instrs;
  auto at = pi.end();
  if (!pi.empty() && pi.back().info().has(ori::OF_BR))
    at = pi.end() - 1;
  std::vector<Instr> inits;
  for (const NewIV &n : ivs)
    inits.push_back(n.init);
  pi.insert(at, inits.begin(), inits.end());
  st.newIVs += static_cast<unsigned>(ivs.size());
  return true;
}

} // namespace

void runOriStrengthReduce(ori::Function &f, PhaseContext &pc) {
  Stats st;
  const int64_t maxIVs = pc.knobs.getInt(KnobId::StrengthReduceMaxIVs);
  if (f.cfgAnalyzed && maxIVs > 0) {
    // Innermost first (Function::loops lists outer loops before inner ones); instruction
    // indices change only inside the loop being reduced and its preheader, and block
    // indices not at all, so the loop facts stay valid throughout.
    bool changed = false;
    for (size_t k = f.loops.size(); k-- > 0;) {
      const ori::Loop &l = f.loops[k];
      std::optional<uint32_t> pre = findDedicatedPreheader(f, l);
      if (!pre)
        continue;
      changed |= reduceLoop(f, l, *pre, maxIVs, st);
    }
    if (changed)
      f.recomputeRegTable();
  }
  std::ostringstream notes;
  notes << "# [strength-reduced multiplies=" << st.reduced << "] [new induction variables="
        << st.newIVs << "]\n";
  pc.dumpNotes += notes.str();
}

} // namespace ptxmini
