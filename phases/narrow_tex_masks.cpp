//===- phases/narrow_tex_masks.cpp - OriNarrowTexWriteMasks: fetch only used components ===//
///
/// \file
/// Phase 97 (ours; number GUESS), after the last dead-code elimination and before operand
/// legalization and the pre-allocation schedule. The lowering (frontend/lower/lower_tex.cpp)
/// gives every TEX / TLD the full write mask (0xf, not printed): results x, y land in the
/// pair d1 and z, w in the pair d2, four registers live from the fetch to the reads. A
/// texture instruction writes only the components its write mask enables, packed in order
/// into d1, d1+1, d2, d2+1 (HW: ptxas 13.0 for sm_90 gives `tex.cube.v4.f32` whose program
/// reads only x `TEX.LL RZ, R19, ..., CUBE, 0x1` and `tex.a1d.v4.f32` reading x, y
/// `TEX.LL RZ, R2, ..., ARRAY_1D, 0x3` with the results in R19 and R2, R3: nvdisasm 13.2 of
/// tests/exec/kernels/tex_shapes.ptx; the emulator's write_components, tests/exec/emu/
/// ops_tex.cpp, models the same packing). So, as ptxas does, the mask is narrowed to the
/// components the program reads, and the results take 1-4 registers instead of 4: fewer
/// registers held across the texture latency, which leaves the pre-allocation schedule
/// room to issue independent fetches back to back.
///
/// Per TEX / TLD whose mask is the full 0xf, unguarded (a guarded write keeps the old value
/// of the registers it skips), whose d1 and d2 are virtual register pairs each defined by
/// this instruction alone, and every read of which is a plain register operand (not a
/// memory base, descriptor or constant-bank index):
///   1. the used components U: a component read `d1[k]` uses component k, `d2[k]` 2 + k; a
///      whole read of a pair uses both of its components;
///   2. U empty (dead code's business) or all four: nothing to do;
///   3. component c moves to position p = its rank in U; positions 0-1 are a fresh d1'
///      (one register when |U| = 1, else a pair), 2-3 a fresh d2' (one register when
///      |U| = 3, a pair when 4) or RZ;
///   4. a whole read of d1 stays whole on d1' (its components are positions 0 and 1); a
///      whole read of d2 is only possible when d1's components are both used (then it maps
///      to d2' unchanged), else the instruction is left alone;
///   5. reads are rewritten, the mask operand is set (added when absent).
/// DUMPIR=OriNarrowTexWriteMasks prints `# [narrowed texture masks=N] [components dropped=M]`.
//===----------------------------------------------------------------------------------===//
#include "phases/phase_manager.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <bit>
#include <string>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

constexpr int64_t kFullMask = 0xf;

/// Where the write mask sits among a texture instruction's uses (opcodes.def signatures:
/// TEX "RR:RRUIII?" -> a, b, handle, sampler, dimension, [mask]; TLD "RR:RUIII?").
struct TexShape {
  Opcode op;
  unsigned maskUse; ///< index of the optional mask among the uses
};
constexpr std::array kTexShapes = {TexShape{Opcode::TEX, 5}, TexShape{Opcode::TLD, 4}};

/// One read of a texture result: the instruction and the operand index in it.
struct ReadSite {
  uint32_t b, i, op;
};

struct RegUse {
  uint32_t defs = 0;
  bool blocked = false; ///< read in a form this phase does not rewrite
  llvm::SmallVector<ReadSite, 4> reads;
};

} // namespace

