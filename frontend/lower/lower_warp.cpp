//===- frontend/lower/lower_warp.cpp - warp-level instructions ---------------------------===//
///
/// \file
/// Instruction selection for the warp-synchronous PTX instructions, as ptxas selects them
/// for sm_90 (HW: forms read off ptxas 13.0.88 output with nvdisasm 13.2, one probe kernel
/// per instruction at -O3):
///   shfl.sync.m.b32 d[|p], a, b, c, mask   SHFL.M p|PT, d, a, b, c   (b, c immediates when known,
///                                          RZ when 0)
///   vote.sync.ballot.b32 d, q, mask        VOTE.ANY d, PT, q
///   vote.sync.{all,any,uni}.pred d, q, m   VOTE.{ALL,ANY,EQ} d, q
///   match.any.sync.b32/.b64 d, a, mask     MATCH.ANY[.U64] d, a
///   match.all.sync.b32/.b64 d[|p], a, m    MATCH.ALL[.U64] p|PT, d, a
///   redux.sync.op.type d, a, mask          REDUX.op[.S32] u, a ; MOV d, u   (u a UR register;
///                                          add->SUM, and->(none), or->OR, xor->XOR, min/max;
///                                          .S32 on signed add/min/max)
///   activemask.b32 d                       VOTE.ANY d, PT, PT
///   elect.sync d|p, 0xffffffff             ELECT p, u, PT ; MOV d, u
///   bar.warp.sync mask                     WARPSYNC mask
/// Every instruction that takes a member mask is preceded by `WARPSYNC mask`: the program
/// point then states which threads must be converged. Phase InsertReconvergence (phases/
/// insert_reconvergence.cpp) removes it where the warp is provably converged (as ptxas does:
/// no WARPSYNC in converged code) and turns a full mask into WARPSYNC.ALL elsewhere.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"

#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;

/// Scans the body for registers written exactly once, by `mov` of an integer immediate.
void collectSingleMovImm(const ptx::Block &body, llvm::StringMap<int64_t> &value,
                         llvm::StringMap<unsigned> &defs) {
  for (const ptx::Statement &st : body.statements) {
    if (st.is<ptx::Block>()) {
      collectSingleMovImm(st.as<ptx::Block>(), value, defs);
      continue;
    }
    if (!st.is<ptx::Instruction>())
      continue;
    const ptx::Instruction &in = st.as<ptx::Instruction>();
    // Every register-like destination counts as a definition (the first operand of almost
    // every instruction; `d|p` pairs both). Stores and branches write no register, nor do
    // bar.sync / bar.arrive (`bar.sync %r607, %r608`: the barrier id comes first; cutlass
    // names its barriers so, and NUM_BARRIERS needs the id's value).
    if (in.operands.empty() ||
        ((in.opcode == "bar" || in.opcode == "barrier") && !in.has("red")))
      continue;
    const ptx::Operand &o = in.operands[0];
    auto def = [&](const std::string &name) { ++defs[name]; };
    if (o.is<ptx::RegOperand>()) {
      def(o.as<ptx::RegOperand>().name);
      if (in.opcode == "mov" && !in.guard && in.operands.size() == 2 &&
          in.operands[1].is<ptx::ImmOperand>())
        value[o.as<ptx::RegOperand>().name] = in.operands[1].as<ptx::ImmOperand>().value;
    } else if (o.is<ptx::PairOperand>()) {
      def(o.as<ptx::PairOperand>().first);
      def(o.as<ptx::PairOperand>().second);
    } else if (o.is<ptx::VectorOperand>()) {
      for (const ptx::Operand &e : o.as<ptx::VectorOperand>().elems)
        if (e.is<ptx::RegOperand>())
          def(e.as<ptx::RegOperand>().name);
    }
  }
}

bool operandForm(LowerCtx &ctx, const ptx::Instruction &in) {
  return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
}

/// A destination register operand (kind None after reporting).
Operand dest(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &o) {
  if (!o.is<ptx::RegOperand>()) {
    operandForm(ctx, in);
    return {};
  }
  return ctx.reg(in, o.as<ptx::RegOperand>().name);
}

/// `d` or `d|p`: the register and the predicate (PT when absent).
bool destPair(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &o, Operand &d,
              Operand &p) {
  p = PT();
  if (o.is<ptx::PairOperand>()) {
    d = ctx.reg(in, o.as<ptx::PairOperand>().first);
    p = ctx.reg(in, o.as<ptx::PairOperand>().second);
    return d.kind != ori::OperandKind::None && p.kind != ori::OperandKind::None;
  }
  d = dest(ctx, in, o);
  return d.kind != ori::OperandKind::None;
}

