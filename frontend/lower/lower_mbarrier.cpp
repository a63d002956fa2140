//===- frontend/lower/lower_mbarrier.cpp - mbarrier.* (sm_90 SYNCS) ---------------------===//
///
/// \file
/// mbarrier as ptxas 13.0.88 selects it for sm_90/sm_90a (HW: read off its output with
/// nvdisasm 13.2, probe kernels with one or a few mbarrier instructions each):
///   mbarrier.init [a], n             v = 0x100000 - n (UIADD3), SYNCS.EXCH.64 URZ, [UR a],
///                                    {v << 1, v << 11} (USHF.L.U32 by 1 and 11), in a
///                                    loop over the threads (below)
///   mbarrier.arrive d|_, [a]         SYNCS.ARRIVE.TRANS64.A1T0 D|RZ, [a], RZ
///   mbarrier.arrive d|_, [a], n      SYNCS.ARRIVE.TRANS64.ART0 D|RZ, [a], n
///   mbarrier.arrive.expect_tx d|_, [a], tx   SYNCS.ARRIVE.TRANS64 D|RZ, [a], tx
///   mbarrier.arrive_drop ...         the same with .OPTOUT after TRANS64
///   mbarrier.expect_tx [a], tx       SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [a], tx
///   mbarrier.complete_tx [a], tx     SYNCS.ARRIVE.TRANS64.RED.A0TX RZ, [a], tx
///   mbarrier.test_wait p, [a], st    SYNCS.PHASECHK.TRANS64 P, [a], st.hi
///   mbarrier.test_wait.parity p, [a], k   SYNCS.PHASECHK.TRANS64 P, [a], k << 31
///   mbarrier.try_wait[.parity] ...   SYNCS.PHASECHK.TRANS64.TRYWAIT P, [a], ...
///   ... with a suspend-time hint t   the same, then @!P NANOSLEEP.SYNCS t;
///                                    @!P SYNCS.PHASECHK.TRANS64 P, [a], ...
///   mbarrier.inval [a]               SYNCS.CCTL.IV [a]
///   mbarrier.pending_count d, st     SHF.R.U32.HI t, RZ, 0xb, st.hi; LOP3 t &= 0xfffff;
///                                    IADD3 d = 0x100000 - t
/// A result written to `_` makes the arrive a reduction (.RED, destination RZ).
/// .release.cluster (arrive) puts MEMBAR.ALL.CTA; MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR before
/// it; .acquire.cluster (test_wait/try_wait) puts `@P CCTL.IVALL` after it; the .cta forms
/// (the default) and .relaxed have no fence.
/// What the barrier word holds (read off the init value and pending_count; the transaction
/// count's place is not visible in ptxas's code): bit 63 the phase, bits 43..62 the arrival
/// counter (0x100000 - pending arrivals), bits 1..20 the reload value 0x100000 - n.
/// The address is a shared-window address ([R + off]; a .shared::cluster address may name
/// another CTA's barrier). mbarrier.init takes it in a uniform register: ptxas issues it once
/// where it proves the address warp-uniform and otherwise loops over the warp's distinct
/// addresses (R2UR with a predicate, BRA.U.ANY); this lowering always loops over the threads
/// that execute it (perThreadUniformLoop: ELECT, R2UR, BRA.U.ANY; one iteration for the
/// usual `if (tid == 0)` init, 32 for a whole warp; inits of one barrier are idempotent).
/// Not selected (an error naming the instruction): .noComplete, generic (non-.shared)
/// addresses, a guarded try_wait with a suspend-time hint.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_common.h"
#include "frontend/lower/lower_mem.h"

#include <algorithm>
#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;
using ptx::StateSpace;

/// HW: the arrival counter field of the barrier word counts up from 0x100000 - n (20 bits).
constexpr int64_t kCountBase = 0x100000;

/// The scope and semantics words mbarrier accepts, and whether a cluster scope was named.
struct Order {
  bool cluster = false;
};

/// Reads .release/.acquire/.relaxed and .cta/.cluster (and the extra words `extra`); false
/// after reporting any other word.
bool readOrder(LowerCtx &ctx, const ptx::Instruction &in,
               std::initializer_list<std::string_view> extra, Order &o) {
  for (const ptx::Modifier &m : in.modifiers) {
    if (m.kind != ptx::Modifier::Kind::Other)
      continue;
    if (m.text == "cluster")
      o.cluster = true;
    else if (m.text == "cta" || m.text == "release" || m.text == "acquire" ||
             m.text == "relaxed")
      continue;
    else if (std::find(extra.begin(), extra.end(), m.text) == extra.end())
      return ctx.unsupported(in, "Modifier '." + m.text + "' of '" + in.fullOpcode() + "'");
  }
  return true;
}

