//===- frontend/lower/lower_bulk_copy.cpp - cp.async.bulk (sm_90 UBLKCP) ----------------===//
///
/// \file
/// The non-tensor bulk copies, as ptxas 13.0.88 selects them for sm_90 (HW: read off its
/// output with nvdisasm 13.2 on probe kernels):
///   cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [d], [s], n, [mbar]
///       UBLKCP.S.G [URd], [URs], URn    URd:URd+1 = {d, mbar} (shared-window addresses),
///                                       URs a 64-bit pair, URn = n >> 4 (16-byte units)
///   cp.async.bulk.global.shared::cta.bulk_group [d], [s], n
///       UBLKCP.G.S [URd], [URs], URn    URd a 64-bit pair, URs the shared address
///   cp.async.bulk.commit_group          UTMACMDFLUSH
///   cp.async.bulk.wait_group.read N     DEPBAR.LE SB0, N
///   cp.async.bulk.wait_group N          DEPBAR.LE SB0, N; CCTL.IVALL
/// Every thread that executes cp.async.bulk issues its own copy, and UBLKCP takes uniform
/// registers, so ptxas issues it in a loop over the warp's threads:
///       PLOP3.LUT P0 = PT
///   L:  @P0 ELECT P1, URZ, PT                     one of the threads not yet served
///       @P1 R2UR URx, Rx   (each operand)         its operands
///       @P1 PLOP3.LUT P0, PT, P1, PT, PT, 0x8, 0x0   it is served
///       PLOP3.LUT P1, PT, PT, PT, PT, 0x8, 0x0
///       UBLKCP ...
///       @P0 BRA.U.ANY L
/// This lowering builds that loop for both directions (ptxas drops duplicate shared-to-global
/// copies with `R2UR P, UR, R` instead of ELECT; one copy per thread is what PTX asks for and
/// the same bytes land either way). n must be a multiple of 16 (PTX ISA 9.0); the 16-byte
/// count goes unmasked into URn (ptxas keeps its low 16 bits with UPRMT; GUESS: the field is
/// 16 bits wide, so n < 1 MiB here). .L2::cache_hint reads its policy operand and drops it (a
/// hint, as for cp.async). Not selected (an error naming the instruction): .multicast::cluster,
/// shared::cta -> shared::cluster copies, the tensor and reduce forms, prefetch.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_common.h"
#include "frontend/lower/lower_mem.h"

#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;
using ptx::StateSpace;

/// The 64-bit global address as an R pair (offset added).
Operand globalAddressPair(LowerCtx &ctx, const MemAddress &a) {
  if (a.offset == 0)
    return a.base;
  Operand t = ctx.temp(RegClass::R, 2);
  add64Imm(ctx, t, a.base, a.offset);
  return t;
}

} // namespace

Operand sharedAddressReg(LowerCtx &ctx, const MemAddress &a) {
  if (a.base.kind == OperandKind::None || a.base.isFixed()) {
    Operand t = ctx.temp(RegClass::R);
    ctx.emit(Opcode::MOV, {}, {t}, {Operand::intImm(a.offset)});
    return t;
  }
  if (a.offset == 0)
    return a.base;
  Operand t = ctx.temp(RegClass::R);
  ctx.emit(Opcode::IADD3, {}, {t}, {a.base, Operand::intImm(a.offset), RZ()});
  return t;
}

BulkDirection bulkDirection(const ptx::Instruction &in) {
  std::vector<StateSpace> spaces;
  for (const ptx::Modifier &m : in.modifiers)
    if (m.kind == ptx::Modifier::Kind::Space)
      spaces.push_back(m.space);
  if (spaces.size() != 2)
    return BulkDirection::None;
  if (spaces[0] == StateSpace::SharedCluster && spaces[1] == StateSpace::Global)
    return BulkDirection::ToShared;
  if (spaces[0] == StateSpace::Global && spaces[1] == StateSpace::Shared)
    return BulkDirection::ToGlobal;
  return BulkDirection::None;
}

