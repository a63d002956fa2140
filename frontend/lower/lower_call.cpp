//===- frontend/lower/lower_call.cpp - calls, .func parameters, .local variables -------===//
///
/// \file
/// The function-level parts of the lowering, following the calling convention of
/// targets/calling_convention.h (read it first):
///   .func entry        `MOV %ra, R2` (the return address); each parameter word the body
///                      reads is copied once from its register, `MOV %w, R(4+i)`, at entry
///   kernel entry       `LDC R1, c[0x0][0x28]` (the stack pointer, as ptxas starts every kernel)
///   ld.param (own)     a copy from the parameter's word registers
///   st.param retval    a copy into the result's word registers (one virtual register a word)
///   .param p (call)    a call-site parameter: one virtual register a word, filled by st.param
///   call (r), f, (a)   `MOV R(4+i), word` for each argument word, `MOV R2, <return block>`,
///                      `CALL.REL.NOINC f`; the call ends the block; the next one starts with
///                      `MOV %w, R(4+i)` for each result word, read by `ld.param [r]`
///   ret (.func)        `MOV R(4+i), %w` per result word written, `MOV R2, %ra`, `MOV R3, RZ`,
///                      `RET.REL.NODEC R2 0x0` (the frame's R1 adjustments come after
///                      register allocation, when the frame size is known)
///   exit (.func)       EXIT
///   .local v           an offset in the frame: [R1 + offset] (laid out at its alignment, in
///                      declaration order; Function::frame.localBytes)
///   mov d, v (local)   d = R1 + offset (a local address; the high half of a 64-bit d is 0)
///   ld/st.local        LDL/STL[.U8/.S8/.U16/.S16/.64/.128] [base + offset]; vectors go through
///                      a pair or quad (HW: `STL.128 [R1], R4` in ptxas's code for st.local.v4)
///   cvta.local         d = s + the local window's generic base c[0x0][0x20] (64-bit add; HW:
///                      ptxas 13.0 builds it from ULDC c[0x0][0x20] / c[0x0][0x24])
///   cvta.to.local      d = s - that base
///   call (r), vprintf, (a)   a function without a body (extern: the CUDA ABI): the same
///                      argument and result copies, the callee's address loaded from its
///                      constant-bank-4 slot, `LEPC R20, <return block>`,
///                      `CALL.ABS.NOINC <address>`
/// Refused with a "not supported" error: indirect calls, parameters wider than the
/// convention's register window,
/// sub-word parameter accesses that do not start on a word boundary, .local variables aligned
/// to more than 16 bytes.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"
#include "frontend/lower/lower_mem.h"

#include "ori/cfg.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <array>
#include <set>

