//===- frontend/lower/lower_wgmma.cpp - warpgroup MMA (wgmma.*) for sm_90a ---------------===//
///
/// \file
/// Instruction selection for the warpgroup matrix instructions, as ptxas 13.0.88 selects them
/// for sm_90a (HW: read off ptxas's output with nvdisasm/cuobjdump 13.2 on probe kernels):
///   wgmma.fence.sync.aligned                 WARPGROUP.ARRIVE
///   wgmma.mma_async (f16, bf16, tf32)    [VOTEU.ANY UPn, Pn] HGMMA.64xNxK.{F16|F32}[.BF16|.TF32]
///   wgmma.mma_async ... (e4m3, e5m2)         QGMMA.64xNx32.{F16|F32}.{E4M3|E5M2}.{E4M3|E5M2}
///   wgmma.mma_async ... (s8, u8)             IGMMA.64xNx32.{S8|U8}.{S8|U8}[.SAT]
///   wgmma.commit_group.sync.aligned          `, gsb0` on the group's last MMA (no instruction)
///   wgmma.wait_group.sync.aligned n          WARPGROUP.DEPBAR.LE gsb0, n
/// The two 64-bit descriptors go to a UR quad (A in the low pair, B in the high pair; ptxas
/// names it `gdesc[URa]`); register A is an aligned R quad, and B's descriptor is still the
/// high pair of the named UR quad.
/// scale-d: an immediate 1 reads the accumulator (`R24, ..., R24` and UPT, which nvdisasm
/// omits), an immediate 0 (or a predicate of known value: ThunderKittens' `setp.ne.b32 p, %r,
/// 0` with %r a known 0, lower_warp.cpp) reads RZ with `!UPT`, a predicate becomes uniform through
/// `VOTEU.ANY UPn, Pn` (the instruction is .aligned, so the warp agrees). imm-scale-a/b = -1
/// set .negA/.negB, imm-trans-a/b = 1 set .tnspA/.tnspB.
///
/// Accumulators. An MMA writes its accumulator asynchronously until the wait that retires its
/// group, so the fragment must not move while a pipeline is in flight: each accumulator tuple
/// of the function (the `{...}` vector of an mma_async) gets a block of consecutive physical
/// registers, and every PTX reference to those registers names them directly. In two steps:
/// planWgmmaAccumulators, before the body is lowered, gives every tuple its own provisional
/// register numbers (from kProvisionalBase); placeWgmmaAccumulators, after it (CFG built,
/// before any phase), computes where each provisional register is live
/// (ori/analysis/accumulator_liveness.h: an MMA's result until the wait that retires it) and
/// places the tuples first-fit, in PTX order, at 8-aligned bases from R24 up (then below R24)
/// where every register is free over that tuple register's live points, so tuples never live
/// together share registers (ThunderKittens' mha_h100 backward kernel needs 448 accumulator
/// registers over the function, at most 224 at once). The MMA encodes only the first
/// register; the others trail as implicit (OM_IMPLICIT) definitions and uses, and
/// WARPGROUP.ARRIVE / DEPBAR carry all of the function's accumulator registers as implicit
/// uses and definitions, so no phase moves an access to them across a fence or a wait. The
/// allocator keeps each register busy where it is live (regalloc/live_intervals.cpp), and
/// other values use it elsewhere (a producer region never holds the consumer's tuples).
/// GUESS: ptxas put its first accumulator at R24 in every probe.
///
/// Not selected (reported as unsupported): sparse (`.sp`) forms, and an accumulator register
/// that appears at two different positions of two tuples.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"
#include "ori/analysis/accumulator_liveness.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"

#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;

constexpr uint32_t kFirstAccumulator = 24; ///< GUESS, see the file comment
constexpr uint32_t kAccumulatorAlign = 8;
constexpr uint32_t kLastUsableGpr = 252;   ///< R253/R254 and RZ stay out (255 minus 2 reserved)
/// The lowering names accumulator registers by provisional numbers from here until
/// placeWgmmaAccumulators gives them R registers (never seen outside this file's two steps).
constexpr uint32_t kProvisionalBase = 1u << 20;