/// The barrier's address as an Ori memory operand [R + off]; false after reporting.
bool barrierAddress(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &op,
                    MemAddress &a) {
  StateSpace s = in.space();
  if (s != StateSpace::Shared && s != StateSpace::SharedCluster)
    return ctx.unsupported(in, "An mbarrier address outside .shared in '" + in.fullOpcode() +
                                   "'");
  if (!memAddress(ctx, in, op, StateSpace::Shared, a))
    return false;
  if (a.base.kind == OperandKind::None || a.base.isFixed()) {
    // An absolute address: put it in a register (SYNCS has no immediate-only form here).
    Operand t = ctx.temp(RegClass::R);
    ctx.emit(Opcode::MOV, {}, {t}, {Operand::intImm(a.offset)});
    a.base = t;
    a.offset = 0;
  }
  return true;
}

/// A 32-bit value operand (register or immediate) in a register.
Operand valueReg(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &op) {
  Operand v = ctx.source(in, op);
  if (v.kind == OperandKind::None)
    return v;
  if (v.kind == OperandKind::Imm) {
    Operand t = ctx.temp(RegClass::R);
    ctx.emit(Opcode::MOV, {}, {t}, {v});
    return t;
  }
  if (v.kind != OperandKind::VReg || v.cls != RegClass::R) {
    ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    return {};
  }
  return v.width == 2 ? component(v, 0) : v;
}

bool lowerInit(LowerCtx &ctx, const ptx::Instruction &in) {
  Order o;
  if (!readOrder(ctx, in, {}, o) || in.operands.size() != 2)
    return in.operands.size() == 2 ? false : ctx.unsupported(in);

  // Everything before the loop runs unguarded (uniform instructions take no P guard); the
  // loop serves the threads whose guard holds.
  Operand guard = ctx.curGuard;
  ctx.curGuard = Operand{};
  MemAddress a;
  if (!barrierAddress(ctx, in, in.operands[0], a))
    return false;
  Operand n = ctx.source(in, in.operands[1]);
  if (n.kind == OperandKind::None)
    return false;
  Operand un = ctx.temp(RegClass::UR);
  if (n.kind == OperandKind::Imm)
    ctx.emit(Opcode::UMOV, {}, {un}, {n});
  else if (n.kind == OperandKind::VReg && n.cls == RegClass::R)
    ctx.emit(Opcode::R2UR, {}, {un}, {n.width == 2 ? component(n, 0) : n});
  else
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand v = ctx.temp(RegClass::UR), word = ctx.temp(RegClass::UR, 2);
  ctx.emit(Opcode::UIADD3, {}, {v}, {negate(un), Operand::intImm(kCountBase), URZ()});
  ctx.emit(Opcode::USHF, {Modifier::L, Modifier::U32}, {component(word, 1)},
           {v, Operand::intImm(11), URZ()});
  ctx.emit(Opcode::USHF, {Modifier::L, Modifier::U32}, {component(word, 0)},
           {v, Operand::intImm(1), URZ()});
  // One init per thread that executes it (addresses may differ across the warp).
  Operand ua = ctx.temp(RegClass::UR);
  ctx.curGuard = guard;
  perThreadUniformLoop(
      ctx, [&](const R2urFn &r2ur) { r2ur(ua, a.base); },
      [&] {
        ctx.emit(Opcode::SYNCS, {Modifier::EXCH, Modifier::Size64}, {URZ()},
                 {Operand::mem(ua, a.offset), word});
      });
  return true;
}

/// arrive / arrive_drop [.expect_tx] and expect_tx / complete_tx.
bool lowerArrive(LowerCtx &ctx, const ptx::Instruction &in) {
  bool drop = in.opcode == "mbarrier.arrive_drop";
  bool expect = in.opcode == "mbarrier.expect_tx", complete = in.opcode == "mbarrier.complete_tx";
  bool txOnly = expect || complete;
  bool expectTx = in.has("expect_tx");
  Order o;
  if (!readOrder(ctx, in, {"expect_tx"}, o))
    return false;
  size_t first = txOnly ? 0 : 1; // the address operand
  if (in.operands.size() < first + 1 || in.operands.size() > first + 2 ||
      (txOnly && in.operands.size() != 2) || (expectTx && in.operands.size() != 3))
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  // The result: a 64-bit register, or `_` (a reduction).
  Operand d;
  if (!txOnly && !in.operands[0].is<ptx::SinkOperand>()) {
    if (!in.operands[0].is<ptx::RegOperand>())
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
    if (d.kind == OperandKind::None)
      return false;
    if (d.cls != RegClass::R || d.width != 2)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  }
  MemAddress a;
  if (!barrierAddress(ctx, in, in.operands[first], a))
    return false;
  Operand src = RZ();
  if (in.operands.size() == first + 2) {
    src = valueReg(ctx, in, in.operands[first + 1]);
    if (src.kind == OperandKind::None)
      return false;
  }
  if (!txOnly && o.cluster && !in.has("relaxed")) {
    // HW: ptxas 13.0 puts these four before arrive.release.cluster.
    ctx.emit(Opcode::MEMBAR, {Modifier::ALL, Modifier::CTA}, {}, {});
    ctx.emit(Opcode::MEMBAR, {Modifier::ALL, Modifier::GPU}, {}, {});
    ctx.emit(Opcode::ERRBAR, {}, {}, {});
    ctx.emit(Opcode::CGAERRBAR, {}, {}, {});
  }
  llvm::SmallVector<Modifier, 4> mods = {Modifier::ARRIVE, Modifier::TRANS64};
  if (d.kind == OperandKind::None)
    mods.push_back(Modifier::RED);
  if (drop)
    mods.push_back(Modifier::OPTOUT);
  if (expect)
    mods.push_back(Modifier::A0TR);
  else if (complete)
    mods.push_back(Modifier::A0TX);
  else if (!expectTx)
    mods.push_back(src.isFixed() ? Modifier::A1T0 : Modifier::ART0);
  ori::Instr &i = ctx.emit(Opcode::SYNCS, {}, {d.kind == OperandKind::None ? RZ() : d},
                           {Operand::mem(a.base, a.offset), src});
  i.mods.assign(mods.begin(), mods.end());
  return true;
}

