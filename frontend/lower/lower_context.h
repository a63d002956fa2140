//===- frontend/lower/lower_context.h - state shared by the lowering of one function ---===//
///
/// \file
/// LowerCtx maps PTX names to Ori values (registers to virtual registers of the class and
/// width their declared type asks for, parameters to constant-bank offsets, labels to
/// blocks) and appends instructions to the current block. The per-family files
/// (lower_arith.cpp, lower_mem.cpp, lower_control.cpp) each register their handlers in a
/// table keyed by the PTX opcode family.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "frontend/lower.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/StringMap.h>

#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ptxmini::frontend::lower {

struct LowerCtx;
struct ModuleLayout; // lower_mem.h: where the module's variables live
/// Lowers one instruction; false after reporting an error.
using Handler = bool (*)(LowerCtx &, const ptx::Instruction &);

/// Which instruction types a handler row takes: the same PTX family (`add`, `setp`, `min`)
/// goes to the integer file for .s/.u/.b/.pred types and to the float file for .f types.
enum class TypeClass : uint8_t { Any, Int, Float };

/// Whether a row takes an instruction beyond family and type class (e.g. lower_int.cpp's
/// `mov` row takes immediates, predicates and sub-word registers; other movs fall through to
/// the next matching row). `AcceptsInFunction` also sees the function being lowered: the
/// function-level rows of lower_call.cpp take `ld.param` of a .func parameter, `ld.local`,
/// `ret` in a .func, ... and leave the rest of the family to the other tables.
using Accepts = bool (*)(const ptx::Instruction &);
using AcceptsInFunction = bool (*)(const LowerCtx &, const ptx::Instruction &);

struct HandlerRow {
  std::string_view family; ///< PTX opcode family as the AST spells it ("ld", "mad")
  TypeClass types;
  Handler handler;
  Accepts accepts = nullptr; ///< nullptr: every instruction of the family and type class
  AcceptsInFunction acceptsIn = nullptr; ///< the same question, with the function's state
};

// The per-family tables (defined in lower_<family>.cpp).
std::span<const HandlerRow> intHandlers();     // lower_int.cpp: integer, logic, predicates
std::span<const HandlerRow> floatHandlers();   // lower_float.cpp: f16/bf16/f32/f64
std::span<const HandlerRow> memoryHandlers();  // lower_mem.cpp
std::span<const HandlerRow> atomicHandlers();  // lower_atomic.cpp: atom, red
std::span<const HandlerRow> asyncCopyHandlers(); // lower_async.cpp: cp.async
std::span<const HandlerRow> mbarrierHandlers(); // lower_mbarrier.cpp: mbarrier.*
std::span<const HandlerRow> setmaxnregHandlers(); // lower_setmaxnreg.cpp: setmaxnreg
std::span<const HandlerRow> bulkCopyHandlers(); // lower_bulk_copy.cpp: cp.async.bulk
std::span<const HandlerRow> tensorCopyHandlers(); // lower_tensor_copy.cpp: cp.async.bulk.tensor
std::span<const HandlerRow> controlHandlers(); // lower_control.cpp
std::span<const HandlerRow> warpHandlers();    // lower_warp.cpp: shfl, vote, match, redux, ...
std::span<const HandlerRow> syncHandlers();    // lower_sync.cpp: bar/barrier, membar, fence
std::span<const HandlerRow> specialRegisterHandlers(); // lower_sreg.cpp: mov d, %sreg
std::span<const HandlerRow> textureHandlers(); // lower_tex.cpp: tex, suld, sust, txq, suq
std::span<const HandlerRow> convertHandlers(); // lower_convert.cpp: cvt
std::span<const HandlerRow> mmaHandlers();     // lower_mma.cpp, lower_wmma.cpp: mma, ldmatrix, wmma
std::span<const HandlerRow> callHandlers();    // lower_call.cpp: calls, .func params, .local
std::span<const HandlerRow> wgmmaHandlers();   // lower_wgmma.cpp: wgmma.*
/// lower_wgmma.cpp's part of the per-function driver: gives the accumulator tuples of the
/// body's wgmma.mma_async provisional physical registers before the body is lowered, and
/// after it (the CFG built) places them in R registers by their liveness (false after
/// reporting an error).
bool planWgmmaAccumulators(LowerCtx &ctx, const ptx::Block &body);
bool placeWgmmaAccumulators(LowerCtx &ctx);

