//===- phases/pipelining.cpp - OriPipelining (phase 24): modulo scheduling of loops ----===//
///
/// \file
/// Seed 004 "Phase 24 -- OriPipelining" (operand latency classes, MII = max(RecMII, ResMII),
/// a modulo reservation table, II search, prolog/kernel/epilog) with the modulo scheduling
/// algorithm of seed 002 "MachinePipeliner" (II search from MII over a range, stage limit,
/// "no overlapped iterations" / "unable to find schedule" outcomes). The placement itself is
/// Rau's iterative modulo scheduling (B. R. Rau, "Iterative Modulo Scheduling", MICRO-27,
/// 1994): height-based priority, earliest start from scheduled predecessors, a window of II
/// slots, and eviction of conflicting operations under a budget.
///
/// Candidates: innermost loops of one block h (header == latch) ending in a conditional
/// `@P BRA h` that falls through to its exit, not fully unrolled by phase 22. Per loop:
///  1. Rejections (each with a code, printed by DUMPIR): nounroll pragma unless
///     OkToPipelineNoUnroll (1), barriers / fences (2), warp-synchronous code (3), calls (4),
///     other control flow in the body or a header named by a non-branch label (5), physical
///     register writes or instructions with implicit register operands (R2P, P2R) (6),
///     multi-output textures unless PipelineMultiOutputTex (7), a body over 96 instructions
///     (8, GUESS), a loop control that is not a closed slice of plain ALU instructions (9),
///     a warp-divergent trip count (10), MII over PipelineMaxMII (11), no schedule within
///     PipelineIISearchRange of MII and PipelineMaxStages (12), a schedule with one stage (13),
///     register pressure (14), not profitable (15).
///  2. Dependence graph over the body's instructions: RAW edges with the target's latency
///     (targets/: rawLatency for fixed-latency writers, the performance model's write latency
///     for scoreboarded ones), distance 0 or 1 (loop-carried); for registers that cannot be
///     renamed (several definitions, guarded or partial ones) WAR and WAW edges too; memory:
///     loads may pass loads, every pair involving a store / atomic / other effect keeps its
///     order within and across iterations (edges of distance 0 and 1). Every edge has
///     latency >= 1, so dependent instances never share a cycle.
///  3. ResMII from the performance model's pipes (targets/<sm>/perf_model.def: pipe and issue
///     cycles per instruction, one issue per cycle), RecMII as the smallest II without a
///     positive cycle of latency - II * distance. Scoreboarded latencies are capped at
///     (stages - 1) * II while scheduling: a 250-cycle load cannot be hidden by three stages,
///     and scoreboards keep any order correct; the cap only places consumers in later stages.
///  4. Iterative modulo scheduling at II = MII, MII + 1, ... (PipelineIISearchRange). With
///     PipelineOverlapFirst, first with scoreboarded latencies capped at
///     (PipelineMaxStages - 1) * II over the whole II range, then at fewer stages: a schedule
///     that overlaps iterations at a larger II is preferred to a one-stage schedule at a
///     smaller one, which leaves every load's latency exposed once per iteration. By default
///     the stage caps are tried inside each II, so a one-stage schedule at MII ends the search
///     and most loops stay as they are: overlap-first pipelined loops in 93 of the 391 sm_90
///     corpus files, which ptxas leaves unpipelined, at 1.089x the instructions and 1.046x the
///     registers on 34 of them (modelled cycles of pipeline_loops 0.870 of ptxas's against
///     0.994 without the phase; measured by the loops5 branch, 2026-11-26).
///     The loop control (the backward slice of the branch predicate: IV update and compare)
///     must land in stage 0, so that the kernel's branch decides whether the next stage-0
///     iteration exists.
///  5. Modulo variable expansion: a register with one unguarded whole definition in the body
///     is renamed (a 64-bit address advanced by an IADD3 / IADD3.X pair is first rewritten as
///     one IMAD.WIDE.U32 in the pipelined copy, so it qualifies). A read that sees its value
///     after k later definitions needs k + 1 names; with K the most names any register needs,
///     the kernel is unrolled K times and the definition in global kernel iteration g writes
///     name g mod K. No copies in the kernel: a copy of a load's result would wait for the
///     load. Registers of classes without a copy instruction (UP; copies are needed for the
///     values entering and leaving the loop) lose renaming (WAR/WAW edges) and the loop is
///     scheduled again.
///  6. Code (S stages): guard blocks run the loop control S - 1 times on copies of its
///     registers and leave for the original loop (kept unchanged as the fallback) when the
///     loop would run fewer than S iterations; so the trip count need not be known, and
///     nothing is executed speculatively. Then the prolog (live-in values moved to the name
///     iteration -1 would have used, stages 0..p of the first S - 1 iterations), the K kernel
///     copies (all stages; each leaves for its own epilog when the next stage-0 iteration does
///     not exist, the last one branches back to the first), and per copy an epilog (the last
///     S - 1 iterations' remaining stages, then values used after the loop moved back to their
///     own names), which jumps to the exit.
/// DUMPIR after the phase prints per loop `# loop <h>: pipelined (II=.., ResMII=.., RecMII=..,
/// stages=S, ..., kernel unrolled Kx ...)` or `# loop <h>: not pipelined: <code> - <reason> (detail)` and a statistics
/// line `# [pipelined loops=N] [non-pipelined loops=M]` (ours: the seed quotes none for 24).
/// Not done: the post-RA SoftwarePipeline scheduling variant and the GEMM pipeliner (seed:
/// sub_8B9390, sub_92C240), PipelineHoist* hoisting inside the pipelined body.
//===----------------------------------------------------------------------------------===//
#include "ori/analysis/liveness.h"
#include "ori/cfg.h"
#include "phases/phase_manager.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

enum Reject : unsigned {
  kNoUnroll = 1,
  kBarrier,
  kWarpSync,
  kCall,
  kControl,
  kImplicitRegs,
  kMultiTex,
  kTooLarge,
  kLoopControl,
  kDivergent,
  kMiiTooLarge,
  kNoSchedule,
  kNoOverlap,
  kPressure,
  kNotProfitable,
};

std::string_view reasonText(unsigned code) {
  switch (code) {
  case kNoUnroll: return "nounroll pragma (OkToPipelineNoUnroll=0)";
  case kBarrier: return "barrier or fence in the loop";
  case kWarpSync: return "warp-synchronous instruction in the loop";
  case kCall: return "call in the loop";
  case kControl: return "control flow the pipeliner does not handle";
  case kImplicitRegs: return "physical or implicit register operands";
  case kMultiTex: return "multi-output texture (PipelineMultiOutputTex=0)";
  case kTooLarge: return "loop body too large";
  case kLoopControl: return "loop control is not a simple slice";
  case kDivergent: return "warp-divergent trip count";
  case kMiiTooLarge: return "minimal initiation interval too large";
  case kNoSchedule: return "unable to find schedule";
  case kNoOverlap: return "no need to pipeline - no overlapped iterations in schedule";
  case kPressure: return "register pressure limit";
  case kNotProfitable: return "not profitable";
  default: return "?";
  }
}

/// GUESS: the largest body the pipeliner considers (the schedule search is quadratic-ish).
constexpr size_t kMaxBody = 96;
/// Rau's budget ratio: placements tried per operation before the II is given up.
constexpr unsigned kBudgetRatio = 6;

struct Params {
  bool okNoUnroll;
  bool multiTex;
  bool divergentOk;
  bool overlapFirst;
  int64_t maxStages, iiRange, maxMii;
  int64_t rLimit, pLimit;
};

Params readParams(const Knobs &k) {
  Params p;
  p.okNoUnroll = k.getInt(KnobId::OkToPipelineNoUnroll) != 0;
  p.multiTex = k.getInt(KnobId::PipelineMultiOutputTex) != 0;
  p.divergentOk = k.getBool(KnobId::PipelineDivergentLoops);
  p.overlapFirst = k.getBool(KnobId::PipelineOverlapFirst);
  p.maxStages = std::max<int64_t>(1, k.getInt(KnobId::PipelineMaxStages));
  p.iiRange = std::max<int64_t>(0, k.getInt(KnobId::PipelineIISearchRange));
  p.maxMii = k.getInt(KnobId::PipelineMaxMII);
  // Unset (0): the 7 allocatable predicates.
  // R: unset (0) means "no more than the function needs anyway": see functionRLimit.
  p.rLimit = k.getInt(KnobId::PipelineHoistRRegPressureLimit);
  p.pLimit = k.getInt(KnobId::PipelineHoistPRegPressureLimit);
  if (p.pLimit <= 0)
    p.pLimit = 7;
  return p;
}

