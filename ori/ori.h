//===- ori/ori.h - the Ori IR: Program, Function, Block, Instr, Operand -----------------===//
///
/// \file
/// Ori is ptxmini's middle IR, shaped after the one the seeds describe for ptxas: non-SSA,
/// instructions are SASS opcodes (ori/opcodes.def) on virtual registers until register
/// allocation and on physical registers after it, grouped in basic blocks whose layout order
/// is the code order (a block without an unconditional terminator falls through to the next).
///
///   Program   the functions of one module, in input order.
///   Function  the seeds' "code object": owns its blocks, the register table (per virtual
///             register: class, width, defining block, def/use counts), and the CFG facts
///             AnalyzeControlFlow (phase 3) computes: RPO array, back-edge map, natural loops.
///   Block     instructions plus preds/succs, RPO index, immediate dominator, loop depth and
///             loop-header flag.
///   Instr     opcode, typed modifiers, optional guard predicate (with negation), operands
///             (definitions first, then uses), per-instruction flags, and (after scheduling)
///             a control code.
///   Operand   a 16-byte value: virtual or physical register, immediate, constant-bank
///             reference, memory address, block label, or special register.
///
/// Nothing here is target-specific: fixed registers (RZ, PT, ...) are named, not numbered;
/// the encoder maps them to hardware numbers through targets/.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <optional>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptxmini::ori {

// ---- Opcodes -----------------------------------------------------------------------------

enum class Opcode : uint16_t {
#define OPCODE(Name, Sig, Flags, Lat) Name,
#include "ori/opcodes.def"
#undef OPCODE
  NumOpcodes
};

/// Opcode property bits (the Flags column of opcodes.def).
enum OpFlag : uint16_t {
  OF_SIDE = 1u << 0,
  OF_VLAT = 1u << 1,
  OF_BR = 1u << 2,
  OF_TERM = 1u << 3,
  OF_LD = 1u << 4,
  OF_ST = 1u << 5,
  OF_BAR = 1u << 6,
  OF_UNI = 1u << 7,
  OF_COMM = 1u << 8,
  OF_WARP = 1u << 9,
  OF_GMEM = 1u << 10,
  OF_SMEM = 1u << 11,
  OF_LMEM = 1u << 12,
};

/// Latency classes (the LatClass column of opcodes.def; targets/<sm>/latencies.def holds the
/// cycles per writer x reader class). ImadWide: IMAD.WIDE / IMAD.HI (a refinement by modifier
/// the target makes), ImadWideHi: the upper register of IMAD.WIDE's pair, which lands later;
/// Mma / Imma: float / integer tensor-core ops; UniMov: uniform moves and constant loads
/// (ULDC, UMOV); R2ur: vector-to-uniform moves; PredOp: predicate logic (PLOP3, R2P);
/// Half: HADD2 and the half-precision compares; Hfma: HFMA2, HMUL2; HfmaMma: HFMA2.MMA.
enum class LatClass : uint8_t {
  Alu, Imad, Fp32, Fp64, Half, Sfu, Conv, Mem, Shared, Const, Special, Branch, Ctrl, Uni,
  ImadWide, Mma, UniMov, R2ur, ImadWideHi, Imma, PredOp, Hfma, HfmaMma, Gmma
};
inline constexpr unsigned kNumLatClasses = 24;
std::string_view latClassName(LatClass c);

/// What an operand position accepts (a letter of an opcodes.def signature).
enum class OperandSlot : uint8_t {
  GPR = 'R', UGPR = 'U', Pred = 'P', UPred = 'Q', Barrier = 'B',
  AluSrc = 's', UniSrc = 'u', PredSrc = 'p', UPredSrc = 'q',
  Imm = 'I', CBank = 'C', Mem = 'M', Label = 'L', SpecialReg = 'S', Func = 'F',
  AluOrPredSrc = 'x', ///< an ALU source or a predicate source (BAR's count-or-predicate slot)
};

struct OpcodeInfo {
  std::string_view name;
  std::string_view signature;
  uint16_t flags;
  LatClass latClass;
  // Derived from the signature once, at startup.
  uint8_t minDefs, maxDefs, minUses, maxUses;
  std::array<OperandSlot, 8> defSlots;
  std::array<OperandSlot, 8> useSlots;

