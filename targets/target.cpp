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
                   MemoryLayout{/*constVarBank=*/3, /*addressSlotBank=*/4,
                                /*constWindowOffset=*/0xd0, /*sharedReserve=*/0x400,
                                /*sharedCtaShift=*/24});

constexpr SpecialRegRead kSm90SpecialRegs[] = {
#define PTX_SREG_READ(Ptx, Kind, Sass, A, B) {Ptx, SpecialRegRead::How::Kind, Sass, A, B},
#include "targets/sm_90/sm90_ptx_sregs.def"
#undef PTX_SREG_READ
};

} // namespace

const Target &Target::sm90() { return kSm90; }

// Only sm_90 (and sm_90a) generate code today, so every Target answers with sm_90's table.
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
  return &kSm90; // hasCodegen() is true only for the SMs above
}

} // namespace ptxmini