/// The function-level state of lower_call.cpp (parameters of a .func, call-site parameters,
/// .local variables, the return address); defined there.
struct CallLowering;
/// lower_call.cpp's part of the per-function driver (lower.cpp): before the body (frame
/// layout of .local variables, the kernel's stack pointer, a .func's return address; false
/// after reporting an error), for a declaration in the body (call-site .param and .local;
/// false when it is neither), and after the body.
bool beginFunctionLowering(LowerCtx &ctx);
bool declareInBody(LowerCtx &ctx, const ptx::VarDecl &d);
void endFunctionLowering(LowerCtx &ctx);
/// The functions `f` calls directly, in order of first call.
std::vector<std::string> directCallees(const ptx::Function &f);
/// The functions with a body whose address the module takes (`.global .u64 vt[2] = {f, g}`,
/// `mov.u64 %rd, f`), in definition order: the possible targets of an indirect call.
std::vector<std::string> addressTakenFunctions(const ptx::Module &m);
/// Whether `f` calls through a register (`call (r), %rd, (a), proto;`).
bool hasIndirectCall(const ptx::Function &f);
/// directCallees, plus every address-taken function when `f` calls indirectly.
std::vector<std::string> possibleCallees(const ptx::Module &m, const ptx::Function &f);
/// Whether `name` is a function declared without a body (`.extern .func vprintf`): called
/// through the CUDA ABI (targets/calling_convention.h).
bool isExternFunction(const ptx::Module &m, std::string_view name);
/// The extern functions `f` calls directly or through the .func it reaches, in declaration
/// order.
std::vector<std::string> externsCalled(const ptx::Module &m, const ptx::Function &f);
/// The definition (with a body) of function `name`, past forward declarations; else the
/// first declaration, or nullptr.
const ptx::Function *findDefinition(const ptx::Module &m, std::string_view name);

/// mul + add/sub contraction into fma (lower_contract.cpp).
struct Contraction {
  const ptx::Instruction *mul = nullptr;
  bool productFirst = false;  ///< the product is the use's first source
  bool negateProduct = false; ///< sub c, product: fma(-a, b, c)
  bool negateAddend = false;  ///< sub product, c: fma(a, b, -c)
};
struct ContractionPlan {
  llvm::DenseMap<const ptx::Instruction *, Contraction> uses; ///< add/sub lowered as fma
  llvm::DenseSet<const ptx::Instruction *> droppedMuls;       ///< multiplies folded into them
};
/// The contractions of one function body (see lower_contract.cpp for the rule).
ContractionPlan planContractions(const ptx::Block &body);
/// Lowers `use` as fma with its multiply's factors.
bool lowerContracted(LowerCtx &ctx, const ptx::Instruction &use, const Contraction &c);
/// fma (lower_float.cpp), for lowerContracted.
bool lowerFmaInstruction(LowerCtx &ctx, const ptx::Instruction &in);

struct LowerCtx {
  LowerCtx(const ptx::Module &m, const ptx::Function &f, const Target &t, DiagEngine &d,
           LoweredFunction &o)
      : module(m), pfn(f), target(t), diag(d), out(o) {}

  const ptx::Module &module;
  const ptx::Function &pfn;
  const Target &target;
  DiagEngine &diag;
  LoweredFunction &out;
  uint32_t curBlock = 0;

  /// Declared register types: exact names and `%r<N>` range prefixes.
  llvm::StringMap<ptx::ScalarType> regTypes;
  llvm::StringMap<std::pair<ptx::ScalarType, unsigned>> regRanges;
  llvm::StringMap<ori::Operand> regs; ///< PTX register -> virtual register
  llvm::StringMap<LoweredParam> params;
  llvm::StringMap<uint32_t> labels;   ///< block name of a PTX label -> block
  /// PTX labels are scoped by `{ }` blocks (inline asm repeats `LAB_WAIT:` in each of its
  /// blocks): (scope, label) -> block name, where scope 0 is the function body and nested
  /// blocks are numbered in pre-order; a label of a nested scope whose name is taken gets the
  /// block name `name.scope`. `labelScopes` is the walk's stack of open scopes.
  std::map<std::pair<uint32_t, std::string>, std::string> scopedLabels;
  std::vector<uint32_t> labelScopes{0};
  uint32_t nextLabelScope = 1;
  /// The block a PTX label names from the current scope (innermost definition), or none.
  std::optional<uint32_t> findLabel(std::string_view name) const;
  ori::Operand globalDesc;            ///< UR pair holding the global descriptor, once loaded
  const ModuleLayout *moduleLayout = nullptr; ///< the module's variables (lower_mem.h)
  llvm::StringMap<uint32_t> sharedVars; ///< .shared variable -> offset in the CTA's window
  std::shared_ptr<CallLowering> calls; ///< lower_call.cpp's state for this function
  /// The carry flag (PTX CC.CF) of add.cc/addc/sub.cc/subc/mad.cc/madc chains: the predicate
  /// the last `.cc` instruction wrote (kind None before the first one). lower_int.cpp.
  ori::Operand carryFlag;
  /// wgmma (lower_wgmma.cpp): the physical registers of the function's accumulators, and
  /// the last warpgroup MMA (block, index) since the last wgmma.commit_group.
  std::vector<ori::Operand> wgmmaAccumulators;
  /// The accumulator tuples: first provisional register, size, and the first MMA's location.
  struct WgmmaTuple {
    uint32_t first, size;
    SourceLoc loc;
  };
  std::vector<WgmmaTuple> wgmmaTuples;
  std::optional<std::pair<uint32_t, size_t>> lastGmma;