  bool has(OpFlag f) const { return (flags & f) != 0; }
};

const OpcodeInfo &opcodeInfo(Opcode op);
/// Exact (case-sensitive, as SASS spells it) lookup; false when unknown.
bool lookupOpcode(std::string_view name, Opcode &out);

// ---- Modifiers ---------------------------------------------------------------------------

enum class Modifier : uint16_t {
#define MODIFIER(Id, Spelling, Cat) Id,
#include "ori/modifiers.def"
#undef MODIFIER
  NumModifiers
};

enum class ModifierCategory : uint8_t {
  Type, Size, Cmp, BoolOp, Round, Arith, Shift, Mufu, Mem, Scope, Sync, Shfl, Branch, Mma
};

std::string_view modifierSpelling(Modifier m);
ModifierCategory modifierCategory(Modifier m);
bool lookupModifier(std::string_view spelling, Modifier &out);

// ---- Registers ---------------------------------------------------------------------------

/// Register files. R: 32-bit GPRs (64/128-bit values are aligned pairs/quads, i.e. one
/// register of width 2/4; width 8 is an aligned octet, the operand tuples of the 3-5D tensor
/// copies); UR: uniform GPRs; P / UP: predicates; B: convergence barriers.
enum class RegClass : uint8_t { R, UR, P, UP, B };
inline constexpr unsigned kNumRegClasses = 5;

/// Virtual register prefix in the text form (`%r`, `%ur`, `%p`, `%up`, `%b`).
std::string_view vregPrefix(RegClass c);
/// Physical register prefix (`R`, `UR`, `P`, `UP`, `B`).
std::string_view pregPrefix(RegClass c);
/// The fixed register of the class (`RZ`, `URZ`, `PT`, `UPT`); empty for B.
std::string_view fixedRegName(RegClass c);
inline bool isPredicateClass(RegClass c) { return c == RegClass::P || c == RegClass::UP; }

enum class SpecialReg : uint16_t {
#define SPECIAL_REG(Id, Spelling) Id,
#include "ori/special_regs.def"
#undef SPECIAL_REG
  NumSpecialRegs
};
std::string_view specialRegName(SpecialReg r);
bool lookupSpecialReg(std::string_view name, SpecialReg &out);

// ---- Operands ----------------------------------------------------------------------------

enum class OperandKind : uint8_t {
  None,   ///< absent (an unguarded instruction's guard)
  VReg,   ///< virtual register: cls + number
  PReg,   ///< physical register: cls + number, or the fixed register (kFixedReg)
  Imm,    ///< integer immediate
  FImm32, ///< 32-bit float immediate, stored as its bits (exact round trip)
  FImm64, ///< 64-bit float immediate, stored as its bits
  CBank,  ///< c[bank][offset]
  Mem,    ///< [base + offset]; base is a VReg/PReg or absent
  Block,  ///< a block label (index into Function::blocks)
  SReg,   ///< special register
  Func,   ///< a function (index into Function::callees): a CALL target
};

/// Operand modifier bits.
enum OperandMod : uint8_t {
  OM_NEG = 1u << 0,     ///< `-x`
  OM_ABS = 1u << 1,     ///< `|x|`
  OM_NOT = 1u << 2,     ///< `!p` on predicates
  OM_INV = 1u << 3,     ///< `~x` bitwise inversion
  OM_REUSE = 1u << 4,   ///< `.reuse` operand-cache hint (set by the scheduler)
  OM_MEMBASE_V = 1u << 5, ///< Mem: base is a virtual register
  OM_MEMBASE_P = 1u << 6, ///< Mem: base is a physical register
  /// A register the instruction reads or writes beyond the operands its encoding names: the
  /// rest of a wgmma accumulator tuple, of which HGMMA encodes only the first register
  /// (frontend/lower/lower_wgmma.cpp). Implicit operands trail the definitions and the uses,
  /// are not counted against the signature and are not printed in SASS; Ori text marks them
  /// with `^`.
  OM_IMPLICIT = 1u << 7,
};