namespace ptxmini::frontend::lower {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;

/// A parameter block variable: a .func's own parameter or result, or a call-site .param.
struct ParamVar {
  enum class Kind : uint8_t { In, Ret, CallSite } kind = Kind::In;
  uint32_t offset = 0; ///< within its block (In/Ret); 0 for call-site variables
  uint32_t size = 0;
  std::vector<Operand> words; ///< CallSite: the word registers (kind None until written)
};

struct CallLowering {
  llvm::StringMap<ParamVar> params;  ///< own parameters and results, call-site .params
  std::vector<Operand> inWords;      ///< .func: incoming parameter words (None until read)
  std::vector<Operand> retWords;     ///< .func: result words (None until written)
  Operand ra;                        ///< .func: the return address
  llvm::StringMap<uint32_t> locals;  ///< .local variable -> frame offset
  /// Result-word copies made after calls, removed at the end when nothing reads them.
  std::vector<Operand> callResults;
};

namespace {

uint32_t alignUp(uint32_t v, uint32_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

uint32_t naturalAlign(const ptx::VarDecl &p) {
  if (p.align)
    return p.align;
  return std::max<uint32_t>(1, ptx::typeBits(p.type) / 8 * std::max(1u, p.vectorWidth));
}

/// Offsets of a parameter list laid out as in memory; returns the block size.
uint32_t layoutParams(const std::vector<ptx::VarDecl> &list, std::vector<uint32_t> &offsets) {
  uint32_t off = 0;
  for (const ptx::VarDecl &p : list) {
    off = alignUp(off, naturalAlign(p));
    offsets.push_back(off);
    off += static_cast<uint32_t>(p.sizeInBytes());
  }
  return off;
}

uint32_t wordsFor(uint32_t bytes) { return (bytes + 3) / 4; }

Operand preg(uint32_t r, uint8_t width = 1) { return Operand::preg(RegClass::R, r, width); }

const CallingConvention &cc(const LowerCtx &ctx) { return ctx.target.callingConvention(); }

/// Inserts `in` at the top of the entry block (after earlier entry copies).
void emitAtEntry(LowerCtx &ctx, ori::Instr in) {
  auto &entry = ctx.fn().blocks[0].instrs;
  entry.insert(entry.begin(), std::move(in));
}

ori::Instr makeInstr(Opcode op, std::initializer_list<Operand> defs,
                     std::initializer_list<Operand> uses) {
  ori::Instr i(op);
  for (const Operand &d : defs)
    i.addDef(d);
  for (const Operand &u : uses)
    i.addUse(u);
  return i;
}

/// The virtual register of parameter word `w` of a ParamVar (created on demand).
Operand wordReg(LowerCtx &ctx, ParamVar &v, uint32_t w) {
  CallLowering &cl = *ctx.calls;
  if (v.kind == ParamVar::Kind::CallSite) {
    if (v.words.size() <= w)
      v.words.resize(w + 1);
    if (v.words[w].kind == ori::OperandKind::None)
      v.words[w] = ctx.temp(RegClass::R);
    return v.words[w];
  }
  uint32_t idx = v.offset / 4 + w;
  auto &list = v.kind == ParamVar::Kind::In ? cl.inWords : cl.retWords;
  if (list.size() <= idx)
    list.resize(idx + 1);
  if (list[idx].kind == ori::OperandKind::None) {
    list[idx] = ctx.temp(RegClass::R);
    if (v.kind == ParamVar::Kind::In)
      emitAtEntry(ctx, makeInstr(Opcode::MOV, {list[idx]}, {preg(cc(ctx).firstParamReg + idx)}));
  }
  return list[idx];
}

bool isParamVar(const LowerCtx &ctx, const ptx::Operand &op) {
  if (!ctx.calls || !op.is<ptx::AddressOperand>())
    return false;
  const auto &a = op.as<ptx::AddressOperand>();
  return a.baseKind == ptx::AddressOperand::BaseKind::Symbol && ctx.calls->params.count(a.base);
}

// ---- predicates of the handler rows -----------------------------------------------------

bool acceptsParamLd(const LowerCtx &ctx, const ptx::Instruction &in) {
  return in.space() == ptx::StateSpace::Param && in.operands.size() == 2 &&
         isParamVar(ctx, in.operands[1]);
}
bool acceptsParamSt(const LowerCtx &ctx, const ptx::Instruction &in) {
  return in.space() == ptx::StateSpace::Param && !in.operands.empty() &&
         isParamVar(ctx, in.operands[0]);
}
bool acceptsLocal(const LowerCtx &, const ptx::Instruction &in) {
  return in.space() == ptx::StateSpace::Local;
}
bool acceptsInFunc(const LowerCtx &ctx, const ptx::Instruction &) { return !ctx.out.isKernel; }
bool acceptsLocalSymbolMov(const LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.calls || in.operands.size() != 2 || !in.operands[1].is<ptx::SymbolOperand>())
    return false;
  const std::string &n = in.operands[1].as<ptx::SymbolOperand>().name;
  return ctx.calls->locals.count(n) || ctx.calls->params.count(n);
}

// ---- parameters ---------------------------------------------------------------------------

/// One element of an ld/st.param: `bits` wide at byte `off` of `v`.
bool checkParamElement(LowerCtx &ctx, const ptx::Instruction &in, const ParamVar &v,
                       int64_t off, unsigned bits) {
  if (off < 0 || off + std::max(1u, bits / 8) > (v.size ? v.size : UINT32_MAX) ||
      (v.kind != ParamVar::Kind::CallSite && v.offset + off + bits / 8 > 4 * cc(ctx).maxParamWords))
    return ctx.unsupported(in, "A parameter access outside its parameter (or beyond " +
                                   std::to_string(4 * cc(ctx).maxParamWords) +
                                   " bytes) in '" + in.fullOpcode() + "'");
  if ((v.offset + off) % 4 != 0)
    return ctx.unsupported(in, "A parameter access that does not start on a 4-byte boundary "
                               "in '" + in.fullOpcode() + "'");
  if (bits > 64)
    return ctx.unsupported(in);
  return true;
}

/// The PTX registers (or immediates) of an ld/st data operand, one per vector element.
std::vector<const ptx::Operand *> elements(const ptx::Operand &op) {
  std::vector<const ptx::Operand *> v;
  if (op.is<ptx::VectorOperand>())
    for (const ptx::Operand &e : op.as<ptx::VectorOperand>().elems)
      v.push_back(&e);
  else
    v.push_back(&op);
  return v;
}

bool lowerLdParam(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}))
    return false;
  const auto &addr = in.operands[1].as<ptx::AddressOperand>();
  ParamVar &v = ctx.calls->params.find(addr.base)->second;
  unsigned bits = ptx::typeBits(in.type());
  auto elems = elements(in.operands[0]);
  for (size_t i = 0; i < elems.size(); ++i) {
    if (elems[i]->is<ptx::SinkOperand>())
      continue;
    if (!elems[i]->is<ptx::RegOperand>())
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    int64_t off = addr.offset + static_cast<int64_t>(i * bits / 8);
    if (!checkParamElement(ctx, in, v, off, bits))
      return false;
    Operand d = ctx.reg(in, elems[i]->as<ptx::RegOperand>().name);
    if (d.kind == ori::OperandKind::None)
      return false;
    size_t word = static_cast<size_t>((v.offset + off) / 4);
    if (v.kind == ParamVar::Kind::Ret &&
        (ctx.calls->retWords.size() <= word ||
         ctx.calls->retWords[word].kind == ori::OperandKind::None))
      return ctx.unsupported(in, "Reading a result parameter before writing it in '" +
                                     in.fullOpcode() + "'");
    uint32_t w = static_cast<uint32_t>(off / 4);
    if (d.cls != RegClass::R)
      return ctx.unsupported(in);
    if (bits == 64 || d.width == 2) {
      if (bits != 64 || d.width != 2)
        return ctx.unsupported(in);
      ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {wordReg(ctx, v, w)});
      ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {wordReg(ctx, v, w + 1)});
    } else {
      ctx.emit(Opcode::MOV, {}, {d}, {wordReg(ctx, v, w)});
    }
  }
  return true;
}

/// `src` (a register or an immediate) as 32-bit words.
bool sourceWords(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &op,
                 unsigned bits, std::array<Operand, 2> &words) {
  if (op.is<ptx::RegOperand>()) {
    Operand s = ctx.reg(in, op.as<ptx::RegOperand>().name);
    if (s.kind == ori::OperandKind::None)
      return false;
    if (s.cls != RegClass::R || (bits == 64) != (s.width == 2))
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    words = bits == 64 ? std::array{component(s, 0), component(s, 1)} : std::array{s, Operand{}};
    return true;
  }
  uint64_t raw = 0;
  if (op.is<ptx::ImmOperand>())
    raw = static_cast<uint64_t>(op.as<ptx::ImmOperand>().value);
  else if (op.is<ptx::FloatOperand>())
    raw = op.as<ptx::FloatOperand>().bits;
  else
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  if (bits < 32)
    raw &= (1ull << bits) - 1;
  words[0] = Operand::intImm(static_cast<uint32_t>(raw));
  words[1] = Operand::intImm(static_cast<uint32_t>(raw >> 32));
  return true;
}

