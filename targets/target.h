//===- targets/target.h - what the compiler may ask about an SM --------------------------===//
///
/// \file
/// One Target per SM, created from the -arch. Phases ask it questions by name; no folder but
/// targets/ compares SM numbers. It grows as phases need more (register files, latencies,
/// feature tests); today it holds the code-generation ABI the lowering and the cubin writer
/// need.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "targets/arch.h"
#include "targets/sched_model.h"
#include "targets/perf_model.h"
#include "targets/calling_convention.h"

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace ptxmini {

/// How a PTX special register is read on an SM: one row of targets/sm_XX/*_ptx_sregs.def
/// (that file documents each `How` and its arguments `a`, `b`).
struct SpecialRegRead {
  enum class How : uint8_t {
    S2R, S2RField, CS2R32, CS2R64, CBank32, CBank64, Const, SmemLeft, CBankIs1, ClusterId,
    ClusterCtaid
  };
  std::string_view ptx;  ///< "%tid.x", "%lanemask_le"
  How how;
  std::string_view sass; ///< the SASS special register, as nvdisasm names it ("SR_TID.X")
  uint32_t a, b;
};

/// Constant bank 0 as the driver lays it out for a kernel launch.
struct ConstBankLayout {
  uint32_t paramBase;        ///< first kernel parameter byte
  uint32_t ntidOffset;       ///< blockDim.x (y, z follow at +4, +8)
  uint32_t nctaidOffset;     ///< gridDim.x (y, z follow at +4, +8)
  uint32_t stackPtrOffset;   ///< initial stack pointer (local-memory window top)
  uint32_t globalDescOffset; ///< 64-bit memory descriptor global accesses use (desc[URx])
  /// 64-bit generic address of the local window (cvta.local adds it to a local address).
  uint32_t localWindowOffset = 0x20;
  /// 64-bit generic addresses of the kernel parameter window's first and last byte
  /// (isspacep.param: first <= a <= last; cvta.param adds a parameter's block offset to the
  /// first). HW: ptxas 13.0's ULDC.64 c[0x0][0x198] / [0x1a0]; sm_90a `cvta.param.u64 d, p`
  /// of a parameter at block offset 0x30 is `LDC.64 R4, c[0x0][0x198]; IADD3 R6, P0, R4, 0x30`.
  uint32_t paramWindowFirst = 0x198, paramWindowLast = 0x1a0;
  /// The largest offset an LDC encodes beside its index register (`c[b][R+off]`: the 16-bit
  /// field I@38/16 of targets/sm_90/sm90_forms.def).
  uint32_t maxLdcOffset = 0xffff;
};

/// Where memory the PTX names lives, as the code addresses it.
struct MemoryLayout {
  uint32_t constVarBank;     ///< module .const variables: c[bank][variable offset]
  uint32_t addressSlotBank;  ///< 64-bit addresses of module .global variables
  uint32_t constWindowOffset; ///< bank 0: 64-bit generic address of the .const bank
  uint32_t sharedReserve;    ///< bytes reserved at the bottom of every CTA's shared window
  uint32_t sharedCtaShift;   ///< shared address = (SR_CgaCtaId << shift) + window offset
  /// Per kernel: the code offsets of the address-taken functions an indirect call loads
  /// (`LDC.64 R2, c[bank][fp]`; .nv.constant<bank>.<kernel>).
  uint32_t functionTableBank = 2;
};

struct RegisterFiles {
  unsigned numGprs;      ///< R0..R(n-1) allocatable, RZ beyond
  unsigned numUgprs;     ///< UR0..UR(n-1), URZ beyond
  unsigned numPreds;     ///< P0..P(n-1), PT beyond
  unsigned reservedGprs; ///< registers the ABI keeps (R1 is the stack pointer)
  /// Register-count facts for limits (ptxas -v's count = highest R + 1 + 2).
  unsigned maxRegCount = 255;       ///< the count ptxas never exceeds
  unsigned minRegCount = 24;        ///< lower bound of -maxrregcount / .maxnreg
  unsigned regsPerSubPartition = 16384; ///< register file words per SM sub-partition
  unsigned subPartitions = 4;
  unsigned regGranule = 8;          ///< per-thread counts are multiples of this
};

class Target {
public:
  /// The target for `arch` when ptxas-mini can generate code for it, else nullptr.
  static const Target *get(const ArchInfo &arch);
  /// sm_90: the default where no -arch is given (ori-opt, unit tests).
  static const Target &sm90();

  const ArchInfo &arch() const { return arch_; }
  const ConstBankLayout &constBank() const { return cbank_; }
  const RegisterFiles &registers() const { return regs_; }
  const MemoryLayout &memory() const { return mem_; }
  /// How each PTX special register this SM can read is read (empty name: none).
  std::span<const SpecialRegRead> specialRegs() const;
  /// The row for `ptxName` ("%warpid", "%tid.x"), or nullptr.
  const SpecialRegRead *specialReg(std::string_view ptxName) const;
  /// How ptxas-mini's functions call each other (targets/calling_convention.h).
  const CallingConvention &callingConvention() const { return cc_; }
  /// The per-thread register limit a kernel's launch bounds allow (`.maxntid`/`.reqntid`
  /// threads, `.minnctapersm` blocks), as ptxas computes it: the register file split over
  /// the SM's sub-partitions, whole warps, a multiple of the allocation granule, at most the
  /// file's maximum.
  uint32_t registerLimitForLaunchBounds(uint32_t threads, uint32_t minBlocks) const;
  /// The most registers a thread may use (ptxas -v's count), and the fewest a limit may
  /// ask for (ptxas raises a smaller -maxrregcount to it with a warning).
  uint32_t maxRegisterCount() const { return regs_.maxRegCount; }
  uint32_t minRegisterCount() const { return regs_.minRegCount; }

  // ---- scheduling (targets/<sm>/sass_ops.def and latencies.def) ------------------------
  /// The SASS opcode row for `mnemonic` (no modifiers), or nullptr when the table has none.
  const SassOpInfo *sassOp(std::string_view mnemonic) const;
  /// The latency class of `mnemonic` with `mods` (a modifier may move it, e.g. IMAD.WIDE);
  /// `fallback` when the table has no row.
  ori::LatClass latClass(std::string_view mnemonic, std::span<const std::string_view> mods,
                         ori::LatClass fallback) const;
  /// The modifier refinement of `mnemonic` with `mods`, or nullptr.
  const ClassByModifier *refinement(std::string_view mnemonic,
                                    std::span<const std::string_view> mods) const;
  /// The same for an Ori instruction (its opcode is a SASS mnemonic).
  ori::LatClass latClass(const ori::Instr &in) const;
  /// Cycles between the issue of a fixed-latency `writer` and the earliest issue of a
  /// `reader` of its result in `file` (latencies.def).
  unsigned rawLatency(ori::LatClass writer, ori::LatClass reader, ori::RegClass file,
                      ReadKind kind) const;
  /// The largest rawLatency of `writer` in `file` over every reader and kind: what a result
  /// may still need when the reader is not known (the end of a block, a call).
  unsigned maxRawLatency(ori::LatClass writer, ori::RegClass file) const;
  /// Cycles a fixed-latency `newer` writer of a register must issue after an `older` one of
  /// another class so that the older result never lands last: the difference of the two
  /// classes' fastest measured reads in `file` (a model assumption, GUESS: results land a
  /// fixed time before their fastest reader may issue); maxRawLatency(older) where a class
  /// has no measured cell in `file`.
  unsigned wawDistance(ori::LatClass older, ori::LatClass newer, ori::RegClass file) const;
  /// The instruction's result is tracked by a write scoreboard (variable latency).
  bool needsScoreboard(const ori::Instr &in) const;
  /// The instruction may read its register operands after it issues, so an overwrite of a
  /// source must wait on its read scoreboard.
  bool readsLate(const ori::Instr &in) const;
  /// Register counts of a tensor-core instruction, or nullptr.
  const MmaShape *mmaShape(std::string_view mnemonic,
                           std::span<const std::string_view> mods) const;
  const IssueFacts &issue() const { return sched_->issue; }
  /// The class the upper register of a pair written by `cls` lands as (cls itself unless a
  /// PAIR_HIGH row says otherwise).
  ori::LatClass pairHighClass(ori::LatClass cls) const;
  /// The smallest stall an instruction of `mnemonic` may carry (1 unless MIN_STALL says more).
  unsigned minStall(std::string_view mnemonic) const;

  // ---- performance model (targets/<sm>/perf_model.def) ------------------------------------
  /// Resident limits and fixed costs of one SM, for the emulator's performance model.
  const PerfFacts &perfFacts() const { return perf_->facts; }
  /// What one warp instruction of `mnemonic` with `mods` costs: the first PERF_OP row that
  /// matches, else its latency class's PERF_CLASS row (class Ctrl when sass_ops.def has no
  /// row for the opcode).
  PerfCost perfCost(std::string_view mnemonic, std::span<const std::string_view> mods) const;

  Target(ArchInfo arch, ConstBankLayout cbank, RegisterFiles regs, MemoryLayout mem,
         const SchedTables &sched, const PerfTables &perf);

private:
  static constexpr unsigned kFiles = ori::kNumRegClasses, kKinds = 2;
  static size_t latIndex(unsigned w, unsigned r, unsigned f, unsigned k) {
    return ((w * (ori::kNumLatClasses + 1) + r) * kFiles + f) * kKinds + k;
  }

  ArchInfo arch_;
  ConstBankLayout cbank_;
  RegisterFiles regs_;
  MemoryLayout mem_;
  CallingConvention cc_;
  const SchedTables *sched_;
  const PerfTables *perf_;
  /// rawLatency for every (writer, reader or any, file, kind), from sched_->raw.
  std::array<uint8_t, ori::kNumLatClasses * (ori::kNumLatClasses + 1) * kFiles * kKinds> lat_{};
  std::array<uint8_t, ori::kNumLatClasses * kFiles> maxLat_{};
  /// The smallest measured rawLatency of each (writer, file), 0 where none (wawDistance).
  std::array<uint8_t, ori::kNumLatClasses * kFiles> fastest_{};
};

} // namespace ptxmini