inline constexpr uint32_t kFixedReg = 0xFFFFFFFFu;
inline constexpr uint8_t kWholeReg = 0xF;

/// A small value type. `reg` holds the register number (VReg/PReg/Mem base), the block index,
/// the constant bank, or the special register; `imm` the immediate bits or the offset.
struct Operand {
  OperandKind kind = OperandKind::None;
  RegClass cls = RegClass::R;
  uint8_t mods = 0;
  uint8_t width : 4 = 1;       ///< registers: 32-bit units (1, 2, 4 or 8)
  uint8_t sub : 4 = kWholeReg; ///< registers: 32-bit component read/written, or kWholeReg
  uint32_t reg = 0;
  int64_t imm = 0;

  static Operand vreg(RegClass c, uint32_t n, uint8_t width = 1) {
    Operand o;
    o.kind = OperandKind::VReg, o.cls = c, o.reg = n, o.width = width;
    return o;
  }
  static Operand preg(RegClass c, uint32_t n, uint8_t width = 1) {
    Operand o;
    o.kind = OperandKind::PReg, o.cls = c, o.reg = n, o.width = width;
    return o;
  }
  static Operand fixed(RegClass c) { return preg(c, kFixedReg); }
  static Operand intImm(int64_t v) {
    Operand o;
    o.kind = OperandKind::Imm, o.imm = v;
    return o;
  }
  static Operand fimm32(uint32_t bits) {
    Operand o;
    o.kind = OperandKind::FImm32, o.imm = bits;
    return o;
  }
  static Operand fimm64(uint64_t bits) {
    Operand o;
    o.kind = OperandKind::FImm64, o.imm = static_cast<int64_t>(bits);
    return o;
  }
  /// c[bank][offset], optionally c[bank][index + offset] (LDC with a register index, as
  /// `LDC R0, c[0x3][R2+0x8]`); `index` a register operand or None.
  static Operand cbank(uint32_t bank, int64_t offset) {
    Operand o;
    o.kind = OperandKind::CBank, o.reg = bank;
    o.imm = static_cast<int64_t>(static_cast<uint32_t>(offset));
    return o;
  }
  static Operand cbank(uint32_t bank, int64_t offset, const Operand &index) {
    Operand o = cbank(bank, offset);
    if (index.isReg())
      o.setCbankIndex(index);
    return o;
  }
  /// [base + offset] (optionally desc[desc][base + offset]); `base` must be a VReg/PReg
  /// operand or None, `desc` a register operand or None.
  static Operand mem(const Operand &base, int32_t offset) { return mem(base, offset, Operand{}); }
  static Operand mem(const Operand &base, int32_t offset, const Operand &desc) {
    Operand o = base;
    o.kind = OperandKind::Mem;
    o.mods = base.kind == OperandKind::VReg   ? OM_MEMBASE_V
             : base.kind == OperandKind::PReg ? OM_MEMBASE_P
                                              : 0;
    o.imm = 0;
    o.setMemOffset(offset);
    if (desc.isReg())
      o.setMemDesc(desc);
    return o;
  }
  static Operand block(uint32_t index) {
    Operand o;
    o.kind = OperandKind::Block, o.reg = index;
    return o;
  }
  static Operand sreg(SpecialReg r) {
    Operand o;
    o.kind = OperandKind::SReg, o.reg = static_cast<uint32_t>(r);
    return o;
  }
  /// A call target: entry `index` of the calling Function's callee table.
  static Operand func(uint32_t index) {
    Operand o;
    o.kind = OperandKind::Func, o.reg = index;
    return o;
  }

  bool isReg() const { return kind == OperandKind::VReg || kind == OperandKind::PReg; }
  bool isVReg() const { return kind == OperandKind::VReg; }
  bool isFixed() const { return kind == OperandKind::PReg && reg == kFixedReg; }
  bool isImm() const {
    return kind == OperandKind::Imm || kind == OperandKind::FImm32 || kind == OperandKind::FImm64;
  }
  bool hasMemBase() const { return (mods & (OM_MEMBASE_V | OM_MEMBASE_P)) != 0; }
  bool memBaseIsVReg() const { return (mods & OM_MEMBASE_V) != 0; }
  /// The Mem operand's base as a register operand (kind None when absent).
  Operand memBase() const {
    Operand b = *this;
    b.kind = memBaseIsVReg() ? OperandKind::VReg
             : hasMemBase()  ? OperandKind::PReg
                             : OperandKind::None;
    b.mods = 0;
    b.imm = 0;
    return b;
  }