bool lowerStParam(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}) || in.operands.size() != 2)
    return in.operands.size() == 2 ? false : ctx.unsupported(in);
  const auto &addr = in.operands[0].as<ptx::AddressOperand>();
  ParamVar &v = ctx.calls->params.find(addr.base)->second;
  if (v.kind == ParamVar::Kind::In)
    return ctx.unsupported(in, "Writing a .func's input parameter in '" + in.fullOpcode() + "'");
  unsigned bits = ptx::typeBits(in.type());
  auto elems = elements(in.operands[1]);
  for (size_t i = 0; i < elems.size(); ++i) {
    int64_t off = addr.offset + static_cast<int64_t>(i * bits / 8);
    if (!checkParamElement(ctx, in, v, off, bits))
      return false;
    std::array<Operand, 2> words;
    if (!sourceWords(ctx, in, *elems[i], bits, words))
      return false;
    uint32_t w = static_cast<uint32_t>(off / 4);
    ctx.emit(Opcode::MOV, {}, {wordReg(ctx, v, w)}, {words[0]});
    if (bits == 64)
      ctx.emit(Opcode::MOV, {}, {wordReg(ctx, v, w + 1)}, {words[1]});
  }
  return true;
}

// ---- calls and returns --------------------------------------------------------------------

/// The `.callprototype` labelled `label` in `b` (nested blocks included), or nullptr.
const ptx::Directive *findPrototype(const ptx::Block &b, const std::string &label) {
  for (const ptx::Statement &st : b.statements) {
    if (st.is<ptx::Block>()) {
      if (const ptx::Directive *d = findPrototype(st.as<ptx::Block>(), label))
        return d;
    } else if (st.is<ptx::Directive>()) {
      const ptx::Directive &d = st.as<ptx::Directive>();
      if (d.kind == ptx::Directive::Kind::CallPrototype && d.label == label)
        return &d;
    }
  }
  return nullptr;
}

