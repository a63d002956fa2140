//===- targets/target.cpp - the Target objects, one per SM with code generation --------===//
#include "targets/target.h"
#include "targets/target_model.h"

#include <algorithm>

namespace ptxmini {
/// targets/sm_80/sched_tables.cpp.
const SchedTables &sm80SchedTables();
namespace {

// sm_90 (and sm_90a, which differs only in the instructions it allows).
// HW: observed in ptxas 13.0.88 cubins for sm_90 (shared/docs/cubin-format.md section 8, and
// nvdisasm 13.2 on ptxas's own code): parameters at c[0x0][0x210]; `LDC R7, c[0x0][RZ]` reads
// %ntid.x; %nctaid.x is read from c[0x0][0xc]; `LDC R1, c[0x0][0x28]` starts every kernel;
// global accesses use `ULDC.64 UR4, c[0x0][0x208]` as their descriptor.
const Target kSm90(ArchInfo{90, 0, false},
                   ConstBankLayout{/*paramBase=*/0x210, /*ntidOffset=*/0x0,
                                   /*nctaidOffset=*/0xc, /*stackPtrOffset=*/0x28,
                                   /*globalDescOffset=*/0x208},
                   // HW: 255 GPRs + RZ, 63 UGPRs + URZ, 7 predicates + PT (sass-encoding.md
                   // 2.2/2.3; NAK). R1 holds the stack pointer (every ptxas kernel loads it).
                   // HW (ptxas 13.0.88 -v on sm_90, a kernel needing every register): at most
                   // 255 registers are reported (R0-R252 used), -maxrregcount below 24 is raised to 24 with
                   // a warning; launch bounds give floor8(16384 / (32 * ceil(warps * blocks
                   // / 4))): e.g. 384 threads -> 168, 256x3 -> 80, 96x7 -> 80, 32x30 -> 64.
                   RegisterFiles{/*numGprs=*/255, /*numUgprs=*/63, /*numPreds=*/7,
                                 /*reservedGprs=*/2, /*maxRegCount=*/255, /*minRegCount=*/24,
                                 /*regsPerSubPartition=*/16384, /*subPartitions=*/4,
                                 /*regGranule=*/8},
                   // HW: ptxas 13.0.88 sm_90 code read with nvdisasm 13.2: `ld.const [cv+8]`
                   // is `LDC R, c[0x3][0x8]`; `mov.u64 %rd, gvar` is `LDC.64 R, c[0x4][slot]`
                   // (R_CUDA_64 in .rela.nv.constant4); `cvta.const` adds c[0x0][0xd0];
                   // `mov.u32 %r, sharedvar` is `MOV R0, 0x400; S2R R5, SR_CgaCtaId; LEA R5,
                   // R5, R0, 0x18` and .nv.shared.<k> is 0x400 + the variables' bytes.
                   // An indirect call in a module of two kernels: `LDC.64 R2, c[0x2][R0];
                   // CALL.REL.NOINC R2 0x0`, .nv.constant2.<k> = {1, code offsets...}.
                   MemoryLayout{/*constVarBank=*/3, /*addressSlotBank=*/4,
                                /*constWindowOffset=*/0xd0, /*sharedReserve=*/0x400,
                                /*sharedCtaShift=*/24, /*functionTableBank=*/2},
                   sm90SchedTables(), sm90PerfTables());

// sm_80 / sm_86 / sm_89 (Ampere, Ada). HW: ptxas 13.0.88 sm_80 code read with nvdisasm 13.2
// (targets/sm_80/ENCODING.md): parameters at c[0x0][0x160], `IMAD.MOV.U32 R1, RZ, RZ,
// c[0x0][0x28]` starts every kernel, %ntid.x is c[0x0][0x0], %nctaid.x c[0x0][0xc], the
// global descriptor is `ULDC.64 UR4, c[0x0][0x118]`; a shared variable's address is its
// offset (no reserve, no CTA shift: targets/sm_80/isa_caps.def's cgaSharedWindow); module
// .const in bank 3, global-address slots in bank 4, function tables in bank 2 (as sm_90).
// Latencies: targets/sm_80/latencies.def, measured off ptxas's sm_80 code. GUESS: the
// register files, the launch-bound rule, the .const/.param window offsets and the
// performance model are sm_90's (not measured for sm_80).
Target ampere(unsigned sm) {
  return Target(ArchInfo{sm, 0, false},
                ConstBankLayout{/*paramBase=*/0x160, /*ntidOffset=*/0x0,
                                /*nctaidOffset=*/0xc, /*stackPtrOffset=*/0x28,
                                /*globalDescOffset=*/0x118},
                RegisterFiles{/*numGprs=*/255, /*numUgprs=*/63, /*numPreds=*/7,
                              /*reservedGprs=*/2},
                MemoryLayout{/*constVarBank=*/3, /*addressSlotBank=*/4,
                             /*constWindowOffset=*/0xd0, /*sharedReserve=*/0,
                             /*sharedCtaShift=*/0, /*functionTableBank=*/2},
                sm80SchedTables(), sm90PerfTables());
}
const Target kSm80 = ampere(80), kSm86 = ampere(86), kSm89 = ampere(89);

constexpr SpecialRegRead kSm90SpecialRegs[] = {
#define PTX_SREG_READ(Ptx, Kind, Sass, A, B) {Ptx, SpecialRegRead::How::Kind, Sass, A, B},
#include "targets/sm_90/sm90_ptx_sregs.def"
#undef PTX_SREG_READ
};

} // namespace

Target::Target(ArchInfo arch, ConstBankLayout cbank, RegisterFiles regs, MemoryLayout mem,
               const SchedTables &sched, const PerfTables &perf)
    : arch_(arch), cbank_(cbank), regs_(regs), mem_(mem), sched_(&sched), perf_(&perf) {
  lat_.fill(sched.fallbackLatency);
  std::vector<bool> measured(lat_.size(), false); // an exact RAW row, not a row default
  // Row defaults (reader kAnyClass) first, then the exact cells over them.
  for (int pass = 0; pass < 2; ++pass) {
    for (const RawLatency &r : sched.raw) {
      bool isDefault = r.reader == kAnyClass;
      if (isDefault != (pass == 0))
        continue;
      unsigned w = static_cast<unsigned>(r.writer), f = static_cast<unsigned>(r.file),
               k = static_cast<unsigned>(r.kind);
      if (isDefault) {
        for (unsigned rd = 0; rd <= ori::kNumLatClasses; ++rd)
          lat_[latIndex(w, rd, f, k)] = r.cycles;
      } else {
        lat_[latIndex(w, r.reader, f, k)] = r.cycles;
        measured[latIndex(w, r.reader, f, k)] = true;
      }
    }
  }
  // Per (writer, file): the largest latency over every reader and kind, and the fastest
  // measured read (exact RAW rows only: a row default is the row's largest cell, not a landing
  // time; 0 where none was measured).
  for (unsigned w = 0; w < ori::kNumLatClasses; ++w)
    for (unsigned f = 0; f < kFiles; ++f) {
      uint8_t &hi = maxLat_[w * kFiles + f], &lo = fastest_[w * kFiles + f];
      for (unsigned rd = 0; rd <= ori::kNumLatClasses; ++rd)
        for (unsigned k = 0; k < kKinds; ++k) {
          size_t x = latIndex(w, rd, f, k);
          hi = std::max(hi, lat_[x]);
          if (measured[x] && (lo == 0 || lat_[x] < lo))
            lo = lat_[x];
        }
    }
}

const SassOpInfo *Target::sassOp(std::string_view mnemonic) const {
  for (const SassOpInfo &o : sched_->ops)
    if (o.mnemonic == mnemonic)
      return &o;
  return nullptr;
}

const ClassByModifier *Target::refinement(std::string_view mnemonic,
                                          std::span<const std::string_view> mods) const {
  for (const ClassByModifier &c : sched_->classByModifier)
    if (c.mnemonic == mnemonic)
      for (std::string_view m : mods)
        if (m == c.modifier)
          return &c;
  return nullptr;
}

ori::LatClass Target::latClass(std::string_view mnemonic, std::span<const std::string_view> mods,
                               ori::LatClass fallback) const {
  if (const ClassByModifier *c = refinement(mnemonic, mods))
    return c->cls;
  const SassOpInfo *o = sassOp(mnemonic);
  return o ? o->cls : fallback;
}

ori::LatClass Target::latClass(const ori::Instr &in) const {
  llvm::SmallVector<std::string_view, 4> mods;
  for (ori::Modifier m : in.mods)
    mods.push_back(ori::modifierSpelling(m));
  return latClass(in.info().name, mods, in.info().latClass);
}

unsigned Target::rawLatency(ori::LatClass writer, ori::LatClass reader, ori::RegClass file,
                            ReadKind kind) const {
  return lat_[latIndex(static_cast<unsigned>(writer), static_cast<unsigned>(reader),
                       static_cast<unsigned>(file), static_cast<unsigned>(kind))];
}

unsigned Target::maxRawLatency(ori::LatClass writer, ori::RegClass file) const {
  return maxLat_[static_cast<unsigned>(writer) * kFiles + static_cast<unsigned>(file)];
}

unsigned Target::wawDistance(ori::LatClass older, ori::LatClass newer, ori::RegClass file) const {
  if (older == newer)
    return 0;
  unsigned o = fastest_[static_cast<unsigned>(older) * kFiles + static_cast<unsigned>(file)];
  unsigned n = fastest_[static_cast<unsigned>(newer) * kFiles + static_cast<unsigned>(file)];
  if (o == 0 || n == 0)
    return maxRawLatency(older, file); // a class never measured in this file
  return o > n ? o - n : 0;
}

bool Target::needsScoreboard(const ori::Instr &in) const {
  const SassOpInfo *o = sassOp(in.info().name);
  return o ? o->has(OP_VLAT) : in.info().has(ori::OF_VLAT);
}

bool Target::readsLate(const ori::Instr &in) const {
  const SassOpInfo *o = sassOp(in.info().name);
  if (o)
    return o->has(OP_LATE);
  return in.info().has(ori::OF_VLAT) || in.info().has(ori::OF_LD) || in.info().has(ori::OF_ST);
}

const MmaShape *Target::mmaShape(std::string_view mnemonic,
                                 std::span<const std::string_view> mods) const {
  auto hasMod = [&](std::string_view m) {
    for (std::string_view x : mods)
      if (x == m)
        return true;
    return false;
  };
  for (const MmaShape &s : sched_->mmaShapes)
    if (s.mnemonic == mnemonic && hasMod(s.shape) && (s.accum.empty() || hasMod(s.accum)))
      return &s;
  return nullptr;
}

ori::LatClass Target::pairHighClass(ori::LatClass cls) const {
  for (const PairHigh &p : sched_->pairHigh)
    if (p.cls == cls)
      return p.high;
  return cls;
}

unsigned Target::minStall(std::string_view mnemonic) const {
  for (const MinStall &m : sched_->minStalls)
    if (m.mnemonic == mnemonic)
      return m.cycles;
  return 1;
}

const Target &Target::sm90() { return kSm90; }

PerfCost Target::perfCost(std::string_view mnemonic, std::span<const std::string_view> mods) const {
  for (const PerfOpRow &r : perf_->ops) {
    if (r.mnemonic != mnemonic)
      continue;
    if (r.modifier.empty() || std::find(mods.begin(), mods.end(), r.modifier) != mods.end())
      return r.cost;
  }
  ori::LatClass cls = latClass(mnemonic, mods, ori::LatClass::Ctrl);
  for (const PerfClassRow &r : perf_->classes)
    if (r.cls == cls)
      return r.cost;
  return PerfCost{};
}

std::string_view perfPipeName(PerfPipe p) {
  static constexpr std::string_view kNames[] = {"fma",    "alu",    "fp64",    "xu",    "lsu",
                                                "const",  "tensor", "uniform", "branch"};
  static_assert(std::size(kNames) == kNumPerfPipes);
  return kNames[static_cast<size_t>(p)];
}

// HW: sm_80's special registers are read as sm_90's for every register the sm_80 corpus
// reads (conformance run, targets/sm_80/ENCODING.md); cluster registers are sm_90-only PTX.
std::span<const SpecialRegRead> Target::specialRegs() const { return kSm90SpecialRegs; }

const SpecialRegRead *Target::specialReg(std::string_view ptxName) const {
  for (const SpecialRegRead &r : specialRegs())
    if (r.ptx == ptxName)
      return &r;
  return nullptr;
}

uint32_t Target::registerLimitForLaunchBounds(uint32_t threads, uint32_t minBlocks) const {
  const RegisterFiles &r = regs_;
  uint32_t warps = (std::max<uint32_t>(threads, 1) + 31) / 32 * std::max<uint32_t>(minBlocks, 1);
  uint32_t perPartition = (warps + r.subPartitions - 1) / r.subPartitions;
  uint32_t limit = r.regsPerSubPartition / (32 * perPartition);
  limit = limit / r.regGranule * r.regGranule;
  return std::min<uint32_t>(limit, r.maxRegCount);
}

const Target *Target::get(const ArchInfo &arch) {
  if (arch.isVirtual || !arch.hasCodegen())
    return nullptr;
  switch (arch.sm) {
  case 80:
    return &kSm80;
  case 86:
    return &kSm86;
  case 89:
    return &kSm89;
  default:
    return &kSm90; // hasCodegen() is true only for the SMs above
  }
}

} // namespace ptxmini

namespace ptxmini {

const Target *modelTarget(const ArchInfo &arch) {
  if (const Target *t = Target::get(arch))
    return t;
  return nullptr; // every SM with a model generates code today
}

} // namespace ptxmini