  // Mem operands keep a 32-bit offset in the low half of `imm`; the high half holds the
  // optional memory descriptor register of sm_90 global accesses (`desc[UR6][R14.64]`,
  // HW: observed on LDG/STG/REDG in cuobjdump 13.2 output of ptxas 13.0 for sm_90):
  // bit 63 present, bit 62 virtual, bits 59-61 width, bits 56-58 class, bits 32-55 number.
  // CBank operands use the same layout: the offset in the low half, the optional index
  // register in the high half.
  int32_t memOffset() const { return static_cast<int32_t>(static_cast<uint32_t>(imm)); }
  int32_t cbankOffset() const { return static_cast<int32_t>(static_cast<uint32_t>(imm)); }
  bool hasCbankIndex() const {
    return kind == OperandKind::CBank && (static_cast<uint64_t>(imm) >> 63) != 0;
  }
  Operand cbankIndex() const { return hasCbankIndex() ? unpackHighReg() : Operand{}; }
  void setCbankIndex(const Operand &r) { packHighReg(r); }
  void setMemOffset(int32_t off) {
    uint64_t u = static_cast<uint64_t>(imm);
    u = (u & 0xFFFFFFFF00000000ull) | static_cast<uint32_t>(off);
    imm = static_cast<int64_t>(u);
  }
  bool hasMemDesc() const {
    return kind == OperandKind::Mem && (static_cast<uint64_t>(imm) >> 63) != 0;
  }
  Operand memDesc() const { return hasMemDesc() ? unpackHighReg() : Operand{}; }
  void setMemDesc(const Operand &d) { packHighReg(d); }

private:
  /// The register kept in the high half of `imm` (Mem descriptor, CBank index).
  Operand unpackHighReg() const {
    uint64_t u = static_cast<uint64_t>(imm);
    Operand d;
    d.kind = (u >> 62) & 1 ? OperandKind::VReg : OperandKind::PReg;
    d.width = static_cast<uint8_t>((u >> 59) & 7);
    d.cls = static_cast<RegClass>((u >> 56) & 7);
    uint32_t n = static_cast<uint32_t>((u >> 32) & 0xFFFFFF);
    d.reg = n == 0xFFFFFF ? kFixedReg : n;
    return d;
  }
  void packHighReg(const Operand &d) {
    uint64_t u = static_cast<uint32_t>(imm);
    uint32_t n = d.reg == kFixedReg ? 0xFFFFFFu : (d.reg & 0xFFFFFFu);
    u |= 1ull << 63;
    u |= static_cast<uint64_t>(d.kind == OperandKind::VReg) << 62;
    u |= static_cast<uint64_t>(d.width & 7) << 59;
    u |= static_cast<uint64_t>(static_cast<uint8_t>(d.cls) & 7) << 56;
    u |= static_cast<uint64_t>(n) << 32;
    imm = static_cast<int64_t>(u);
  }

public:
  /// The virtual registers this operand names: itself, a Mem's base and descriptor, or a
  /// CBank's index.
  llvm::SmallVector<Operand, 2> vregs() const {
    llvm::SmallVector<Operand, 2> v;
    if (kind == OperandKind::VReg) {
      v.push_back(*this);
    } else if (kind == OperandKind::Mem) {
      if (memBaseIsVReg())
        v.push_back(memBase());
      if (Operand d = memDesc(); d.kind == OperandKind::VReg)
        v.push_back(d);
    } else if (Operand x = cbankIndex(); x.kind == OperandKind::VReg) {
      v.push_back(x);
    }
    return v;
  }

  bool operator==(const Operand &o) const {
    return kind == o.kind && cls == o.cls && mods == o.mods && width == o.width &&
           sub == o.sub && reg == o.reg && imm == o.imm;
  }
};
static_assert(sizeof(Operand) == 16, "Operand is meant to stay a 16-byte value");

