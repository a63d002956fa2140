//===- frontend/lower/lower_tensor_copy.cpp - cp.async.bulk.tensor tile (TMA) -----------===//
///
/// \file
/// The tile-mode tensor copies (TMA), as ptxas 13.0.88 selects them for sm_90a (HW: read off
/// its output with nvdisasm 13.2, one probe kernel per dimension 1..5):
///   cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes
///       [d], [tmap, {c0..cN-1}], [mbar]
///       UTMALDG.ND [URt], [URm]      URt.. = {d, mbar, c0, .., cN-1}: a tuple of 2 + N
///                                    uniform registers (ptxas puts it at UR4 for N <= 2 and
///                                    UR8 above: 4- and 8-aligned), URm:URm+1 = tmap (a
///                                    generic address of the descriptor, cvta.param)
///   cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group [tmap, {c0..}], [s]
///       UTMASTG.ND [URt], [URm]      URt.. = {s, c0, .., cN-1}
/// Like cp.async.bulk (lower_bulk_copy.cpp) every executing thread issues its own copy: the
/// same ELECT loop moves each thread's operands into the tuple (ptxas dedupes the stores by
/// value with `R2UR.OR P`; one store per thread writes the same bytes). The tuple is a group
/// of 4 uniform registers when it needs at most 4 (1-2D loads, 1-3D stores), else of 8
/// (3-5D loads, 4-5D stores and reductions: 5 to 7 registers; HW: ptxas 13.0 places these at
/// UR8/UR16/UR24/UR32, 8-aligned, probed with one kernel per form); the unused tail holds
/// nothing and the allocator leaves it to other values (regalloc/live_intervals.cpp).
///   cp.reduce.async.bulk.tensor.Nd.global.shared::cta.OP.tile.bulk_group [tmap, {c..}], [s]
///       UTMAREDG.ND.OP [URt], [URm]  URt.. = {s, c0, .., cN-1}, as UTMASTG; OP one of
///                                    add/min/max/inc/dec/and/or/xor (HW: .ADD, .MIN, .AND,
///                                    .DEC probed; the others by the encoding table's names)
/// Completion: the loaded bytes complete transactions on the mbarrier; stores join the bulk
/// group (cp.async.bulk.commit_group / wait_group). The emulator does not model TMA (the
/// descriptor's format is not documented; tests/exec/README.md), so only compilation is
/// tested. .L2::cache_hint reads its policy and drops it (ptxas passes it as desc[UR]: the
/// copy is the same without it). .multicast::cluster: UTMALDG.ND.MULTICAST [URt], [URm], URmask
/// (the 16-bit CTA mask). Also prefetch.tensormap (UTMACCTL.PF). Not selected (an error
/// naming the instruction): .im2col (UTMALDG.ND.IM2COL with the offsets in a
/// UR, not used by the corpus), cp.async.bulk.prefetch.tensor.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_common.h"
#include "frontend/lower/lower_mem.h"

#include <array>
#include <optional>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;
using ptx::StateSpace;

/// The dimension words and their SASS modifiers.
constexpr std::array<std::pair<std::string_view, Modifier>, 5> kDims = {{
    {"1d", Modifier::Dim1D},
    {"2d", Modifier::Dim2D},
    {"3d", Modifier::Dim3D},
    {"4d", Modifier::Dim4D},
    {"5d", Modifier::Dim5D},
}};