bool lowerCall(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {"uni"}))
    return false;
  // Operands: [(results),] target, [(arguments)] [, prototype / target table].
  size_t k = 0;
  const ptx::ListOperand *rets = nullptr, *args = nullptr;
  if (k < in.operands.size() && in.operands[k].is<ptx::ListOperand>())
    rets = &in.operands[k++].as<ptx::ListOperand>();
  if (k >= in.operands.size() ||
      (!in.operands[k].is<ptx::SymbolOperand>() && !in.operands[k].is<ptx::RegOperand>()))
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  // An indirect call: the target is a function-pointer value (8 * (index + 1), see
  // LoweredModuleData::functionPointers), the signature the prototype's.
  const bool indirect = in.operands[k].is<ptx::RegOperand>();
  const ptx::Operand &targetOp = in.operands[k++];
  const std::string name = indirect ? std::string() : targetOp.as<ptx::SymbolOperand>().name;
  if (k < in.operands.size() && in.operands[k].is<ptx::ListOperand>())
    args = &in.operands[k++].as<ptx::ListOperand>();
  const ptx::Directive *proto = nullptr;
  if (indirect) {
    if (k + 1 != in.operands.size() || !in.operands[k].is<ptx::SymbolOperand>())
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    proto = findPrototype(ctx.pfn.body, in.operands[k++].as<ptx::SymbolOperand>().name);
    if (!proto)
      return ctx.unsupported(in, "An indirect call through a .calltargets list");
  }
  if (k != in.operands.size())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  const ptx::Function *callee = indirect ? nullptr : findDefinition(ctx.module, name);
  if (!indirect && (!callee || callee->isEntry))
    return ctx.unsupported(in, "A call to '" + name + "', which is not a .func of this module,");
  const std::vector<ptx::VarDecl> &calleeParams = indirect ? proto->protoParams : callee->params;
  const std::vector<ptx::VarDecl> &calleeReturns =
      indirect ? proto->protoReturns : callee->returns;
  // A function without a body (vprintf, __assertfail) is called through the CUDA ABI: its
  // address comes from its constant-bank-4 slot (lower_module_data.cpp).
  const bool external = !indirect && !callee->hasBody;
  uint32_t slot = 0;
  if (external) {
    if (!ctx.moduleLayout || !ctx.moduleLayout->externSlots.count(name))
      return ctx.unsupported(in, "A call to extern function '" + name +
                                     "' from a function no kernel reaches");
    slot = ctx.moduleLayout->externSlots.lookup(name);
  }
  std::vector<uint32_t> argOffsets, retOffsets;
  uint32_t argBytes = layoutParams(calleeParams, argOffsets);
  uint32_t retBytes = layoutParams(calleeReturns, retOffsets);
  const CallingConvention &conv = cc(ctx);
  if (wordsFor(argBytes) > conv.maxParamWords || wordsFor(retBytes) > conv.maxParamWords)
    return ctx.unsupported(in, "A call with more than " + std::to_string(4 * conv.maxParamWords) +
                                   " bytes of parameters or results");
  size_t nArgs = args ? args->elems.size() : 0, nRets = rets ? rets->elems.size() : 0;
  if (nArgs != calleeParams.size() || nRets != calleeReturns.size())
    return ctx.unsupported(in, "A call whose arguments do not match '" +
                                   (indirect ? std::string("its prototype") : name) + "'");
  // The call-site variables of the arguments and results.
  auto callSiteVar = [&](const ptx::Operand &op) -> ParamVar * {
    if (!op.is<ptx::SymbolOperand>() && !op.is<ptx::RegOperand>())
      return nullptr;
    const std::string &n = op.is<ptx::SymbolOperand>() ? op.as<ptx::SymbolOperand>().name
                                                       : op.as<ptx::RegOperand>().name;
    auto it = ctx.calls->params.find(n);
    if (it == ctx.calls->params.end() || it->second.kind != ParamVar::Kind::CallSite)
      return nullptr;
    return &it->second;
  };
  // A guarded call: only the CALL is guarded. The copies around it are the convention's
  // own temporaries (an argument register or result word holds garbage when the call does
  // not happen, and PTX reads results only under the same guard); unguarded copies keep
  // their virtual registers from looking live since the function's entry.
  Operand guard = ctx.curGuard;
  ctx.curGuard = Operand{};
  // Arguments: each word the caller wrote goes to its register.
  for (size_t a = 0; a < nArgs; ++a) {
    ParamVar *v = callSiteVar(args->elems[a]);
    if (!v)
      return ctx.unsupported(in, "A call argument that is not a .param variable");
    if (argOffsets[a] % 4)
      return ctx.unsupported(in, "A call argument that does not start on a 4-byte boundary");
    for (uint32_t w = 0; w < v->words.size(); ++w)
      if (v->words[w].kind != ori::OperandKind::None)
        ctx.emit(Opcode::MOV, {}, {preg(conv.firstParamReg + argOffsets[a] / 4 + w)},
                 {v->words[w]});
  }
  std::vector<ParamVar *> retVars;
  for (size_t r = 0; r < nRets; ++r) {
    ParamVar *v = callSiteVar(rets->elems[r]);
    if (!v)
      return ctx.unsupported(in, "A call result that is not a .param variable");
    if (retOffsets[r] % 4)
      return ctx.unsupported(in, "A call result that does not start on a 4-byte boundary");
    retVars.push_back(v);
  }
  // The return address: the block after the call (patched once it exists). An extern call
  // (HW: ptxas 13.0's code for vprintf/__assertfail) reads the callee's address from its
  // slot through an index register, `MOV R0, slot; LDC.64 R2, c[0x4][R0]`, and makes the
  // return address with `LEPC R20, <return point>` before `CALL.ABS.NOINC R2`.
  uint32_t movBlock = ctx.curBlock;
  size_t movIndex = 0;
  if (external) {
    Operand index = ctx.temp(RegClass::R), target = ctx.temp(RegClass::R, 2);
    ctx.emit(Opcode::MOV, {}, {index}, {Operand::intImm(slot)});
    ctx.emit(Opcode::LDC, {Modifier::Size64}, {target},
             {Operand::cbank(ctx.target.memory().addressSlotBank, 0, index)});
    ctx.emit(Opcode::LEPC, {}, {preg(conv.abiReturnAddress, 2)}, {Operand::block(0)});
    movIndex = ctx.fn().blocks[movBlock].instrs.size() - 1;
    ctx.emit(Opcode::CALL, {Modifier::ABS, Modifier::NOINC}, {},
             {Operand::func(ctx.fn().calleeIndex(name)), target})
        .guard = guard;
  } else if (indirect) {
    // HW: ptxas 13.0 with several kernels (each with private copies of the functions):
    // `LDG.E R0, [fp]; LDC.64 R2, c[0x2][R0]; CALL.REL.NOINC R2 0x0`, the kernel's
    // .nv.constant2 holding the code offsets (with one kernel it stores the offsets
    // themselves in the pointers; the table is used here in every case). The call may reach
    // every address-taken function: they are this function's callees (so every kernel
    // reaching it carries them), and the CALL's Func operand is the pseudo-callee
    // "(indirect)", whose clobber set the driver makes the union of theirs.
    Operand fp = ctx.source(in, targetOp);
    if (fp.kind == ori::OperandKind::None)
      return false;
    if (!fp.isReg() || fp.cls != RegClass::R)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    Operand index = fp.width == 2 ? component(fp, 0) : fp;
    Operand target = ctx.temp(RegClass::R, 2);
    ctx.emit(Opcode::LDC, {Modifier::Size64}, {target},
             {Operand::cbank(ctx.target.memory().functionTableBank, 0, index)});
    if (ctx.moduleLayout)
      for (const auto &f : ctx.moduleLayout->functionPointerOrder)
        (void)ctx.fn().calleeIndex(f);
    ctx.emit(Opcode::MOV, {}, {preg(conv.returnAddress)}, {Operand::block(0)});
    movIndex = ctx.fn().blocks[movBlock].instrs.size() - 1;
    ctx.emit(Opcode::CALL, {Modifier::REL, Modifier::NOINC}, {},
             {Operand::func(ctx.fn().calleeIndex("(indirect)")), target})
        .guard = guard;
  } else {
    ctx.emit(Opcode::MOV, {}, {preg(conv.returnAddress)}, {Operand::block(0)});
    movIndex = ctx.fn().blocks[movBlock].instrs.size() - 1;
    ctx.emit(Opcode::CALL, {Modifier::REL, Modifier::NOINC}, {},
             {Operand::func(ctx.fn().calleeIndex(name))})
        .guard = guard;
  }
  uint32_t after = ctx.startBlock();
  ctx.fn().blocks[movBlock].instrs[movIndex].uses()[0] = Operand::block(after);
  // Results: every word of each result, copied out of its register right after the call
  // (copies nobody reads are removed at the end of the function).
  for (size_t r = 0; r < nRets; ++r) {
    ParamVar &v = *retVars[r];
    uint32_t n =
        wordsFor(v.size ? v.size : static_cast<uint32_t>(calleeReturns[r].sizeInBytes()));
    v.words.assign(n, Operand{});
    for (uint32_t w = 0; w < n; ++w) {
      Operand t = wordReg(ctx, v, w);
      ctx.emit(Opcode::MOV, {}, {t}, {preg(conv.firstParamReg + retOffsets[r] / 4 + w)});
      ctx.calls->callResults.push_back(t);
    }
  }
  ctx.curGuard = guard;
  return true;
}

bool lowerFuncRet(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {"uni"}))
    return false;
  const CallingConvention &conv = cc(ctx);
  CallLowering &cl = *ctx.calls;
  for (uint32_t w = 0; w < cl.retWords.size(); ++w)
    if (cl.retWords[w].kind != ori::OperandKind::None)
      ctx.emit(Opcode::MOV, {}, {preg(conv.firstParamReg + w)}, {cl.retWords[w]});
  ctx.emit(Opcode::MOV, {}, {preg(conv.returnAddress)}, {cl.ra});
  ctx.emit(Opcode::MOV, {}, {preg(conv.returnAddress + 1)}, {RZ()});
  ctx.emit(Opcode::RET, {Modifier::REL, Modifier::NODEC}, {},
           {preg(conv.returnAddress, 2), Operand::intImm(0)});
  ctx.startBlock();
  return true;
}

