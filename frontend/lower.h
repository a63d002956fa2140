//===- frontend/lower.h - PTX AST to Ori: the lowering's entry point -------------------===//
///
/// \file
/// Lowers each function of a checked PTX module into an Ori function on virtual registers,
/// plus the facts the cubin writer needs (parameter layout, launch bounds). Instruction
/// selection is split by PTX family under frontend/lower/ (arith, memory, control); every
/// PTX instruction or form it does not handle yet is an error naming the instruction and
/// line ("... is not supported by ptxas-mini's code generator yet"), never silently wrong
/// code.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "frontend/ptx_ast.h"
#include "ori/ori.h"
#include "support/diag.h"
#include "targets/target.h"

#include <array>
#include <map>
#include <string>
#include <optional>
#include <vector>

namespace ptxmini::frontend {

struct LoweredParam {
  uint32_t offset = 0; ///< within the parameter block (constant bank 0 + paramBase)
  uint32_t size = 0;
  /// `.ptr [.space] [.align N]` (kernel parameters): what the pointer is declared to point
  /// at, for the cubin's KPARAM_INFO. pointee None: not declared a pointer.
  bool isPtr = false;
  ptx::StateSpace pointee = ptx::StateSpace::None;
  unsigned pointeeAlign = 0; ///< .align N after .ptr; 0 when not given
};

struct LoweredFunction {
  ori::Function fn;
  bool isKernel = false;
  std::vector<LoweredParam> params;
  uint32_t paramBytes = 0;
  std::optional<std::array<uint32_t, 3>> maxntid, reqntid;
  // Shared memory (kernels): the static bytes after the reserved window bottom (function
  // .shared variables, then the module .shared variables the kernel uses), their largest
  // alignment, whether the kernel has a .nv.shared.<k> section at all (static or extern
  // shared memory) and whether its code takes a shared variable's address.
  uint32_t sharedBytes = 0;
  uint32_t sharedAlign = 1;
  bool usesShared = false;
  bool referencesShared = false;
  /// Kernels: each .shared variable's address in the shared window (what -g's DWARF
  /// gives as its location: compiler/debug_info.h).
  std::map<std::string, uint32_t> sharedAddresses;
  std::optional<uint32_t> maxnreg, minnctapersm; ///< .maxnreg, .minnctapersm
  std::optional<std::array<uint32_t, 3>> reqnctapercluster; ///< CTA_PER_CLUSTER
  /// Kernels: the extern functions (LoweredModuleData::externs) it calls directly or
  /// through the .func it reaches, in declaration order (EXTERNS).
  std::vector<std::string> externs;
  /// The register counts of the setmaxnreg instructions it kept (frontend/lower/
  /// lower_setmaxnreg.cpp): the allocator stays within the smallest, and the cubin reports
  /// the entry count (the launch-bound limit) as ptxas does.
  std::vector<uint32_t> setmaxnreg;
  bool setmaxnregIgnored = false; ///< C7508 reported (once per function, as ptxas does)
  /// Kernels: the texture and surface references (`.global .texref` / `.surfref`) its code
  /// names, in order of first use, each with the constant-bank-0 offset of its 4-byte slot
  /// (frontend/lower/lower_tex.cpp).
  struct TexRef {
    std::string name;
    bool surface = false;
    uint32_t offset = 0;
  };
  std::vector<TexRef> texRefs;
};

/// A module-scope .global or .const variable as the cubin holds it.
struct LoweredVariable {
  std::string name;
  bool isConst = false;      ///< .const (constant bank 3) rather than .global
  uint32_t size = 0, align = 1;
  bool hasInit = false;      ///< .global: initialised (.nv.global.init) or not (.nv.global)
  std::vector<uint8_t> init; ///< initial bytes (may be shorter than size: zeros follow)
  uint64_t offset = 0;       ///< within its section (.nv.global[.init] / .nv.constant3)
  bool addressSlot = false;  ///< has a 64-bit address slot in constant bank 4
  uint32_t slot = 0;         ///< its offset there
  /// Initializer elements that are addresses of .global variables (`generic(v)+8`, `v`):
  /// an R_CUDA_G64 relocation each in .rela.nv.global.init (the init bytes there are 0).
  struct AddressInit {
    uint32_t offset = 0; ///< byte offset within this variable
    std::string symbol;  ///< the variable addressed
    int64_t addend = 0;
  };
  std::vector<AddressInit> addressInits;
};

/// A function declared without a body that some kernel calls (vprintf, __assertfail): the
/// driver resolves it at load time through its constant-bank-4 address slot.
struct LoweredExtern {
  std::string name;
  uint32_t slot = 0; ///< offset of its 64-bit address slot in constant bank 4
};

/// What the module contributes to the cubin besides its functions.
struct LoweredModuleData {
  std::vector<LoweredVariable> variables; ///< PTX declaration order
  std::vector<LoweredExtern> externs;     ///< in slot order
  /// Functions whose address the module takes (initializers, mov), in definition order: a
  /// function pointer's value is 8 * (index + 1), its entry in the calling kernel's
  /// .nv.constant2 table of code offsets (lower_call.cpp).
  std::vector<std::string> functionPointers;
};

/// Lowers every kernel with a body and every .func a kernel reaches through calls (unused
/// .func produce no code, as in ptxas's whole-program mode); kernels first, then the callees
/// in PTX definition order. False when anything was reported through `diag`.
bool lowerModule(const ptx::Module &m, const Target &target, std::vector<LoweredFunction> &out,
                 DiagEngine &diag);
/// Choices the command line makes for the lowering.
struct LowerOptions {
  /// Contract a `mul` and an `add`/`sub` without rounding modifiers into one fused
  /// multiply-add (ptxas's `--fmad`, default true). PTX `fma` and `mad.rnd` are fused
  /// whatever this says; `--fmad=false` only forbids fusing what the PTX wrote as two
  /// instructions (HW: ptxas 13.0.88 --fmad=false keeps FFMA for fma.rn.f32 / mad.rn.f32
  /// and gives FMUL + FADD, DMUL + DADD, HMUL2 + HADD2 for the separate forms).
  bool contractMulAdd = true;
};

/// The same, also describing the module's variables (appended to `data`).
bool lowerModule(const ptx::Module &m, const Target &target, std::vector<LoweredFunction> &out,
                 DiagEngine &diag, LoweredModuleData &data, const LowerOptions &opts = {});

} // namespace ptxmini::frontend
