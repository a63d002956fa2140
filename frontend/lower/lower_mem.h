//===- frontend/lower/lower_mem.h - memory lowering: module data and addresses --------===//
///
/// \file
/// What the memory files share (lower_mem.cpp: mov/cvta/ld/st/ldu/prefetch,
/// lower_atomic.cpp: atom/red, lower_module_data.cpp: variable layout):
///   - ModuleLayout: where each module-scope variable lives, computed once per module;
///   - the per-kernel shared-memory layout (function .shared variables, then the module ones
///     the kernel names, then the .extern ones at the end);
///   - address formation: a PTX address operand `[reg+off]` / `[var+off]` / `[imm]` as an
///     Ori base register and immediate offset for the access's state space.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "frontend/lower/lower_context.h"

#include <llvm/ADT/StringMap.h>

namespace ptxmini::frontend::lower {

/// A module-scope variable as the code addresses it.
struct ModuleVar {
  /// TexRef / SurfRef: a `.global .texref` / `.surfref` (no storage; kernels read its
  /// header index from a constant-bank-0 slot, lower_tex.cpp).
  enum class Kind : uint8_t { Global, Const, Shared, TexRef, SurfRef };
  Kind kind = Kind::Global;
  uint32_t size = 0, align = 1;
  uint32_t constOffset = 0; ///< Const: offset in the .const bank
  uint32_t slotOffset = 0;  ///< Global: offset of its 64-bit address slot
  bool isExtern = false;    ///< Shared: `.extern .shared` (dynamic shared memory)
  unsigned declIndex = 0;   ///< position among the module's declarations
  /// Global: its initializer holds a function's address (a virtual table, a table of device
  /// function pointers): a kernel that takes its address may call through it.
  bool holdsFunctionAddress = false;
};

struct ModuleLayout {
  llvm::StringMap<ModuleVar> vars;
  llvm::StringMap<uint32_t> externSlots; ///< extern function -> its address slot's offset
  /// Address-taken function -> its function-pointer value (LoweredModuleData's
  /// functionPointers: 8 * (index + 1)).
  llvm::StringMap<uint32_t> functionPointers;
  std::vector<std::string> functionPointerOrder; ///< the same functions, in value order
  bool hasExternShared = false;
  uint32_t externSharedAlign = 1;
};

/// Lays out the module's .global/.const/.shared variables (ModuleLayout for the code,
/// LoweredVariable rows for the cubin). False after reporting what is not supported.
bool layoutModuleData(const ptx::Module &m, const Target &t, DiagEngine &diag,
                      ModuleLayout &layout, LoweredModuleData &data);

/// The kernel's shared memory: window offsets of every .shared variable it may name
/// (ctx.sharedVars) and the LoweredFunction's shared facts. False after reporting.
bool layoutKernelShared(LowerCtx &ctx, const ModuleLayout &layout);

/// How a memory access's address is held: `base` (a 64-bit pair for global/generic, a 32-bit
/// register for shared; kind None for an absolute address) plus `offset`.
struct MemAddress {
  ori::Operand base;
  int32_t offset = 0;
};

/// A shared address (or any 32-bit address) as one R register, its offset added: MOV of the
/// offset when there is no base, the base itself when the offset is 0, else an IADD3.
/// lower_bulk_copy.cpp (the Hopper bulk and tensor copies' operand tuples).
ori::Operand sharedAddressReg(LowerCtx &ctx, const MemAddress &a);

/// The direction of a Hopper bulk or tensor copy from its two state-space modifiers:
/// `.shared::cluster.global` (a load into shared memory), `.global.shared::cta` (a store from
/// it), or neither. lower_bulk_copy.cpp.
enum class BulkDirection : uint8_t { None, ToShared, ToGlobal };
BulkDirection bulkDirection(const ptx::Instruction &in);

/// Resolves the address operand `op` of `in` for an access to `space` (Global, Shared or
/// None = generic), emitting what is needed to form the base (a variable's address slot, the
/// shared window base). False after reporting.
bool memAddress(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &op,
                ptx::StateSpace space, MemAddress &out);

/// The Ori memory operand for `a` in `space`: desc[UR][base.64+off] for global and generic
/// accesses, [base+off] for shared ones.
ori::Operand memOperand(LowerCtx &ctx, const MemAddress &a, ptx::StateSpace space);

/// The 32-bit shared-window address of `window offset` (reserve + variable offset):
/// `MOV t, off; S2R c, SR_CgaCtaId; LEA d, c, t, shift`.
ori::Operand sharedWindowAddress(LowerCtx &ctx, uint32_t windowOffset,
                                 const ori::Operand &dest = {});

/// The SASS ordering modifiers of a PTX memory-consistency qualifier set (.volatile,
/// .relaxed/.acquire/.release/.acq_rel with a scope), and the fences ptxas puts around a
/// strong access. `isAtomic` selects the atomics' default (.STRONG.GPU without qualifiers).
struct MemOrder {
  std::optional<ori::Modifier> scope; ///< SM / GPU / SYS after STRONG; none: weak access
  bool acquire = false;               ///< CCTL.IVALL after (gpu/sys scopes)
  bool releaseFence = false;          ///< MEMBAR before
  ori::Modifier fenceScope = ori::Modifier::CTA;
};
/// Reads .volatile/.relaxed/.acquire/.release/.acq_rel/.weak/.mmio and the scope words of
/// `in`; false after reporting an unsupported combination. Marks the words it consumed in
/// `used`.
bool memOrder(LowerCtx &ctx, const ptx::Instruction &in, bool isAtomic, MemOrder &out,
              std::vector<std::string_view> &used);
/// STRONG.<scope> appended to `mods` (nothing for a weak access).
void appendOrder(const MemOrder &o, llvm::SmallVectorImpl<ori::Modifier> &mods);
/// The fence ptxas puts before a release access: MEMBAR.ALL.<scope> (+ ERRBAR; CGAERRBAR
/// beyond the CTA).
void emitReleaseFence(LowerCtx &ctx, const MemOrder &o);
/// The invalidation ptxas puts after an acquire access at GPU/system scope: CCTL.IVALL.
void emitAcquireFence(LowerCtx &ctx, const MemOrder &o);

/// d = s + imm for a 64-bit register pair (IADD3 with carry into IADD3.X).
void add64Imm(LowerCtx &ctx, const ori::Operand &d, const ori::Operand &s, int64_t imm);

/// red (lower_atomic.cpp), for multimem.red (lower_mem.cpp).
bool lowerRedInstr(LowerCtx &ctx, const ptx::Instruction &in);

} // namespace ptxmini::frontend::lower
