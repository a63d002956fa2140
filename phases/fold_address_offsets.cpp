//===- phases/fold_address_offsets.cpp - OriFoldAddressOffsets: base + constant into offsets ===//
///
/// \file
/// Phase 99 (ours; number GUESS), right before the pre-allocation schedule (phase 100) and
/// the allocator (101): a register pressure reduction. Compilers hoist `a_k = base + c_k`
/// out of loops for every address a loop body uses (nvcc does for the shared-memory tiles of
/// wmma code: dmmaTensorCoreGemm keeps ~96 such 64-bit addresses live across its main loop,
/// 192 registers), where the hardware's memory operands take the constant for free:
/// `[base + c_k]`. ptxas's code for such kernels keeps one base register and encodes the
/// constants in the loads (HW: cuobjdump of ptxas 13.0's dmmaTensorCoreGemm, 96 registers,
/// LDS/LD with immediate offsets). This is rematerialization of address arithmetic into
/// its uses (Briggs, Cooper and Torczon, "Rematerialization", PLDI 1992: a value that is
/// a never-killed operand plus a constant is recomputed where used instead of kept live),
/// done for every candidate because the recomputation costs nothing here.
///
/// A candidate v is a virtual register whose only definitions are
///   - 32-bit: `v = IADD3 b, imm, RZ` (any source order), or
///   - 64-bit: `v[0], p = IADD3 b[0], lo, RZ` followed by `v[1] = IADD3.X b[1], hi, RZ, p, !PT`
///     in the same block (the lowering's 64-bit add of a constant: hi is RZ or -1, the sign
///     of the 32-bit constant), p read by nothing else,
/// where b cannot change while v is live: every definition of b is unguarded, in v's block
/// before v's definition, and that block is on no loop (so after v is written b keeps its
/// value). Every read of v must be one of
///   - the base of a memory operand: `[v + o]` -> `[b + o + c]`;
///   - the 64-bit addend of `t = IMAD.WIDE(.U32) x, y, v` whose result t has that single
///     definition and is read only as memory operand bases: the IMAD adds b instead, and
///     every `[t + o]` becomes `[t + o + c]`;
/// and every rewritten instruction must still encode (the offset field is finite; asked of
/// the encoder's tables, enc::canEncode). Then the reads are rewritten and v's definitions
/// deleted. Chains (b itself a candidate) fold over later rounds.
///
/// Then, per block, an IMAD.WIDE whose sources and opcode equal an earlier one's, with
/// neither the sources nor the earlier result redefined in between, and whose result has a
/// single definition read only as memory bases, is removed and its reads name the earlier
/// result (the per-load address computations the folding made identical).
//===----------------------------------------------------------------------------------===//
#include "encoder/emit_function.h"
#include "phases/phase_manager.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <map>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

constexpr unsigned kMaxRounds = 4;

struct Site {
  uint32_t b, i;
};

/// Definition and read sites of the R and P virtual registers.
struct Sites {
  std::map<uint32_t, llvm::SmallVector<Site, 2>> defsR, usesR, defsP, usesP;
};

Sites collect(const ori::Function &f) {
  Sites s;
  for (uint32_t b = 0; b < f.blocks.size(); ++b)
    for (uint32_t i = 0; i < f.blocks[b].instrs.size(); ++i) {
      const Instr &in = f.blocks[b].instrs[i];
      llvm::SmallVector<std::pair<RegClass, uint32_t>, 8> read;
      for (const Operand &d : in.defs())
        if (d.kind == OperandKind::VReg && (d.cls == RegClass::R || d.cls == RegClass::P))
          (d.cls == RegClass::R ? s.defsR : s.defsP)[d.reg].push_back({b, i});
      for (const Operand &u : in.uses())
        for (const Operand &v : u.vregs())
          read.push_back({v.cls, v.reg});
      for (const Operand &v : in.guard.vregs())
        read.push_back({v.cls, v.reg});
      for (auto [c, r] : read) {
        if (c != RegClass::R && c != RegClass::P)
          continue;
        auto &v = (c == RegClass::R ? s.usesR : s.usesP)[r];
        if (v.empty() || v.back().b != b || v.back().i != i)
          v.push_back({b, i});
      }
    }
  return s;
}

bool isRZ(const Operand &o) { return o.isFixed() && o.cls == RegClass::R; }
bool isNotPT(const Operand &o) {
  return o.isFixed() && o.cls == RegClass::P && (o.mods & ori::OM_NOT);
}
bool isReg(const Operand &o, uint32_t reg, uint8_t sub) {
  return o.kind == OperandKind::VReg && o.cls == RegClass::R && o.reg == reg && o.sub == sub &&
         !o.mods;
}