/// One input type row: PTX spelling, the SASS opcode, K, and its type modifier.
struct WgmmaType {
  std::string_view ptx;
  Opcode op;
  unsigned k;
};
constexpr std::array kTypes = {
    WgmmaType{"f16", Opcode::HGMMA, 16},  WgmmaType{"bf16", Opcode::HGMMA, 16},
    WgmmaType{"tf32", Opcode::HGMMA, 8},  WgmmaType{"e4m3", Opcode::QGMMA, 32},
    WgmmaType{"e5m2", Opcode::QGMMA, 32}, WgmmaType{"s8", Opcode::IGMMA, 32},
    WgmmaType{"u8", Opcode::IGMMA, 32},
};

/// The mma_async's words: shape N, K, and the d / a / b types.
struct WgmmaForm {
  unsigned n = 0, k = 0;
  std::string dType, aType, bType;
  const WgmmaType *in = nullptr;
};

bool parseForm(const ptx::Instruction &in, WgmmaForm &f) {
  std::vector<std::string> types;
  for (const ptx::Modifier &m : in.modifiers) {
    if (m.kind == ptx::Modifier::Kind::Type) {
      types.push_back(m.text);
    } else if (m.text.size() > 4 && m.text.starts_with("m64n")) {
      size_t kpos = m.text.find('k');
      if (kpos == std::string::npos)
        return false;
      f.n = static_cast<unsigned>(std::stoul(m.text.substr(4, kpos - 4)));
      f.k = static_cast<unsigned>(std::stoul(m.text.substr(kpos + 1)));
    }
  }
  if (types.size() != 3 || f.n == 0)
    return false;
  f.dType = types[0], f.aType = types[1], f.bType = types[2];
  for (const WgmmaType &t : kTypes)
    if (t.ptx == f.aType)
      f.in = &t;
  return f.in && f.k == f.in->k && f.n % 8 == 0 && f.n <= 256;
}

/// The accumulator's registers: 64xN f32/s32 results take N/2, f16 results (packed pairs) N/4.
unsigned accumulatorRegs(const WgmmaForm &f) { return f.dType == "f16" ? f.n / 4 : f.n / 2; }

Modifier typeMod(std::string_view t) {
  if (t == "f16")
    return Modifier::F16;
  if (t == "bf16")
    return Modifier::BF16;
  if (t == "tf32")
    return Modifier::TF32;
  if (t == "e4m3")
    return Modifier::E4M3;
  if (t == "e5m2")
    return Modifier::E5M2;
  if (t == "s8")
    return Modifier::S8;
  if (t == "u8")
    return Modifier::U8;
  return Modifier::F32;
}

/// The register names of a `{...}` operand, or empty.
std::vector<std::string> vectorNames(const ptx::Operand &o) {
  std::vector<std::string> names;
  if (!o.is<ptx::VectorOperand>())
    return names;
  for (const ptx::Operand &e : o.as<ptx::VectorOperand>().elems) {
    if (!e.is<ptx::RegOperand>())
      return {};
    names.push_back(e.as<ptx::RegOperand>().name);
  }
  return names;
}

void collectMmas(const ptx::Block &b, std::vector<const ptx::Instruction *> &out) {
  for (const ptx::Statement &s : b.statements) {
    if (s.is<ptx::Instruction>() && s.as<ptx::Instruction>().opcode == "wgmma.mma_async")
      out.push_back(&s.as<ptx::Instruction>());
    else if (s.is<ptx::Block>())
      collectMmas(s.as<ptx::Block>(), out);
  }
}

/// A (virtual or physical) 64-bit descriptor into the UR pair components `k`, `k + 1` of `ur`.
bool descriptorToUniform(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &o,
                         const Operand &ur, unsigned k) {
  Operand src = ctx.source(in, o);
  if (src.kind == ori::OperandKind::None)
    return false;
  if (src.kind == ori::OperandKind::Imm) {
    uint64_t v = static_cast<uint64_t>(src.imm);
    ctx.emit(Opcode::UMOV, {}, {component(ur, k)}, {Operand::intImm(static_cast<uint32_t>(v))});
    ctx.emit(Opcode::UMOV, {}, {component(ur, k + 1)},
             {Operand::intImm(static_cast<uint32_t>(v >> 32))});
    return true;
  }
  if (src.cls != RegClass::R || src.width != 2)
    return ctx.unsupported(in, "A wgmma descriptor that is not a 64-bit register");
  ctx.emit(Opcode::R2UR, {}, {component(ur, k)}, {component(src, 0)});
  ctx.emit(Opcode::R2UR, {}, {component(ur, k + 1)}, {component(src, 1)});
  return true;
}

