//===- frontend/lower/lower_sync.cpp - CTA barriers, memory barriers and fences ----------===//
///
/// \file
/// Instruction selection for bar / barrier and membar / fence, as ptxas selects them for
/// sm_90 (HW: read off ptxas 13.0.88 output with nvdisasm 13.2; see the tables below):
///   bar.sync a[, b], barrier.sync[.aligned] a[, b]   BAR.SYNC.DEFER_BLOCKING a[, b]
///   bar.arrive a, b, barrier.arrive[.aligned] a, b   BAR.ARV a, b
///   bar.red.popc.u32 d, a[, b], {!}c                 BAR.RED.POPC.DEFER_BLOCKING a[, b], c ;
///                                                    B2R.RESULT d
///   bar.red.{and,or}.pred p, a[, b], {!}c            BAR.RED.{AND,OR}.DEFER_BLOCKING a[, b], c ;
///                                                    B2R.RESULT RZ, p
/// The barrier id and the thread count are immediates or registers; a register id with a
/// register count is packed into one register, `count << 16 | id & 0xf`, and named twice
/// (`BAR.SYNC.DEFER_BLOCKING R4, R4`), as ptxas does. The aligned forms (bar.*, barrier.*
/// .aligned) require the whole warp: they are preceded by `WARPSYNC 0xffffffff`, which phase
/// InsertReconvergence drops where the warp is provably converged (ptxas -O3 emits none in
/// converged code, -O0 a WARPSYNC.ALL before each). The non-aligned barrier.* forms let the
/// threads of a warp arrive at different instructions, so they get none.
/// membar / fence: the kMemoryFences table. barrier.cluster: lowerClusterBarrier.
///   griddepcontrol.wait                               ACQBULK
///   griddepcontrol.launch_dependents                  PREEXIT
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"

#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;

bool operandForm(LowerCtx &ctx, const ptx::Instruction &in) {
  return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
}

/// An id or count operand: the immediate when known, else the register.
Operand idOrCount(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &o) {
  if (std::optional<int64_t> v = ctx.knownConstant(o))
    return Operand::intImm(*v);
  return ctx.source(in, o);
}

bool lowerBarrier(LowerCtx &ctx, const ptx::Instruction &in) {
  bool isSync = in.has("sync"), isArrive = in.has("arrive"), isRed = in.has("red");
  if (isSync + isArrive + isRed != 1)
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"sync", "arrive", "red", "cta", "aligned", "popc", "and", "or"}))
    return false;
  // `bar` is always aligned; `barrier` only with .aligned.
  bool aligned = in.opcode == "bar" || in.has("aligned");
  unsigned first = isRed ? 1 : 0; // bar.red's destination comes first
  unsigned nops = static_cast<unsigned>(in.operands.size()) - first - (isRed ? 1 : 0);
  if (in.operands.size() < first + 1 || nops < 1 || nops > 2 || (isArrive && nops != 2))
    return operandForm(ctx, in);
  Operand id = idOrCount(ctx, in, in.operands[first]);
  Operand count = nops == 2 ? idOrCount(ctx, in, in.operands[first + 1]) : Operand{};
  if (id.kind == ori::OperandKind::None || (nops == 2 && count.kind == ori::OperandKind::None))
    return false;
  // HW: the id field is 4 bits and the count field 12 bits in the immediate forms.
  if ((id.kind == ori::OperandKind::Imm && (id.imm < 0 || id.imm > 15)) ||
      (count.kind == ori::OperandKind::Imm && (count.imm <= 0 || count.imm > 0xfff)))
    return operandForm(ctx, in);

  Operand d, pred;
  ori::Modifier redOp = Modifier::POPC;
  if (isRed) {
    bool popc = in.has("popc");
    if (popc + in.has("and") + in.has("or") != 1)
      return ctx.unsupported(in);
    redOp = popc ? Modifier::POPC : in.has("and") ? Modifier::AND : Modifier::OR;
    if (!in.operands[0].is<ptx::RegOperand>())
      return operandForm(ctx, in);
    d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
    const ptx::Operand &c = in.operands.back();
    pred = c.is<ptx::ImmOperand>() ? (c.as<ptx::ImmOperand>().value ? PT() : notPT())
                                   : ctx.source(in, c);
    if (d.kind == ori::OperandKind::None || pred.kind == ori::OperandKind::None)
      return false;
    if (pred.cls != RegClass::P || (d.cls == RegClass::P) == popc)
      return operandForm(ctx, in);
    // HW: only immediate ids and counts have been seen on BAR.RED (forms 0xb1d).
    if (id.kind != ori::OperandKind::Imm ||
        (count.kind != ori::OperandKind::None && count.kind != ori::OperandKind::Imm))
      return ctx.unsupported(in, "A register barrier id or thread count in '" +
                                     in.fullOpcode() + "'");
  }
  if (id.kind == ori::OperandKind::VReg && count.kind == ori::OperandKind::VReg) {
    // HW: ptxas packs both: SHF.L.U32 t, count, 0x10, RZ; LOP3.LUT t, t, 0xf, id, 0xf8, !PT.
    Operand t = ctx.temp(RegClass::R);
    ctx.emit(Opcode::SHF, {Modifier::L, Modifier::U32}, {t}, {count, Operand::intImm(16), RZ()});
    Operand u = ctx.temp(RegClass::R);
    ctx.emit(Opcode::LOP3, {Modifier::LUT}, {u},
             {t, Operand::intImm(0xf), id, Operand::intImm(0xf8), notPT()});
    id = count = u;
  }
  if (aligned)
    ctx.emit(Opcode::WARPSYNC, {}, {}, {Operand::intImm(0xffffffffu)});
  ori::Instr &bar = ctx.emit(Opcode::BAR, {}, {}, {id});
  if (isSync)
    bar.mods = {Modifier::SYNC, Modifier::DEFER_BLOCKING};
  else if (isArrive)
    bar.mods = {Modifier::ARV};
  else
    bar.mods = {Modifier::RED, redOp, Modifier::DEFER_BLOCKING};
  if (count.kind != ori::OperandKind::None)
    bar.addUse(count);
  if (isRed) {
    bar.addUse(pred);
    if (redOp == Modifier::POPC)
      ctx.emit(Opcode::B2R, {Modifier::RESULT}, {d}, {});
    else
      ctx.emit(Opcode::B2R, {Modifier::RESULT}, {RZ(), d}, {});
  }
  return true;
}