// ---- Instructions ------------------------------------------------------------------------

/// Per-instruction flags (beyond the opcode's properties), printed as `{name,...}`.
#define ORI_INSTR_FLAGS(X)                                                                     \
  X(Hoisted, "hoisted") /* moved out of a loop by LICM */                                    \
  X(Spill, "spill")     /* spill or fill code inserted by the register allocator */          \
  X(Volatile, "volatile") /* must not be reordered with other volatile instructions */
enum InstrFlag : uint16_t {
#define ORI_X(Id, Spelling) IF_##Id##_bit,
  ORI_INSTR_FLAGS(ORI_X)
#undef ORI_X
  IF_NumFlags
};
inline constexpr uint16_t instrFlagMask(InstrFlag f) { return uint16_t(1u << f); }
std::string_view instrFlagName(InstrFlag f);

/// Scheduling control code, arch-neutral until the encoder places the bits.
/// Text: `[B------:R-:W0:Y:S04]`: wait mask (barriers 0-5, '-' = not waited), read barrier
/// set, write barrier set ('-' = none), yield ('Y' or '-'), stall cycles (two digits).
struct CtrlCode {
  static constexpr uint8_t kNoBarrier = 7;
  uint8_t waitMask = 0;
  uint8_t readBarrier = kNoBarrier;
  uint8_t writeBarrier = kNoBarrier;
  uint8_t stall = 0;
  bool yield = false;
  bool valid = false; ///< false until the scheduler (or the parser) sets one
  bool operator==(const CtrlCode &o) const = default;
};

static_assert(sizeof(CtrlCode) == 6, "CtrlCode is meant to stay 6 bytes");

struct Instr {
  Opcode op = Opcode::NOP;
  uint8_t numDefs = 0;
  uint16_t flags = 0;    ///< InstrFlag bits
  /// Line of the source it came from: the Ori text it was parsed from, or the PTX
  /// instruction it was lowered from (line tables); 0: created by a phase or the lowering's
  /// own set-up code. Phases that rewrite an instruction keep it.
  uint32_t srcLine = 0;
  CtrlCode ctrl;
  Operand guard;         ///< kind None when unguarded; a P/UP register, PT/UPT, maybe OM_NOT
  llvm::SmallVector<Modifier, 3> mods;
  llvm::SmallVector<Operand, 4> ops; ///< definitions first, then uses

  Instr() = default;
  explicit Instr(Opcode o) : op(o) {}

  const OpcodeInfo &info() const { return opcodeInfo(op); }
  llvm::ArrayRef<Operand> defs() const { return llvm::ArrayRef(ops).take_front(numDefs); }
  llvm::ArrayRef<Operand> uses() const { return llvm::ArrayRef(ops).drop_front(numDefs); }
  llvm::MutableArrayRef<Operand> defs() { return llvm::MutableArrayRef(ops).take_front(numDefs); }
  llvm::MutableArrayRef<Operand> uses() { return llvm::MutableArrayRef(ops).drop_front(numDefs); }
  void addDef(const Operand &o) {
    ops.insert(ops.begin() + numDefs, o);
    ++numDefs;
  }
  void addUse(const Operand &o) { ops.push_back(o); }

  bool isGuarded() const { return guard.kind != OperandKind::None && !isAlwaysTrueGuard(); }
  bool isAlwaysTrueGuard() const {
    return guard.kind == OperandKind::PReg && guard.isFixed() && !(guard.mods & OM_NOT);
  }
  bool hasFlag(InstrFlag f) const { return (flags & instrFlagMask(f)) != 0; }
  bool hasModifier(Modifier m) const;
  /// Has an effect beyond its results, so it may be neither deleted, merged nor moved for
  /// being unused or redundant: a side effect, a store, a barrier, a branch or terminator, or
  /// a volatile access.
  bool hasEffects() const;
  /// A computation of virtual registers from operands that mean the same wherever it runs, so
  /// it may be moved (hoisted, computed once): no effect, not warp-synchronous, no load but
  /// LDC, no R2P/P2R/NOP (predicates the operand list does not name), no non-fixed predicate
  /// operand, no unstable special register, and it defines at least one virtual register and
  /// nothing else but fixed predicates (PT). Callers add their own rules (guards, indices).
  bool isPureValue() const;
  /// A plain direct branch: BRA with no modifier and one block operand (guarded or not).
  bool isPlainBranch() const {
    return op == Opcode::BRA && mods.empty() && uses().size() == 1 &&
           uses()[0].kind == OperandKind::Block;
  }
  /// Whether one of its definitions is virtual register (c, reg) (whole or a component).
  bool writesVReg(RegClass c, uint32_t reg) const;
  /// Ends the block unconditionally: an unguarded terminator.
  bool isUnconditionalTerminator() const { return info().has(OF_TERM) && !isGuarded(); }
};
// Up to 3 modifiers and 4 operands inline; more spill to the heap.
static_assert(sizeof(Instr) <= 152, "Instr grew: keep the inline operand storage small");

