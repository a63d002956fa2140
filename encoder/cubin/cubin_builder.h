//===- encoder/cubin/cubin_builder.h - a cubin from what the compiler knows -----------===//
///
/// \file
/// The writer side used by the compiler (issue 6): describe each function (name, code,
/// parameters, registers, barriers, shared memory, stack, exits, launch bounds, ...) and the
/// module data, and buildCubin() produces the model of the cubin ptxas 13.0 would write for
/// sm_90: sections in ptxas's order with its flags, the symbol table in its order, string
/// tables, .nv.info / .nv.info.<fn> / .nv.compat, notes, .debug_frame with its relocations,
/// .nv.callgraph, program headers (executables) or relocatable sections (-c). writeCubin()
/// then gives the bytes. Rules and where each was observed are in cubin_builder.cpp.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "encoder/cubin/cubin_model.h"
#include "encoder/cubin/debug_line.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace ptxmini::cubin {

struct ParamInfo {
  uint32_t offset = 0; ///< byte offset within the parameter block (bank 0 + 0x210)
  uint32_t size = 0;
  uint32_t logAlign = 0;     ///< KPARAM_INFO "pointee's logAlignment" (bits 0-7)
  uint32_t pointeeSpace = 0; ///< KPARAM_INFO "Space" (bits 8-11): 0 unless a `.ptr` parameter
};

/// A relocation in a function's code (relocatable output): the symbol is named, the builder
/// resolves it to its index.
struct CodeReloc {
  uint64_t offset = 0;
  uint32_t type = 0;
  std::string symbol;
  int64_t addend = 0;
};

/// A whole-program callee placed inside its caller's .text (symbol "$caller$callee").
struct LocalFunction {
  std::string name; ///< full symbol name, e.g. "$_Z1kv$_Z6helperv"
  uint64_t offset = 0, size = 0;
  uint32_t frameSize = 0;
  uint8_t binding = elf::kStbLocal; ///< libdevice helpers ($__internal_N_$...) are WEAK
  /// The register that holds the return address on entry (the CIE's RA rule).
  uint32_t raRegister = 0;
  /// The FDE's call-frame program (DW_CFA_* bytes, without padding) for what the callee
  /// does to its frame and return address, e.g. DW_CFA_register when it moves the RA.
  std::vector<uint8_t> cfaProgram;
};