/// One memory fence: the PTX semantics and scope it matches, and the SASS sequence.
/// HW: ptxas 13.0.88, sm_90, one probe kernel per form (`st; fence; st`):
///   MEMBAR.ALL.CTA is always followed by a NOP; the gpu and sys scopes add ERRBAR;
///   CGAERRBAR; CCTL.IVALL; the cluster scope is compiled as gpu.
struct FenceRow {
  std::string_view sem;   ///< "sc", "acq_rel" ("" for membar)
  std::string_view scope; ///< "cta", "gpu", "sys", "cluster", "gl"
  bool sc;                ///< MEMBAR.SC (else MEMBAR.ALL)
  Modifier sassScope;     ///< CTA, GPU, SYS
  bool errbar;            ///< ERRBAR; CGAERRBAR; CCTL.IVALL after the MEMBAR
  bool nop;               ///< NOP after the MEMBAR
};
constexpr std::array kMemoryFences = {
    FenceRow{"", "cta", true, Modifier::CTA, false, false},
    FenceRow{"", "gl", true, Modifier::GPU, true, false},
    FenceRow{"", "sys", true, Modifier::SYS, true, false},
    FenceRow{"sc", "cta", true, Modifier::CTA, false, false},
    FenceRow{"sc", "gpu", true, Modifier::GPU, true, false},
    FenceRow{"sc", "cluster", true, Modifier::GPU, true, false},
    FenceRow{"sc", "sys", true, Modifier::SYS, true, false},
    FenceRow{"acq_rel", "cta", false, Modifier::CTA, false, true},
    FenceRow{"acq_rel", "gpu", false, Modifier::GPU, true, false},
    FenceRow{"acq_rel", "cluster", false, Modifier::GPU, true, false},
    FenceRow{"acq_rel", "sys", false, Modifier::SYS, true, false},
};

void emitFence(LowerCtx &ctx, const FenceRow &r) {
  ctx.emit(Opcode::MEMBAR, {r.sc ? Modifier::SC : Modifier::ALL, r.sassScope}, {}, {});
  if (r.nop)
    ctx.emit(Opcode::NOP, {}, {}, {});
  if (r.errbar) {
    ctx.emit(Opcode::ERRBAR, {}, {}, {});
    ctx.emit(Opcode::CGAERRBAR, {}, {}, {});
    ctx.emit(Opcode::CCTL, {Modifier::IVALL}, {}, {});
  }
}

bool lowerMembar(LowerCtx &ctx, const ptx::Instruction &in) {
  for (const FenceRow &r : kMemoryFences)
    if (r.sem.empty() && in.has(r.scope)) {
      if (!ctx.onlyModifiers(in, {r.scope}))
        return false;
      emitFence(ctx, r);
      return true;
    }
  return ctx.unsupported(in);
}

