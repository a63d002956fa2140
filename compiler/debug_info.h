//===- compiler/debug_info.h - what -g adds to the line tables ------------------------===//
///
/// \file
/// `-g` (ptxas's --device-debug): the compile runs at -O0 and the cubin carries, besides the
/// line tables of compiler/line_tables.h, the DWARF the PTX itself brings in `.section`
/// directives (nvcc -G writes .debug_abbrev, .debug_info, .debug_macinfo, sometimes
/// .debug_loc) and the register maps .nv_debug_info_reg_sass / .nv_debug_info_reg_type.
///
/// The DWARF is copied byte for byte. What the PTX cannot know -- the code address of a PTX
/// label such as `$L__func_begin0` or `$L__tmp3` -- the compiler fills in: a label stands for
/// the first instruction made from a PTX instruction after it, in code order (at -O0 the
/// phases keep PTX order), or for the function's end when none follows; the cubin gets an
/// R_CUDA_64 relocation against the function's symbol with that offset as addend, as ptxas
/// -g writes. A module variable's address is an R_CUDA_64 (.global) or R_CUDA_G64 (.const)
/// relocation against its symbol, a kernel's .shared variable's its address in the shared
/// window (no relocation), as ptxas -g writes them. References to a section's name
/// (`.b32 .debug_abbrev`) are offset 0 of that
/// section (one compilation unit per module, as nvcc writes), references to a label inside a
/// debug section its offset there.
///
/// Register maps: ptxas lists, per function, where each PTX register lives (SASS register and
/// code range). ptxas-mini does not track PTX register names through lowering and allocation
/// yet, so it writes each function's record with no entries: a debugger shows the source
/// lines and frames but reports variables as unavailable. (Format, observed on ptxas 13.0.88
/// -g cubins: per function its name, NUL, u32 count, then entries {u32 flags, name NUL,
/// u32 kind<<24|register, u32 first, u32 last}; .nv_debug_info_reg_type: name, NUL, u32
/// count, one type byte per entry.)
//===----------------------------------------------------------------------------------===//
#pragma once

#include "encoder/cubin/cubin_builder.h"
#include "support/diag.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ptxmini::ptx {
struct Module;
struct Block;
} // namespace ptxmini::ptx

namespace ptxmini {

class DebugInfo {
public:
  /// Collects the module's DWARF sections and every function's labels. Warns as ptxas does
  /// when the PTX has no .debug_abbrev / .debug_info (PTX compiled without -G).
  DebugInfo(const ptx::Module &m, DiagEngine &diag);

  /// Records where `function`'s code went: `lines[i]` is the PTX line of its i-th
  /// instruction (0: none), placed at byte `base` of the .text of function `text`.
  void placeFunction(const std::string &function, const std::vector<uint32_t> &lines,
                     uint32_t base, const std::string &text);

  /// Records where a kernel's parameters live: `addresses[i]` is the constant-bank byte
  /// address of its i-th parameter (what nvcc -G's `DW_OP_addr _Z1kPfi_param_0` means;
  /// ptxas writes that address, e.g. 0x210 on sm_90, with no relocation).
  void placeParams(const std::string &kernel, const std::vector<uint32_t> &addresses);

  /// Records a kernel's .shared variables' addresses in the shared window (HW: ptxas -g
  /// writes that address for `DW_OP_addr tile`, e.g. 0x400, with no relocation).
  void placeShared(const std::map<std::string, uint32_t> &addresses);

  /// Records the module's .global / .const variables: a reference to one is a relocation
  /// against its symbol (HW: ptxas 13.0.88 -g).
  void placeVariable(const std::string &name) { variables_.insert(name); }

  /// The DWARF sections with every address resolved, and the register maps; fatal
  /// diagnostics for references the module cannot resolve.
  void finish(cubin::ModuleInfo &mi, DiagEngine &diag) const;

private:
  struct FunctionLabels {
    uint32_t firstInstrLine = 0; ///< PTX line of the body's first instruction
    std::map<std::string, uint32_t> labels; ///< name -> PTX line
  };
  struct Place {
    std::string text;
    uint32_t offset = 0;
  };
  void collect(const ptx::Block &b, FunctionLabels &out);

  const ptx::Module &module_;
  std::map<std::string, FunctionLabels> functions_;
  std::map<std::string, std::string> labelOwner_; ///< label -> function
  std::map<std::string, Place> placed_;           ///< label -> where its code is
  std::map<std::string, uint64_t> params_;        ///< kernel parameter -> its address
  std::map<std::string, uint64_t> shared_;        ///< .shared variable -> its address
  std::set<std::string> variables_;               ///< module .global/.const variables
  std::vector<std::string> functionOrder_;        ///< functions with bodies, PTX order
  std::vector<std::string> emitted_;              ///< placed functions, first placement
};

} // namespace ptxmini