bool lowerFuncExit(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}))
    return false;
  ctx.emit(Opcode::EXIT, {}, {}, {});
  ctx.startBlock();
  return true;
}

// ---- local memory -------------------------------------------------------------------------

/// The LDL/STL size modifier for a PTX type of `bits` (none for 32).
std::optional<Modifier> localSize(unsigned bits, bool isSigned, bool isLoad) {
  switch (bits) {
  case 8: return isLoad && isSigned ? Modifier::S8 : Modifier::U8;
  case 16: return isLoad && isSigned ? Modifier::S16 : Modifier::U16;
  case 64: return Modifier::Size64;
  case 128: return Modifier::Size128;
  default: return std::nullopt;
  }
}

/// The local address of an ld/st.local operand as an Ori memory operand.
bool localAddress(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &op, Operand &m) {
  if (!op.is<ptx::AddressOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  const auto &a = op.as<ptx::AddressOperand>();
  if (a.offset < INT32_MIN / 2 || a.offset > INT32_MAX / 2)
    return ctx.unsupported(in, "A local offset this large in '" + in.fullOpcode() + "'");
  int32_t off = static_cast<int32_t>(a.offset);
  if (a.baseKind == ptx::AddressOperand::BaseKind::Symbol) {
    auto it = ctx.calls->locals.find(a.base);
    if (it == ctx.calls->locals.end())
      return ctx.unsupported(in, "A local access to '" + a.base + "' (not a .local variable of "
                                 "this function)");
    m = Operand::mem(preg(cc(ctx).stackPointer), static_cast<int32_t>(it->second) + off);
    return true;
  }
  if (a.baseKind != ptx::AddressOperand::BaseKind::Register)
    return ctx.unsupported(in, "An absolute local address in '" + in.fullOpcode() + "'");
  Operand base = ctx.reg(in, a.base);
  if (base.kind == ori::OperandKind::None)
    return false;
  if (base.cls != RegClass::R)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  // A local address is 32 bits; a 64-bit register holds it in its low half.
  m = Operand::mem(base.width == 2 ? component(base, 0) : base, off);
  return true;
}

/// The declared bit width of a PTX register (0 when unknown).
unsigned declaredBits(const LowerCtx &ctx, const std::string &name) {
  if (auto it = ctx.regTypes.find(name); it != ctx.regTypes.end())
    return ptx::typeBits(it->second);
  llvm::StringRef n(name);
  llvm::StringRef prefix = n.rtrim("0123456789");
  if (auto r = ctx.regRanges.find(prefix); r != ctx.regRanges.end())
    return ptx::typeBits(r->second.first);
  return 0;
}

/// ld/st.local.v2/v4 of 8/16-bit elements: the elements are packed into 32-bit words with
/// PRMT (HW: ptxas packs halves with `PRMT d, a, 0x5410, b`) and moved with one LDL/STL
/// of the whole vector (16, 32 or 64 bits); loads take element i back out with a right
/// shift, leaving the bits above it unspecified as 8/16-bit registers allow, and extend
/// it (SGXT / SGXT.U32) when the destination register is wider than the element.
bool lowerSubwordVector(LowerCtx &ctx, const ptx::Instruction &in, const Operand &m,
                        const std::vector<const ptx::Operand *> &elems, unsigned bits,
                        bool isLoad, bool isSigned) {
  unsigned total = bits * static_cast<unsigned>(elems.size());
  uint8_t words = static_cast<uint8_t>((total + 31) / 32);
  Operand tmp = ctx.temp(RegClass::R, words);
  std::vector<Modifier> mods;
  if (total == 16)
    mods.push_back(Modifier::U16);
  else if (total == 64)
    mods.push_back(Modifier::Size64);
  auto wordOf = [&](unsigned w) { return words > 1 ? component(tmp, w) : tmp; };
  if (isLoad) {
    ctx.emit(Opcode::LDL, {}, {tmp}, {m}).mods.assign(mods.begin(), mods.end());
    for (size_t i = 0; i < elems.size(); ++i) {
      if (elems[i]->is<ptx::SinkOperand>())
        continue;
      if (!elems[i]->is<ptx::RegOperand>())
        return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
      const std::string &name = elems[i]->as<ptx::RegOperand>().name;
      Operand d = ctx.reg(in, name);
      if (d.kind == ori::OperandKind::None)
        return false;
      if (d.cls != RegClass::R || d.width != 1)
        return ctx.unsupported(in);
      unsigned bit = static_cast<unsigned>(i) * bits;
      Operand w = wordOf(bit / 32);
      unsigned shift = bit % 32;
      bool extend = declaredBits(ctx, name) > bits;
      Operand x = d;
      if (extend && shift)
        x = ctx.temp(RegClass::R);
      if (shift)
        ctx.emit(Opcode::SHF, {Modifier::R, Modifier::U32, Modifier::HI}, {x},
                 {RZ(), Operand::intImm(shift), w});
      if (extend) {
        Operand src = shift ? x : w;
        if (isSigned)
          ctx.emit(Opcode::SGXT, {}, {d}, {src, Operand::intImm(bits)});
        else
          ctx.emit(Opcode::SGXT, {Modifier::U32}, {d}, {src, Operand::intImm(bits)});
      } else if (!shift) {
        ctx.emit(Opcode::MOV, {}, {d}, {w});
      }
    }
    return true;
  }
  std::vector<Operand> vals;
  for (const ptx::Operand *e : elems) {
    std::array<Operand, 2> ws;
    if (!sourceWords(ctx, in, *e, bits, ws))
      return false;
    vals.push_back(ws[0]);
  }
  // Pairs of bytes into halves (`PRMT d, a, 0x40, b`: a's low byte, then b's), halves into
  // words (`PRMT d, a, 0x5410, b`).
  std::vector<Operand> halves;
  if (bits == 8) {
    for (size_t i = 0; i < vals.size(); i += 2) {
      Operand h = ctx.temp(RegClass::R);
      ctx.emit(Opcode::PRMT, {}, {h}, {vals[i], Operand::intImm(0x40), vals[i + 1]});
      halves.push_back(h);
    }
  } else {
    halves = vals;
  }
  if (halves.size() == 1) {
    ctx.emit(Opcode::MOV, {}, {tmp}, {halves[0]});
  } else {
    for (size_t i = 0; i + 1 < halves.size(); i += 2)
      ctx.emit(Opcode::PRMT, {}, {wordOf(static_cast<unsigned>(i / 2))},
               {halves[i], Operand::intImm(0x5410), halves[i + 1]});
  }
  ctx.emit(Opcode::STL, {}, {}, {m, tmp}).mods.assign(mods.begin(), mods.end());
  return true;
}

bool lowerLdStLocal(LowerCtx &ctx, const ptx::Instruction &in, bool isLoad) {
  if (!ctx.onlyModifiers(in, {}) || in.operands.size() != 2)
    return in.operands.size() == 2 ? false : ctx.unsupported(in);
  ptx::ScalarType t = in.type();
  unsigned bits = ptx::typeBits(t);
  unsigned vw = in.vectorWidth();
  bool isSigned = ptx::typeKind(t) == ptx::TypeKind::Signed;
  Operand m;
  if (!localAddress(ctx, in, in.operands[isLoad ? 1 : 0], m))
    return false;
  const ptx::Operand &data = in.operands[isLoad ? 0 : 1];
  unsigned total = bits * vw;
  if (total > 128 || bits > 64 || (vw > 1 && bits >= 32 && total != 64 && total != 128) ||
      (vw > 1 && bits < 32 && total > 64))
    return ctx.unsupported(in);
  std::optional<Modifier> size = localSize(total, isSigned, isLoad);
  std::vector<Modifier> mods;
  if (size)
    mods.push_back(*size);
  auto make = [&](Opcode op, std::initializer_list<Operand> defs,
                  std::initializer_list<Operand> uses) {
    ori::Instr &i = ctx.emit(op, {}, defs, uses);
    i.mods.assign(mods.begin(), mods.end());
  };
  auto elems = elements(data);
  if (vw > 1 && bits < 32)
    return lowerSubwordVector(ctx, in, m, elems, bits, isLoad, isSigned);
  if (vw == 1) {
    if (isLoad) {
      if (!data.is<ptx::RegOperand>())
        return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
      Operand d = ctx.reg(in, data.as<ptx::RegOperand>().name);
      if (d.kind == ori::OperandKind::None)
        return false;
      if (d.cls != RegClass::R || d.width * 32 < total)
        return ctx.unsupported(in);
      make(Opcode::LDL, {d}, {m});
      return true;
    }
    Operand v;
    if (data.is<ptx::RegOperand>()) {
      v = ctx.reg(in, data.as<ptx::RegOperand>().name);
      if (v.kind == ori::OperandKind::None)
        return false;
      if (v.cls != RegClass::R || v.width * 32 < total)
        return ctx.unsupported(in);
    } else {
      std::array<Operand, 2> words;
      if (!sourceWords(ctx, in, data, bits, words))
        return false;
      v = ctx.temp(RegClass::R, bits == 64 ? 2 : 1);
      if (bits == 64) {
        ctx.emit(Opcode::MOV, {}, {component(v, 0)}, {words[0]});
        ctx.emit(Opcode::MOV, {}, {component(v, 1)}, {words[1]});
      } else {
        ctx.emit(Opcode::MOV, {}, {v}, {words[0]});
      }
    }
    make(Opcode::STL, {}, {m, v});
    return true;
  }
  // Vectors: through a pair or quad of consecutive registers.
  Operand tmp = ctx.temp(RegClass::R, static_cast<uint8_t>(total / 32));
  unsigned wordsPer = bits / 32;
  if (isLoad) {
    make(Opcode::LDL, {tmp}, {m});
    for (size_t i = 0; i < elems.size(); ++i) {
      if (elems[i]->is<ptx::SinkOperand>())
        continue;
      if (!elems[i]->is<ptx::RegOperand>())
        return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
      Operand d = ctx.reg(in, elems[i]->as<ptx::RegOperand>().name);
      if (d.kind == ori::OperandKind::None)
        return false;
      if (d.cls != RegClass::R || d.width != wordsPer)
        return ctx.unsupported(in);
      for (unsigned w = 0; w < wordsPer; ++w)
        ctx.emit(Opcode::MOV, {}, {wordsPer == 1 ? d : component(d, w)},
                 {component(tmp, static_cast<unsigned>(i) * wordsPer + w)});
    }
    return true;
  }
  for (size_t i = 0; i < elems.size(); ++i) {
    std::array<Operand, 2> words;
    if (!sourceWords(ctx, in, *elems[i], bits, words))
      return false;
    for (unsigned w = 0; w < wordsPer; ++w)
      ctx.emit(Opcode::MOV, {}, {component(tmp, static_cast<unsigned>(i) * wordsPer + w)},
               {words[w]});
  }
  make(Opcode::STL, {}, {m, tmp});
  return true;
}

bool lowerLdLocal(LowerCtx &ctx, const ptx::Instruction &in) { return lowerLdStLocal(ctx, in, true); }
bool lowerStLocal(LowerCtx &ctx, const ptx::Instruction &in) { return lowerLdStLocal(ctx, in, false); }

/// `mov d, v` of a .local variable: its local address R1 + offset.
bool lowerMovLocalSymbol(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}) || !in.operands[0].is<ptx::RegOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  const auto &sym = in.operands[1].as<ptx::SymbolOperand>();
  auto it = ctx.calls->locals.find(sym.name);
  if (it == ctx.calls->locals.end())
    return ctx.unsupported(in, "Taking the address of parameter '" + sym.name + "'");
  Operand d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  if (d.kind == ori::OperandKind::None)
    return false;
  if (d.cls != RegClass::R)
    return ctx.unsupported(in);
  int64_t off = static_cast<int64_t>(it->second) + sym.offset;
  Operand lo = d.width == 2 ? component(d, 0) : d;
  if (off == 0)
    ctx.emit(Opcode::MOV, {}, {lo}, {preg(cc(ctx).stackPointer)});
  else
    ctx.emit(Opcode::IADD3, {}, {lo}, {preg(cc(ctx).stackPointer), Operand::intImm(off), RZ()});
  if (d.width == 2)
    ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {RZ()});
  return true;
}

