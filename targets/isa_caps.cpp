//===- targets/isa_caps.cpp - which capability table an SM uses --------------------------===//
///
/// \file
/// The one place that maps an SM number to its IsaCaps (targets/isa_caps.h). sm_90(a) is the
/// reference: it lacks nothing. sm_80, sm_86 and sm_89 read targets/sm_80/isa_caps.def.
//===----------------------------------------------------------------------------------===//
#include "targets/isa_caps.h"

namespace ptxmini {
namespace {

constexpr MissingOp kSm80Missing[] = {
#define MISSING(Op, Rewrite, Sms) {ori::Opcode::Op, OpRewrite::Rewrite},
#include "targets/sm_80/isa_caps.def"
};
// sm_86 and sm_89: the rows the whole family lacks (Sms = A), not sm_80's own (X80).
#define MISSING_A(Op, Rewrite) {ori::Opcode::Op, OpRewrite::Rewrite},
#define MISSING_X80(Op, Rewrite)
constexpr MissingOp kSm86Missing[] = {
#define MISSING(Op, Rewrite, Sms) MISSING_##Sms(Op, Rewrite)
#include "targets/sm_80/isa_caps.def"
};
#undef MISSING_A
#undef MISSING_X80

// HW: the UR field of the implicit descriptor (targets/sm_80/sm80_forms.def, "memory").
constexpr IsaCaps::DescField kSm80DescFields[] = {
    {"LDG", 32}, {"LD", 32},    {"STG", 64}, {"ST", 64},
    {"ATOM", 64}, {"ATOMG", 64}, {"RED", 64}, {"LDGSTS", 64},
};

// HW: nvdisasm 13.2 -b SM80 spells sm_90's `WARPSYNC.ALL` (0x948, no operand) as the
// immediate form `WARPSYNC 0xffffffff` (ptxas's sm_80 code for __syncwarp()), and DMMA's only
// shape `.884` where sm_90 prints `.8x8x4` (targets/sm_80/sm80_forms.def).
constexpr IsaCaps::Respell kSm80Respell[] = {
    {"WARPSYNC.ALL", "WARPSYNC 0xffffffff"},
    {"DMMA.8x8x4", "DMMA.884"},
};

// HW (ptxas 13.0.88 sm_80 code, targets/sm_80/ENCODING.md): a shared variable's address is
// its offset (no SR_CgaCtaId term); global accesses print no descriptor and their words carry
// the UR ptxas loaded c[0x0][0x118] into (the rows write UR4, ptxas's usual choice; the
// emitter writes the register the descriptor is in);
// sm_80..89 have no clusters (ptxas rejects cluster PTX for them).
const IsaCaps kSm80Caps{kSm80Missing, /*cgaSharedWindow=*/false, /*memDescInText=*/false,
                        /*implicitDescUr=*/4, kSm80DescFields, kSm80Respell,
                        /*hopperInstructions=*/false};
const IsaCaps kSm86Caps{kSm86Missing, /*cgaSharedWindow=*/false, /*memDescInText=*/false,
                        /*implicitDescUr=*/4, kSm80DescFields, kSm80Respell,
                        /*hopperInstructions=*/false};
const IsaCaps kFullCaps{};

} // namespace

const IsaCaps &isaCapsFor(unsigned sm) {
  switch (sm) {
  case 80:
    return kSm80Caps;
  case 86:
  case 89:
    return kSm86Caps;
  default:
    return kFullCaps;
  }
}

} // namespace ptxmini