/// A source: the immediate when its value is known, else the register.
Operand constOrReg(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &o) {
  if (std::optional<int64_t> v = ctx.knownConstant(o))
    return Operand::intImm(static_cast<uint32_t>(*v));
  return ctx.source(in, o);
}

/// A source that must be a register: immediates are moved into a fresh one.
Operand regSource(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &o) {
  Operand s = ctx.source(in, o);
  if (s.kind == ori::OperandKind::Imm) {
    Operand r = ctx.temp(RegClass::R);
    ctx.emit(Opcode::MOV, {}, {r}, {s});
    return r;
  }
  return s;
}

/// A predicate source `q` / `!q` (an immediate 0/1 becomes !PT / PT).
Operand predSource(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &o) {
  if (o.is<ptx::ImmOperand>())
    return o.as<ptx::ImmOperand>().value ? PT() : notPT();
  Operand s = ctx.source(in, o);
  if (s.kind != ori::OperandKind::None && s.cls != RegClass::P) {
    operandForm(ctx, in);
    return {};
  }
  return s;
}

/// `WARPSYNC mask` before a warp-synchronous instruction (see the file comment).
bool warpSync(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &mask) {
  Operand m = constOrReg(ctx, in, mask);
  if (m.kind == ori::OperandKind::None)
    return false;
  if (m.kind == ori::OperandKind::Imm)
    m.imm = static_cast<uint32_t>(m.imm);
  ctx.emit(Opcode::WARPSYNC, {}, {}, {m});
  return true;
}

struct ModeRow {
  std::string_view ptx;
  Modifier sass;
};
constexpr std::array kShflModes = {ModeRow{"idx", Modifier::IDX}, ModeRow{"up", Modifier::UP},
                                   ModeRow{"down", Modifier::DOWN},
                                   ModeRow{"bfly", Modifier::BFLY}};

const ModeRow *findMode(const ptx::Instruction &in, std::span<const ModeRow> rows) {
  for (const ModeRow &r : rows)
    if (in.has(r.ptx))
      return &r;
  return nullptr;
}

bool lowerShfl(LowerCtx &ctx, const ptx::Instruction &in) {
  const ModeRow *mode = findMode(in, kShflModes);
  if (!in.has("sync") || !mode || ptx::typeBits(in.type()) != 32)
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"sync", "idx", "up", "down", "bfly"}))
    return false;
  if (in.operands.size() != 5)
    return operandForm(ctx, in);
  Operand d, p;
  if (!destPair(ctx, in, in.operands[0], d, p))
    return false;
  Operand a = regSource(ctx, in, in.operands[1]);
  Operand b = constOrReg(ctx, in, in.operands[2]);
  Operand c = constOrReg(ctx, in, in.operands[3]);
  if (a.kind == ori::OperandKind::None || b.kind == ori::OperandKind::None ||
      c.kind == ori::OperandKind::None)
    return false;
  // HW: the lane field is 5 bits and c 13 bits (clamp | segment mask << 8) in SHFL's
  // immediate forms; bits beyond them are not part of the operation. A zero is RZ, as ptxas
  // writes it (`SHFL.UP P0, R4, R0, 0x1, RZ`, `SHFL.IDX PT, R5, R0, RZ, 0x1f`).
  if (b.kind == ori::OperandKind::Imm)
    b.imm &= 0x1f;
  if (c.kind == ori::OperandKind::Imm)
    c.imm &= 0x1fff;
  for (Operand *o : {&b, &c})
    if (o->kind == ori::OperandKind::Imm && o->imm == 0)
      *o = RZ();
  if (!warpSync(ctx, in, in.operands[4]))
    return false;
  ctx.emit(Opcode::SHFL, {mode->sass}, {p, d}, {a, b, c});
  return true;
}

constexpr std::array kVoteModes = {ModeRow{"all", Modifier::ALL}, ModeRow{"any", Modifier::ANY},
                                   ModeRow{"uni", Modifier::EQ},
                                   ModeRow{"ballot", Modifier::ANY}};