void perThreadUniformLoop(LowerCtx &ctx, llvm::function_ref<void(const R2urFn &)> fetch,
                          llvm::function_ref<void()> issue) {
  // A guarded PTX instruction: the threads whose guard holds are the ones to serve, and the
  // loop itself runs unguarded.
  Operand guard = ctx.curGuard;
  ctx.curGuard = Operand{};
  Operand pending = ctx.temp(RegClass::P), elected = ctx.temp(RegClass::P);
  // PLOP3's second result (its own LUT, 0x0) clears `elected` for every thread: a thread
  // that is not pending never runs the ELECT, and must not hold a stale true from code
  // before; the unguarded write also ends the predicate's live range here, where a
  // guarded ELECT alone would keep it live around every enclosing loop.
  ctx.emit(Opcode::PLOP3, {Modifier::LUT}, {pending, elected},
           {PT(), guard.kind == OperandKind::None ? PT() : guard, PT(), Operand::intImm(0x80),
            Operand::intImm(0)});
  uint32_t loop = ctx.startBlock();
  ctx.emit(Opcode::ELECT, {}, {elected, URZ()}, {PT()}).guard = pending;
  fetch([&](const Operand &d, const Operand &s) {
    ctx.emit(Opcode::R2UR, {}, {d}, {s}).guard = elected;
  });
  ctx.emit(Opcode::PLOP3, {Modifier::LUT}, {pending, PT()},
           {elected, PT(), PT(), Operand::intImm(0x8), Operand::intImm(0)})
      .guard = elected;
  // A guarded PTX instruction may leave no thread of the warp pending: the loop body still
  // runs once, and an unguarded issue would start a copy from a tuple nobody filled. The
  // issue is guarded by "some thread was elected" (`VOTEU.ANY UP, P`, as lower_wgmma.cpp
  // makes a uniform predicate). Unguarded instructions start with every thread pending, so
  // a thread is always elected there (no VOTEU, as in ptxas's code).
  Operand issued;
  if (guard.kind != OperandKind::None) {
    issued = ctx.temp(RegClass::UP);
    ctx.emit(Opcode::VOTEU, {Modifier::ANY}, {URZ(), issued}, {elected});
  }
  ctx.emit(Opcode::PLOP3, {Modifier::LUT}, {elected, PT()},
           {PT(), PT(), PT(), Operand::intImm(0x8), Operand::intImm(0)});
  ctx.curGuard = issued;
  issue();
  ctx.curGuard = Operand{};
  ctx.emit(Opcode::BRA, {Modifier::U, Modifier::ANY}, {}, {Operand::block(loop)}).guard =
      pending;
  ctx.startBlock();
  ctx.curGuard = guard;
}