/// A register as a map key.
using RegKey = uint64_t;
RegKey keyOf(RegClass c, uint32_t r) { return (uint64_t(c) << 32) | r; }
RegClass clsOf(RegKey k) { return static_cast<RegClass>(k >> 32); }
uint32_t regOf(RegKey k) { return static_cast<uint32_t>(k); }

/// Registers an instruction reads (guard, sources, memory bases, descriptors, indices).
llvm::SmallVector<std::pair<RegKey, ReadKind>, 8> readsOf(const Instr &in) {
  llvm::SmallVector<std::pair<RegKey, ReadKind>, 8> r;
  for (const Operand &v : in.guard.vregs())
    r.push_back({keyOf(v.cls, v.reg), ReadKind::Guard});
  for (const Operand &u : in.uses())
    for (const Operand &v : u.vregs())
      r.push_back({keyOf(v.cls, v.reg), ReadKind::Src});
  return r;
}

/// Renames every read of register `from` (any component) in `in` to `to`; definitions stay.
void renameReads(Instr &in, RegKey from, uint32_t to) {
  auto fix = [&](Operand &o) {
    if (o.kind == OperandKind::VReg && keyOf(o.cls, o.reg) == from) {
      o.reg = to;
    } else if (o.kind == OperandKind::Mem) {
      if (o.memBaseIsVReg() && keyOf(o.cls, o.reg) == from)
        o.reg = to;
      if (Operand d = o.memDesc(); d.kind == OperandKind::VReg && keyOf(d.cls, d.reg) == from) {
        d.reg = to;
        o.setMemDesc(d);
      }
    } else if (o.kind == OperandKind::CBank) {
      if (Operand x = o.cbankIndex(); x.kind == OperandKind::VReg && keyOf(x.cls, x.reg) == from) {
        x.reg = to;
        o.setCbankIndex(x);
      }
    }
  };
  fix(in.guard);
  for (Operand &u : in.uses())
    fix(u);
}

void renameDefs(Instr &in, RegKey from, uint32_t to) {
  for (Operand &d : in.defs())
    if (d.kind == OperandKind::VReg && keyOf(d.cls, d.reg) == from)
      d.reg = to;
}

/// Whether a copy instruction exists for the class (and width).
bool copyable(RegClass c, uint8_t width) {
  return c == RegClass::R || (c == RegClass::UR && width == 1) || (c == RegClass::P);
}

Operand pt() { return Operand::fixed(RegClass::P); }

/// dst = src for a whole register of class c and width w (`MOV` per component, `UMOV`,
/// `PLOP3.LUT d, PT = s, PT, PT, 0xf0, 0x0`). A None src initializes (RZ / URZ / PT).
void emitCopy(std::vector<Instr> &out, RegClass c, uint8_t w, uint32_t dst,
              std::optional<uint32_t> src) {
  if (c == RegClass::P) {
    Instr in(Opcode::PLOP3);
    in.mods.push_back(Modifier::LUT);
    in.addDef(Operand::vreg(c, dst));
    in.addDef(pt());
    in.addUse(src ? Operand::vreg(c, *src) : pt());
    in.addUse(pt());
    in.addUse(pt());
    in.addUse(Operand::intImm(0xf0));
    in.addUse(Operand::intImm(0));
    out.push_back(std::move(in));
    return;
  }
  const Opcode op = c == RegClass::UR ? Opcode::UMOV : Opcode::MOV;
  for (unsigned k = 0; k < w; ++k) {
    Instr in(op);
    Operand d = Operand::vreg(c, dst, w);
    Operand s = src ? Operand::vreg(c, *src, w) : Operand::fixed(c);
    if (w > 1) {
      d.sub = static_cast<uint8_t>(k);
      if (src)
        s.sub = static_cast<uint8_t>(k);
    }
    in.addDef(d);
    in.addUse(s);
    out.push_back(std::move(in));
  }
}

struct Edge {
  uint32_t from, to;
  int lat;
  int dist;
  bool vlat; ///< a scoreboarded latency (capped while scheduling)
};

/// Per-register facts of the body.
struct RegFacts {
  std::vector<uint32_t> defs; ///< instruction indices, ascending (an index once)
  bool plainDef = true;       ///< every definition unguarded and whole
  uint8_t width = 1;
  bool renamable() const { return defs.size() == 1 && plainDef; }
};

struct Loop {
  uint32_t h = 0;
  std::vector<Instr> body; ///< without the final branch
  Instr br;
  std::map<RegKey, RegFacts> regs;
  std::set<RegKey> noRename; ///< renamable registers that lost renaming (no copy for them)
  std::vector<bool> slice;   ///< per instruction: part of the loop control
  std::vector<Edge> edges;
  std::vector<PerfCost> cost;
  std::vector<bool> memOrdered, memLoad;
  /// The register holding 1 that fused 64-bit base updates multiply (set in the first
  /// guard block), when fuseWideAdds made any.
  std::optional<uint32_t> one;
};

struct Schedule {
  int ii = 0, stages = 0;
  std::vector<int> time;
};

struct Outcome {
  bool ok = false;
  unsigned code = 0;
  std::string detail;
};
Outcome reject(unsigned code, std::string detail = {}) { return {false, code, std::move(detail)}; }

bool isTexture(Opcode op) { return op == Opcode::TEX || op == Opcode::TLD || op == Opcode::TXQ; }

bool dominates(const ori::Function &f, uint32_t a, uint32_t b) {
  for (int32_t x = static_cast<int32_t>(b); x != ori::kNoBlock; x = f.blocks[x].idom) {
    if (static_cast<uint32_t>(x) == a)
      return true;
    if (f.blocks[x].idom == x)
      break;
  }
  return false;
}

/// Warp-uniform value analysis for the loop control's inputs: a register is uniform when it
/// is a uniform-file register, or every definition of it is in a block dominating the loop
/// header (so which definition reaches the loop does not depend on a divergent branch) and
/// computes from uniform operands without a per-thread source (S2R of a thread-dependent
/// special register, CS2R, memory loads other than LDC, SHFL, MATCH, ELECT). Cycles are
/// assumed uniform (the optimistic fixpoint).
class Uniformity {
public:
  Uniformity(const ori::Function &f, uint32_t h) : f_(f), h_(h) {}

  bool operandUniform(const Operand &o) {
    if (o.kind == OperandKind::PReg)
      return o.isFixed();
    for (const Operand &v : o.vregs())
      if (!regUniform(keyOf(v.cls, v.reg)))
        return false;
    return true;
  }

  bool regUniform(RegKey k) {
    if (clsOf(k) == RegClass::UR || clsOf(k) == RegClass::UP)
      return true;
    if (auto it = memo_.find(k); it != memo_.end())
      return it->second;
    memo_[k] = true; // optimistic on cycles
    bool u = true;
    for (uint32_t b = 0; b < f_.blocks.size() && u; ++b)
      for (const Instr &in : f_.blocks[b].instrs) {
        if (!in.writesVReg(clsOf(k), regOf(k)))
          continue;
        if (b != h_ && !dominates(f_, b, h_)) {
          u = false;
          break;
        }
        if (!instrUniform(in)) {
          u = false;
          break;
        }
      }
    memo_[k] = u;
    return u;
  }

private:
  bool instrUniform(const Instr &in) {
    switch (in.op) {
    case Opcode::S2R:
      if (in.uses()[0].kind != OperandKind::SReg)
        return false;
      switch (static_cast<ori::SpecialReg>(in.uses()[0].reg)) {
      case ori::SpecialReg::CTAID_X:
      case ori::SpecialReg::CTAID_Y:
      case ori::SpecialReg::CTAID_Z:
        break;
      default:
        return false;
      }
      break;
    case Opcode::CS2R:
    case Opcode::SHFL:
    case Opcode::MATCH:
    case Opcode::ELECT:
      return false;
    case Opcode::LDC:
      break;
    default:
      if (in.info().has(ori::OF_LD) || in.hasEffects())
        return false;
    }
    if (in.guard.kind != OperandKind::None && !operandUniform(in.guard))
      return false;
    for (const Operand &u : in.uses())
      if (!operandUniform(u))
        return false;
    return true;
  }