/// cvta.local / cvta.to.local: add or subtract the local window's 64-bit generic base.
bool lowerCvtaLocal(LowerCtx &ctx, const ptx::Instruction &in) {
  bool to = in.has("to");
  if (!ctx.onlyModifiers(in, {"to"}))
    return false;
  if (in.operands.size() != 2 || !in.operands[0].is<ptx::RegOperand>() ||
      !in.operands[1].is<ptx::RegOperand>() || ptx::typeBits(in.type()) != 64)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  Operand s = ctx.reg(in, in.operands[1].as<ptx::RegOperand>().name);
  if (d.kind == ori::OperandKind::None || s.kind == ori::OperandKind::None)
    return false;
  if (d.width != 2 || s.width != 2)
    return ctx.unsupported(in);
  uint32_t base = ctx.target.constBank().localWindowOffset;
  Operand lo = Operand::cbank(0, base), hi = Operand::cbank(0, base + 4);
  if (to) { // s - base = s + ~base + 1
    lo.mods |= ori::OM_NEG;
    hi.mods |= ori::OM_INV;
  }
  Operand carry = ctx.temp(RegClass::P);
  ctx.emit(Opcode::IADD3, {}, {component(d, 0), carry}, {component(s, 0), lo, RZ()});
  ctx.emit(Opcode::IADD3, {Modifier::X}, {component(d, 1)},
           {component(s, 1), hi, RZ(), carry, notPT()});
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"call", TypeClass::Any, lowerCall},
    HandlerRow{"ret", TypeClass::Any, lowerFuncRet, nullptr, acceptsInFunc},
    HandlerRow{"exit", TypeClass::Any, lowerFuncExit, nullptr, acceptsInFunc},
    HandlerRow{"ld", TypeClass::Any, lowerLdParam, nullptr, acceptsParamLd},
    HandlerRow{"st", TypeClass::Any, lowerStParam, nullptr, acceptsParamSt},
    HandlerRow{"ld", TypeClass::Any, lowerLdLocal, nullptr, acceptsLocal},
    HandlerRow{"st", TypeClass::Any, lowerStLocal, nullptr, acceptsLocal},
    HandlerRow{"mov", TypeClass::Any, lowerMovLocalSymbol, nullptr, acceptsLocalSymbolMov},
    HandlerRow{"cvta", TypeClass::Any, lowerCvtaLocal, nullptr, acceptsLocal},
};