namespace {

bool lowerBulkCopy(LowerCtx &ctx, const ptx::Instruction &in) {
  const BulkDirection dir = bulkDirection(in);
  const bool toShared = dir == BulkDirection::ToShared, toGlobal = dir == BulkDirection::ToGlobal;
  if (dir == BulkDirection::None)
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, toShared ? std::initializer_list<std::string_view>{
                                            "mbarrier::complete_tx::bytes", "L2::cache_hint"}
                                      : std::initializer_list<std::string_view>{
                                            "bulk_group", "L2::cache_hint"}))
    return false;
  if (toShared != in.has("mbarrier::complete_tx::bytes") || toGlobal != in.has("bulk_group"))
    return ctx.unsupported(in);
  std::vector<ptx::Operand> ops = in.operands;
  if (in.has("L2::cache_hint")) {
    if (ops.empty() || ctx.source(in, ops.back()).kind == OperandKind::None)
      return ops.empty() ? ctx.unsupported(in) : false;
    ops.pop_back();
  }
  if (ops.size() != (toShared ? 4u : 3u))
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  // Operands, in registers, before the loop (unguarded; the loop serves the threads whose
  // guard holds).
  Operand guard = ctx.curGuard;
  ctx.curGuard = Operand{};
  MemAddress dst, src;
  if (!memAddress(ctx, in, ops[0], toShared ? StateSpace::Shared : StateSpace::Global, dst) ||
      !memAddress(ctx, in, ops[1], toShared ? StateSpace::Global : StateSpace::Shared, src))
    return false;
  Operand dR = toShared ? sharedAddressReg(ctx, dst) : globalAddressPair(ctx, dst);
  Operand sR = toShared ? globalAddressPair(ctx, src) : sharedAddressReg(ctx, src);
  Operand barR;
  if (toShared) {
    MemAddress bar;
    if (!memAddress(ctx, in, ops[3], StateSpace::Shared, bar))
      return false;
    barR = sharedAddressReg(ctx, bar);
  }
  Operand n = ctx.source(in, ops[2]);
  if (n.kind == OperandKind::None)
    return false;
  Operand units; // n / 16, in an R register (uniform after R2UR) or as an immediate
  if (n.kind == OperandKind::Imm) {
    if (n.imm <= 0 || n.imm % 16 != 0 || n.imm >= (1 << 20))
      return ctx.unsupported(in, "A size that is not a multiple of 16 below 1 MiB in '" +
                                     in.fullOpcode() + "'");
    units = Operand::intImm(n.imm >> 4);
  } else if (n.kind == OperandKind::VReg && n.cls == RegClass::R) {
    units = ctx.temp(RegClass::R);
    ctx.emit(Opcode::SHF, {Modifier::R, Modifier::U32, Modifier::HI}, {units},
             {RZ(), Operand::intImm(4), n.width == 2 ? component(n, 0) : n});
  } else {
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  }
  Operand uDst = ctx.temp(RegClass::UR, 2), uSrc = ctx.temp(RegClass::UR, toShared ? 2 : 1);
  Operand uN = ctx.temp(RegClass::UR);
  ctx.curGuard = guard;
  perThreadUniformLoop(
      ctx,
      [&](const R2urFn &r2ur) {
        if (toShared) {
          r2ur(component(uDst, 0), dR);
          r2ur(component(uDst, 1), barR);
          r2ur(component(uSrc, 0), component(sR, 0));
          r2ur(component(uSrc, 1), component(sR, 1));
        } else {
          r2ur(component(uDst, 0), component(dR, 0));
          r2ur(component(uDst, 1), component(dR, 1));
          r2ur(uSrc, sR);
        }
        if (units.kind == OperandKind::Imm)
          ctx.emit(Opcode::UMOV, {}, {uN}, {units});
        else
          r2ur(uN, units);
      },
      [&] {
        ctx.emit(Opcode::UBLKCP,
                 {toShared ? Modifier::S : Modifier::G, toShared ? Modifier::G : Modifier::S},
                 {}, {Operand::mem(uDst, 0), Operand::mem(uSrc, 0), uN});
      });
  return true;
}

bool lowerBulkCommit(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}) || !in.operands.empty())
    return in.operands.empty() ? false : ctx.unsupported(in);
  ctx.emit(Opcode::UTMACMDFLUSH, {}, {}, {});
  return true;
}

bool lowerBulkWait(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {"read"}))
    return false;
  if (in.operands.size() != 1 || !in.operands[0].is<ptx::ImmOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  int64_t n = in.operands[0].as<ptx::ImmOperand>().value;
  if (n < 0 || n > 63) // DEPBAR's count field is 6 bits (I@38/6)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  ctx.emit(Opcode::DEPBAR, {Modifier::LE}, {},
           {Operand::sreg(ori::SpecialReg::SB0), Operand::intImm(n)});
  if (!in.has("read"))
    ctx.emit(Opcode::CCTL, {Modifier::IVALL}, {}, {});
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"cp.async.bulk", TypeClass::Any, lowerBulkCopy},
    HandlerRow{"cp.async.bulk.commit_group", TypeClass::Any, lowerBulkCommit},
    HandlerRow{"cp.async.bulk.wait_group", TypeClass::Any, lowerBulkWait},
};

} // namespace

std::span<const HandlerRow> bulkCopyHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