/// `x = IADD3 a, imm, RZ` in some order, unguarded, one definition: a and imm.
std::optional<std::pair<Operand, int64_t>> addOfConst(const Instr &in) {
  if (in.op != Opcode::IADD3 || in.isGuarded() || !in.mods.empty() || in.ops.size() != in.numDefs + 3u)
    return std::nullopt;
  std::optional<Operand> reg;
  std::optional<int64_t> imm;
  unsigned zeros = 0;
  for (const Operand &u : in.uses()) {
    if (u.kind == OperandKind::Imm && !imm)
      imm = u.imm;
    else if (isRZ(u))
      ++zeros;
    else if (u.kind == OperandKind::VReg && u.cls == RegClass::R && !u.mods && !reg)
      reg = u;
    else
      return std::nullopt;
  }
  if (!reg || !imm || zeros != 1)
    return std::nullopt;
  return std::pair{*reg, *imm};
}

struct Candidate {
  uint32_t v, base;
  uint8_t width;
  int32_t offset;
  llvm::SmallVector<Site, 2> defs; ///< the instructions to delete
};

std::optional<Candidate> matchCandidate(const ori::Function &f, const Sites &s, uint32_t v,
                                        const llvm::SmallVector<Site, 2> &defs) {
  const ori::RegInfo &ri = f.regInfo(RegClass::R, v);
  Candidate c{v, 0, ri.width, 0, defs};
  if (ri.width == 1) {
    if (defs.size() != 1)
      return std::nullopt;
    const Instr &in = f.blocks[defs[0].b].instrs[defs[0].i];
    auto m = addOfConst(in);
    if (in.numDefs != 1 || !m || m->first.width != 1 || m->first.sub != ori::kWholeReg ||
        !isReg(in.ops[0], v, ori::kWholeReg))
      return std::nullopt;
    // A 32-bit address: only non-negative constants, so b + c does not wrap where
    // [b + c + o] would not (GUESS: shared-memory addresses are far below 2^31).
    int32_t off = static_cast<int32_t>(static_cast<uint32_t>(m->second));
    if (off < 0)
      return std::nullopt;
    c.base = m->first.reg, c.offset = off;
  } else if (ri.width == 2) {
    if (defs.size() != 2 || defs[0].b != defs[1].b)
      return std::nullopt;
    const Instr &lo = f.blocks[defs[0].b].instrs[defs[0].i];
    const Instr &hi = f.blocks[defs[1].b].instrs[defs[1].i];
    auto m = addOfConst(lo);
    if (!m || lo.numDefs != 2 || !isReg(lo.ops[0], v, 0) || lo.ops[1].kind != OperandKind::VReg ||
        lo.ops[1].cls != RegClass::P || m->first.width != 2 || m->first.sub != 0)
      return std::nullopt;
    uint32_t b = m->first.reg, p = lo.ops[1].reg;
    // hi: IADD3.X v[1], b[1], (RZ | -1), RZ, p, !PT
    if (hi.op != Opcode::IADD3 || hi.isGuarded() || hi.numDefs != 1 || hi.ops.size() != 6 ||
        hi.mods.size() != 1 || hi.mods[0] != Modifier::X || !isReg(hi.ops[0], v, 1) ||
        !isReg(hi.ops[1], b, 1) || !isRZ(hi.ops[3]) || !isNotPT(hi.ops[5]) ||
        hi.ops[4].kind != OperandKind::VReg || hi.ops[4].cls != RegClass::P ||
        hi.ops[4].reg != p || hi.ops[4].mods)
      return std::nullopt;
    uint32_t low = static_cast<uint32_t>(m->second);
    bool negative = low >= 0x80000000u;
    const Operand &h = hi.ops[2];
    bool hiOk = negative ? h.kind == OperandKind::Imm &&
                               static_cast<uint32_t>(h.imm) == 0xFFFFFFFFu
                         : isRZ(h) || (h.kind == OperandKind::Imm && h.imm == 0);
    if (!hiOk)
      return std::nullopt;
    auto pu = s.usesP.find(p);
    auto pd = s.defsP.find(p);
    if (pu == s.usesP.end() || pu->second.size() != 1 || pu->second[0].b != defs[1].b ||
        pu->second[0].i != defs[1].i || pd == s.defsP.end() || pd->second.size() != 1)
      return std::nullopt;
    c.base = b, c.offset = static_cast<int32_t>(low);
  } else {
    return std::nullopt;
  }
  if (c.base == v)
    return std::nullopt;
  // b never changes once v is written.
  const ori::Block &blk = f.blocks[defs[0].b];
  if (blk.loopDepth > 0 || blk.rpoIndex < 0)
    return std::nullopt;
  auto bd = s.defsR.find(c.base);
  if (bd == s.defsR.end())
    return std::nullopt;
  for (Site d : bd->second)
    if (d.b != defs[0].b || d.i >= defs[0].i || f.blocks[d.b].instrs[d.i].isGuarded())
      return std::nullopt;
  if (f.regInfo(RegClass::R, c.base).width != c.width)
    return std::nullopt;
  return c;
}

