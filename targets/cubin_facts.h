//===- targets/cubin_facts.h - where an SM's cubin differs from sm_90's --------------===//
///
/// \file
/// The cubin builder (encoder/cubin/cubin_builder.cpp) writes ptxas 13.0's sm_90 layout; these
/// are the facts that change with the SM, as data (observed on ptxas 13.0.88 cubins of the
/// same PTX for sm_80, sm_86, sm_89 and sm_90, read with cuobjdump -elf 13.2 and a byte-level
/// section reader; targets/sm_80/ENCODING.md, "Cubin").
//===----------------------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace ptxmini::targets {

struct CubinFacts {
  uint32_t paramBase;         ///< c[0x0][paramBase] is the first parameter byte
  uint32_t sharedReserve;     ///< bytes .nv.shared.<k> reserves below the kernel's variables
  bool compatSection;         ///< .nv.compat (and .note.nv.cuinfo's link to it)
  bool reservedSharedSection; ///< .nv.shared.reserved.0 and its two weak symbols
  bool debugFrameRela;        ///< .rela.debug_frame, .rela.nv.constant4 (RELA); else .rel.* (REL)
  bool relActionSection;      ///< .nv.rel.action (CUDA_RELOCINFO) after .nv.callgraph
  bool regsInTextInfo;        ///< .text.<k> sh_info = registers << 24 | symbol
  uint16_t mercuryIsaVersion; ///< EIATTR_MERCURY_ISA_VERSION (major << 8 | minor)
  bool sparseMmaMask;         ///< per-kernel EIATTR_SPARSE_MMA_MASK 0
  bool swWar;                 ///< per-kernel EIATTR_SW_WAR
  bool sw2861232War;          ///< per-kernel EIATTR_SW2861232_WAR (no value)
  uint64_t braSelfLo, braSelfHi; ///< the BRA-to-self word after the last instruction
  /// A parameter block larger than this many bytes starts elsewhere (0: no such limit).
  /// HW (ptxas 13.0.88 -arch=sm_80, one .b8 array parameter plus a pointer): 0x1100 bytes
  /// start at c[0x0][0x160] (PARAM_CBANK 0x11000160), 0x1108 at c[0x0][0x1a80]
  /// (0x11081a80); ptxas-mini does not implement the second placement and refuses it.
  uint32_t paramBaseLimit = 0;
};

namespace cubin_facts {

// HW: ptxas 13.0.88 -arch=sm_90 (cubin-format.md; the builder's reference layout): parameters
// at c[0x0][0x210], a 1 KB shared reserve, .nv.compat, .nv.shared.reserved.0,
// .rela.debug_frame, MERCURY_ISA_VERSION 1.1, SPARSE_MMA_MASK and SW_WAR 8 per kernel, the
// BRA-to-self `0xfffffffc00fc7947 0x000fc0000383ffff`.
inline constexpr CubinFacts kSm90{0x210, 0x400, true, true, true, false, false, 0x0101, true, true,
                           false, 0xfffffffc00fc7947ull, 0x000fc0000383ffffull};

// HW: ptxas 13.0.88 -arch=sm_80 / sm_86 / sm_89 on the same PTX (tests/examples/saxpy.ptx
// and the ptx80 corpus, cuobjdump -elf): parameters at c[0x0][0x160] (EIATTR_PARAM_CBANK
// 0x180160 for 0x18 parameter bytes), no shared reserve, no .nv.compat, no reserved shared
// section or symbols, `.rel.debug_frame` (REL, entsize 16), a 16-byte `.nv.rel.action`,
// .text sh_info 0xa000008 for a 10-register kernel whose symbol is 8,
// EIATTR_SW2861232_WAR and MERCURY_ISA_VERSION 0.0 per kernel, no SPARSE_MMA_MASK/SW_WAR,
// and the BRA-to-self `BRA 0xf0` at 0xf0: 0xfffffff000007947 0x000fc0000383ffff (the
// target is a 4-byte count in bits 34..81, targets/sm_80/sm80_forms.def).
inline constexpr CubinFacts kSm80{0x160, 0,     false, false, false, true, true, 0x0000, false, false,
                           true,  0xfffffff000007947ull, 0x000fc0000383ffffull, 0x1100};

} // namespace cubin_facts

/// The facts for SM `sm` (as ArchInfo::sm); sm_90's for an SM without its own. Header-only:
/// the cubin library reads it without linking the targets library.
inline const CubinFacts &cubinFactsFor(unsigned sm) {
  switch (sm) {
  case 80:
  case 86:
  case 89:
    return cubin_facts::kSm80;
  default:
    return cubin_facts::kSm90;
  }
}

/// The .nv.rel.action section ptxas writes on sm_80/86/89 (one R_CUDA_CONST_FIELD22_37
/// action record, the same bytes in every cubin observed).
inline constexpr uint8_t kRelActionBytes[16] = {0x73, 0, 0, 0, 0, 0, 0, 0,
                                                0,    0, 0, 0x11, 0x25, 0, 0x05, 0x36};

} // namespace ptxmini::targets