struct FunctionInfo {
  std::string name;
  bool isKernel = true;
  bool visible = true; ///< device functions: .visible (GLOBAL) or not (LOCAL, -c only)
  /// Instructions up to and including the last EXIT/RET; the builder adds the tail
  /// (BRA-to-self and NOP padding).
  std::vector<uint8_t> code;
  std::vector<ParamInfo> params; ///< in ordinal order
  uint32_t paramBytes = 0;       ///< size of the parameter block (CBANK_PARAM_SIZE)
  uint32_t regCount = 0;
  uint32_t maxReg = 0xff;        ///< MAXREG_COUNT
  uint32_t numBarriers = 0;
  uint32_t sharedBytes = 0;      ///< user static shared bytes (without the 1 KB reserve)
  uint32_t sharedAlign = 4;
  bool usesShared = false;       ///< any shared memory (static or dynamic): .nv.shared.<fn>
  /// The code addresses a shared variable (a module-scope extern .shared gives every kernel
  /// a .nv.shared.<fn>, but only the kernels that use it reference it): .rel(a).text.
  bool referencesShared = false;
  /// Relocatable output: the function's shared variables get symbols (LOCAL, type 13,
  /// st_other 0x40, value = alignment) under the compiler's unique name, e.g.
  /// "$___ZZ6reducePKfPfE2sm__141" (ptxas's numbering is internal).
  struct SharedVar {
    std::string name;
    uint32_t size = 0, align = 4;
  };
  std::vector<SharedVar> sharedVars;
  uint32_t frameSize = 0;        ///< FRAME_SIZE
  uint32_t minStackSize = 0;     ///< MIN_STACK_SIZE (executables) / MAX_STACK_SIZE (-c)
  std::vector<uint32_t> exitOffsets;
  /// Code offset where the frame's CFA rule starts (after the stack-pointer set-up). When
  /// absent: 16 bytes after the first EXIT (what ptxas emits for frameless kernels).
  std::optional<uint32_t> cfaStart;
  /// Code offset of the FDE's closing advance. When absent: the last EXIT (ptxas uses a
  /// later position when code such as collective fall-back blocks follows it).
  std::optional<uint32_t> cfaEnd;
  bool hasCalls = false;         ///< calls a function: a .rel(a).text section
  std::optional<uint32_t> crsStackSize; ///< CRS_STACK_SIZE (calls, setmaxnreg, ...)
  std::optional<std::array<uint32_t, 3>> maxntid, reqntid, clusterDims;
  bool explicitCluster = false;  ///< .explicitcluster (EXPLICIT_CLUSTER, no payload)
  std::optional<uint32_t> maxClusterRank;
  /// Attributes the builder does not derive (instruction offset lists such as
  /// COOP_GROUP_INSTR_OFFSETS, MBARRIER_INSTR_OFFSETS, ...): placed by the emission order.
  std::vector<Attribute> extraAttributes;
  std::vector<LocalFunction> localFunctions;
  std::vector<CodeReloc> relocations; ///< relocatable output only
  /// The extern functions (ModuleInfo::externs) its code and its callees' code call, in
  /// module declaration order: EXTERNS, call-graph edges, and where their symbols go.
  std::vector<std::string> externs;
  /// Code offsets of the calls to them (`CALL.ABS.NOINC`): SYSCALL_OFFSETS.
  std::vector<uint32_t> syscallOffsets;
  /// Kernels making indirect calls: .nv.constant2.<fn>, 64-bit entries (entry 0 is 1, then
  /// the code offset of each address-taken function in this .text; HW: ptxas 13.0).
  std::vector<uint64_t> functionTable;
  /// Kernels: the texture and surface references (PTX texref mode) the code names, in order
  /// of first use: a 4-byte slot each in .nv.constant0.<fn> at `offset` (after the
  /// parameters), filled through R_CUDA_TEX_HEADER_INDEX / R_CUDA_SURF_HEADER_INDEX against
  /// an undefined GLOBAL symbol of type 10 (texture) / 12 (surface).
  struct TexRefSlot {
    std::string name;
    bool surface = false;
    uint32_t offset = 0;
  };
  std::vector<TexRefSlot> texRefs;
  /// Line tables (ModuleInfo::lineInfo): the function's rows in .debug_line (source files
  /// of the .file table) and in .nv_debug_line_sass (lines of the PTX text, file 0).
  std::vector<LineRow> sourceLines, ptxLines;
};

/// The module's line tables (-lineinfo, or PTX with .loc): .debug_line, .nv_debug_line_sass
/// and .nv_debug_ptx_txt with their relocations, e_flags debug mode 0x09.
struct LineInfo {
  std::vector<std::string> dirs; ///< .debug_line include directories
  std::vector<LineFile> files;   ///< .debug_line file table (rows' `file` is 1-based)
  std::vector<uint8_t> ptxText;  ///< .nv_debug_ptx_txt: one NUL-terminated line per PTX line
  /// Zero bytes at the end of .debug_line's header (encodeLineUnit's headerPadding).
  unsigned headerPadding = 0;
  /// The PTX's `.section .debug_str` bytes (-lineinfo: the function names `.loc ...,
  /// function_name` refers to); not written when empty. HW (ptxas 13.0.88, Triton's PTX):
  /// the section, its name and its section symbol follow .debug_line's when the PTX has
  /// `inlined_at` (strAfterLine; the .debug_line names are then .rela before .rel), else
  /// .nv_debug_ptx_txt's.
  std::vector<uint8_t> debugStr;
  bool strAfterLine = false;
};

/// -g: a DWARF section the PTX carries (`.section .debug_info { ... }`: .debug_abbrev,
/// .debug_info, .debug_loc, .debug_macinfo, ...), copied byte for byte. Code addresses in it
/// (PTX labels such as $L__func_begin0) are relocations against the function whose .text
/// holds the code, the addend being the label's offset there.
struct DebugSection {
  std::string name;
  std::vector<uint8_t> bytes;
  struct Reloc {
    uint64_t offset = 0;  ///< where in `bytes`
    std::string function; ///< FunctionInfo::name of the .text
    uint64_t addend = 0;
    bool wide = true;     ///< .b64 (R_CUDA_64) or .b32 (R_CUDA_32)
    /// Instead of a function's code: a module variable (GlobalVar::name), e.g. the
    /// DW_OP_addr of a `__device__` / `__constant__` variable.
    std::string variable;
  };
  std::vector<Reloc> relocs;
};

