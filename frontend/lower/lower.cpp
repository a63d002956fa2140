//===- frontend/lower/lower.cpp - PTX AST to Ori: per function driver --------------------===//
///
/// \file
/// For each function with a body:
///   1. lay out the parameter block (each .param at its alignment, in order);
///   2. collect register declarations (names and `%r<N>` ranges) and labels, creating one Ori
///      block per label in source order (block 0 is the entry);
///   3. walk the statements in order: a label switches to its block, an instruction goes to
///      the handler its family names in the per-family tables; a branch or exit ends the
///      block, and what follows starts a new fall-through block.
/// The result is Ori on virtual registers; the CFG is built at the end.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"

#include "frontend/lower/lower_mem.h"

#include "ori/cfg.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace ptxmini::frontend {
namespace lower {

namespace {

uint32_t alignTo(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

bool takesType(TypeClass c, ptx::ScalarType t) {
  if (c == TypeClass::Any)
    return true;
  bool isFloat = ptx::typeKind(t) == ptx::TypeKind::Float;
  return c == TypeClass::Float ? isFloat : !isFloat;
}

/// The handler for a PTX instruction: the first row of the per-family tables whose family
/// and type class match.
Handler findHandler(const LowerCtx &ctx, const ptx::Instruction &in) {
  ptx::ScalarType t = in.type();
  for (auto table : {callHandlers(), specialRegisterHandlers(), intHandlers(), floatHandlers(),
                     memoryHandlers(), controlHandlers(), atomicHandlers(), asyncCopyHandlers(),
                     warpHandlers(), syncHandlers(), textureHandlers(), convertHandlers(),
                     mmaHandlers(),
                     mbarrierHandlers(), setmaxnregHandlers(), bulkCopyHandlers(),
                     tensorCopyHandlers(), wgmmaHandlers()})
    for (const HandlerRow &row : table)
      if (row.family == in.opcode && takesType(row.types, t) &&
          (!row.accepts || row.accepts(in)) && (!row.acceptsIn || row.acceptsIn(ctx, in)))
        return row.handler;
  return nullptr;
}

ori::RegClass classOf(ptx::ScalarType t) {
  return ptx::typeKind(t) == ptx::TypeKind::Pred ? ori::RegClass::P : ori::RegClass::R;
}

} // namespace

bool LowerCtx::unsupported(const ptx::Instruction &in, std::string_view what) {
  std::string w = what.empty() ? "Instruction '" + in.fullOpcode() + "'" : std::string(what);
  diag.error(loc(in), w + " is not supported by ptxas-mini's code generator yet");
  return false;
}

bool LowerCtx::onlyModifiers(const ptx::Instruction &in,
                             std::initializer_list<std::string_view> allowed) {
  for (const ptx::Modifier &m : in.modifiers) {
    if (m.kind != ptx::Modifier::Kind::Other)
      continue;
    bool ok = false;
    for (std::string_view a : allowed)
      ok |= m.text == a;
    if (!ok)
      return unsupported(in, "Modifier '." + m.text + "' of '" + in.fullOpcode() + "'");
  }
  return true;
}

ori::Operand LowerCtx::reg(const ptx::Instruction &in, const std::string &name) {
  if (auto it = regs.find(name); it != regs.end())
    return it->second;
  ptx::ScalarType type = ptx::ScalarType::None;
  if (auto it = regTypes.find(name); it != regTypes.end()) {
    type = it->second;
  } else {
    // `%r12` of a `.reg .b32 %r<20>` declaration.
    llvm::StringRef n(name);
    llvm::StringRef prefix = n.rtrim("0123456789");
    unsigned index = 0;
    if (prefix.size() < n.size() && !n.drop_front(prefix.size()).getAsInteger(10, index))
      if (auto r = regRanges.find(prefix); r != regRanges.end() && index < r->second.second)
        type = r->second.first;
  }
  if (type == ptx::ScalarType::None) {
    unsupported(in, "Register '" + name + "' (not a declared .reg)");
    return {};
  }
  // 8- and 16-bit registers live in the low bits of one 32-bit R register (see
  // LowerCtx::reg); 64- and 128-bit ones in an aligned pair or quad.
  unsigned bits = ptx::typeBits(type);
  uint8_t width = bits == 128 ? 4 : bits == 64 ? 2 : 1;
  ori::Operand r = fn().newReg(classOf(type), width);
  regs[name] = r;
  return r;
}

ori::Operand LowerCtx::source(const ptx::Instruction &in, const ptx::Operand &op) {
  if (op.is<ptx::RegOperand>()) {
    const auto &r = op.as<ptx::RegOperand>();
    ori::Operand o = reg(in, r.name);
    if (r.negated && o.kind != ori::OperandKind::None)
      o.mods |= ori::OM_NOT;
    return o;
  }
  if (op.is<ptx::ImmOperand>())
    return ori::Operand::intImm(op.as<ptx::ImmOperand>().value);
  if (op.is<ptx::FloatOperand>()) {
    const auto &f = op.as<ptx::FloatOperand>();
    if (f.isDouble)
      return ori::Operand::fimm64(f.bits);
    return ori::Operand::fimm32(static_cast<uint32_t>(f.bits));
  }
  unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  return {};
}

ori::Operand LowerCtx::globalDescriptor() {
  if (globalDesc.kind != ori::OperandKind::None)
    return globalDesc;
  globalDesc = temp(ori::RegClass::UR, 2);
  ori::Instr i(ori::Opcode::ULDC);
  i.mods.push_back(ori::Modifier::Size64);
  i.addDef(globalDesc);
  i.addUse(ori::Operand::cbank(0, target.constBank().globalDescOffset));
  auto &entry = fn().blocks[0].instrs;
  entry.insert(entry.begin(), i);
  return globalDesc;
}

ori::Instr &LowerCtx::emit(ori::Opcode op, std::initializer_list<ori::Modifier> mods,
                           std::initializer_list<ori::Operand> defs,
                           std::initializer_list<ori::Operand> uses) {
  ori::Instr i(op);
  for (ori::Modifier m : mods)
    i.mods.push_back(m);
  for (const ori::Operand &d : defs)
    i.addDef(d);
  for (const ori::Operand &u : uses)
    i.addUse(u);
  i.guard = curGuard;
  i.srcLine = curLine;
  auto &instrs = fn().blocks[curBlock].instrs;
  instrs.push_back(i);
  return instrs.back();
}

uint32_t LowerCtx::startBlock(std::string name) {
  ori::Block b;
  b.name = name.empty() ? "bb" + std::to_string(fn().blocks.size()) : std::move(name);
  // Keep layout order: the new block goes right after the current one.
  auto pos = fn().blocks.begin() + curBlock + 1;
  fn().blocks.insert(pos, std::move(b));
  uint32_t idx = curBlock + 1;
  for (auto &entry : labels)
    if (entry.second >= idx)
      ++entry.second;
  for (ori::Block &blk : fn().blocks)
    for (ori::Instr &in : blk.instrs)
      for (ori::Operand &o : in.ops)
        if (o.kind == ori::OperandKind::Block && o.reg >= idx)
          ++o.reg;
  curBlock = idx;
  return idx;
}

std::optional<uint32_t> LowerCtx::findLabel(std::string_view name) const {
  for (auto it = labelScopes.rbegin(); it != labelScopes.rend(); ++it) {
    auto s = scopedLabels.find({*it, std::string(name)});
    if (s != scopedLabels.end())
      return labels.lookup(s->second);
  }
  return std::nullopt;
}

ori::Operand component(const ori::Operand &r, unsigned k) {
  ori::Operand c = r;
  c.sub = static_cast<uint8_t>(k);
  return c;
}

namespace {

/// Registers declared in a nested `{ }` block shadow outer ones of the same name for the
/// block's extent (inline PTX reuses short names with other types, `.reg .b64 d` in one
/// block and `.reg .b32 d` in the next): on entry each declared name gets its own type and
/// a fresh virtual register, on exit the outer binding comes back.
class RegScope {
public:
  RegScope(LowerCtx &ctx, const ptx::Block &b) : ctx_(ctx) {
    for (const ptx::Statement &st : b.statements) {
      if (!st.is<ptx::VarDecl>() || st.as<ptx::VarDecl>().space != ptx::StateSpace::Reg)
        continue;
      const ptx::VarDecl &d = st.as<ptx::VarDecl>();
      Saved s;
      s.name = d.name;
      if (auto it = ctx.regTypes.find(d.name); it != ctx.regTypes.end())
        s.type = it->second;
      if (auto it = ctx.regRanges.find(d.name); it != ctx.regRanges.end())
        s.range = it->second;
      saved_.push_back(s);
      if (d.rangeCount) {
        ctx.regTypes.erase(d.name);
        ctx.regRanges[d.name] = {d.type, d.rangeCount};
        // `%r<N>` names are prefix + index: drop the outer bindings of every one.
        for (unsigned i = 0; i < d.rangeCount; ++i)
          shadow(d.name + std::to_string(i));
      } else {
        ctx.regRanges.erase(d.name);
        ctx.regTypes[d.name] = d.type;
        shadow(d.name);
      }
    }
  }
  ~RegScope() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      ctx_.regTypes.erase(it->name);
      ctx_.regRanges.erase(it->name);
      if (it->type)
        ctx_.regTypes[it->name] = *it->type;
      if (it->range)
        ctx_.regRanges[it->name] = *it->range;
    }
    for (auto it = regs_.rbegin(); it != regs_.rend(); ++it) {
      if (it->second.kind == ori::OperandKind::None)
        ctx_.regs.erase(it->first);
      else
        ctx_.regs[it->first] = it->second;
    }
  }

private:
  void shadow(const std::string &name) {
    auto it = ctx_.regs.find(name);
    regs_.push_back({name, it == ctx_.regs.end() ? ori::Operand{} : it->second});
    if (it != ctx_.regs.end())
      ctx_.regs.erase(it);
  }
  struct Saved {
    std::string name;
    std::optional<ptx::ScalarType> type;
    std::optional<std::pair<ptx::ScalarType, unsigned>> range;
  };
  LowerCtx &ctx_;
  std::vector<Saved> saved_;
  std::vector<std::pair<std::string, ori::Operand>> regs_;
};

/// Walks a body in source order, lowering each statement.
bool lowerBlock(LowerCtx &ctx, const ptx::Block &body) {
  bool ok = true;
  for (const ptx::Statement &st : body.statements) {
    if (st.is<ptx::Block>()) {
      RegScope scope(ctx, st.as<ptx::Block>());
      ctx.labelScopes.push_back(ctx.nextLabelScope++); // pre-order, as collect() numbers them
      ok &= lowerBlock(ctx, st.as<ptx::Block>());
      ctx.labelScopes.pop_back();
    } else if (st.is<ptx::Label>()) {
      uint32_t target = ctx.findLabel(st.as<ptx::Label>().name).value_or(0);
      // A label starts its block; an empty fall-through block before it is dropped later.
      ctx.curBlock = target;
      ctx.localConstants.clear(); // other paths join here
    } else if (st.is<ptx::Instruction>()) {
      const ptx::Instruction &in = st.as<ptx::Instruction>();
      if (ctx.contractions.droppedMuls.contains(&in))
        continue; // folded into the fma of each of its uses
      auto contracted = ctx.contractions.uses.find(&in);
      Handler h = findHandler(ctx, in);
      if (!h) {
        ok &= ctx.unsupported(in);
        ctx.noteDefinitions(in);
        continue;
      }
      ctx.curGuard = {};
      ctx.curLine = in.line;
      if (in.guard) {
        ctx.curGuard = ctx.reg(in, in.guard->predicate);
        if (ctx.curGuard.kind == ori::OperandKind::None) {
          ok = false;
          continue;
        }
        if (in.guard->negated)
          ctx.curGuard.mods |= ori::OM_NOT;
      }
      ok &= contracted != ctx.contractions.uses.end() ? lowerContracted(ctx, in, contracted->second)
                                                      : h(ctx, in);
      ctx.noteDefinitions(in);
    } else if (st.is<ptx::VarDecl>()) {
      const ptx::VarDecl &d = st.as<ptx::VarDecl>();
      // .shared variables are laid out before the body (layoutKernelShared).
      if (d.space != ptx::StateSpace::Reg && d.space != ptx::StateSpace::Shared &&
          !declareInBody(ctx, d)) {
        ctx.diag.error(SourceLoc{ctx.module.fileName, d.line, d.column},
                       "Declarations in the ." + std::string(ptx::stateSpaceName(d.space)) +
                           " state space are not supported by ptxas-mini's code generator yet");
        ok = false;
      }
    } else if (st.is<ptx::Directive>()) {
      // Directives carry no code. A statement-level `.pragma "nounroll"` marks its block:
      // when that block is a loop header, OriLoopUnrolling (phase 22) leaves the loop rolled
      // (PTX ISA: the pragma applies to the loop whose header holds it; elsewhere ignored).
      const ptx::Directive &d = st.as<ptx::Directive>();
      if (d.kind == ptx::Directive::Kind::Pragma)
        for (const std::string &a : d.args)
          if (a == "nounroll")
            ctx.fn().blocks[ctx.curBlock].noUnroll = true;
    }
  }
  return ok;
}

/// Whether control can run off the end of the body: the last block is reached by falling
/// through from the code before it (an empty block after a guarded branch, a call, a plain
/// instruction) or by a branch to a label with nothing after it.
bool fallsOffTheEnd(LowerCtx &ctx) {
  const auto &blocks = ctx.fn().blocks;
  std::vector<bool> labelled(blocks.size(), false);
  for (const auto &l : ctx.labels)
    if (l.second < labelled.size())
      labelled[l.second] = true;
  for (size_t i = blocks.size(); i-- > 0;) {
    const ori::Block &b = blocks[i];
    if (!b.instrs.empty())
      return !b.instrs.back().isUnconditionalTerminator();
    if (i == 0 || labelled[i])
      return true;
  }
  return true;
}

/// PTX lets a body end without `ret` (Triton and other generators emit such kernels): control
/// that runs off the end returns. HW: ptxas 13.0.88 on sm_90 ends such a kernel with EXIT
/// (also when the only way there is a branch to a label at the very end: `@!P0 EXIT`) and such
/// a .func with its RET; a body ending in `trap` gets nothing after BPT.TRAP
/// (tests/lit/codegen/implicit_return.ptx). The return is lowered as if `ret` were written
/// there, at the function's line.
bool lowerImplicitReturn(LowerCtx &ctx, const ptx::Function &pf) {
  if (!fallsOffTheEnd(ctx))
    return true;
  ptx::Instruction ret;
  ret.opcode = "ret";
  ret.line = pf.line;
  ret.column = pf.column;
  Handler h = findHandler(ctx, ret);
  if (!h)
    return ctx.unsupported(ret, "Returning at the end of the function body");
  ctx.curGuard = {};
  ctx.curBlock = static_cast<uint32_t>(ctx.fn().blocks.size() - 1);
  return h(ctx, ret);
}

/// Declarations and labels first, so forward branches and uses find their targets. Only the
/// function body's own register declarations are collected here; a nested block's are bound
/// when the walk enters it (RegScope).
void collect(LowerCtx &ctx, const ptx::Block &body, uint32_t &scopes, bool nested = false) {
  uint32_t scope = nested ? scopes++ : 0;
  for (const ptx::Statement &st : body.statements) {
    if (st.is<ptx::Block>()) {
      collect(ctx, st.as<ptx::Block>(), scopes, true);
    } else if (st.is<ptx::VarDecl>()) {
      const ptx::VarDecl &d = st.as<ptx::VarDecl>();
      if (d.space != ptx::StateSpace::Reg || nested)
        continue;
      if (d.rangeCount)
        ctx.regRanges[d.name] = {d.type, d.rangeCount};
      else
        ctx.regTypes[d.name] = d.type;
    } else if (st.is<ptx::Label>()) {
      const std::string &name = st.as<ptx::Label>().name;
      ori::Block b;
      b.name = name;
      // A label repeated in another scope gets a block name of its own ('.' cannot occur
      // in a PTX identifier, so `LAB_WAIT.3` meets no PTX label).
      if (ctx.labels.count(b.name))
        b.name = name + "." + std::to_string(scope);
      for (unsigned k = 1; ctx.labels.count(b.name); ++k)
        b.name = name + "." + std::to_string(scope) + "." + std::to_string(k);
      ctx.labels[b.name] = static_cast<uint32_t>(ctx.fn().blocks.size());
      ctx.scopedLabels[{scope, name}] = b.name;
      ctx.fn().blocks.push_back(std::move(b));
    }
  }
}

/// Blocks that ended up empty and carry no PTX label (a fall-through block started after a
/// branch right before a label, or the join block of an expansion followed by a label) are
/// removed; a branch to one goes to the block it falls through to. The CFG is then rebuilt
/// from the terminators.
void dropEmptyUnlabelledBlocks(LowerCtx &ctx) {
  auto &blocks = ctx.fn().blocks;
  std::vector<int32_t> remap(blocks.size(), -1);
  std::vector<ori::Block> kept;
  // Blocks a non-branch operand names stay (a call's return point, `MOV R2, <block>`);
  // a branch to an empty block goes to the block it falls through to.
  std::vector<bool> referenced(blocks.size(), false);
  for (const ori::Block &b : blocks)
    for (const ori::Instr &in : b.instrs)
      if (!in.info().has(ori::OF_BR))
        for (const ori::Operand &o : in.ops)
          if (o.kind == ori::OperandKind::Block && o.reg < referenced.size())
            referenced[o.reg] = true;
  std::vector<uint32_t> dropped; // waiting for the next kept block
  for (uint32_t i = 0; i < blocks.size(); ++i) {
    bool isLabel = ctx.labels.count(blocks[i].name) != 0 || referenced[i];
    if (i != 0 && blocks[i].instrs.empty() && !isLabel) {
      dropped.push_back(i);
      continue;
    }
    remap[i] = static_cast<int32_t>(kept.size());
    for (uint32_t d : dropped)
      remap[d] = remap[i];
    dropped.clear();
    kept.push_back(std::move(blocks[i]));
  }
  bool endReferenced = false;
  for (const ori::Block &b : kept)
    for (const ori::Instr &in : b.instrs)
      for (const ori::Operand &o : in.ops)
        if (o.kind == ori::OperandKind::Block && remap[o.reg] < 0)
          endReferenced = true;
  if (endReferenced) { // branches to empty blocks at the very end: keep one as their target
    ori::Block end;
    end.name = "bb_end";
    for (uint32_t d : dropped)
      remap[d] = static_cast<int32_t>(kept.size());
    kept.push_back(std::move(end));
  }
  for (ori::Block &b : kept)
    for (ori::Instr &in : b.instrs)
      for (ori::Operand &o : in.ops)
        if (o.kind == ori::OperandKind::Block)
          o.reg = static_cast<uint32_t>(remap[o.reg]);
  blocks = std::move(kept);
}

} // namespace

} // namespace lower