std::optional<int64_t> immOperand(LowerCtx &ctx, const ptx::Operand &o) {
  if (o.is<ptx::ImmOperand>())
    return o.as<ptx::ImmOperand>().value;
  return ctx.knownConstant(o);
}

/// The function's accumulator registers as implicit operands.
void addImplicitAccumulators(LowerCtx &ctx, ori::Instr &i, bool defs) {
  for (const Operand &r : ctx.wgmmaAccumulators) {
    Operand o = r;
    o.mods |= ori::OM_IMPLICIT;
    if (defs)
      i.addDef(o);
    i.addUse(o);
  }
}

bool lowerFence(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {"sync", "aligned"}) || !in.operands.empty())
    return in.operands.empty() ? false : ctx.unsupported(in);
  ori::Instr &i = ctx.emit(Opcode::WARPGROUP, {Modifier::ARRIVE}, {}, {});
  addImplicitAccumulators(ctx, i, /*defs=*/true);
  return true;
}

bool lowerCommit(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {"sync", "aligned"}) || !in.operands.empty())
    return in.operands.empty() ? false : ctx.unsupported(in);
  // HW: ptxas emits no instruction; the group's last MMA carries gsb0.
  if (ctx.lastGmma) {
    auto [b, k] = *ctx.lastGmma;
    ctx.fn().blocks[b].instrs[k].mods.push_back(Modifier::GSB0);
    ctx.lastGmma.reset();
  }
  return true;
}

bool lowerWait(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {"sync", "aligned"}) || in.operands.size() != 1)
    return in.operands.size() != 1 ? ctx.unsupported(in) : false;
  std::optional<int64_t> n = immOperand(ctx, in.operands[0]);
  if (!n || *n < 0 || *n > 7)
    return ctx.unsupported(in, "A wgmma.wait_group count that is not an immediate 0..7");
  ori::Instr &i =
      ctx.emit(Opcode::WARPGROUP, {Modifier::DEPBAR, Modifier::LE}, {}, {Operand::intImm(*n)});
  addImplicitAccumulators(ctx, i, /*defs=*/true);
  return true;
}