  const ori::Function &f_;
  uint32_t h_;
  std::map<RegKey, bool> memo_;
};

/// In the pipelined copy of the body, a 64-bit add of a 32-bit constant written as the pair
///   r[0], c = IADD3 r[0], imm, RZ   ...   r[1] = IADD3.X r[1], RZ, RZ, c, !PT
/// (how the lowering advances a 64-bit address) becomes the one instruction
///   r = IMAD.WIDE.U32 one, imm, r            (one = 1, set before the loop)
/// which computes the same r + zext(imm). r then has one whole definition, so it can be
/// renamed, and its readers (loads and stores in later stages) no longer pin the update.
/// Only when nothing else in the loop writes r or reads c and c is not live after the loop
/// (the carry is gone). The fallback loop keeps the original pair.
void fuseWideAdds(ori::Function &f, Loop &L, const ori::Liveness &live) {
  std::vector<Instr> &b = L.body;
  for (size_t i = 0; i < b.size(); ++i) {
    const Instr &lo = b[i];
    if (lo.op != Opcode::IADD3 || lo.isGuarded() || !lo.mods.empty() || lo.numDefs != 2 ||
        lo.uses().size() != 3 || lo.ops[0].kind != OperandKind::VReg ||
        lo.ops[0].cls != RegClass::R || lo.ops[0].width != 2 || lo.ops[0].sub != 0 ||
        lo.uses()[0] != lo.ops[0] || lo.uses()[1].kind != OperandKind::Imm ||
        !lo.uses()[2].isFixed() || lo.ops[1].kind != OperandKind::VReg)
      continue;
    const Operand r = lo.ops[0], c = lo.ops[1];
    std::optional<size_t> hiIdx;
    bool ok = true;
    for (size_t k = 0; k < b.size() && ok; ++k) {
      if (k == i)
        continue;
      const Instr &in = b[k];
      const bool writesR = in.writesVReg(r.cls, r.reg), writesC = in.writesVReg(c.cls, c.reg);
      bool readsC = false;
      for (const auto &[key, kind] : readsOf(in))
        readsC |= key == keyOf(c.cls, c.reg);
      const bool isHi = k > i && in.op == Opcode::IADD3 && !in.isGuarded() &&
                        in.mods.size() == 1 && in.mods[0] == Modifier::X && in.numDefs == 1 &&
                        in.uses().size() == 5 && in.ops[0].kind == OperandKind::VReg &&
                        in.ops[0].reg == r.reg && in.ops[0].cls == r.cls && in.ops[0].sub == 1 &&
                        in.uses()[0] == in.ops[0] && in.uses()[1].isFixed() &&
                        in.uses()[2].isFixed() && in.uses()[3] == c &&
                        in.uses()[4].kind == OperandKind::PReg && (in.uses()[4].mods & ori::OM_NOT);
      if (isHi && !hiIdx) {
        hiIdx = k;
        continue;
      }
      if (writesR || writesC || readsC)
        ok = false;
    }
    if (!ok || !hiIdx || live.liveOut[L.h].test(f.flatRegIndex(c.cls, c.reg)))
      continue;
    // Nothing between the two halves may read r (it would see half an update).
    for (size_t k = i + 1; k < *hiIdx && ok; ++k)
      for (const auto &[key, kind] : readsOf(b[k]))
        ok = ok && key != keyOf(r.cls, r.reg);
    if (!ok)
      continue;
    if (!L.one)
      L.one = f.newReg(RegClass::R).reg;
    Instr w(Opcode::IMAD);
    w.mods = {Modifier::WIDE, Modifier::U32};
    Operand whole = r;
    whole.sub = ori::kWholeReg;
    w.addDef(whole);
    w.addUse(Operand::vreg(RegClass::R, *L.one));
    w.addUse(lo.uses()[1]);
    w.addUse(whole);
    b[i] = std::move(w);
    b.erase(b.begin() + static_cast<std::ptrdiff_t>(*hiIdx));
  }
}

/// Collects the body's register facts and checks the instructions (step 1).
Outcome scanBody(const ori::Function &f, Loop &L, const Params &prm) {
  if (L.body.size() > kMaxBody)
    return reject(kTooLarge, std::to_string(L.body.size()) + " instructions");
  for (uint32_t i = 0; i < L.body.size(); ++i) {
    const Instr &in = L.body[i];
    const ori::OpcodeInfo &info = in.info();
    if (info.has(ori::OF_BAR))
      return reject(kBarrier, std::string(info.name));
    if (info.has(ori::OF_WARP))
      return reject(kWarpSync, std::string(info.name));
    if (in.op == Opcode::CALL)
      return reject(kCall);
    if (info.has(ori::OF_BR) || info.has(ori::OF_TERM))
      return reject(kControl, "a branch or exit inside the body");
    if (in.op == Opcode::R2P || in.op == Opcode::P2R)
      return reject(kImplicitRegs, std::string(info.name));
    if (isTexture(in.op) && !prm.multiTex) {
      unsigned words = 0;
      for (const Operand &d : in.defs())
        if (d.isReg() && !d.isFixed())
          words += d.width;
      if (words > 1)
        return reject(kMultiTex, std::string(info.name));
    }
    for (const Operand &o : in.ops)
      if (o.kind == OperandKind::Block)
        return reject(kControl, "a label operand in the body");
    for (const Operand &d : in.defs()) {
      if (d.kind == OperandKind::PReg && !d.isFixed())
        return reject(kImplicitRegs, "writes a physical register");
      if (d.kind != OperandKind::VReg)
        continue;
      RegFacts &rf = L.regs[keyOf(d.cls, d.reg)];
      if (rf.defs.empty() || rf.defs.back() != i)
        rf.defs.push_back(i);
      rf.width = std::max(rf.width, d.width);
      if (in.isGuarded() || d.sub != ori::kWholeReg)
        rf.plainDef = false;
    }
  }
  // A label naming the header from outside a branch (BSSY, a call's return point) keeps it.
  for (const ori::Block &blk : f.blocks)
    for (const Instr &in : blk.instrs)
      if (!in.info().has(ori::OF_BR))
        for (const Operand &o : in.ops)
          if (o.kind == OperandKind::Block && o.reg == L.h)
            return reject(kControl, "the header is named by a non-branch label");
  return {true, 0, {}};
}

/// The loop control: the backward slice of the branch predicate in the body (step 1, code 9
/// when it is not closed over plain, renamable ALU instructions).
Outcome findSlice(Loop &L) {
  L.slice.assign(L.body.size(), false);
  std::vector<RegKey> work{keyOf(L.br.guard.cls, L.br.guard.reg)};
  std::set<RegKey> seen;
  while (!work.empty()) {
    RegKey k = work.back();
    work.pop_back();
    if (!seen.insert(k).second)
      continue;
    auto it = L.regs.find(k);
    if (it == L.regs.end())
      continue; // loop-invariant input
    const RegFacts &rf = it->second;
    if (!rf.renamable())
      return reject(kLoopControl, "a control register with several or partial definitions");
    if (!copyable(clsOf(k), rf.width))
      return reject(kLoopControl, "a control register of a class without copies");
    const Instr &in = L.body[rf.defs[0]];
    if (in.hasEffects() || (in.info().has(ori::OF_LD) && in.op != Opcode::LDC) ||
        in.info().has(ori::OF_VLAT) || in.op == Opcode::S2R || in.op == Opcode::CS2R)
      return reject(kLoopControl, "the control depends on " + std::string(in.info().name));
    L.slice[rf.defs[0]] = true;
    for (const auto &[r, kind] : readsOf(in))
      work.push_back(r);
  }
  if (L.regs.find(keyOf(L.br.guard.cls, L.br.guard.reg)) == L.regs.end())
    return reject(kLoopControl, "the branch predicate is not computed in the loop");
  return {true, 0, {}};
}