/// `[tmap, {c0, ..}]`: the descriptor's 64-bit address and the coordinates, in registers.
bool tensorOperand(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &op,
                   unsigned dims, Operand &tmap, std::vector<Operand> &coords) {
  auto form = [&] {
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  };
  if (!op.is<ptx::AddressOperand>())
    return form();
  const auto &a = op.as<ptx::AddressOperand>();
  if (a.baseKind != ptx::AddressOperand::BaseKind::Register || a.offset != 0 ||
      a.extra.size() != 1 || !a.extra[0].is<ptx::VectorOperand>())
    return form();
  tmap = ctx.reg(in, a.base);
  if (tmap.kind == OperandKind::None)
    return false;
  if (tmap.cls != RegClass::R || tmap.width != 2)
    return form();
  const auto &v = a.extra[0].as<ptx::VectorOperand>();
  if (v.elems.size() != dims)
    return form();
  for (const auto &e : v.elems) {
    Operand c = ctx.source(in, e);
    if (c.kind == OperandKind::None)
      return false;
    if (c.kind == OperandKind::Imm) {
      Operand t = ctx.temp(RegClass::R);
      ctx.emit(Opcode::MOV, {}, {t}, {c});
      c = t;
    }
    if (c.kind != OperandKind::VReg || c.cls != RegClass::R || c.width != 1)
      return form();
    coords.push_back(c);
  }
  return true;
}

/// The reduction words of cp.reduce.async.bulk.tensor and UTMAREDG's modifiers.
constexpr std::array<std::pair<std::string_view, Modifier>, 8> kReductions = {{
    {"add", Modifier::ADD},
    {"min", Modifier::MIN},
    {"max", Modifier::MAX},
    {"inc", Modifier::INC},
    {"dec", Modifier::DEC},
    {"and", Modifier::AND},
    {"or", Modifier::OR},
    {"xor", Modifier::XOR},
}};

bool lowerTensorCopy(LowerCtx &ctx, const ptx::Instruction &in) {
  const BulkDirection dir = bulkDirection(in);
  const bool load = dir == BulkDirection::ToShared, store = dir == BulkDirection::ToGlobal;
  if (dir == BulkDirection::None)
    return ctx.unsupported(in);
  // cp.reduce.async.bulk.tensor: a store that combines (UTMAREDG).
  const bool reduce = in.opcode.starts_with("cp.reduce");
  std::optional<Modifier> redMod;
  std::string_view redWord;
  if (reduce) {
    if (!store)
      return ctx.unsupported(in);
    for (const auto &[word, mod] : kReductions)
      if (in.has(word))
        redWord = word, redMod = mod;
    if (!redMod)
      return ctx.unsupported(in);
  }
  unsigned dims = 0;
  Modifier dimMod = Modifier::Dim1D;
  for (unsigned k = 0; k < kDims.size(); ++k)
    if (in.has(kDims[k].first))
      dims = k + 1, dimMod = kDims[k].second;
  if (!dims) // .tile is the default mode; .im2col is refused by the modifier check below
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"1d", "2d", "3d", "4d", "5d", "tile",
                              load ? "mbarrier::complete_tx::bytes" : "bulk_group",
                              "L2::cache_hint", load ? "multicast::cluster" : "tile",
                              reduce ? redWord : "tile"}))
    return false;
  bool multicast = in.has("multicast::cluster");
  if (load != in.has("mbarrier::complete_tx::bytes") || store != in.has("bulk_group"))
    return ctx.unsupported(in);
  std::vector<ptx::Operand> ops = in.operands;
  if (in.has("L2::cache_hint")) {
    if (ops.empty() || ctx.source(in, ops.back()).kind == OperandKind::None)
      return ops.empty() ? ctx.unsupported(in) : false;
    ops.pop_back();
  }
  if (ops.size() != (load ? 3u : 2u) + (multicast ? 1u : 0u))
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand guard = ctx.curGuard;
  ctx.curGuard = Operand{};
  Operand tmap;
  std::vector<Operand> coords;
  std::vector<Operand> tupleSrc; // the R values of the tuple, in order
  Operand mask;                  // .multicast::cluster: the CTA mask
  if (load) {
    MemAddress d, bar;
    if (!memAddress(ctx, in, ops[0], StateSpace::Shared, d) ||
        !tensorOperand(ctx, in, ops[1], dims, tmap, coords) ||
        !memAddress(ctx, in, ops[2], StateSpace::Shared, bar))
      return false;
    tupleSrc = {sharedAddressReg(ctx, d), sharedAddressReg(ctx, bar)};
    if (multicast) {
      // The 16-bit CTA mask (HW: ptxas 13.0 zero-extends it, PRMT R, RZ, 0x5410, R).
      Operand m = ctx.source(in, ops[3]);
      if (m.kind == OperandKind::None)
        return false;
      mask = ctx.temp(RegClass::R);
      if (m.kind == OperandKind::Imm)
        ctx.emit(Opcode::MOV, {}, {mask}, {Operand::intImm(m.imm & 0xffff)});
      else if (m.kind == OperandKind::VReg && m.cls == RegClass::R)
        ctx.emit(Opcode::PRMT, {}, {mask},
                 {RZ(), Operand::intImm(0x5410), m.width == 2 ? component(m, 0) : m});
      else
        return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    }
  } else {
    MemAddress s;
    if (!tensorOperand(ctx, in, ops[0], dims, tmap, coords) ||
        !memAddress(ctx, in, ops[1], StateSpace::Shared, s))
      return false;
    tupleSrc = {sharedAddressReg(ctx, s)};
  }
  tupleSrc.insert(tupleSrc.end(), coords.begin(), coords.end());
  uint8_t width = tupleSrc.size() > 4 ? 8 : 4;
  Operand tuple = ctx.temp(RegClass::UR, width), uMap = ctx.temp(RegClass::UR, 2);
  Operand uMask = multicast ? ctx.temp(RegClass::UR) : Operand{};
  ctx.curGuard = guard;
  perThreadUniformLoop(
      ctx,
      [&](const R2urFn &r2ur) {
        for (unsigned k = 0; k < tupleSrc.size(); ++k)
          r2ur(component(tuple, k), tupleSrc[k]);
        r2ur(component(uMap, 0), component(tmap, 0));
        r2ur(component(uMap, 1), component(tmap, 1));
        if (multicast)
          r2ur(uMask, mask);
      },
      [&] {
        Opcode op = load ? Opcode::UTMALDG : reduce ? Opcode::UTMAREDG : Opcode::UTMASTG;
        ori::Instr &i = ctx.emit(op, {dimMod}, {}, {Operand::mem(tuple, 0), Operand::mem(uMap, 0)});
        if (reduce)
          i.mods.push_back(*redMod);
        if (multicast) {
          i.mods.push_back(Modifier::MULTICAST);
          i.addUse(uMask);
        }
      });
  return true;
}

} // namespace