/// Memory operands of `in` whose base is R vreg `r` (whole), shifted by `delta`, or their
/// base replaced by `newBase`. False when some read of r in `in` is something else, or
/// the offset overflows.
bool rebaseMem(Instr &in, uint32_t r, int32_t delta, const Operand *newBase) {
  for (unsigned k = 0; k < in.ops.size(); ++k) {
    Operand &o = in.ops[k];
    bool names = false;
    for (const Operand &v : o.vregs())
      names |= v.cls == RegClass::R && v.reg == r;
    if (!names)
      continue;
    if (k < in.numDefs || o.kind != OperandKind::Mem || !o.memBaseIsVReg())
      return false;
    Operand b = o.memBase();
    if (b.cls != RegClass::R || b.reg != r || b.sub != ori::kWholeReg)
      return false;
    Operand d = o.memDesc();
    if (d.kind == OperandKind::VReg && d.cls == RegClass::R && d.reg == r)
      return false;
    int64_t off = int64_t(o.memOffset()) + delta;
    if (off < INT32_MIN || off > INT32_MAX)
      return false;
    uint8_t keep = o.mods & static_cast<uint8_t>(~(ori::OM_MEMBASE_V | ori::OM_MEMBASE_P));
    o = Operand::mem(newBase ? *newBase : b, static_cast<int32_t>(off), d);
    o.mods |= keep;
  }
  for (const Operand &v : in.guard.vregs())
    if (v.cls == RegClass::R && v.reg == r)
      return false;
  return true;
}

bool isImadWide(const Instr &in) {
  return in.op == Opcode::IMAD && in.hasModifier(Modifier::WIDE) && in.numDefs == 1 &&
         in.ops.size() == 4 && !in.isGuarded();
}

/// One round of folding; returns the candidates folded.
unsigned foldRound(ori::Function &f, unsigned sm) {
  Sites s = collect(f);
  llvm::DenseSet<uint32_t> removed, rebased;
  std::vector<Site> dead;
  unsigned folded = 0;
  for (auto &[v, defs] : s.defsR) {
    if (rebased.count(v))
      continue;
    auto c = matchCandidate(f, s, v, defs);
    if (!c || removed.count(c->base))
      continue;
    auto uses = s.usesR.find(v);
    if (uses == s.usesR.end())
      continue;
    Operand base = Operand::vreg(RegClass::R, c->base, c->width);
    // Build every rewritten instruction first; commit only when all of them encode.
    std::vector<std::pair<Site, Instr>> edits;
    bool ok = true;
    for (Site u : uses->second) {
      Instr in = f.blocks[u.b].instrs[u.i];
      if (c->width == 2 && isImadWide(in) && isReg(in.ops[3], v, ori::kWholeReg) &&
          !isReg(in.ops[1], v, ori::kWholeReg) && !isReg(in.ops[2], v, ori::kWholeReg) &&
          in.ops[1].reg != v && in.ops[2].reg != v) {
        const Operand &t = in.ops[0];
        auto td = s.defsR.find(t.reg);
        auto tu = s.usesR.find(t.reg);
        if (t.kind != OperandKind::VReg || t.width != 2 || t.sub != ori::kWholeReg ||
            t.reg == v || t.reg == c->base || td == s.defsR.end() || td->second.size() != 1 ||
            tu == s.usesR.end() || rebased.count(t.reg)) {
          ok = false;
          break;
        }
        in.ops[3] = base;
        edits.push_back({u, in});
        for (Site tuse : tu->second) {
          Instr x = f.blocks[tuse.b].instrs[tuse.i];
          if ((tuse.b == u.b && tuse.i == u.i) || !rebaseMem(x, t.reg, c->offset, nullptr) ||
              !enc::canEncode(x, sm)) {
            ok = false;
            break;
          }
          edits.push_back({tuse, x});
        }
      } else if (!rebaseMem(in, v, c->offset, &base) || !enc::canEncode(in, sm)) {
        ok = false;
      } else {
        edits.push_back({u, in});
      }
      if (!ok)
        break;
    }
    // One instruction edited twice (two operands of it, through v and through t) would
    // lose the first edit: give up on such a candidate.
    for (size_t a = 0; ok && a < edits.size(); ++a)
      for (size_t b = a + 1; ok && b < edits.size(); ++b)
        ok = !(edits[a].first.b == edits[b].first.b && edits[a].first.i == edits[b].first.i);
    if (!ok)
      continue;
    for (auto &[site, in] : edits)
      f.blocks[site.b].instrs[site.i] = std::move(in);
    for (Site d : c->defs)
      dead.push_back(d);
    removed.insert(v);
    rebased.insert(c->base);
    for (auto &[site, in] : edits)
      if (isImadWide(in))
        rebased.insert(in.ops[0].reg);
    ++folded;
  }
  // Delete the folded definitions (highest index first within a block).
  llvm::sort(dead, [](Site a, Site b) { return a.b != b.b ? a.b < b.b : a.i > b.i; });
  for (Site d : dead)
    f.blocks[d.b].instrs.erase(f.blocks[d.b].instrs.begin() + d.i);
  return folded;
}