/// The latency of a RAW dependence from `w` to `r` through a register of file `file`.
std::pair<int, bool> rawLatency(const Target &t, const Instr &w, const PerfCost &wc,
                                const Instr &r, RegClass file, ReadKind kind) {
  if (t.needsScoreboard(w))
    return {std::max<int>(1, wc.writeLatency), true};
  return {std::max<int>(1, static_cast<int>(t.rawLatency(t.latClass(w), t.latClass(r), file, kind))),
          false};
}

bool renamed(const Loop &L, RegKey k) {
  auto it = L.regs.find(k);
  return it != L.regs.end() && it->second.renamable() && !L.noRename.count(k);
}

/// A plain memory access (LDG/STG, LDS/STS, LDL/STL, LD/ST, not volatile): its address is
/// base + offset, `bytes` wide at most.
struct Access {
  bool known = false;
  bool hasBase = false;
  RegKey base = 0;
  int64_t offset = 0;
  int64_t bytes = 16;
};

Access accessOf(const Instr &in) {
  Access a;
  switch (in.op) {
  case Opcode::LDG: case Opcode::STG: case Opcode::LDS: case Opcode::STS:
  case Opcode::LDL: case Opcode::STL: case Opcode::LD: case Opcode::ST:
    break;
  default:
    return a;
  }
  if (in.hasFlag(ori::IF_Volatile_bit) || in.isGuarded())
    return a;
  const Operand *m = nullptr;
  unsigned dataWords = 0;
  for (const Operand &u : in.uses())
    if (u.kind == OperandKind::Mem && !m)
      m = &u;
    else if (u.isReg())
      dataWords = std::max<unsigned>(dataWords, u.width);
  for (const Operand &d : in.defs())
    if (d.isReg())
      dataWords = std::max<unsigned>(dataWords, d.width);
  if (!m || (m->hasMemBase() && !m->memBaseIsVReg()))
    return a;
  a.known = true;
  a.hasBase = m->memBaseIsVReg();
  if (a.hasBase)
    a.base = keyOf(m->cls, m->reg);
  a.offset = m->memOffset();
  a.bytes = std::max<int64_t>(4, 4 * int64_t(dataWords));
  if (in.hasModifier(Modifier::Size64))
    a.bytes = std::max<int64_t>(a.bytes, 8);
  if (in.hasModifier(Modifier::Size128))
    a.bytes = std::max<int64_t>(a.bytes, 16);
  return a;
}

/// How a base register changes per iteration: by `stride` at instruction `upd` (32-bit
/// `b = IADD3 b, imm, RZ`), or the 64-bit pair `b[0], c = IADD3 b[0], imm, RZ` at `upd` and
/// `b[1] = IADD3.X b[1], RZ, RZ, c, !PT` at `updHi` (a zero-extended 32-bit stride). Not
/// written in the loop: stride 0.
struct BaseEvolution {
  bool known = false;
  int64_t stride = 0;
  int upd = -1, updHi = -1;
};

BaseEvolution evolutionOf(const Loop &L, RegKey b) {
  BaseEvolution e;
  auto it = L.regs.find(b);
  if (it == L.regs.end()) {
    e.known = true;
    return e;
  }
  const std::vector<uint32_t> &defs = it->second.defs;
  auto isAddImm = [&](const Instr &in, bool carry) {
    return in.op == Opcode::IADD3 && !in.isGuarded() && in.mods.empty() &&
           in.numDefs == (carry ? 2u : 1u) && in.uses().size() == 3 &&
           in.uses()[0] == in.ops[0] && in.uses()[1].kind == OperandKind::Imm &&
           in.uses()[2].isFixed();
  };
  if (defs.size() == 1) {
    const Instr &in = L.body[defs[0]];
    if (isAddImm(in, false) && in.ops[0].sub == ori::kWholeReg && in.ops[0].width == 1) {
      e.known = true;
      e.stride = static_cast<int32_t>(in.uses()[1].imm);
      e.upd = static_cast<int>(defs[0]);
    } else if (L.one && in.op == Opcode::IMAD && in.uses().size() == 3 &&
               in.uses()[0].kind == OperandKind::VReg && in.uses()[0].reg == *L.one &&
               in.uses()[1].kind == OperandKind::Imm && in.uses()[2] == in.ops[0]) {
      e.known = true; // fuseWideAdds: r + zext(imm)
      e.stride = static_cast<int64_t>(static_cast<uint32_t>(in.uses()[1].imm));
      e.upd = static_cast<int>(defs[0]);
    }
    return e;
  }
  if (defs.size() != 2)
    return e;
  const Instr &lo = L.body[defs[0]], &hi = L.body[defs[1]];
  if (!isAddImm(lo, true) || lo.ops[0].sub != 0 || lo.ops[1].kind != OperandKind::VReg)
    return e;
  if (hi.op != Opcode::IADD3 || hi.isGuarded() || hi.mods.size() != 1 ||
      hi.mods[0] != Modifier::X || hi.numDefs != 1 || hi.uses().size() != 5 ||
      hi.ops[0].sub != 1 || hi.uses()[0] != hi.ops[0] || !hi.uses()[1].isFixed() ||
      !hi.uses()[2].isFixed() || hi.uses()[3] != lo.ops[1] || hi.uses()[4].kind != OperandKind::PReg ||
      !(hi.uses()[4].mods & ori::OM_NOT))
    return e;
  e.known = true;
  e.stride = static_cast<int64_t>(static_cast<uint32_t>(lo.uses()[1].imm));
  e.upd = static_cast<int>(defs[0]);
  e.updHi = static_cast<int>(defs[1]);
  return e;
}

/// The byte distance between access b in iteration j + d and access a in iteration j, as
/// a function of d, when both are plain accesses through the same base register with a known
/// per-iteration stride (neither between the halves of a 64-bit base update); nullopt when
/// nothing is known. `overlap(d)` then says whether the two touch a common byte.
struct AccessPair {
  int64_t stride = 0, delta = 0, bytesA = 0, bytesB = 0;
  bool overlap(int d) const {
    const int64_t pb = int64_t(d) * stride + delta;
    return pb < bytesA && 0 < pb + bytesB;
  }
};

std::optional<AccessPair> accessPair(const Loop &L, uint32_t a, uint32_t b) {
  const Access x = accessOf(L.body[a]), y = accessOf(L.body[b]);
  if (!x.known || !y.known || x.hasBase != y.hasBase || x.base != y.base)
    return std::nullopt;
  BaseEvolution e;
  e.known = true;
  if (x.hasBase) {
    e = evolutionOf(L, x.base);
    if (!e.known)
      return std::nullopt;
  }
  auto seen = [&](uint32_t i) -> std::optional<int64_t> { // the base i reads, minus B_j
    if (e.upd < 0 || static_cast<int>(i) < e.upd)
      return 0;
    if (e.updHi >= 0 && static_cast<int>(i) < e.updHi)
      return std::nullopt;
    return e.stride;
  };
  auto sa = seen(a), sb = seen(b);
  if (!sa || !sb)
    return std::nullopt;
  return AccessPair{e.stride, (*sb + y.offset) - (*sa + x.offset), x.bytes, y.bytes};
}