/// test_wait / try_wait [.parity] p, [a], state|parity [, suspend-time hint].
bool lowerWait(LowerCtx &ctx, const ptx::Instruction &in) {
  bool tryWait = in.opcode == "mbarrier.try_wait";
  bool parity = in.has("parity");
  Order o;
  if (!readOrder(ctx, in, {"parity"}, o))
    return false;
  if (in.operands.size() < 3 || in.operands.size() > (tryWait ? 4u : 3u) ||
      !in.operands[0].is<ptx::RegOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand p = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  if (p.kind == OperandKind::None)
    return false;
  if (p.cls != RegClass::P)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  MemAddress a;
  if (!barrierAddress(ctx, in, in.operands[1], a))
    return false;
  // The phase to test, in bit 31 of a register: the state's high word, or parity << 31.
  Operand phase;
  if (parity) {
    Operand k = ctx.source(in, in.operands[2]);
    if (k.kind == OperandKind::None)
      return false;
    phase = ctx.temp(RegClass::R);
    if (k.kind == OperandKind::Imm)
      ctx.emit(Opcode::MOV, {}, {phase}, {Operand::intImm((k.imm & 1) << 31)});
    else if (k.kind == OperandKind::VReg && k.cls == RegClass::R)
      ctx.emit(Opcode::SHF, {Modifier::L, Modifier::U32}, {phase},
               {k.width == 2 ? component(k, 0) : k, Operand::intImm(31), RZ()});
    else
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  } else {
    Operand st = ctx.source(in, in.operands[2]);
    if (st.kind == OperandKind::None)
      return false;
    if (st.kind != OperandKind::VReg || st.cls != RegClass::R || st.width != 2)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    phase = component(st, 1);
  }
  Operand hint;
  if (in.operands.size() == 4) {
    if (ctx.curGuard.kind != OperandKind::None)
      return ctx.unsupported(in, "A guarded '" + in.fullOpcode() + "' with a suspend-time hint");
    hint = ctx.source(in, in.operands[3]);
    if (hint.kind == OperandKind::None)
      return false;
    if (hint.kind == OperandKind::VReg && hint.width == 2)
      hint = component(hint, 0);
  }
  Operand mem = Operand::mem(a.base, a.offset);
  ori::Instr &w = ctx.emit(Opcode::SYNCS, {Modifier::PHASECHK, Modifier::TRANS64}, {p},
                           {mem, phase});
  if (tryWait)
    w.mods.push_back(Modifier::TRYWAIT);
  if (hint.kind != OperandKind::None) {
    // HW: ptxas 13.0: @!P NANOSLEEP.SYNCS hint; @!P SYNCS.PHASECHK.TRANS64 P, [a], phase.
    Operand notP = p;
    notP.mods |= ori::OM_NOT;
    ctx.emit(Opcode::NANOSLEEP, {Modifier::SYNCS}, {}, {hint}).guard = notP;
    ctx.emit(Opcode::SYNCS, {Modifier::PHASECHK, Modifier::TRANS64}, {p}, {mem, phase}).guard =
        notP;
  }
  if (o.cluster && in.has("acquire")) {
    // HW: ptxas 13.0: `@P CCTL.IVALL` after test_wait.parity.acquire.cluster.
    Operand g = p;
    if (ctx.curGuard.kind == OperandKind::None)
      ctx.emit(Opcode::CCTL, {Modifier::IVALL}, {}, {}).guard = g;
    else
      ctx.emit(Opcode::CCTL, {Modifier::IVALL}, {}, {}); // GUESS: unconditional is safe
  }
  return true;
}

bool lowerInval(LowerCtx &ctx, const ptx::Instruction &in) {
  Order o;
  if (!readOrder(ctx, in, {}, o) || in.operands.size() != 1)
    return in.operands.size() == 1 ? false : ctx.unsupported(in);
  MemAddress a;
  if (!barrierAddress(ctx, in, in.operands[0], a))
    return false;
  ctx.emit(Opcode::SYNCS, {Modifier::CCTL, Modifier::IV}, {},
           {Operand::mem(a.base, a.offset)});
  return true;
}

bool lowerPendingCount(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}))
    return false;
  if (in.operands.size() != 2 || !in.operands[0].is<ptx::RegOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  Operand st = ctx.source(in, in.operands[1]);
  if (d.kind == OperandKind::None || st.kind == OperandKind::None)
    return false;
  if (d.cls != RegClass::R || st.kind != OperandKind::VReg || st.cls != RegClass::R ||
      st.width != 2)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand t = ctx.temp(RegClass::R), c = ctx.temp(RegClass::R);
  ctx.emit(Opcode::SHF, {Modifier::R, Modifier::U32, Modifier::HI}, {t},
           {RZ(), Operand::intImm(11), component(st, 1)});
  ctx.emit(Opcode::LOP3, {Modifier::LUT}, {c},
           {t, Operand::intImm(kCountBase - 1), RZ(), Operand::intImm(0x40), notPT()});
  ctx.emit(Opcode::IADD3, {}, {d.width == 2 ? component(d, 0) : d},
           {negate(c), Operand::intImm(kCountBase), RZ()});
  if (d.width == 2)
    ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {RZ()});
  return true;
}