bool lowerMmaAsync(LowerCtx &ctx, const ptx::Instruction &in) {
  if (in.has("sp"))
    return ctx.unsupported(in, "Sparse wgmma.mma_async");
  WgmmaForm f;
  if (!parseForm(in, f))
    return ctx.unsupported(in, "This shape or type of '" + in.fullOpcode() + "'");
  bool isInt = f.in->op == Opcode::IGMMA;
  if (!ctx.onlyModifiers(in, {"sync", "aligned", "m64n" + std::to_string(f.n) + "k" +
                                                     std::to_string(f.k),
                              "satfinite"}))
    return false;
  std::vector<std::string> d = vectorNames(in.operands[0]);
  if (d.size() != accumulatorRegs(f) || in.operands.size() < 4)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  bool regA = in.operands[1].is<ptx::VectorOperand>();
  bool hasTrans = f.in->op == Opcode::HGMMA && f.in->k == 16;
  size_t want = isInt ? 4 : 6 + (hasTrans ? (regA ? 1 : 2) : 0);
  if (in.operands.size() != want || (regA && f.in->op != Opcode::HGMMA))
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");

  ori::Instr mma(f.in->op);
  Modifier shape = Modifier::F32;
  std::string spelling = "64x" + std::to_string(f.n) + "x" + std::to_string(f.k);
  if (!ori::lookupModifier(spelling, shape))
    return ctx.unsupported(in);
  mma.mods.push_back(shape);
  if (isInt) {
    mma.mods.push_back(typeMod(f.aType));
    mma.mods.push_back(typeMod(f.bType));
    if (in.has("satfinite"))
      mma.mods.push_back(Modifier::SAT);
  } else {
    mma.mods.push_back(f.dType == "f16" ? Modifier::F16 : Modifier::F32);
    if (f.in->op == Opcode::QGMMA) {
      mma.mods.push_back(typeMod(f.aType));
      mma.mods.push_back(typeMod(f.bType));
    } else if (f.aType != "f16") {
      mma.mods.push_back(typeMod(f.aType));
    }
  }
  // The immediates: scale-a, scale-b (-1 negates), trans-a, trans-b.
  bool negRegA = false;
  for (size_t k = 4; k < in.operands.size(); ++k) {
    std::optional<int64_t> v = immOperand(ctx, in.operands[k]);
    size_t pos = k - 4;
    if (regA && pos >= 2)
      pos += 1; // register A has no trans-a
    bool scale = pos < 2;
    if (!v || (scale ? (*v != 1 && *v != -1) : (*v != 0 && *v != 1)))
      return ctx.unsupported(in, "A wgmma.mma_async scale or transpose that is not 1/-1 or 0/1");
    static constexpr std::array kMods = {Modifier::NegA, Modifier::NegB, Modifier::TnspA,
                                         Modifier::TnspB};
    if (regA && pos == 0 && *v == -1)
      negRegA = true; // printed and encoded as `-Ra`, not .negA (sm90_forms.def)
    else if ((scale && *v == -1) || (!scale && *v == 1))
      mma.mods.push_back(kMods[pos]);
  }

  // Operands: descriptors (or register A) first, the scale-d predicate next.
  Operand a, bDesc;
  if (regA) {
    std::vector<std::string> an = vectorNames(in.operands[1]);
    if (an.size() != 4)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    a = ctx.temp(RegClass::R, 4);
    for (unsigned k = 0; k < 4; ++k) {
      Operand s = ctx.reg(in, an[k]);
      if (s.kind == ori::OperandKind::None)
        return false;
      ctx.emit(Opcode::MOV, {}, {component(a, k)}, {s});
    }
    // The MMA names a UR quad and reads B's descriptor from its high pair, as in the
    // descriptor form (HW: ptxas 13.0.88 loads a register-A MMA's only descriptor into UR6:UR7
    // and prints gdesc[UR4], UR4:UR5 holding the global memory descriptor; the emulator's
    // wgmma_bf16 exec test fails with B in the low pair). The low pair is not read: zeros
    // keep it defined (two UMOVs ptxas does not emit).
    bDesc = ctx.temp(RegClass::UR, 4);
    ctx.emit(Opcode::UMOV, {}, {component(bDesc, 0)}, {Operand::intImm(0)});
    ctx.emit(Opcode::UMOV, {}, {component(bDesc, 1)}, {Operand::intImm(0)});
    if (!descriptorToUniform(ctx, in, in.operands[2], bDesc, 2))
      return false;
    // The quad is written after the PTX's wgmma.fence: the MMA may read registers written
    // since the last arrive only after another one (PTX ISA, wgmma.fence), so one follows.
    // Not ptxas's code: ptxas loads the fragment into the quad directly.
    ori::Instr &arrive = ctx.emit(Opcode::WARPGROUP, {Modifier::ARRIVE}, {}, {});
    addImplicitAccumulators(ctx, arrive, /*defs=*/true);
  } else {
    a = ctx.temp(RegClass::UR, 4);
    if (!descriptorToUniform(ctx, in, in.operands[1], a, 0) ||
        !descriptorToUniform(ctx, in, in.operands[2], a, 2))
      return false;
  }
  Operand upt = Operand::fixed(RegClass::UP);
  Operand pred = upt;
  bool readsC = true;
  if (std::optional<int64_t> v = immOperand(ctx, in.operands[3])) {
    readsC = *v != 0;
    if (!readsC)
      pred.mods |= ori::OM_NOT;
  } else {
    Operand p = ctx.source(in, in.operands[3]);
    if (p.kind == ori::OperandKind::None)
      return false;
    if (p.cls != RegClass::P)
      return ctx.unsupported(in, "A wgmma scale-d that is not a predicate or an immediate");
    pred = ctx.temp(RegClass::UP);
    ctx.emit(Opcode::VOTEU, {Modifier::ANY}, {URZ(), pred}, {p});
  }

  std::vector<Operand> acc;
  for (const std::string &n : d) {
    Operand r = ctx.reg(in, n);
    if (r.kind == ori::OperandKind::None)
      return false;
    if (r.kind != ori::OperandKind::PReg || (!acc.empty() && r.reg != acc.back().reg + 1))
      return ctx.unsupported(in, "A wgmma accumulator whose registers are shared with "
                                 "another accumulator at other positions");
    acc.push_back(r);
  }
  mma.addDef(acc[0]);
  if (negRegA)
    a.mods |= ori::OM_NEG;
  mma.addUse(a);
  mma.addUse(readsC ? acc[0] : RZ());
  mma.addUse(pred);
  if (regA)
    mma.addUse(bDesc);
  for (size_t k = 1; k < acc.size(); ++k) {
    Operand o = acc[k];
    o.mods |= ori::OM_IMPLICIT;
    mma.addDef(o);
    if (readsC)
      mma.addUse(o);
  }
  mma.guard = ctx.curGuard;
  mma.srcLine = ctx.curLine;
  auto &instrs = ctx.fn().blocks[ctx.curBlock].instrs;
  instrs.push_back(std::move(mma));
  ctx.lastGmma = std::make_pair(ctx.curBlock, instrs.size() - 1);
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"wgmma.fence", TypeClass::Any, lowerFence},
    HandlerRow{"wgmma.commit_group", TypeClass::Any, lowerCommit},
    HandlerRow{"wgmma.wait_group", TypeClass::Any, lowerWait},
    HandlerRow{"wgmma.mma_async", TypeClass::Any, lowerMmaAsync},
};

} // namespace