bool lowerFence(LowerCtx &ctx, const ptx::Instruction &in) {
  // HW: ptxas 13.0 (sm_90) compiles fence.proxy.tensormap::generic.release.gpu to
  // MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR (and fence.mbarrier_init.release.cluster to a NOP, which
  // the front end does not accept yet).
  if (in.has("tensormap::generic")) {
    if (!in.has("release") || !in.has("gpu") || !in.operands.empty() ||
        !ctx.onlyModifiers(in, {"proxy", "tensormap::generic", "release", "gpu"}))
      return ctx.unsupported(in);
    ctx.emit(Opcode::MEMBAR, {Modifier::ALL, Modifier::GPU}, {}, {});
    ctx.emit(Opcode::ERRBAR, {}, {}, {});
    ctx.emit(Opcode::CGAERRBAR, {}, {}, {});
    return true;
  }
  if (in.has("mbarrier_init")) {
    // HW: ptxas 13.0 (sm_90a) emits a NOP for fence.mbarrier_init.release.cluster.
    if (!in.has("release") || !in.has("cluster") || !in.operands.empty() ||
        !ctx.onlyModifiers(in, {"mbarrier_init", "release", "cluster"}))
      return ctx.unsupported(in);
    ctx.emit(Opcode::NOP, {}, {}, {});
    return true;
  }
  if (in.has("proxy")) {
    // HW: fence.proxy.async[.shared::cluster] = MEMBAR.ALL.GPU; FENCE.VIEW.ASYNC.S,
    // .shared::cta = MEMBAR.ALL.CTA; FENCE.VIEW.ASYNC.S, .global = FENCE.VIEW.ASYNC.G.
    if (!in.has("async"))
      return ctx.unsupported(in);
    if (!ctx.onlyModifiers(in, {"proxy", "async", "global", "shared::cta", "shared::cluster"}))
      return false;
    if (in.has("global") || in.space() == ptx::StateSpace::Global) {
      ctx.emit(Opcode::FENCE, {Modifier::VIEW, Modifier::ASYNC, Modifier::G}, {}, {});
      return true;
    }
    bool cta = in.has("shared::cta");
    ctx.emit(Opcode::MEMBAR, {Modifier::ALL, cta ? Modifier::CTA : Modifier::GPU}, {}, {});
    ctx.emit(Opcode::FENCE, {Modifier::VIEW, Modifier::ASYNC, Modifier::S}, {}, {});
    return true;
  }
  // fence.{sc,acq_rel}.scope; a missing semantics is acq_rel (PTX ISA "fence").
  std::string_view sem = in.has("sc") ? "sc" : "acq_rel";
  for (const FenceRow &r : kMemoryFences)
    if (r.sem == sem && in.has(r.scope)) {
      if (!ctx.onlyModifiers(in, {r.sem, r.scope}))
        return false;
      emitFence(ctx, r);
      return true;
    }
  return ctx.unsupported(in);
}

/// Programmatic dependent launch. HW: ptxas 13.0 (sm_90) emits `griddepcontrol.wait` as
/// ACQBULK and `griddepcontrol.launch_dependents` as PREEXIT, in place (nvdisasm 13.2).
bool lowerGridDepControl(LowerCtx &ctx, const ptx::Instruction &in) {
  bool wait = in.has("wait"), launch = in.has("launch_dependents");
  if (wait == launch || !in.operands.empty())
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"wait", "launch_dependents"}))
    return false;
  ctx.emit(wait ? Opcode::ACQBULK : Opcode::PREEXIT, {}, {}, {});
  return true;
}