/// Special registers whose value does not change between two reads by one thread (%tid,
/// %ctaid, %laneid and the lane masks derived from it), so two reads may be merged or one
/// moved. GUESS from the PTX ISA's descriptions; clocks, timers, performance counters and
/// %smid/%warpid (which a preempted thread may see change) are not.
bool specialRegIsStable(SpecialReg r);

/// Whether the SASS 32-bit immediate field of `op` is read as signed (nvdisasm prints `-0x1`);
/// every other opcode's is unsigned (`0xffffffff`). HW: the `{I@32/32 s}` placeholders of
/// targets/sm_90/sm90_forms.def (IADD3, IMAD incl. .WIDE/.HI, ISETP, VIMNMX), probed there.
bool signedImmediateField(Opcode op);
/// Respells every integer immediate use of `in` as its opcode's field reads it (signed or
/// unsigned 32-bit), so that equal bit patterns have one spelling.
void spellImmediates(Instr &in);

// ---- Blocks, functions, programs ---------------------------------------------------------

inline constexpr int32_t kNoBlock = -1;

struct Block {
  std::string name; ///< label in the text form; unique within the function
  std::vector<Instr> instrs;

  // CFG (ori/cfg.h: buildCFG), successors in terminator order then the fall-through.
  llvm::SmallVector<uint32_t, 2> preds;
  llvm::SmallVector<uint32_t, 2> succs;

  // Filled by AnalyzeControlFlow (phase 3).
  int32_t rpoIndex = -1;    ///< position in Function::rpo; -1 when unreachable
  int32_t idom = kNoBlock;  ///< immediate dominator; kNoBlock for the entry and unreachable
  uint32_t loopDepth = 0;   ///< natural loops containing the block (0 = not in a loop)
  int32_t loop = -1;        ///< innermost natural loop (index into Function::loops), or -1
  bool isLoopHeader = false;
  /// PTX `.pragma "nounroll"` was written in this block (statement level) or for the whole
  /// module; OriLoopUnrolling (phase 22) leaves a loop whose header has it rolled. Text form:
  /// `label: {nounroll}`.
  bool noUnroll = false;
};

/// A natural loop: a header dominating the sources of its back-edges (the latches).
struct Loop {
  uint32_t header = 0;
  int32_t parent = -1;                    ///< enclosing loop, or -1
  uint32_t depth = 1;                     ///< 1 for outermost loops
  llvm::SmallVector<uint32_t, 2> latches; ///< sorted
  std::vector<uint32_t> blocks;           ///< sorted block indices, header included
};

/// A set of physical registers per class (R0-R255, UR0-UR63, P0-P7, UP0-UP7, B0-B15 fit).
struct PhysRegSet {
  std::array<std::array<uint64_t, 4>, kNumRegClasses> words{};
  void set(RegClass c, uint32_t r) { words[size_t(c)][r / 64] |= 1ull << (r % 64); }
  bool test(RegClass c, uint32_t r) const {
    return r < 256 && ((words[size_t(c)][r / 64] >> (r % 64)) & 1);
  }
  void unite(const PhysRegSet &o) {
    for (size_t c = 0; c < kNumRegClasses; ++c)
      for (size_t w = 0; w < 4; ++w)
        words[c][w] |= o.words[c][w];
  }
  bool operator==(const PhysRegSet &o) const = default;
};