bool planWgmmaAccumulators(LowerCtx &ctx, const ptx::Block &body) {
  std::vector<const ptx::Instruction *> mmas;
  collectMmas(body, mmas);
  uint32_t next = kProvisionalBase;
  for (const ptx::Instruction *in : mmas) {
    std::vector<std::string> d = vectorNames(in->operands.empty() ? ptx::Operand{}
                                                                   : in->operands[0]);
    if (d.empty())
      continue; // reported when the instruction is lowered
    auto it = ctx.regs.find(d[0]);
    if (it != ctx.regs.end())
      continue; // a tuple already planned (checked position by position when lowered)
    uint32_t n = static_cast<uint32_t>(d.size());
    for (uint32_t k = 0; k < n; ++k) {
      if (ctx.regs.count(d[k]))
        continue;
      Operand r = Operand::preg(RegClass::R, next + k);
      ctx.regs[d[k]] = r;
      ctx.wgmmaAccumulators.push_back(r);
    }
    ctx.wgmmaTuples.push_back({next, n, ctx.loc(*in)});
    next += n;
  }
  return true;
}

bool placeWgmmaAccumulators(LowerCtx &ctx) {
  if (ctx.wgmmaTuples.empty())
    return true;
  ori::Function &f = ctx.fn();
  ori::AccumulatorLiveness live = ori::computeAccumulatorLiveness(f);
  uint32_t points = 0;
  for (const ori::Block &b : f.blocks)
    points += 2 * static_cast<uint32_t>(b.instrs.size());
  // busy[r]: the points where R r holds a placed accumulator value.
  std::vector<llvm::BitVector> busy(kLastUsableGpr + 1, llvm::BitVector(points + 1));
  auto rangesOf = [&](uint32_t prov) -> const ori::AccumulatorLiveness::Ranges & {
    return live.rangesOf(prov);
  };
  auto fits = [&](uint32_t r, uint32_t prov) {
    for (auto [s, e] : rangesOf(prov))
      if (busy[r].find_first_in(s, e + 1) >= 0)
        return false;
    return true;
  };
  // Candidate bases: from kFirstAccumulator up, then below it.
  std::vector<uint32_t> bases;
  for (uint32_t b = kFirstAccumulator; b <= kLastUsableGpr; b += kAccumulatorAlign)
    bases.push_back(b);
  for (uint32_t b = 0; b < kFirstAccumulator; b += kAccumulatorAlign)
    bases.push_back(b);
  std::vector<uint32_t> placed(ctx.wgmmaTuples.size());
  for (size_t t = 0; t < ctx.wgmmaTuples.size(); ++t) {
    const LowerCtx::WgmmaTuple &tu = ctx.wgmmaTuples[t];
    std::optional<uint32_t> at;
    for (uint32_t b : bases) {
      if (b + tu.size - 1 > kLastUsableGpr)
        continue;
      bool ok = true;
      for (uint32_t k = 0; k < tu.size && ok; ++k)
        ok = fits(b + k, tu.first + k);
      if (ok) {
        at = b;
        break;
      }
    }
    if (!at) {
      ctx.diag.error(tu.loc, "wgmma accumulators of this function need more than the " +
                                 std::to_string(kLastUsableGpr + 1) +
                                 " registers ptxas-mini can give them");
      return false;
    }
    placed[t] = *at;
    for (uint32_t k = 0; k < tu.size; ++k)
      for (auto [s, e] : rangesOf(tu.first + k))
        busy[*at + k].set(s, e + 1);
  }
  // Provisional -> final.
  auto finalOf = [&](uint32_t prov) -> std::optional<uint32_t> {
    for (size_t t = 0; t < ctx.wgmmaTuples.size(); ++t) {
      const LowerCtx::WgmmaTuple &tu = ctx.wgmmaTuples[t];
      if (prov >= tu.first && prov < tu.first + tu.size)
        return placed[t] + (prov - tu.first);
    }
    return std::nullopt;
  };
  std::vector<uint32_t> finals;
  for (size_t t = 0; t < ctx.wgmmaTuples.size(); ++t)
    for (uint32_t k = 0; k < ctx.wgmmaTuples[t].size; ++k)
      finals.push_back(placed[t] + k);
  llvm::sort(finals);
  finals.erase(std::unique(finals.begin(), finals.end()), finals.end());
  bool ok = true;
  auto rewrite = [&](Operand &o, const ori::Instr &in) {
    if (o.kind != ori::OperandKind::PReg || o.cls != RegClass::R || o.isFixed() ||
        o.reg < kProvisionalBase)
      return;
    std::optional<uint32_t> r = finalOf(o.reg);
    uint32_t last = o.reg + (o.sub != ori::kWholeReg ? o.sub : std::max<uint32_t>(1, o.width) - 1);
    std::optional<uint32_t> rl = finalOf(last);
    if (!r || !rl || *rl - *r != last - o.reg) {
      ctx.diag.error(SourceLoc{ctx.module.fileName, in.srcLine, 1},
                     "A register of two wgmma accumulators used as one wider value is not "
                     "supported by ptxas-mini");
      ok = false;
      return;
    }
    o.reg = *r;
  };
  for (ori::Block &b : f.blocks)
    for (ori::Instr &in : b.instrs) {
      if (in.op == Opcode::WARPGROUP) {
        // The implicit accumulator operands again, once per final register.
        llvm::SmallVector<Operand, 4> explicitUses;
        bool hadImplicit = false;
        for (unsigned k = 0; k < in.ops.size(); ++k)
          if (in.ops[k].mods & ori::OM_IMPLICIT)
            hadImplicit = true;
          else if (k >= in.numDefs)
            explicitUses.push_back(in.ops[k]);
        if (hadImplicit) {
          in.ops.clear();
          in.numDefs = 0;
          for (uint32_t r : finals) {
            Operand o = Operand::preg(RegClass::R, r);
            o.mods |= ori::OM_IMPLICIT;
            in.addDef(o);
          }
          for (const Operand &u : explicitUses)
            in.addUse(u);
          for (uint32_t r : finals) {
            Operand o = Operand::preg(RegClass::R, r);
            o.mods |= ori::OM_IMPLICIT;
            in.addUse(o);
          }
          continue;
        }
      }
      for (Operand &o : in.ops) {
        if (o.kind == ori::OperandKind::Mem && o.hasMemBase() && !o.memBaseIsVReg() &&
            o.reg >= kProvisionalBase && o.reg != ori::kFixedReg) {
          Operand b = o.memBase();
          rewrite(b, in);
          o.reg = b.reg;
        } else {
          rewrite(o, in);
        }
      }
    }
  ctx.wgmmaAccumulators.clear();
  for (uint32_t r : finals)
    ctx.wgmmaAccumulators.push_back(Operand::preg(RegClass::R, r));
  return ok;
}

std::span<const HandlerRow> wgmmaHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