/// Step 2: the dependence graph.
void buildEdges(Loop &L, const Target &t, int span) {
  L.edges.clear();
  const uint32_t n = static_cast<uint32_t>(L.body.size());
  auto add = [&](uint32_t a, uint32_t b, int lat, int dist, bool vlat) {
    if (a == b && dist == 0)
      return;
    L.edges.push_back({a, b, std::max(1, lat), dist, vlat});
  };
  for (uint32_t b = 0; b < n; ++b) {
    const Instr &use = L.body[b];
    llvm::SmallVector<std::pair<RegKey, ReadKind>, 8> reads = readsOf(use);
    // A guarded or partial definition also reads what it does not overwrite.
    for (const Operand &d : use.defs())
      if (d.kind == OperandKind::VReg && (use.isGuarded() || d.sub != ori::kWholeReg))
        reads.push_back({keyOf(d.cls, d.reg), ReadKind::Src});
    std::set<RegKey> done;
    for (const auto &[k, kind] : reads) {
      auto it = L.regs.find(k);
      if (it == L.regs.end())
        continue; // not written in the loop
      const std::vector<uint32_t> &defs = it->second.defs;
      // The reaching definition: the last one before b, else the last one (previous
      // iteration).
      int dist = 0;
      auto before = std::lower_bound(defs.begin(), defs.end(), b);
      uint32_t a;
      if (before != defs.begin()) {
        a = *(before - 1);
      } else {
        a = defs.back();
        dist = 1;
      }
      auto [lat, vlat] = rawLatency(t, L.body[a], L.cost[a], use, clsOf(k), kind);
      add(a, b, lat, dist, vlat);
      if (renamed(L, k) || !done.insert(k).second)
        continue;
      // WAR: the next definition after the read must stay after it.
      auto after = std::upper_bound(defs.begin(), defs.end(), b);
      if (after != defs.end())
        add(b, *after, 1, 0, false);
      else
        add(b, defs.front(), 1, 1, false);
    }
  }
  for (const auto &[k, rf] : L.regs) {
    if (renamed(L, k))
      continue;
    for (size_t i = 0; i + 1 < rf.defs.size(); ++i)
      add(rf.defs[i], rf.defs[i + 1], 1, 0, false);
    add(rf.defs.back(), rf.defs.front(), 1, 1, false);
  }
  // Memory and effects.
  for (uint32_t a = 0; a < n; ++a)
    for (uint32_t b = a + 1; b < n; ++b) {
      if (!(L.memOrdered[a] || L.memOrdered[b]))
        continue;
      if (!(L.memOrdered[a] || L.memLoad[a]) || !(L.memOrdered[b] || L.memLoad[b]))
        continue;
      // Through one base with a known stride: an edge for each iteration distance at which
      // the two touch the same bytes (farther instances cannot trade places: distance
      // > span >= stages). Otherwise order every instance pair (edges of distance 0 and 1).
      if (auto pr = accessPair(L, a, b)) {
        for (int d = 0; d <= span; ++d)
          if (pr->overlap(d))
            add(a, b, 1, d, false);
        for (int d = 1; d <= span; ++d)
          if (pr->overlap(-d))
            add(b, a, 1, d, false);
        continue;
      }
      add(a, b, 1, 0, false);
      add(b, a, 1, 1, false);
    }
}

int effLat(const Edge &e, int cap) { return e.vlat ? std::min(e.lat, std::max(1, cap)) : e.lat; }

/// Whether the graph has no positive cycle at II (longest paths converge).
bool recurrencesFit(const Loop &L, int ii, int cap) {
  const size_t n = L.body.size();
  std::vector<long> dist(n, 0);
  for (size_t round = 0; round <= n; ++round) {
    bool changed = false;
    for (const Edge &e : L.edges) {
      long v = dist[e.from] + effLat(e, cap) - long(ii) * e.dist;
      if (v > dist[e.to]) {
        dist[e.to] = v;
        changed = true;
      }
    }
    if (!changed)
      return true;
  }
  return false;
}

int resMII(const Loop &L) {
  std::array<int, kNumPerfPipes> busy{};
  for (const PerfCost &c : L.cost)
    busy[static_cast<unsigned>(c.pipe)] += c.issue;
  int m = static_cast<int>(L.body.size()) + 1; // one issue per cycle, the branch included
  for (int b : busy)
    m = std::max(m, b);
  return m;
}

/// Step 4: Rau's iterative modulo scheduling at one II. Empty time vector on failure.
Schedule moduloSchedule(const Loop &L, int ii, int cap) {
  const size_t n = L.body.size();
  Schedule s;
  s.ii = ii;
  if (!recurrencesFit(L, ii, cap))
    return s;
  // Height-based priority (longest path to any sink at this II); the control slice first.
  std::vector<long> height(n, 0);
  for (size_t round = 0; round <= n; ++round) {
    bool changed = false;
    for (const Edge &e : L.edges) {
      long v = height[e.to] + effLat(e, cap) - long(ii) * e.dist;
      if (v > height[e.from]) {
        height[e.from] = v;
        changed = true;
      }
    }
    if (!changed)
      break;
  }
  std::vector<std::vector<const Edge *>> preds(n), succs(n);
  for (const Edge &e : L.edges) {
    preds[e.to].push_back(&e);
    succs[e.from].push_back(&e);
  }
  auto prio = [&](uint32_t i) { return (L.slice[i] ? 1000000L : 0L) + height[i]; };
  // Reservation table: one issue slot per row, each pipe busy `issue` rows.
  std::vector<int> issueRow(ii, -1);
  std::vector<std::array<int, kNumPerfPipes>> pipeRow(ii);
  for (auto &r : pipeRow)
    r.fill(-1);
  std::vector<int> time(n, -1), lastTime(n, -1);
  auto fits = [&](uint32_t i, int t) {
    if (issueRow[t % ii] >= 0)
      return false;
    const unsigned p = static_cast<unsigned>(L.cost[i].pipe);
    for (int k = 0; k < L.cost[i].issue; ++k)
      if (pipeRow[(t + k) % ii][p] >= 0)
        return false;
    return true;
  };
  auto unplace = [&](uint32_t i) {
    const int t = time[i];
    issueRow[t % ii] = -1;
    const unsigned p = static_cast<unsigned>(L.cost[i].pipe);
    for (int k = 0; k < L.cost[i].issue; ++k)
      if (pipeRow[(t + k) % ii][p] == static_cast<int>(i))
        pipeRow[(t + k) % ii][p] = -1;
    time[i] = -1;
  };
  for (const PerfCost &c : L.cost)
    if (c.issue > ii)
      return s;
  std::set<std::pair<long, uint32_t>> ready; // (-priority, index)
  for (uint32_t i = 0; i < n; ++i)
    ready.insert({-prio(i), i});
  long budget = long(kBudgetRatio) * long(n);
  while (!ready.empty()) {
    if (budget-- <= 0)
      return s;
    const uint32_t i = ready.begin()->second;
    ready.erase(ready.begin());
    int estart = 0;
    for (const Edge *e : preds[i])
      if (time[e->from] >= 0)
        estart = std::max(estart, time[e->from] + effLat(*e, cap) - ii * e->dist);
    const int maxTime = estart + ii - 1;
    int slot = -1;
    for (int t = estart; t <= maxTime; ++t)
      if (fits(i, t)) {
        slot = t;
        break;
      }
    if (slot < 0)
      slot = (lastTime[i] < 0 || estart > lastTime[i]) ? estart : lastTime[i] + 1;
    if (L.slice[i] && slot >= ii)
      return s; // the loop control must stay in stage 0
    // Evict what conflicts in the table, then successors whose constraints now fail.
    std::set<uint32_t> evict;
    if (issueRow[slot % ii] >= 0)
      evict.insert(static_cast<uint32_t>(issueRow[slot % ii]));
    const unsigned p = static_cast<unsigned>(L.cost[i].pipe);
    for (int k = 0; k < L.cost[i].issue; ++k)
      if (pipeRow[(slot + k) % ii][p] >= 0)
        evict.insert(static_cast<uint32_t>(pipeRow[(slot + k) % ii][p]));
    for (uint32_t v : evict) {
      unplace(v);
      ready.insert({-prio(v), v});
    }
    time[i] = lastTime[i] = slot;
    issueRow[slot % ii] = static_cast<int>(i);
    for (int k = 0; k < L.cost[i].issue; ++k)
      pipeRow[(slot + k) % ii][p] = static_cast<int>(i);
    for (const Edge *e : succs[i])
      if (e->to != i && time[e->to] >= 0 && time[e->to] < slot + effLat(*e, cap) - ii * e->dist) {
        unplace(e->to);
        ready.insert({-prio(e->to), e->to});
      }
    for (const Edge *e : preds[i])
      if (e->from != i && time[e->from] >= 0 &&
          slot < time[e->from] + effLat(*e, cap) - ii * e->dist) {
        unplace(e->from);
        ready.insert({-prio(e->from), e->from});
      }
  }
  // Normalize so the earliest operation starts in row 0's stage 0.
  int minT = *std::min_element(time.begin(), time.end());
  int shift = (minT / ii) * ii;
  for (int &t : time)
    t -= shift;
  for (uint32_t i = 0; i < n; ++i)
    if (L.slice[i] && time[i] >= ii)
      return s;
  int maxStage = 0;
  for (int t : time)
    maxStage = std::max(maxStage, t / ii);
  s.time = std::move(time);
  s.stages = maxStage + 1;
  return s;
}

