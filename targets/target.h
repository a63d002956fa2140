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

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace ptxmini {

/// Constant bank 0 as the driver lays it out for a kernel launch.
struct ConstBankLayout {
  uint32_t paramBase;        ///< first kernel parameter byte
  uint32_t ntidOffset;       ///< blockDim.x (y, z follow at +4, +8)
  uint32_t nctaidOffset;     ///< gridDim.x (y, z follow at +4, +8)
  uint32_t stackPtrOffset;   ///< initial stack pointer (local-memory window top)
  uint32_t globalDescOffset; ///< 64-bit memory descriptor global accesses use (desc[URx])
};

struct RegisterFiles {
  unsigned numGprs;      ///< R0..R(n-1) allocatable, RZ beyond
  unsigned numUgprs;     ///< UR0..UR(n-1), URZ beyond
  unsigned numPreds;     ///< P0..P(n-1), PT beyond
  unsigned reservedGprs; ///< registers the ABI keeps (R1 is the stack pointer)
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

  Target(ArchInfo arch, ConstBankLayout cbank, RegisterFiles regs, const SchedTables &sched);

private:
  static constexpr unsigned kFiles = ori::kNumRegClasses, kKinds = 2;
  static size_t latIndex(unsigned w, unsigned r, unsigned f, unsigned k) {
    return ((w * (ori::kNumLatClasses + 1) + r) * kFiles + f) * kKinds + k;
  }

  ArchInfo arch_;
  ConstBankLayout cbank_;
  RegisterFiles regs_;
  const SchedTables *sched_;
  /// rawLatency for every (writer, reader or any, file, kind), from sched_->raw.
  std::array<uint8_t, ori::kNumLatClasses * (ori::kNumLatClasses + 1) * kFiles * kKinds> lat_{};
  std::array<uint8_t, ori::kNumLatClasses * kFiles> maxLat_{};
};

} // namespace ptxmini