void runOriNarrowTexWriteMasks(ori::Function &f, PhaseContext &ctx) {
  // Definitions and reads of every R virtual register.
  llvm::DenseMap<uint32_t, RegUse> regs;
  for (uint32_t b = 0; b < f.blocks.size(); ++b)
    for (uint32_t i = 0; i < f.blocks[b].instrs.size(); ++i) {
      const Instr &in = f.blocks[b].instrs[i];
      for (const Operand &d : in.defs())
        if (d.kind == OperandKind::VReg && d.cls == RegClass::R)
          ++regs[d.reg].defs;
      if (in.guard.kind == OperandKind::VReg && in.guard.cls == RegClass::R)
        regs[in.guard.reg].blocked = true;
      for (uint32_t k = in.numDefs; k < in.ops.size(); ++k) {
        const Operand &o = in.ops[k];
        if (o.kind == OperandKind::VReg) {
          if (o.cls == RegClass::R)
            regs[o.reg].reads.push_back({b, i, k});
          continue;
        }
        for (const Operand &v : o.vregs())
          if (v.cls == RegClass::R)
            regs[v.reg].blocked = true;
      }
    }

  unsigned narrowed = 0, dropped = 0;
  for (uint32_t b = 0; b < f.blocks.size(); ++b)
    for (uint32_t i = 0; i < f.blocks[b].instrs.size(); ++i) {
      Instr &in = f.blocks[b].instrs[i];
      const TexShape *shape = nullptr;
      for (const TexShape &s : kTexShapes)
        if (s.op == in.op)
          shape = &s;
      if (!shape || in.numDefs != 2 || in.isGuarded())
        continue;
      size_t maskIdx = in.numDefs + shape->maskUse;
      bool hasMask = in.ops.size() > maskIdx;
      if (hasMask && (in.ops[maskIdx].kind != OperandKind::Imm || in.ops[maskIdx].imm != kFullMask))
        continue;
      // defs: d2 (components z, w), d1 (x, y).
      const Operand d2 = in.ops[0], d1 = in.ops[1];
      auto plainPair = [](const Operand &d) {
        return d.kind == OperandKind::VReg && d.cls == RegClass::R && d.width == 2 &&
               d.sub == ori::kWholeReg;
      };
      if (!plainPair(d1) || !plainPair(d2) || d1.reg == d2.reg)
        continue;
      auto i1 = regs.find(d1.reg), i2 = regs.find(d2.reg);
      if (i1 == regs.end() || i2 == regs.end())
        continue;
      const RegUse &u1 = i1->second, &u2 = i2->second;
      if (u1.defs != 1 || u2.defs != 1 || u1.blocked || u2.blocked)
        continue;
      // 1. Used components.
      unsigned used = 0;
      bool whole1 = false, whole2 = false;
      auto collect = [&](const RegUse &u, unsigned first, bool &whole) {
        for (const ReadSite &r : u.reads) {
          const Operand &o = f.blocks[r.b].instrs[r.i].ops[r.op];
          if (o.sub == ori::kWholeReg) {
            whole = true;
            used |= 3u << first;
          } else {
            used |= 1u << (first + o.sub);
          }
        }
      };
      collect(u1, 0, whole1);
      collect(u2, 2, whole2);
      // 2. Nothing to narrow.
      if (used == 0 || used == kFullMask)
        continue;
      // 4. A whole d2 read needs d2's components to stay at positions 2 and 3.
      if (whole2 && (used & 3u) != 3u)
        continue;
      // 3. New registers.
      unsigned n = static_cast<unsigned>(std::popcount(used));
      Operand n1 = f.newReg(RegClass::R, n >= 2 ? 2 : 1);
      Operand n2 = n > 2 ? f.newReg(RegClass::R, n == 4 ? 2 : 1) : Operand::fixed(RegClass::R);
      std::array<unsigned, 4> pos{};
      for (unsigned c = 0, p = 0; c < 4; ++c)
        if (used >> c & 1)
          pos[c] = p++;
      auto rewrite = [&](const RegUse &u, unsigned first) {
        for (const ReadSite &r : u.reads) {
          Operand &o = f.blocks[r.b].instrs[r.i].ops[r.op];
          uint8_t mods = o.mods;
          if (o.sub == ori::kWholeReg) {
            o = first == 0 ? n1 : n2; // whole reads keep their pair (step 4)
          } else {
            unsigned p = pos[first + o.sub];
            const Operand &dst = p < 2 ? n1 : n2;
            o = dst;
            if (dst.width == 2)
              o.sub = static_cast<uint8_t>(p % 2);
          }
          o.mods = mods;
        }
      };
      rewrite(u1, 0);
      rewrite(u2, 2);
      // 5. The instruction.
      in.ops[0] = n2;
      in.ops[1] = n1;
      if (hasMask)
        in.ops[maskIdx] = Operand::intImm(used);
      else
        in.addUse(Operand::intImm(used));
      ++narrowed;
      dropped += 4 - n;
    }
  if (narrowed)
    f.recomputeRegTable();
  ctx.dumpNotes += "# [narrowed texture masks=" + std::to_string(narrowed) +
                   "] [components dropped=" + std::to_string(dropped) + "]\n";
}

} // namespace ptxmini