/// Renaming depths (step 5): for every renamed register, the k of each read and the
/// deepest k.
struct Renaming {
  std::map<std::pair<uint32_t, RegKey>, int> readDepth; ///< (instruction, register) -> k
  std::map<RegKey, int> depth;                          ///< register -> q (>= 1 only)
};

Renaming computeRenaming(const Loop &L, const Schedule &s, const std::vector<uint32_t> &pos) {
  Renaming rn;
  const int ii = s.ii;
  for (uint32_t b = 0; b < L.body.size(); ++b)
    for (const auto &[k, kind] : readsOf(L.body[b])) {
      if (!renamed(L, k))
        continue;
      const uint32_t a = L.regs.at(k).defs[0];
      const int d = a < b ? 0 : 1;
      const long lifetime = long(s.time[b]) + long(d) * ii - s.time[a];
      // Later definitions m >= 1 before the read: t_a + m*II < t_b + d*II, or equal with the
      // definition earlier in the row.
      long m = lifetime > 0 ? (lifetime - 1) / ii : 0;
      if (lifetime > 0 && lifetime % ii == 0 && pos[a] < pos[b])
        ++m;
      int depth = static_cast<int>(m);
      rn.readDepth[{b, k}] = depth;
      if (depth > 0)
        rn.depth[k] = std::max(rn.depth[k], depth);
    }
  return rn;
}

struct Result {
  Schedule s;
  int resMii = 0, recMii = 0, mii = 0;
  Renaming rn;
  std::vector<uint32_t> order; ///< kernel order: (row, body index)
  std::vector<uint32_t> pos;   ///< position of each instruction in `order`
};

/// Steps 3-5: MII, the II search, renaming (re-scheduling when a register loses renaming).
Outcome scheduleLoop(Loop &L, const Target &t, const Params &prm, Result &res) {
  for (size_t round = 0; round <= L.regs.size(); ++round) {
    buildEdges(L, t, static_cast<int>(prm.maxStages));
    res.resMii = resMII(L);
    const int maxCap = static_cast<int>(prm.maxStages - 1);
    const int recLimit = static_cast<int>(prm.maxMii > 0 ? prm.maxMii : 4096) + 1;
    int rec = 1;
    while (rec < recLimit && !recurrencesFit(L, rec, std::numeric_limits<int>::max()))
      ++rec;
    res.recMii = rec;
    res.mii = std::max(res.resMii, res.recMii);
    if (prm.maxMii > 0 && res.mii > prm.maxMii)
      return reject(kMiiTooLarge, (res.recMii > prm.maxMii ? "RecMII" : "ResMII " + std::to_string(res.resMii)) +
                                      std::string(" > PipelineMaxMII ") + std::to_string(prm.maxMii));
    Schedule found;
    auto tryAt = [&](int ii, int st) {
      Schedule s = moduloSchedule(L, ii, st * ii);
      if (!s.time.empty() && s.stages <= prm.maxStages)
        found = std::move(s);
    };
    // Step 4's search order (PipelineOverlapFirst): every II with the stage cap before fewer
    // stages, or (the default) every stage cap at each II, smallest II first.
    if (prm.overlapFirst) {
      for (int st = maxCap; st >= 0 && found.time.empty(); --st)
        for (int ii = res.mii; ii <= res.mii + prm.iiRange && found.time.empty(); ++ii)
          tryAt(ii, st);
    } else {
      for (int ii = res.mii; ii <= res.mii + prm.iiRange && found.time.empty(); ++ii)
        for (int st = maxCap; st >= 0 && found.time.empty(); --st)
          tryAt(ii, st);
    }
    if (found.time.empty())
      return reject(kNoSchedule, "II " + std::to_string(res.mii) + ".." +
                                     std::to_string(res.mii + prm.iiRange) + ", at most " +
                                     std::to_string(prm.maxStages) + " stages");
    res.s = std::move(found);
    const int ii = res.s.ii;
    res.order.resize(L.body.size());
    for (uint32_t i = 0; i < res.order.size(); ++i)
      res.order[i] = i;
    std::stable_sort(res.order.begin(), res.order.end(), [&](uint32_t a, uint32_t b) {
      return res.s.time[a] % ii < res.s.time[b] % ii;
    });
    res.pos.assign(L.body.size(), 0);
    for (uint32_t p = 0; p < res.order.size(); ++p)
      res.pos[res.order[p]] = p;
    res.rn = computeRenaming(L, res.s, res.pos);
    bool again = false;
    for (const auto &[k, q] : res.rn.depth)
      if (!copyable(clsOf(k), L.regs.at(k).width)) {
        L.noRename.insert(k);
        again = true;
      }
    if (!again)
      return {true, 0, {}};
  }
  return reject(kNoSchedule, "renaming did not settle");
}

/// Modulo variable expansion: a renamed register v has K names v[0] = v, v[1..K-1] fresh;
/// the instance of its definition that runs in global kernel iteration g (prolog iterations
/// are g = -(S-1) .. -1, the kernel's copy u runs g = u, u + K, ...) writes v[g mod K]; a read
/// that sees its value after `depth` later definitions reads the name of the definition
/// `depth` before the latest one preceding it (in iteration g when the definition comes
/// first in the row order, else g - 1).
struct Emitter {
  const Loop &L;
  const Result &R;
  int K = 1;
  std::map<RegKey, std::vector<uint32_t>> names;

  static int mod(int a, int k) { return ((a % k) + k) % k; }
  uint32_t nameAt(RegKey k, int g) const { return names.at(k)[mod(g, K)]; }

  /// The (partial) kernel iteration g with the stages `exists` accepts.
  template <typename Exists> void iteration(std::vector<Instr> &out, int g, Exists exists) const {
    const int ii = R.s.ii;
    for (uint32_t n : R.order) {
      if (!exists(R.s.time[n] / ii))
        continue;
      const Instr &orig = L.body[n];
      Instr in = orig;
      std::set<RegKey> seen;
      for (const auto &[k, kind] : readsOf(orig)) {
        if (!names.count(k) || !seen.insert(k).second)
          continue;
        const uint32_t a = L.regs.at(k).defs[0];
        const int latest = R.pos[a] < R.pos[n] ? g : g - 1;
        renameReads(in, k, nameAt(k, latest - R.rn.readDepth.at({n, k})));
      }
      for (const Operand &d : orig.defs())
        if (d.kind == OperandKind::VReg && names.count(keyOf(d.cls, d.reg)))
          renameDefs(in, keyOf(d.cls, d.reg), nameAt(keyOf(d.cls, d.reg), g));
      out.push_back(std::move(in));
    }
  }
};

std::string uniqueName(const ori::Function &f, const std::string &base) {
  std::string name = base;
  for (unsigned k = 1; f.findBlock(name) != ori::kNoBlock; ++k)
    name = base + "." + std::to_string(k);
  return name;
}

