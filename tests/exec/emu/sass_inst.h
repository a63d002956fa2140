/* sass_inst.h - one SASS instruction in structured form, parsed from nvdisasm's text syntax.
 *
 * The emulator never looks at text while it runs: every line such as
 *   @!P0 IMAD.WIDE R2, R5, 0x4, R2 ;
 *   LDG.E R0, desc[UR4][R2.64+0x10] ;
 *   ISETP.GE.AND P0, PT, R5, c[0x0][0x210], PT ;
 * is parsed once (sass_parse.cpp) into a SassInst: the opcode, its dot-modifiers, the guard
 * predicate and typed operands. Syntax facts come from nvdisasm 13.2's output on ptxas 13.0
 * cubins (HW: observed with nvdisasm 13.2 on ptxas output). */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptxmini::exec {

enum class OpndKind : uint8_t {
  Reg,      // R0..R254, RZ (index 255)
  UReg,     // UR0..UR62, URZ (index 63)
  Pred,     // P0..P6, PT (index 7)
  UPred,    // UP0..UP6, UPT (index 7)
  BarReg,   // B0..B15 (convergence barriers)
  SReg,     // SR_TID.X and friends, SRZ
  Imm,      // integer immediate (hex or decimal as printed)
  FImm,     // floating immediate (decimal, +INF, -QNAN, ...)
  CBank,    // c[bank][offset] with optional register offset
  Mem,      // [..] with optional desc[URx] prefix
  Target,   // branch / call target, resolved to a byte offset in the function's section
  Word,     // a bare word: TEX/TLD's dimension (2D, ARRAY_2D, CUBE), TXQ's query; text in sreg_name
};

inline constexpr int kRZ = 255;
inline constexpr int kURZ = 63;
inline constexpr int kPT = 7;

struct Operand {
  OpndKind kind = OpndKind::Imm;
  int reg = 0;            // register / predicate / barrier index; SReg: name index
  bool neg = false;       // leading '-'
  bool abs = false;       // |x|
  bool lnot = false;      // leading '!' (predicates)
  bool bnot = false;      // leading '~' (bitwise not on integer sources)
  std::string suffix;     // register suffix after '.', e.g. "64", "H0_H0", "H1", "B1", "X4"
  uint64_t imm = 0;       // Imm value (as printed, 64-bit), CBank offset, Mem immediate offset
  double fimm = 0;        // FImm value
  // FImm printed as a NaN whose bits the text does not show: the 32-bit immediate field
  // (f32 bits, or the upper word of an f64), given by the loader as "QNAN(0x...)".
  bool has_fbits = false;
  uint32_t fbits = 0;
  // CBank: bank (imm field holds the byte offset); optional reg (R or UR) added to offset.
  int bank = 0;
  int cbank_reg = -1;     // index of R/UR added to offset, -1 none
  bool cbank_ureg = false;
  // Mem: base register (R or UR, -1 none), .64 flag, second register UR (-1 none), desc UR.
  int mem_base = -1;
  bool mem_base_ureg = false;
  bool mem_base_64 = false;
  int mem_ureg = -1;      // a uniform register added ([R2.64+UR4])
  int desc_ureg = -1;
  std::string sreg_name;  // SReg: printed name; Word: the word
};

struct SassInst {
  uint32_t pc = 0;              // byte offset in the function's section
  std::string text;             // the original line, for traps and traces
  std::string opcode;           // "IMAD"
  std::vector<std::string> mods;// {"WIDE","U32"} in printed order
  int guard = kPT;              // guard predicate index (PT = always)
  bool guard_not = false;
  bool guard_uniform = false;   // @UP0
  std::vector<Operand> ops;

  bool has(const char* m) const {
    for (const auto& x : mods) if (x == m) return true;
    return false;
  }
  // The first modifier from a list, or "" if none.
  std::string pick(std::initializer_list<const char*> ms) const {
    for (const auto& x : mods)
      for (const char* m : ms) if (x == m) return x;
    return "";
  }
};

// Parse one instruction line (without the "/*0010*/" prefix and the trailing encoding comment;
// a trailing ';' is accepted). Branch/call targets may be printed as hex offsets or as
// "`(label)"; labels are looked up in `labels` (name -> byte offset). On failure returns false
// and sets `err`.
bool parse_sass(const std::string& line, uint32_t pc, const std::vector<std::pair<std::string, uint32_t>>& labels,
                SassInst& out, std::string& err);

}  // namespace ptxmini::exec