/// The stack frame of a function, in bytes of local memory addressed from R1 (the stack
/// pointer, which the function lowers by `size` on entry): the PTX `.local` variables at
/// [R1 + 0, localBytes), then the register allocator's spill slots.
struct FrameInfo {
  uint32_t localBytes = 0;    ///< PTX .local variables (set by the lowering)
  uint32_t localAlign = 1;    ///< their largest alignment
  uint32_t spillSlotBytes = 0; ///< spill slots after the locals (set by AllocateRegisters)
  uint32_t spillStoreBytes = 0, spillLoadBytes = 0; ///< spill traffic (-v report)
  uint32_t size = 0;          ///< the whole frame, rounded to its alignment
  uint32_t align = 8;         ///< alignment of `size` (and of R1 inside the function);
                              ///< the spill code raises it to its slots' alignment
};

/// One virtual register's row in the register table.
struct RegInfo {
  uint8_t width = 0;         ///< 32-bit units: 1, 2, 4 or 8; 0 = number unused
  int32_t defBlock = kNoBlock; ///< block of the first definition (layout order)
  uint32_t defCount = 0;
  uint32_t useCount = 0;
};

class Function {
public:
  std::string name;
  bool isKernel = false;
  std::vector<Block> blocks; ///< layout order; blocks[0] is the entry

  // Filled by AnalyzeControlFlow (phase 3); valid while cfgAnalyzed is true.
  bool cfgAnalyzed = false;
  std::vector<uint32_t> rpo; ///< reverse post-order of reachable blocks from the entry
  /// The back-edge map: (source, header) pairs, sorted, each edge to a dominating block.
  std::vector<std::pair<uint32_t, uint32_t>> backEdges;
  /// Retreating edges whose target does not dominate their source (irreducible flow).
  std::vector<std::pair<uint32_t, uint32_t>> irreducibleEdges;
  std::vector<Loop> loops; ///< outer loops before the loops they contain

  /// Names of the functions this one calls (Operand::func indexes this table).
  std::vector<std::string> callees;
  /// Per callee (parallel to `callees`): the physical registers a call to it may change.
  /// Filled by the driver from the callee's own allocation; an absent or empty entry means
  /// "everything" (a recursive call, or Ori text that does not say).
  std::vector<std::optional<PhysRegSet>> calleeClobbers;
  /// The smallest alignment this function's frame size must keep, so that its callees find
  /// R1 aligned for their own frames (set by the driver; 8 without calls).
  uint32_t minFrameAlign = 8;
  /// Register limit: the most R registers the function may use, counted as ptxas reports
  /// them (highest register + 1 + 2); 0 means the target's maximum.
  uint32_t maxRegs = 0;
  FrameInfo frame;
  /// The index of `calleeName` in `callees`, added when absent.
  uint32_t calleeIndex(std::string_view calleeName);

  // ---- Register table ----
  const RegInfo &regInfo(RegClass c, uint32_t n) const { return regs_[idx(c)][n]; }
  RegInfo &regInfo(RegClass c, uint32_t n) { return regs_[idx(c)][n]; }
  /// Numbers in use are < numRegs(c) (some below may be unused: width 0).
  uint32_t numRegs(RegClass c) const { return static_cast<uint32_t>(regs_[idx(c)].size()); }
  /// Declares virtual register (c, n) with `width`, growing the table as needed.
  RegInfo &declareReg(RegClass c, uint32_t n, uint8_t width);
  /// A fresh virtual register of class c.
  Operand newReg(RegClass c, uint8_t width = 1);
  /// Recomputes def/use counts and defining blocks from the instructions.
  void recomputeRegTable();

  /// Index of the block labelled `name`, or kNoBlock.
  int32_t findBlock(std::string_view blockName) const;

  /// Dense numbering of all virtual registers (class by class) for bit vectors.
  uint32_t flatRegIndex(RegClass c, uint32_t n) const;
  uint32_t numFlatRegs() const;

private:
  static size_t idx(RegClass c) { return static_cast<size_t>(c); }
  std::array<std::vector<RegInfo>, kNumRegClasses> regs_;
};

struct Program {
  std::vector<Function> functions;
};

} // namespace ptxmini::ori
