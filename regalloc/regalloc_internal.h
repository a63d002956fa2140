//===- regalloc/regalloc_internal.h - what the files of the register allocator share ----===//
///
/// \file
/// The pieces of AllocateRegisters (allocate_registers.cpp runs them in this order):
///   coalesce.cpp        copies of values that never change merged with their source;
///   live_intervals.cpp  program points, live ranges with holes per virtual register,
///                       the busy ranges of physical registers named before allocation
///                       (calling-convention copies) and of call clobbers, spill weights
///                       and copy hints;
///   allocate_registers.cpp  the linear scan that assigns registers or picks spill victims;
///   spill.cpp           spill code (or rematerialization) for the victims, then a new round;
///   validate_ra.cpp     the allocation checker (ValidateIR);
///   frame.cpp           the final frame: R1 adjustments, self-copies removed, clobber sets.
/// Program points: instruction i (layout order over all blocks) reads its operands at 2i
/// and writes its results at 2i+1, so a value whose last use is instruction i may share a
/// register with a result of i (the hardware reads sources before it writes).
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"
#include "regalloc/regalloc.h"
#include "targets/target.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <vector>

namespace ptxmini::ra {

/// Which physical registers of each class the allocator may hand out.
struct RegisterBudget {
  /// Allocatable registers of a class, in preference order (lowest first).
  std::array<std::vector<uint32_t>, ori::kNumRegClasses> allocatable;
  bool allows(ori::RegClass c, uint32_t r) const;
};
RegisterBudget makeBudget(const Target &t, uint32_t maxRegCount);
/// Every register a budget may hand out: what a call of unknown effect clobbers.
ori::PhysRegSet everyAllocatable(const Target &t);

/// A closed range of program points.
struct Range {
  uint32_t start, end;
};

struct Interval {
  ori::RegClass cls;
  uint32_t num;         ///< virtual register number
  uint8_t width = 1;
  uint32_t start = UINT32_MAX, end = 0; ///< hull of the components' segments
  /// Per 32-bit component of a pair/quad/octet (`width` entries): the points where it is
  /// live, as sorted disjoint closed ranges (a component never named has none, so the
  /// unused tail of an operand tuple leaves its registers to other values). Holes are where
  /// the value is dead (between a last use and the next definition, in the other arm of a
  /// branch), so other values may use the register there; components are separate, so a
  /// pair whose low half is written while another pair's high half is still read may share
  /// registers with it. Two inline entries: singles and pairs, most intervals, allocate
  /// nothing more.
  llvm::SmallVector<llvm::SmallVector<Range, 2>, 2> segs;
  uint32_t size = 0;    ///< live points over all components
  double weight = 0;    ///< spill cost: use/def count weighted by loop depth, per length
  bool unspillable = false; ///< spill temporaries, values too short to gain from it, and
                            ///< octets (operand tuples: spill.cpp stores at most a quad)
  bool remat = false;   ///< spilling it recomputes its one constant definition (no slot)
  int32_t hint = -1;    ///< a physical register a copy to/from it names
  int32_t hintVReg = -1; ///< or a virtual register whose register it would like to share
  bool empty() const { return start == UINT32_MAX; }
  bool compEmpty(unsigned k) const { return segs[k].empty(); }
};

struct LiveInfo {
  std::vector<Interval> intervals; ///< one per virtual register in use (class, number order)
  /// Busy ranges per class and physical register (sorted by start).
  std::array<std::vector<std::vector<Range>>, ori::kNumRegClasses> fixed;
  std::array<std::vector<std::vector<uint32_t>>, ori::kNumRegClasses> fixedMaxEnd;
  uint32_t numPoints = 0;
  /// Physical registers named before allocation that are not the stack pointer, outside
  /// the budget: the allocator reports them.
  std::vector<std::string> problems;
};

/// Computes intervals, busy ranges and weights for the current code. `spillTemps` marks
/// virtual registers (class, number) created by spill code: they are never spilled again.
/// `entryRegCount` (non-zero in a kernel whose USETMAXREG instructions move it between
/// register counts, see setmaxnregPool): the count at entry; the R registers beyond the
/// count in force at each point are busy there (live_intervals.cpp).
LiveInfo computeLiveInfo(const ori::Function &f, const Target &t,
                         const std::vector<std::pair<ori::RegClass, uint32_t>> &spillTemps,
                         uint32_t entryRegCount = 0);

/// The largest register count a USETMAXREG of `f` moves to (setmaxnreg), 0 when none.
uint32_t setmaxnregPool(const ori::Function &f);

/// The last R register a register count leaves (ptxas -v counts the highest + 1 + 2).
inline uint32_t lastGprOfCount(uint32_t count) { return count >= 3 ? count - 3 : 0; }

/// Copy coalescing before the scan (coalesce.cpp): copies of values that never change are
/// merged with their source. Returns how many virtual registers went.
unsigned coalesceCopies(ori::Function &f);

/// True when some busy range of (c, r) overlaps [s, e].
bool fixedOverlaps(const LiveInfo &li, ori::RegClass c, uint32_t r, uint32_t s, uint32_t e);

/// A definition spill code may repeat before each use instead of storing its value: a
/// single unguarded whole write with no register source (MOV/UMOV of a constant, LDC/ULDC,
/// `IADD3 d, R1, imm, RZ`, S2R of a stable special register).
bool rematerializable(const ori::Instr &in, const Target &t);

/// Spill code: for every victim, either rematerialize its single constant definition before
/// each use, or give it a slot in the frame and store after each definition / load before
/// each use through fresh temporaries (appended to `spillTemps`). False with `error` when a
/// victim's class cannot be spilled.
bool insertSpillCode(ori::Function &f, const Target &t,
                     const std::vector<std::pair<ori::RegClass, uint32_t>> &victims,
                     std::vector<std::pair<ori::RegClass, uint32_t>> &spillTemps,
                     std::string &error);

/// Checks an allocation before the rewrite: every use of a virtual register reads the
/// physical register(s) its definition wrote along every path, calls clobber their sets.
/// Returns the problems found (empty when the allocation is right).
std::vector<std::string> validateAllocation(
    const ori::Function &f, const Target &t,
    const std::vector<std::vector<int32_t>> &assignment /* [class][vreg] -> first preg */);

/// After the rewrite: R1 moved down by the frame on entry and back before every RET, the
/// kernel's stack-pointer load first, copies of a register to itself removed.
void finalizeFrame(ori::Function &f, const Target &t);


} // namespace ptxmini::ra