bool lowerMbarrier(LowerCtx &ctx, const ptx::Instruction &in) {
  if (in.has("noComplete"))
    return ctx.unsupported(in, "Modifier '.noComplete' of '" + in.fullOpcode() + "'");
  if (in.opcode == "mbarrier.init")
    return lowerInit(ctx, in);
  if (in.opcode == "mbarrier.inval")
    return lowerInval(ctx, in);
  if (in.opcode == "mbarrier.test_wait" || in.opcode == "mbarrier.try_wait")
    return lowerWait(ctx, in);
  if (in.opcode == "mbarrier.pending_count")
    return lowerPendingCount(ctx, in);
  return lowerArrive(ctx, in);
}

/// cp.async.mbarrier.arrive[.noinc].shared{::cta}.b64 [a]. HW: ptxas 13.0 (sm_90):
///   (no .noinc)  SYNCS.ARRIVE.TRANS64.RED.A0T1 RZ, [a], RZ   one more pending arrival, then
///                ARRIVES.LDGSTSBAR.64.TRANSCNT [a]           arrive once this thread's
///                                                            cp.async copies are done
///   .noinc       ARRIVES.LDGSTSBAR.64.ARVCNT [a]
bool lowerCpAsyncArrive(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {"noinc"}) || in.operands.size() != 1)
    return in.operands.size() == 1 ? false : ctx.unsupported(in);
  MemAddress a;
  if (!barrierAddress(ctx, in, in.operands[0], a))
    return false;
  Operand mem = Operand::mem(a.base, a.offset);
  bool noinc = in.has("noinc");
  if (!noinc)
    ctx.emit(Opcode::SYNCS, {Modifier::ARRIVE, Modifier::TRANS64, Modifier::RED, Modifier::A0T1},
             {RZ()}, {mem, RZ()});
  ctx.emit(Opcode::ARRIVES,
           {Modifier::LDGSTSBAR, Modifier::Size64, noinc ? Modifier::ARVCNT : Modifier::TRANSCNT},
           {}, {mem});
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"cp.async.mbarrier.arrive", TypeClass::Any, lowerCpAsyncArrive},
    HandlerRow{"mbarrier.init", TypeClass::Any, lowerMbarrier},
    HandlerRow{"mbarrier.inval", TypeClass::Any, lowerMbarrier},
    HandlerRow{"mbarrier.arrive", TypeClass::Any, lowerMbarrier},
    HandlerRow{"mbarrier.arrive_drop", TypeClass::Any, lowerMbarrier},
    HandlerRow{"mbarrier.expect_tx", TypeClass::Any, lowerMbarrier},
    HandlerRow{"mbarrier.complete_tx", TypeClass::Any, lowerMbarrier},
    HandlerRow{"mbarrier.test_wait", TypeClass::Any, lowerMbarrier},
    HandlerRow{"mbarrier.try_wait", TypeClass::Any, lowerMbarrier},
    HandlerRow{"mbarrier.pending_count", TypeClass::Any, lowerMbarrier},
};

} // namespace

std::span<const HandlerRow> mbarrierHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