void collectLocals(LowerCtx &ctx, const ptx::Block &body, bool &ok) {
  for (const ptx::Statement &st : body.statements) {
    if (st.is<ptx::Block>()) {
      collectLocals(ctx, st.as<ptx::Block>(), ok);
      continue;
    }
    if (!st.is<ptx::VarDecl>())
      continue;
    const ptx::VarDecl &d = st.as<ptx::VarDecl>();
    if (d.space != ptx::StateSpace::Local)
      continue;
    SourceLoc loc{ctx.module.fileName, d.line, d.column};
    uint32_t align = naturalAlign(d);
    if (align > 16) {
      ctx.diag.error(loc, ".local variables aligned to more than 16 bytes are not supported by "
                          "ptxas-mini's code generator yet");
      ok = false;
      continue;
    }
    if (d.hasInit) {
      ctx.diag.error(loc, "Initialised .local variables are not supported by ptxas-mini's code "
                          "generator yet");
      ok = false;
      continue;
    }
    ori::FrameInfo &fr = ctx.fn().frame;
    fr.localBytes = alignUp(fr.localBytes, align);
    ctx.calls->locals[d.name] = fr.localBytes;
    fr.localBytes += static_cast<uint32_t>(d.sizeInBytes());
    fr.localAlign = std::max(fr.localAlign, align);
  }
}

} // namespace

std::span<const HandlerRow> callHandlers() { return kRows; }

bool beginFunctionLowering(LowerCtx &ctx) {
  ctx.calls = std::make_shared<CallLowering>();
  CallLowering &cl = *ctx.calls;
  const CallingConvention &conv = cc(ctx);
  bool ok = true;
  if (ctx.out.isKernel) {
    // HW: ptxas starts every kernel with `LDC R1, c[0x0][0x28]`.
    emitAtEntry(ctx, makeInstr(Opcode::LDC, {preg(conv.stackPointer)},
                               {Operand::cbank(0, ctx.target.constBank().stackPtrOffset)}));
  } else {
    std::vector<uint32_t> inOff, retOff;
    uint32_t inBytes = layoutParams(ctx.pfn.params, inOff);
    uint32_t retBytes = layoutParams(ctx.pfn.returns, retOff);
    if (wordsFor(inBytes) > conv.maxParamWords || wordsFor(retBytes) > conv.maxParamWords) {
      ctx.diag.error(SourceLoc{ctx.module.fileName, ctx.pfn.line, ctx.pfn.column},
                     "Function '" + ctx.pfn.name + "': more than " +
                         std::to_string(4 * conv.maxParamWords) +
                         " bytes of parameters or results are not supported by ptxas-mini's "
                         "code generator yet");
      ok = false;
    }
    for (size_t i = 0; i < ctx.pfn.params.size(); ++i)
      cl.params[ctx.pfn.params[i].name] =
          ParamVar{ParamVar::Kind::In, inOff[i],
                   static_cast<uint32_t>(ctx.pfn.params[i].sizeInBytes()), {}};
    for (size_t i = 0; i < ctx.pfn.returns.size(); ++i)
      cl.params[ctx.pfn.returns[i].name] =
          ParamVar{ParamVar::Kind::Ret, retOff[i],
                   static_cast<uint32_t>(ctx.pfn.returns[i].sizeInBytes()), {}};
    cl.ra = ctx.temp(RegClass::R);
    emitAtEntry(ctx, makeInstr(Opcode::MOV, {cl.ra}, {preg(conv.returnAddress)}));
  }
  collectLocals(ctx, ctx.pfn.body, ok);
  return ok;
}

