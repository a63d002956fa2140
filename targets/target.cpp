//===- targets/target.cpp - the Target objects, one per SM with code generation --------===//
#include "targets/target.h"

#include <algorithm>

namespace ptxmini {
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
                   RegisterFiles{/*numGprs=*/255, /*numUgprs=*/63, /*numPreds=*/7,
                                 /*reservedGprs=*/2},
                   sm90SchedTables());

} // namespace

Target::Target(ArchInfo arch, ConstBankLayout cbank, RegisterFiles regs, const SchedTables &sched)
    : arch_(arch), cbank_(cbank), regs_(regs), sched_(&sched) {
  lat_.fill(sched.fallbackLatency);
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
      }
    }
  }
  for (unsigned w = 0; w < ori::kNumLatClasses; ++w)
    for (unsigned f = 0; f < kFiles; ++f) {
      uint8_t m = 0;
      for (unsigned rd = 0; rd <= ori::kNumLatClasses; ++rd)
        for (unsigned k = 0; k < kKinds; ++k)
          m = std::max(m, lat_[latIndex(w, rd, f, k)]);
      maxLat_[w * kFiles + f] = m;
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

const Target *Target::get(const ArchInfo &arch) {
  if (arch.isVirtual || !arch.hasCodegen())
    return nullptr;
  return &kSm90; // hasCodegen() is true only for the SMs above
}

} // namespace ptxmini