/// Step 6: guard, prolog, the kernel unrolled K times (K = the deepest renaming + 1), one
/// epilog per kernel copy, in front of the original loop (the fallback). Returns the names of
/// the kernel blocks.
std::vector<std::string> rewrite(ori::Function &f, Loop &L, const Result &R,
                                 const ori::Liveness &live) {
  const uint32_t h = L.h;
  const int S = R.s.stages, ii = R.s.ii;
  const std::string hname = f.blocks[h].name;
  // Loop registers live into / out of the header (before new registers move the numbering).
  std::set<RegKey> liveIn, liveOut;
  for (const auto &[k, rf] : L.regs) {
    if (live.liveIn[h].test(f.flatRegIndex(clsOf(k), regOf(k))))
      liveIn.insert(k);
    if (live.liveOut[h].test(f.flatRegIndex(clsOf(k), regOf(k))))
      liveOut.insert(k);
  }
  Emitter em{L, R, 1, {}};
  for (const auto &[k, q] : R.rn.depth)
    em.K = std::max(em.K, q + 1);
  const int K = em.K;
  for (const auto &[k, q] : R.rn.depth) {
    std::vector<uint32_t> v{regOf(k)};
    for (int i = 1; i < K; ++i)
      v.push_back(f.newReg(clsOf(k), L.regs.at(k).width).reg);
    em.names[k] = std::move(v);
  }
  auto defStage = [&](RegKey k) { return R.s.time[L.regs.at(k).defs[0]] / ii; };
  const bool negated = (L.br.guard.mods & ori::OM_NOT) != 0;
  const RegKey pred = keyOf(L.br.guard.cls, L.br.guard.reg);

  // Layout: guards G1..G(S-1), prolog, kernel copies K0..K(K-1), the epilog of the last copy
  // (its fall-through), the epilogs of the others, the fallback loop, the exit.
  const uint32_t numNew = static_cast<uint32_t>(S + 2 * K);
  const uint32_t k0 = h + S, epiLast = h + S + K;
  const uint32_t fIdx = h + numNew, exitIdx = fIdx + 1;
  auto epiIdx = [&](int u) { return u == K - 1 ? epiLast : epiLast + 1 + static_cast<uint32_t>(u); };
  std::vector<ori::Block> blocks(numNew);

  // Guards: the control slice on copies, S - 1 times.
  std::map<RegKey, uint32_t> tmp;
  std::vector<Instr> init;
  if (L.one) {
    Instr one(Opcode::MOV);
    one.addDef(Operand::vreg(RegClass::R, *L.one));
    one.addUse(Operand::intImm(1));
    init.push_back(std::move(one));
  }
  for (uint32_t i = 0; i < L.body.size(); ++i)
    if (L.slice[i])
      for (const Operand &d : L.body[i].defs())
        if (d.kind == OperandKind::VReg) {
          RegKey k = keyOf(d.cls, d.reg);
          tmp[k] = f.newReg(d.cls, L.regs.at(k).width).reg;
        }
  std::set<RegKey> carried; // control registers read before their definition
  for (uint32_t i = 0; i < L.body.size(); ++i)
    if (L.slice[i])
      for (const auto &[k, kind] : readsOf(L.body[i]))
        if (tmp.count(k) && L.regs.at(k).defs[0] >= i && carried.insert(k).second)
          emitCopy(init, clsOf(k), L.regs.at(k).width, tmp[k], regOf(k));
  for (int c = 0; c < S - 1; ++c) {
    ori::Block &g = blocks[c];
    g.name = hname + ".pipe.guard" + std::to_string(c + 1);
    if (c == 0)
      g.instrs = init;
    for (uint32_t i = 0; i < L.body.size(); ++i) {
      if (!L.slice[i])
        continue;
      Instr in = L.body[i];
      for (const auto &[k, t] : tmp) {
        renameReads(in, k, t);
        renameDefs(in, k, t);
      }
      g.instrs.push_back(std::move(in));
    }
    Instr bra(Opcode::BRA);
    bra.guard = Operand::vreg(clsOf(pred), tmp.at(pred));
    if (!negated)
      bra.guard.mods |= ori::OM_NOT;
    bra.addUse(Operand::block(fIdx));
    g.instrs.push_back(std::move(bra));
  }

  // Prolog: the live-in values where iteration -1 would have left them, then the partial
  // iterations p = 0 .. S-2 (global g = p - (S-1)) with stages 0..p.
  ori::Block &pro = blocks[S - 1];
  pro.name = hname + ".pipe.prolog";
  for (const auto &[k, v] : em.names)
    if (liveIn.count(k) && em.nameAt(k, defStage(k) - S) != regOf(k))
      emitCopy(pro.instrs, clsOf(k), L.regs.at(k).width, em.nameAt(k, defStage(k) - S),
               regOf(k));
  for (int p = 0; p <= S - 2; ++p)
    em.iteration(pro.instrs, p - (S - 1), [&](int s) { return s <= p; });

  // Kernel copies and their epilogs.
  std::vector<std::string> knames;
  for (int u = 0; u < K; ++u) {
    ori::Block &kb = blocks[S + u];
    kb.name = uniqueName(f, hname + ".pipe.kernel" + (K > 1 ? std::to_string(u) : std::string()));
    knames.push_back(kb.name);
    em.iteration(kb.instrs, u, [](int) { return true; });
    Instr br = L.br;
    br.guard.reg = em.names.count(pred) ? em.nameAt(pred, u) : L.br.guard.reg;
    if (u == K - 1) {
      br.uses()[0] = Operand::block(k0);
    } else {
      br.guard.mods ^= ori::OM_NOT;
      br.uses()[0] = Operand::block(epiIdx(u));
    }
    kb.instrs.push_back(std::move(br));
    ori::Block &eb = blocks[epiIdx(u) - h];
    eb.name = hname + ".pipe.epilog" + (K > 1 ? std::to_string(u) : std::string());
    for (int e = 1; e <= S - 1; ++e)
      em.iteration(eb.instrs, u + e, [&](int s) { return s >= e; });
    // Values used after the loop go back to their own names.
    for (const auto &[k, v] : em.names)
      if (liveOut.count(k) && em.nameAt(k, u + defStage(k)) != regOf(k))
        emitCopy(eb.instrs, clsOf(k), L.regs.at(k).width, regOf(k), em.nameAt(k, u + defStage(k)));
    Instr toExit(Opcode::BRA);
    toExit.addUse(Operand::block(exitIdx));
    eb.instrs.push_back(std::move(toExit));
  }
  for (ori::Block &b : blocks)
    b.name = uniqueName(f, b.name);

  // Outside predecessors of the header, before indices move.
  std::vector<uint32_t> outside;
  for (uint32_t p : f.blocks[h].preds)
    if (p != h)
      outside.push_back(p >= h ? p + numNew : p);
  for (ori::Block &blk : f.blocks)
    for (Instr &in : blk.instrs)
      for (Operand &o : in.ops)
        if (o.kind == OperandKind::Block && o.reg >= h)
          o.reg += numNew;
  f.blocks.insert(f.blocks.begin() + h, std::make_move_iterator(blocks.begin()),
                  std::make_move_iterator(blocks.end()));
  for (uint32_t p : outside) {
    ori::Block &pb = f.blocks[p];
    if (!pb.instrs.empty() && pb.instrs.back().info().has(ori::OF_BR))
      for (Operand &o : pb.instrs.back().uses())
        if (o.kind == OperandKind::Block && o.reg == fIdx)
          o.reg = h;
  }
  ori::buildCFG(f);
  return knames;
}

/// The most registers live at once in block `b` (words of R, predicates), walking it backward
/// from its live-out set.
std::pair<int, int> blockPeak(const ori::Function &f, uint32_t b, const ori::Liveness &live) {
  llvm::BitVector cur = live.liveOut[b];
  auto count = [&](RegClass c) {
    int n = 0;
    for (unsigned r = 0; r < f.numRegs(c); ++r)
      if (f.regInfo(c, r).width && cur.test(f.flatRegIndex(c, r)))
        n += c == RegClass::R ? f.regInfo(c, r).width : 1;
    return n;
  };
  int maxR = count(RegClass::R), maxP = count(RegClass::P);
  const auto &all = f.blocks[b].instrs;
  for (size_t i = all.size(); i-- > 0;) {
    for (const Operand &d : all[i].defs())
      if (d.kind == OperandKind::VReg && !all[i].isGuarded() && d.sub == ori::kWholeReg)
        cur.reset(f.flatRegIndex(d.cls, d.reg));
    for (const auto &[k, kind] : readsOf(all[i]))
      cur.set(f.flatRegIndex(clsOf(k), regOf(k)));
    maxR = std::max(maxR, count(RegClass::R));
    maxP = std::max(maxP, count(RegClass::P));
  }
  return {maxR, maxP};
}

/// Register pressure after the transformation, estimated as the most registers live at once
/// in the original body plus the K - 1 extra names of every renamed register (words of R, predicates).
std::pair<int, int> pressure(const ori::Function &f, const Loop &L, const Result &R,
                             const ori::Liveness &live) {
  auto [maxR, maxP] = blockPeak(f, L.h, live);
  int unroll = 1; // every renamed register gets K names (modulo variable expansion)
  for (const auto &[k, q] : R.rn.depth)
    unroll = std::max(unroll, q + 1);
  for (const auto &[k, q] : R.rn.depth) {
    if (clsOf(k) == RegClass::R)
      maxR += (unroll - 1) * L.regs.at(k).width;
    else if (clsOf(k) == RegClass::P)
      maxP += unroll - 1;
  }
  return {maxR, maxP};
}