bool declareInBody(LowerCtx &ctx, const ptx::VarDecl &d) {
  if (d.space == ptx::StateSpace::Local)
    return true; // laid out by beginFunctionLowering
  if (d.space != ptx::StateSpace::Param)
    return false;
  // A call-site parameter: fresh word registers for each declaration (callseq blocks
  // reuse the names param0, retval0, ...).
  ctx.calls->params[d.name] =
      ParamVar{ParamVar::Kind::CallSite, 0, static_cast<uint32_t>(d.sizeInBytes()), {}};
  return true;
}

void endFunctionLowering(LowerCtx &ctx) {
  // Result copies after calls that nothing reads.
  ori::Function &f = ctx.fn();
  f.recomputeRegTable();
  for (const Operand &t : ctx.calls->callResults) {
    if (f.regInfo(t.cls, t.reg).useCount)
      continue;
    for (ori::Block &b : f.blocks)
      std::erase_if(b.instrs, [&](const ori::Instr &i) {
        return i.op == Opcode::MOV && i.numDefs == 1 && i.defs()[0].isVReg() &&
               i.defs()[0].cls == t.cls && i.defs()[0].reg == t.reg;
      });
  }
}

const ptx::Function *findDefinition(const ptx::Module &m, std::string_view name) {
  const ptx::Function *first = nullptr;
  for (const ptx::Function &f : m.functions)
    if (f.name == name) {
      if (f.hasBody)
        return &f;
      if (!first)
        first = &f;
    }
  return first;
}

bool isExternFunction(const ptx::Module &m, std::string_view name) {
  const ptx::Function *f = findDefinition(m, name);
  return f && !f->hasBody && !f->isEntry;
}

std::vector<std::string> externsCalled(const ptx::Module &m, const ptx::Function &f) {
  std::vector<const ptx::Function *> work{&f};
  std::set<std::string> seen{f.name}, externs;
  while (!work.empty()) {
    const ptx::Function *g = work.back();
    work.pop_back();
    for (const std::string &c : possibleCallees(m, *g)) {
      if (isExternFunction(m, c))
        externs.insert(c);
      else if (const ptx::Function *d = findDefinition(m, c);
               d && d->hasBody && !d->isEntry && seen.insert(c).second)
        work.push_back(d);
    }
  }
  std::vector<std::string> out;
  for (const ptx::Function &d : m.functions)
    if (externs.count(d.name) && std::find(out.begin(), out.end(), d.name) == out.end())
      out.push_back(d.name);
  return out;
}

std::vector<std::string> directCallees(const ptx::Function &f) {
  std::vector<std::string> out;
  auto walk = [&](auto &self, const ptx::Block &b) -> void {
    for (const ptx::Statement &st : b.statements) {
      if (st.is<ptx::Block>()) {
        self(self, st.as<ptx::Block>());
      } else if (st.is<ptx::Instruction>()) {
        const ptx::Instruction &in = st.as<ptx::Instruction>();
        if (in.opcode != "call")
          continue;
        for (const ptx::Operand &op : in.operands)
          if (op.is<ptx::SymbolOperand>()) {
            const std::string &n = op.as<ptx::SymbolOperand>().name;
            if (std::find(out.begin(), out.end(), n) == out.end())
              out.push_back(n);
            break;
          }
      }
    }
  };
  walk(walk, f.body);
  return out;
}

namespace {
/// Calls `fn` for every instruction of `b`, nested blocks included.
template <class Fn> void eachInstruction(const ptx::Block &b, Fn &&fn) {
  for (const ptx::Statement &st : b.statements) {
    if (st.is<ptx::Block>())
      eachInstruction(st.as<ptx::Block>(), fn);
    else if (st.is<ptx::Instruction>())
      fn(st.as<ptx::Instruction>());
  }
}
} // namespace

std::vector<std::string> addressTakenFunctions(const ptx::Module &m) {
  std::set<std::string> taken;
  auto note = [&](const std::string &n) {
    if (const ptx::Function *d = findDefinition(m, n); d && d->hasBody && !d->isEntry)
      taken.insert(n);
  };
  for (const ptx::VarDecl &v : m.globals)
    for (const ptx::InitValue &iv : v.init)
      if (iv.kind == ptx::InitValue::Kind::Symbol)
        note(iv.symbol);
  for (const ptx::Function &f : m.functions)
    eachInstruction(f.body, [&](const ptx::Instruction &in) {
      if (in.opcode == "call")
        return; // a direct call's target is not an address taken
      for (const ptx::Operand &op : in.operands)
        if (op.is<ptx::SymbolOperand>())
          note(op.as<ptx::SymbolOperand>().name);
    });
  std::vector<std::string> out;
  for (const ptx::Function &f : m.functions)
    if (f.hasBody && taken.count(f.name) &&
        std::find(out.begin(), out.end(), f.name) == out.end())
      out.push_back(f.name);
  return out;
}

bool hasIndirectCall(const ptx::Function &f) {
  bool any = false;
  eachInstruction(f.body, [&](const ptx::Instruction &in) {
    if (in.opcode != "call")
      return;
    size_t k = !in.operands.empty() && in.operands[0].is<ptx::ListOperand>() ? 1 : 0;
    any |= k < in.operands.size() && in.operands[k].is<ptx::RegOperand>();
  });
  return any;
}

std::vector<std::string> possibleCallees(const ptx::Module &m, const ptx::Function &f) {
  std::vector<std::string> out = directCallees(f);
  if (hasIndirectCall(f))
    for (const std::string &n : addressTakenFunctions(m))
      if (std::find(out.begin(), out.end(), n) == out.end())
        out.push_back(n);
  return out;
}

} // namespace ptxmini::frontend::lower