bool lowerModule(const ptx::Module &m, const Target &target, std::vector<LoweredFunction> &out,
                 DiagEngine &diag) {
  LoweredModuleData data;
  return lowerModule(m, target, out, diag, data);
}

bool lowerModule(const ptx::Module &m, const Target &target, std::vector<LoweredFunction> &out,
                 DiagEngine &diag, LoweredModuleData &data, const LowerOptions &opts) {
  // Module variables first: the code addresses them (lower_module_data.cpp).
  lower::ModuleLayout layout;
  bool ok = lower::layoutModuleData(m, target, diag, layout, data);
  // The .func a kernel reaches through calls (an indirect call may reach every function
  // whose address is taken); the others produce no code.
  llvm::StringMap<bool> reached;
  std::vector<const ptx::Function *> work;
  for (const ptx::Function &pf : m.functions)
    if (pf.isEntry && pf.hasBody)
      work.push_back(&pf);
  while (!work.empty()) {
    const ptx::Function *f = work.back();
    work.pop_back();
    for (const std::string &c : lower::possibleCallees(m, *f))
      if (const ptx::Function *g = lower::findDefinition(m, c); g && g->hasBody && !g->isEntry &&
                                                       reached.insert({c, true}).second)
        work.push_back(g);
  }
  std::vector<const ptx::Function *> order;
  for (const ptx::Function &pf : m.functions)
    if (pf.hasBody && pf.isEntry)
      order.push_back(&pf);
  for (const ptx::Function &pf : m.functions)
    if (pf.hasBody && !pf.isEntry && reached.count(pf.name))
      order.push_back(&pf);
  for (const ptx::Function *pfp : order) {
    const ptx::Function &pf = *pfp;
    LoweredFunction lf;
    lf.isKernel = pf.isEntry;
    if (pf.isEntry)
      lf.externs = lower::externsCalled(m, pf);
    lf.fn.name = pf.name;
    lf.fn.isKernel = pf.isEntry;
    lower::LowerCtx ctx(m, pf, target, diag, lf);
    ctx.moduleLayout = &layout;
    // 1. The parameter block: each parameter at its own alignment, in order. The alignment
    // holds for the parameter's address in constant bank 0, not its offset in the block. HW:
    // ptxas 13.0 puts `.param .align 128 .b8 g[1280]` at block offset 0x70 (c[0x0][0x280];
    // KPARAM_INFO, CBANK_PARAM_SIZE 0x570; ThunderKittens gemm level_04).
    uint32_t offset = 0;
    const uint32_t base = target.constBank().paramBase;
    if (pf.isEntry)
      for (const ptx::VarDecl &p : pf.params) {
        uint32_t size = static_cast<uint32_t>(p.sizeInBytes());
        uint32_t align = p.align ? p.align : std::max<uint32_t>(1, ptx::typeBits(p.type) / 8);
        offset = lower::alignTo(base + offset, align) - base;
        LoweredParam lp{offset, size, p.isPtr, p.ptrSpace, p.ptrAlign};
        ctx.params[p.name] = lp;
        lf.params.push_back(lp);
        offset += size;
      }
    lf.paramBytes = offset;
    for (const char *attrName : {"maxntid", "reqntid"}) {
      if (const ptx::FunctionAttr *a = pf.attr(attrName)) {
        std::array<uint32_t, 3> dims{1, 1, 1};
        for (size_t i = 0; i < a->values.size() && i < 3; ++i)
          dims[i] = static_cast<uint32_t>(a->values[i]);
        (std::string_view(attrName) == "maxntid" ? lf.maxntid : lf.reqntid) = dims;
      }
    }
    if (const ptx::FunctionAttr *a = pf.attr("reqnctapercluster")) {
      std::array<uint32_t, 3> dims{1, 1, 1};
      for (size_t i = 0; i < a->values.size() && i < 3; ++i)
        dims[i] = static_cast<uint32_t>(a->values[i]);
      lf.reqnctapercluster = dims;
    }
    if (const ptx::FunctionAttr *a = pf.attr("maxnreg"); a && !a->values.empty())
      lf.maxnreg = static_cast<uint32_t>(a->values[0]);
    if (const ptx::FunctionAttr *a = pf.attr("minnctapersm"); a && !a->values.empty())
      lf.minnctapersm = static_cast<uint32_t>(a->values[0]);
    // 2. Declarations and labels; block 0 is the entry. Shared memory is laid out here.
    ori::Block entry;
    entry.name = "entry";
    lf.fn.blocks.push_back(std::move(entry));
    uint32_t labelScopes = 1;
    lower::collect(ctx, pf.body, labelScopes);
    if (!lower::layoutKernelShared(ctx, layout) || !lower::beginFunctionLowering(ctx) ||
        !lower::planWgmmaAccumulators(ctx, pf.body)) {
      ok = false;
      continue;
    }
    // 3. The statements (mul + add pairs contracted into fma, as ptxas does by default;
    // --fmad=false keeps them apart).
    if (opts.contractMulAdd)
      ctx.contractions = lower::planContractions(pf.body);
    ctx.curBlock = 0;
    if (!lower::lowerBlock(ctx, pf.body) || !lower::lowerImplicitReturn(ctx, pf)) {
      ok = false;
      continue;
    }
    lower::endFunctionLowering(ctx);
    lower::dropEmptyUnlabelledBlocks(ctx);
    // A module-scope `.pragma "nounroll"` leaves every loop of the module rolled.
    if (std::find(m.pragmas.begin(), m.pragmas.end(), "nounroll") != m.pragmas.end())
      for (ori::Block &b : lf.fn.blocks)
        b.noUnroll = true;
    ori::buildCFG(lf.fn);
    if (!lower::placeWgmmaAccumulators(ctx)) {
      ok = false;
      continue;
    }
    lf.fn.recomputeRegTable();
    out.push_back(std::move(lf));
  }
  return ok;
}

} // namespace ptxmini::frontend