/// prefetch.tensormap [a]: UTMACCTL.PF [URa] for each executing thread's descriptor address
/// (HW: ptxas 13.0 emits one UTMACCTL.PF where the address is uniform; a prefetch is a hint,
/// the loop only serves every thread's address).
bool lowerPrefetchTensormap(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {"tensormap"}))
    return false;
  if (in.space() != StateSpace::None && in.space() != StateSpace::Param &&
      in.space() != StateSpace::Const)
    return ctx.unsupported(in);
  if (in.space() != StateSpace::None)
    return ctx.unsupported(in, "A .param/.const address in '" + in.fullOpcode() + "'");
  if (in.operands.size() != 1)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand guard = ctx.curGuard;
  ctx.curGuard = Operand{};
  MemAddress a;
  if (!memAddress(ctx, in, in.operands[0], StateSpace::Global, a))
    return false;
  Operand addr = a.base;
  if (a.offset != 0) {
    addr = ctx.temp(RegClass::R, 2);
    add64Imm(ctx, addr, a.base, a.offset);
  }
  Operand u = ctx.temp(RegClass::UR, 2);
  ctx.curGuard = guard;
  perThreadUniformLoop(
      ctx,
      [&](const R2urFn &r2ur) {
        r2ur(component(u, 0), component(addr, 0));
        r2ur(component(u, 1), component(addr, 1));
      },
      [&] { ctx.emit(Opcode::UTMACCTL, {Modifier::PF}, {}, {Operand::mem(u, 0)}); });
  return true;
}

namespace {

constexpr std::array kRows = {
    HandlerRow{"cp.async.bulk.tensor", TypeClass::Any, lowerTensorCopy},
    HandlerRow{"cp.reduce.async.bulk.tensor", TypeClass::Any, lowerTensorCopy},
};

} // namespace

std::span<const HandlerRow> tensorCopyHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