bool lowerVote(LowerCtx &ctx, const ptx::Instruction &in) {
  const ModeRow *mode = findMode(in, kVoteModes);
  if (!in.has("sync") || !mode)
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"sync", "all", "any", "uni", "ballot"}))
    return false;
  if (in.operands.size() != 3)
    return operandForm(ctx, in);
  Operand d = dest(ctx, in, in.operands[0]);
  Operand q = predSource(ctx, in, in.operands[1]);
  if (d.kind == ori::OperandKind::None || q.kind == ori::OperandKind::None)
    return false;
  bool ballot = mode->ptx == "ballot";
  if (ballot != (d.cls == RegClass::R))
    return operandForm(ctx, in);
  if (!warpSync(ctx, in, in.operands[2]))
    return false;
  if (ballot)
    ctx.emit(Opcode::VOTE, {Modifier::ANY}, {d, PT()}, {q});
  else
    ctx.emit(Opcode::VOTE, {mode->sass}, {d}, {q});
  return true;
}

bool lowerMatch(LowerCtx &ctx, const ptx::Instruction &in) {
  bool all = in.has("all");
  unsigned bits = ptx::typeBits(in.type());
  if (!in.has("sync") || (!all && !in.has("any")) || (bits != 32 && bits != 64))
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"sync", "all", "any"}))
    return false;
  if (in.operands.size() != 3)
    return operandForm(ctx, in);
  Operand d, p;
  if (!destPair(ctx, in, in.operands[0], d, p))
    return false;
  if (!all && p != PT())
    return operandForm(ctx, in);
  Operand a = ctx.source(in, in.operands[1]);
  if (a.kind == ori::OperandKind::None)
    return false;
  if (a.kind != ori::OperandKind::VReg || a.width != bits / 32)
    return operandForm(ctx, in);
  if (!warpSync(ctx, in, in.operands[2]))
    return false;
  ori::Instr &m = ctx.emit(Opcode::MATCH, {all ? Modifier::ALL : Modifier::ANY}, {}, {a});
  if (bits == 64)
    m.mods.push_back(Modifier::U64);
  if (all)
    m.addDef(p);
  m.addDef(d);
  return true;
}

struct ReduxRow {
  std::string_view ptx;
  bool hasOp; ///< false: AND, which nvdisasm prints without an operation modifier
  Modifier sass;
};
constexpr std::array kReduxOps = {
    ReduxRow{"add", true, Modifier::SUM}, ReduxRow{"min", true, Modifier::MIN},
    ReduxRow{"max", true, Modifier::MAX}, ReduxRow{"and", false, Modifier::AND},
    ReduxRow{"or", true, Modifier::OR},   ReduxRow{"xor", true, Modifier::XOR},
};

bool lowerRedux(LowerCtx &ctx, const ptx::Instruction &in) {
  const ReduxRow *op = nullptr;
  for (const ReduxRow &r : kReduxOps)
    if (in.has(r.ptx))
      op = &r;
  ptx::ScalarType t = in.type();
  if (!in.has("sync") || !op || ptx::typeBits(t) != 32 ||
      ptx::typeKind(t) == ptx::TypeKind::Float)
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"sync", "add", "min", "max", "and", "or", "xor"}))
    return false;
  if (in.operands.size() != 3)
    return operandForm(ctx, in);
  Operand d = dest(ctx, in, in.operands[0]);
  Operand a = regSource(ctx, in, in.operands[1]);
  if (d.kind == ori::OperandKind::None || a.kind == ori::OperandKind::None)
    return false;
  if (!warpSync(ctx, in, in.operands[2]))
    return false;
  Operand u = ctx.temp(RegClass::UR);
  ori::Instr &r = ctx.emit(Opcode::REDUX, {}, {u}, {a});
  if (op->hasOp)
    r.mods.push_back(op->sass);
  // HW: ptxas writes .S32 for signed add/min/max (REDUX.SUM.S32, REDUX.MAX.S32), nothing for
  // unsigned or bitwise operations.
  if (op->hasOp && op->sass != Modifier::OR && op->sass != Modifier::XOR &&
      ptx::typeKind(t) == ptx::TypeKind::Signed)
    r.mods.push_back(Modifier::S32);
  ctx.emit(Opcode::MOV, {}, {d}, {u});
  return true;
}

bool lowerActivemask(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}))
    return false;
  if (in.operands.size() != 1)
    return operandForm(ctx, in);
  Operand d = dest(ctx, in, in.operands[0]);
  if (d.kind == ori::OperandKind::None)
    return false;
  ctx.emit(Opcode::VOTE, {Modifier::ANY}, {d, PT()}, {PT()});
  return true;
}