/// barrier.cluster.arrive[.release|.relaxed][.aligned] / barrier.cluster.wait[.acquire][.aligned]
/// HW: ptxas 13.0 (sm_90) tests %is_explicit_cluster (c[0x0][0x140] == 1) around them:
///   arrive:  @!p BRA skip; MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; UCGABAR_ARV; skip:
///            (.relaxed: UCGABAR_ARV alone)
///   wait:    @!p BRA cta; UCGABAR_WAIT; CCTL.IVALL; BRA done; cta: BAR.SYNC 0x0; done:
///            (a CTA outside an explicit cluster is a cluster of one: the CTA barrier)
/// The aligned forms get the full-mask WARPSYNC marker, as bar.sync does.
bool lowerClusterBarrier(LowerCtx &ctx, const ptx::Instruction &in) {
  bool arrive = in.has("arrive"), wait = in.has("wait");
  if (arrive == wait || !in.operands.empty())
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"arrive", "wait", "aligned", "release", "relaxed", "acquire"}))
    return false;
  if (ctx.curGuard.kind != ori::OperandKind::None)
    return ctx.unsupported(in, "A guarded '" + in.fullOpcode() + "'");
  if (in.has("aligned"))
    ctx.emit(Opcode::WARPSYNC, {}, {}, {Operand::intImm(0xffffffffu)});
  // A kernel declared with a cluster (.explicitcluster, .reqnctapercluster) always runs in
  // one: only the cluster code. HW: ptxas 13.0 on such a kernel emits MEMBAR.ALL.GPU; ERRBAR;
  // CGAERRBAR; UCGABAR_ARV and UCGABAR_WAIT with no test and no CTA barrier (and so no
  // EIATTR_NUM_BARRIERS; corpus cluster_dims.nvcc.ptx).
  if (ctx.pfn.isEntry && (ctx.pfn.attr("explicitcluster") || ctx.pfn.attr("reqnctapercluster"))) {
    if (arrive) {
      if (!in.has("relaxed")) {
        ctx.emit(Opcode::MEMBAR, {Modifier::ALL, Modifier::GPU}, {}, {});
        ctx.emit(Opcode::ERRBAR, {}, {}, {});
        ctx.emit(Opcode::CGAERRBAR, {}, {}, {});
      }
      ctx.emit(Opcode::UCGABAR_ARV, {}, {}, {});
    } else {
      ctx.emit(Opcode::UCGABAR_WAIT, {}, {}, {});
      ctx.emit(Opcode::CCTL, {Modifier::IVALL}, {}, {});
    }
    return true;
  }
  const SpecialRegRead *explicitCluster = ctx.target.specialReg("%is_explicit_cluster");
  if (!explicitCluster)
    return ctx.unsupported(in);
  Operand t = ctx.temp(RegClass::R);
  ctx.emit(Opcode::LDC, {}, {t}, {Operand::cbank(0, explicitCluster->a)});
  Operand p = ctx.temp(RegClass::P);
  ctx.emit(Opcode::ISETP, {Modifier::EQ, Modifier::U32, Modifier::AND}, {p, PT()},
           {t, Operand::intImm(1), PT()});
  // @!p BRA <other>; cluster code; [BRA done;] other: [CTA code;] done:
  Operand notP = p;
  notP.mods |= ori::OM_NOT;
  ctx.curGuard = notP;
  ctx.emit(Opcode::BRA, {}, {}, {Operand::block(0)});
  ctx.curGuard = {};
  uint32_t braBlock = ctx.curBlock;
  ctx.startBlock();
  if (arrive) {
    if (!in.has("relaxed")) {
      ctx.emit(Opcode::MEMBAR, {Modifier::ALL, Modifier::GPU}, {}, {});
      ctx.emit(Opcode::ERRBAR, {}, {}, {});
      ctx.emit(Opcode::CGAERRBAR, {}, {}, {});
    }
    ctx.emit(Opcode::UCGABAR_ARV, {}, {}, {});
    uint32_t next = ctx.startBlock();
    ctx.fn().blocks[braBlock].instrs.back().uses()[0] = Operand::block(next);
    return true;
  }
  ctx.emit(Opcode::UCGABAR_WAIT, {}, {}, {});
  ctx.emit(Opcode::CCTL, {Modifier::IVALL}, {}, {});
  ori::Instr &toDone = ctx.emit(Opcode::BRA, {}, {}, {Operand::block(0)});
  (void)toDone;
  uint32_t clusterBlock = ctx.curBlock;
  uint32_t cta = ctx.startBlock();
  ctx.fn().blocks[braBlock].instrs.back().uses()[0] = Operand::block(cta);
  ctx.emit(Opcode::BAR, {Modifier::SYNC, Modifier::DEFER_BLOCKING}, {}, {Operand::intImm(0)});
  uint32_t done = ctx.startBlock();
  ctx.fn().blocks[clusterBlock].instrs.back().uses()[0] = Operand::block(done);
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"bar", TypeClass::Any, lowerBarrier},
    HandlerRow{"barrier", TypeClass::Any, lowerBarrier},
    HandlerRow{"membar", TypeClass::Any, lowerMembar},
    HandlerRow{"fence", TypeClass::Any, lowerFence},
    HandlerRow{"barrier.cluster", TypeClass::Any, lowerClusterBarrier},
    HandlerRow{"griddepcontrol", TypeClass::Any, lowerGridDepControl},
};

} // namespace

std::span<const HandlerRow> syncHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