/// Per block: a repeated IMAD.WIDE whose result is read only as memory bases reuses the
/// first one's result.
unsigned reuseAddresses(ori::Function &f) {
  Sites s = collect(f);
  unsigned reused = 0;
  for (uint32_t bi = 0; bi < f.blocks.size(); ++bi) {
    auto &ins = f.blocks[bi].instrs;
    std::vector<bool> erase(ins.size(), false);
    llvm::DenseMap<uint32_t, uint32_t> renameTo; // t -> earlier result
    for (uint32_t j = 0; j < ins.size(); ++j) {
      Instr &in = ins[j];
      // Apply renames of earlier folded results to memory bases.
      for (Operand &o : in.ops)
        if (o.kind == OperandKind::Mem && o.memBaseIsVReg()) {
          Operand b = o.memBase();
          if (b.cls == RegClass::R)
            if (auto it = renameTo.find(b.reg); it != renameTo.end()) {
              uint8_t keep = o.mods & static_cast<uint8_t>(~(ori::OM_MEMBASE_V | ori::OM_MEMBASE_P));
              b.reg = it->second;
              o = Operand::mem(b, o.memOffset(), o.memDesc());
              o.mods |= keep;
            }
        }
      if (!isImadWide(in) || in.ops[0].kind != OperandKind::VReg || in.ops[0].width != 2)
        continue;
      uint32_t t = in.ops[0].reg;
      auto td = s.defsR.find(t);
      auto tu = s.usesR.find(t);
      if (td == s.defsR.end() || td->second.size() != 1 || tu == s.usesR.end())
        continue;
      bool onlyBases = true;
      for (Site u : tu->second) {
        Instr probe = f.blocks[u.b].instrs[u.i];
        onlyBases &= u.b == bi && u.i > j && rebaseMem(probe, t, 0, nullptr);
      }
      if (!onlyBases)
        continue;
      // An earlier equal IMAD.WIDE in this block, nothing it reads nor its result redefined
      // in between.
      for (uint32_t k = j; k-- > 0;) {
        const Instr &e = ins[k];
        bool clobbers = false;
        for (const Operand &d : e.defs())
          for (unsigned q = 0; q < 4; ++q)
            if (q && in.ops[q].kind == OperandKind::VReg && d.kind == OperandKind::VReg &&
                d.cls == in.ops[q].cls && d.reg == in.ops[q].reg)
              clobbers = true;
        if (!erase[k] && isImadWide(e) && e.op == in.op && e.mods == in.mods &&
            e.ops[0].kind == OperandKind::VReg && e.ops[0].width == 2 &&
            e.ops[0].sub == ori::kWholeReg && e.ops[1] == in.ops[1] && e.ops[2] == in.ops[2] &&
            e.ops[3] == in.ops[3]) {
          // The earlier result must not be redefined between k and the last read of t.
          uint32_t r = e.ops[0].reg;
          auto rd = s.defsR.find(r);
          if (rd != s.defsR.end() && rd->second.size() == 1 && r != t) {
            renameTo[t] = r;
            erase[j] = true;
            ++reused;
          }
          break;
        }
        if (clobbers)
          break;
      }
    }
    if (reused) {
      size_t out = 0;
      for (size_t j = 0; j < ins.size(); ++j)
        if (!erase[j])
          ins[out++] = std::move(ins[j]);
      ins.resize(out);
    }
  }
  return reused;
}

} // namespace

void runOriFoldAddressOffsets(ori::Function &f, PhaseContext &pc) {
  // "On no loop" needs the loop facts, and a block outside every natural loop may still
  // sit on an irreducible cycle.
  if (!f.cfgAnalyzed || !f.irreducibleEdges.empty())
    return;
  unsigned sm = pc.target->arch().sm;
  bool any = false;
  for (unsigned round = 0; round < kMaxRounds; ++round) {
    unsigned n = foldRound(f, sm);
    any |= n != 0;
    if (!n)
      break;
  }
  if (any)
    reuseAddresses(f);
  f.recomputeRegTable();
}

} // namespace ptxmini