bool lowerElect(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {"sync"}))
    return false;
  if (in.operands.size() != 2)
    return operandForm(ctx, in);
  std::optional<int64_t> mask = ctx.knownConstant(in.operands[1]);
  if (!mask || static_cast<uint32_t>(*mask) != 0xffffffffu)
    return ctx.unsupported(in, "A member mask other than 0xffffffff in '" + in.fullOpcode() + "'");
  Operand d, p;
  const ptx::Operand &o = in.operands[0];
  if (o.is<ptx::PairOperand>() && o.as<ptx::PairOperand>().first == "_") {
    d = Operand{};
    p = ctx.reg(in, o.as<ptx::PairOperand>().second);
    if (p.kind == ori::OperandKind::None)
      return false;
  } else if (!destPair(ctx, in, o, d, p)) {
    return false;
  }
  if (!warpSync(ctx, in, in.operands[1]))
    return false;
  Operand u = ctx.temp(RegClass::UR);
  ctx.emit(Opcode::ELECT, {}, {p, u}, {PT()});
  if (d.kind != ori::OperandKind::None)
    ctx.emit(Opcode::MOV, {}, {d}, {u});
  return true;
}

bool lowerBarWarpSync(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}))
    return false;
  if (in.operands.size() != 1)
    return operandForm(ctx, in);
  return warpSync(ctx, in, in.operands[0]);
}

constexpr std::array kRows = {
    HandlerRow{"shfl", TypeClass::Any, lowerShfl},
    HandlerRow{"vote", TypeClass::Any, lowerVote},
    HandlerRow{"match", TypeClass::Any, lowerMatch},
    HandlerRow{"redux", TypeClass::Any, lowerRedux},
    HandlerRow{"activemask", TypeClass::Any, lowerActivemask},
    HandlerRow{"elect", TypeClass::Any, lowerElect},
    HandlerRow{"bar.warp.sync", TypeClass::Any, lowerBarWarpSync},
};

} // namespace

std::optional<int64_t> LowerCtx::knownConstant(const ptx::Operand &op) {
  if (op.is<ptx::ImmOperand>())
    return op.as<ptx::ImmOperand>().value;
  if (!op.is<ptx::RegOperand>() || op.as<ptx::RegOperand>().negated)
    return std::nullopt;
  if (!singleMovImm) {
    llvm::StringMap<int64_t> value;
    llvm::StringMap<unsigned> defs;
    collectSingleMovImm(pfn.body, value, defs);
    singleMovImm.emplace();
    for (auto &e : value)
      if (defs.lookup(e.first()) == 1)
        (*singleMovImm)[e.first()] = e.second;
  }
  const std::string &name = op.as<ptx::RegOperand>().name;
  if (auto it = singleMovImm->find(name); it != singleMovImm->end())
    return it->second;
  if (auto it = localConstants.find(name); it != localConstants.end())
    return it->second;
  return std::nullopt;
}

void LowerCtx::noteDefinitions(const ptx::Instruction &in) {
  if (in.operands.empty())
    return;
  const ptx::Operand &o = in.operands[0];
  // The destinations, as collectSingleMovImm counts them (a use in operand 0, as in
  // `bar.sync %r`, only forgets a constant: conservative).
  if (o.is<ptx::RegOperand>()) {
    const std::string &name = o.as<ptx::RegOperand>().name;
    std::optional<int64_t> a, b;
    if (in.opcode == "setp" && !in.guard && in.operands.size() == 3 &&
        (in.has("eq") || in.has("ne")) &&
        (in.has("b32") || in.has("s32") || in.has("u32"))) {
      a = knownConstant(in.operands[1]);
      b = knownConstant(in.operands[2]);
    }
    if (in.opcode == "mov" && !in.guard && in.operands.size() == 2 &&
        in.operands[1].is<ptx::ImmOperand>())
      localConstants[name] = in.operands[1].as<ptx::ImmOperand>().value;
    else if (a && b)
      // A predicate of two known 32-bit values (`setp.ne.b32 p, %r, 0` with %r a known 0: the
      // scale-d of ThunderKittens' wgmma wrappers), so a wgmma's scale-d folds to !UPT.
      localConstants[name] = in.has("eq") ? static_cast<uint32_t>(*a) == static_cast<uint32_t>(*b)
                                          : static_cast<uint32_t>(*a) != static_cast<uint32_t>(*b);
    else
      localConstants.erase(name);
  } else if (o.is<ptx::PairOperand>()) {
    localConstants.erase(o.as<ptx::PairOperand>().first);
    localConstants.erase(o.as<ptx::PairOperand>().second);
  } else if (o.is<ptx::VectorOperand>()) {
    for (const ptx::Operand &e : o.as<ptx::VectorOperand>().elems)
      if (e.is<ptx::RegOperand>())
        localConstants.erase(e.as<ptx::RegOperand>().name);
  }
}

std::span<const HandlerRow> warpHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