/// A module-scope variable (.global / .const), in PTX declaration order.
struct GlobalVar {
  std::string name;
  enum class Space { Global, Const } space = Space::Global;
  uint32_t size = 0, align = 4;
  std::vector<uint8_t> init; ///< empty: zero-initialised (.global -> .nv.global NOBITS)
  /// Code reaches it through a 64-bit address slot in .nv.constant4 (executables).
  bool addressSlot = false;
  /// Offset within its section; absent: placed after the previous variable of the section
  /// at its alignment (declaration order). ptxas sorts .global variables (see
  /// frontend/lower/lower_module_data.cpp), so the compiler gives the offset.
  std::optional<uint64_t> offset;
  /// The slot's offset in .nv.constant4; absent: slots in declaration order from 0 (only
  /// allowed without extern functions).
  std::optional<uint32_t> slot;
  /// Initialised .global: 64-bit elements holding another variable's address (`generic(v)+8`),
  /// each an R_CUDA_G64 relocation in .rela.nv.global.init (HW: ptxas 13.0).
  struct AddressInit {
    uint32_t offset = 0; ///< within this variable
    std::string symbol;  ///< a variable of ModuleInfo::globals
    int64_t addend = 0;
  };
  std::vector<AddressInit> addressInits;
};

/// A function called through the CUDA ABI that the driver resolves at load time (vprintf,
/// __assertfail, malloc, ...): an UNDEFINED GLOBAL FUNC symbol whose address an R_CUDA_64
/// relocation writes into its .nv.constant4 slot (executables only).
struct ExternFunction {
  std::string name;
  uint32_t slot = 0; ///< offset of its 64-bit address slot in .nv.constant4
};

struct ModuleInfo {
  unsigned sm = 90;               ///< target SM number (e_flags bits 8-15)
  bool archSpecific = false;      ///< sm_90a: .nv.compat CUDA_ACCELERATOR_TARGET = 1
  unsigned ptxTargetSm = 90;      ///< .note.nv.cuinfo: the PTX .target
  bool relocatable = false;       ///< -c: ET_REL
  enum class Debug { None, LineInfo, Full } debug = Debug::None;
  /// With Debug::LineInfo: the line tables (required; a cubin announcing line information
  /// without the sections is refused by cuobjdump).
  std::optional<LineInfo> lineInfo;
  /// With Debug::Full (-g; lineInfo is required too): the PTX's DWARF sections, and the
  /// bytes of .nv_debug_info_reg_sass / .nv_debug_info_reg_type (where each PTX register
  /// lives in SASS registers over code ranges; the compiler builds them).
  std::vector<DebugSection> debugSections;
  std::vector<uint8_t> regSass, regType;
  std::string toolOptions = "-arch sm_90 "; ///< .note.nv.tkinfo command line
  uint8_t isaClass = 1;           ///< .nv.compat ISA_CLASS (1 plain, 2 TMA, 4 wgmma)
  /// A texture query (TXQ) in some function: no .nv.callgraph, and MAX_STACK_SIZE /
  /// MIN_STACK_SIZE with each function's records in .nv.info (HW: ptxas 13.0.88).
  bool noCallgraph = false;
  bool usesTensormap = false;
  /// Functions in PTX definition order. ptxas emits them in reverse.
  std::vector<FunctionInfo> functions;
  /// Module variables. Relocatable output: non-.visible variables only (GUESS: .visible
  /// ones become GLOBAL symbols placed among the functions; not modelled yet).
  std::vector<GlobalVar> globals;
  /// Extern functions some function calls, in PTX declaration order.
  std::vector<ExternFunction> externs;
};

/// Builds the model of the cubin; nullopt + error when the description is inconsistent
/// (e.g. a parameter outside the block, an exit offset outside the code).
std::optional<Cubin> buildCubin(const ModuleInfo &m, std::string &error);

/// The .text bytes ptxas writes for `code` on SM `sm`: code, one BRA-to-self (its word per
/// SM: targets/cubin_facts.h), then NOPs up to
/// align_up(code size + 16 + 128, 128), i.e. 8 to 15 NOPs.
std::vector<uint8_t> textWithTail(const std::vector<uint8_t> &code, unsigned sm = 90);

/// The number of code bytes in a ptxas .text section (everything before the BRA-to-self
/// that follows the last instruction); nullopt when the section does not end that way.
std::optional<size_t> codeSizeOfText(std::span<const uint8_t> text, unsigned sm = 90);

} // namespace ptxmini::cubin