/// The R limit when PipelineHoistRRegPressureLimit is unset: pipelining may use registers the
/// function pays for anyway, never raise its occupancy cost: the most R words live at once
/// anywhere in the function (the same estimate as pressure()), rounded up to the allocation
/// granularity of 8 registers per thread, and at least 32 (the count at which sm_90 still runs
/// its full 2048 threads per SM: 64K registers / 2048). Before, a fixed GUESS of 64 let
/// pipelining take ggml's norm.ptx from 38 to 64 registers.
int functionRLimit(const ori::Function &f, const ori::Liveness &live) {
  int peak = 0;
  for (uint32_t b = 0; b < f.blocks.size(); ++b)
    peak = std::max(peak, blockPeak(f, b, live).first);
  return std::max(32, (peak + 7) / 8 * 8);
}

/// Cycles of one iteration before: the longest chain of same-iteration dependences (with the
/// real latencies), at least the resource bound (one issue per instruction and the branch,
/// each pipe's busy cycles).
int iterationLength(const Loop &L) {
  const size_t n = L.body.size();
  std::vector<int> start(n, 0);
  int len = resMII(L);
  for (uint32_t b = 0; b < n; ++b) {
    for (const Edge &e : L.edges)
      if (e.to == b && e.dist == 0 && e.from < b)
        start[b] = std::max(start[b], start[e.from] + e.lat);
    len = std::max(len, start[b] + 1);
  }
  for (const Edge &e : L.edges)
    if (e.dist == 0)
      len = std::max(len, start[e.from] + e.lat);
  return len;
}

} // namespace

void runOriPipelining(ori::Function &f, PhaseContext &pc) {
  const Params prm = readParams(pc.knobs);
  const Target &target = *pc.target;
  std::ostringstream notes;
  const bool analyzed = f.cfgAnalyzed;
  if (!analyzed)
    runAnalyzeControlFlow(f, pc);
  unsigned pipelined = 0, rolled = 0;
  bool changed = false;
  std::set<std::string> visited; // header names (indices move as blocks go in)
  for (size_t round = 0; round < 4096; ++round) {
    // The next innermost single-block loop not visited yet, in layout order.
    std::optional<uint32_t> pick;
    std::vector<bool> hasChild(f.loops.size(), false);
    for (const ori::Loop &l : f.loops)
      if (l.parent >= 0)
        hasChild[l.parent] = true;
    for (uint32_t li = 0; li < f.loops.size() && !pick; ++li)
      if (!hasChild[li] && !visited.count(f.blocks[f.loops[li].header].name))
        pick = li;
    if (!pick)
      break;
    const ori::Loop &loop = f.loops[*pick];
    const uint32_t h = loop.header;
    visited.insert(f.blocks[h].name);
    Loop L;
    L.h = h;
    Result R;
    std::pair<int, int> press{0, 0};
    auto decide = [&]() -> Outcome {
      const ori::Block &hb = f.blocks[h];
      if (loop.blocks.size() != 1)
        return reject(kControl, "body of " + std::to_string(loop.blocks.size()) + " blocks");
      if (hb.noUnroll && !prm.okNoUnroll)
        return reject(kNoUnroll);
      if (hb.instrs.empty())
        return reject(kControl, "empty loop");
      const Instr &br = hb.instrs.back();
      if (br.op != Opcode::BRA || !br.mods.empty() || br.guard.kind != OperandKind::VReg ||
          br.guard.cls != RegClass::P || br.uses().size() != 1 ||
          br.uses()[0].kind != OperandKind::Block || br.uses()[0].reg != h)
        return reject(kControl, "the loop does not end in a conditional branch to itself");
      if (h + 1 >= f.blocks.size())
        return reject(kControl, "no fall-through exit");
      L.br = br;
      L.body.assign(hb.instrs.begin(), hb.instrs.end() - 1);
      fuseWideAdds(f, L, ori::computeLiveness(f));
      if (Outcome o = scanBody(f, L, prm); !o.ok)
        return o;
      if (Outcome o = findSlice(L); !o.ok)
        return o;
      // Warp-uniform trip count: the control's inputs from outside the loop are uniform.
      Uniformity uni(f, h);
      for (uint32_t i = 0; i < L.body.size(); ++i)
        if (L.slice[i]) {
          const Instr &in = L.body[i];
          for (const auto &[k, kind] : readsOf(in))
            if (!L.regs.count(k) && !prm.divergentOk && !uni.regUniform(k))
              return reject(kDivergent, "the loop control reads " +
                                            std::string(ori::vregPrefix(clsOf(k))) +
                                            std::to_string(regOf(k)));
          for (const Operand &u : in.uses())
            if (u.kind == OperandKind::PReg && !u.isFixed() && !prm.divergentOk)
              return reject(kDivergent, "the loop control reads a physical register");
        }
      L.cost.resize(L.body.size());
      L.memOrdered.assign(L.body.size(), false);
      L.memLoad.assign(L.body.size(), false);
      for (uint32_t i = 0; i < L.body.size(); ++i) {
        const Instr &in = L.body[i];
        llvm::SmallVector<std::string_view, 4> mods;
        for (Modifier m : in.mods)
          mods.push_back(ori::modifierSpelling(m));
        L.cost[i] = target.perfCost(in.info().name, mods);
        const bool clock = in.op == Opcode::CS2R ||
                           (in.op == Opcode::S2R && in.uses()[0].kind == OperandKind::SReg &&
                            !ori::specialRegIsStable(static_cast<ori::SpecialReg>(in.uses()[0].reg)));
        L.memOrdered[i] = in.hasEffects() || clock;
        L.memLoad[i] = in.info().has(ori::OF_LD) && in.op != Opcode::LDC;
      }
      if (Outcome o = scheduleLoop(L, target, prm, R); !o.ok)
        return o;
      if (R.s.stages < 2)
        return reject(kNoOverlap, "II " + std::to_string(R.s.ii));
      const ori::Liveness live = ori::computeLiveness(f);
      press = pressure(f, L, R, live);
      const int64_t rLimit = prm.rLimit > 0 ? prm.rLimit : functionRLimit(f, live);
      if (press.first > rLimit)
        return reject(kPressure, std::to_string(press.first) + " R registers > " +
                                     std::to_string(rLimit));
      if (press.second > prm.pLimit)
        return reject(kPressure, std::to_string(press.second) + " predicates > " +
                                     std::to_string(prm.pLimit));
      const int before = iterationLength(L);
      if (R.s.ii >= before)
        return reject(kNotProfitable, "II " + std::to_string(R.s.ii) + " >= " +
                                          std::to_string(before) + " cycles per iteration");
      return {true, 0, {}};
    };
    Outcome o = decide();
    notes << "# loop " << f.blocks[h].name << ": ";
    if (!o.ok) {
      ++rolled;
      notes << "not pipelined: " << o.code << " - " << reasonText(o.code);
      if (!o.detail.empty())
        notes << " (" << o.detail << ')';
      notes << '\n';
      continue;
    }
    int unroll = 1;
    for (const auto &[k, q] : R.rn.depth)
      unroll = std::max(unroll, q + 1);
    notes << "pipelined (II=" << R.s.ii << ", ResMII=" << R.resMii << ", RecMII=" << R.recMii
          << ", stages=" << R.s.stages << ", body of " << L.body.size()
          << " instructions, kernel unrolled " << unroll << "x for " << R.rn.depth.size()
          << " renamed registers, est. " << press.first << " R / " << press.second
          << " P registers)\n";
    const ori::Liveness live = ori::computeLiveness(f);
    for (const std::string &kname : rewrite(f, L, R, live))
      visited.insert(kname);
    ++pipelined;
    changed = true;
    runAnalyzeControlFlow(f, pc);
  }
  notes << "# [pipelined loops=" << pipelined << "] [non-pipelined loops=" << rolled << "]\n";
  pc.dumpNotes += notes.str();
  if (changed) {
    runAnalyzeControlFlow(f, pc);
    f.recomputeRegTable();
  }
  if (!analyzed) {
    ori::buildCFG(f);
    f.cfgAnalyzed = false;
  }
}

} // namespace ptxmini