  ori::Function &fn() { return out.fn; }
  SourceLoc loc(const ptx::Instruction &in) const {
    return SourceLoc{module.fileName, in.line, in.column};
  }
  /// Reports "<what> is not supported by ptxas-mini's code generator yet"; returns false.
  bool unsupported(const ptx::Instruction &in, std::string_view what = {});
  /// Checks that every non-type, non-space modifier of `in` is in `allowed`; reports and
  /// returns false otherwise (an unknown modifier must never be dropped silently).
  bool onlyModifiers(const ptx::Instruction &in, std::initializer_list<std::string_view> allowed);

  /// The virtual register for a PTX register name (created on first use from its
  /// declaration); kind None after reporting an error. A .b8/.b16/.u16/.s16/.f16/.bf16
  /// register is one 32-bit R register whose bits above the PTX width are UNSPECIFIED:
  /// producers may leave anything there, and every consumer that depends on them (compares,
  /// right shifts, widening conversions, division, min/max) extends the value explicitly.
  /// 64-bit registers are aligned pairs, 128-bit ones aligned quads.
  ori::Operand reg(const ptx::Instruction &in, const std::string &name);
  /// A register, an integer immediate or a float immediate operand as an Ori source.
  ori::Operand source(const ptx::Instruction &in, const ptx::Operand &op);
  /// A fresh virtual register.
  ori::Operand temp(ori::RegClass c, uint8_t width = 1) { return fn().newReg(c, width); }
  /// The descriptor global memory accesses name (`desc[URx]`), loaded at function entry.
  ori::Operand globalDescriptor();

  /// The PTX instruction's guard (`@%p` / `@!%p`) as an Ori predicate, applied by emit()
  /// to every instruction the PTX instruction lowers to.
  ori::Operand curGuard;
  /// The PTX line of the instruction being lowered: every Ori instruction emit() makes gets
  /// it as srcLine (the line tables map code back to it).
  uint32_t curLine = 0;

  /// Appends an instruction to the current block: `defs` then `uses`, with modifiers.
  ori::Instr &emit(ori::Opcode op, std::initializer_list<ori::Modifier> mods,
                   std::initializer_list<ori::Operand> defs,
                   std::initializer_list<ori::Operand> uses);
  /// Ends the current block and starts a new (fall-through) one; returns its index.
  uint32_t startBlock(std::string name = {});

  /// The value of `op` when it is known at compile time: an integer immediate, or a register
  /// whose only definition in the function is `mov` of an integer immediate (nvcc's way of
  /// passing shfl/vote/bar operands), or whose last definition in straight-line code before
  /// this instruction is one. Defined in lower_warp.cpp.
  std::optional<int64_t> knownConstant(const ptx::Operand &op);
  /// Registers defined exactly once, by `mov` of an integer immediate (built on first use).
  std::optional<llvm::StringMap<int64_t>> singleMovImm;
  /// Registers whose last definition since the last label was `mov` of an integer immediate
  /// (inline-asm blocks reuse registers: `mov.u32 %r56, -1; elect.sync _|P, %r56;`).
  llvm::StringMap<int64_t> localConstants;
  /// mul + add/sub pairs lowered as fma (planned per function before its body).
  ContractionPlan contractions;
  /// Updates localConstants after `in` (lower_warp.cpp); called for every instruction.
  void noteDefinitions(const ptx::Instruction &in);
};

/// True when `name` is a declared .reg (an exact name or a `%r<N>` range member).
bool isDeclaredRegister(const LowerCtx &ctx, const std::string &name);
/// `mov d, name` for a PTX special register `name` (lower_sreg.cpp, from the target's table);
/// false after reporting.
bool lowerSpecialRegister(LowerCtx &ctx, const ptx::Instruction &in, const ori::Operand &d,
                          const std::string &name);

/// The 32-bit component `k` of a register operand (a 64-bit value's low half is 0).
ori::Operand component(const ori::Operand &r, unsigned k);

/// The fixed registers.
inline ori::Operand RZ() { return ori::Operand::fixed(ori::RegClass::R); }
inline ori::Operand PT() { return ori::Operand::fixed(ori::RegClass::P); }
inline ori::Operand URZ() { return ori::Operand::fixed(ori::RegClass::UR); }
inline ori::Operand notPT() {
  ori::Operand p = PT();
  p.mods |= ori::OM_NOT;
  return p;
}

} // namespace ptxmini::frontend::lower
