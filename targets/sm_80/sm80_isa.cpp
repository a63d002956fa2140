//===- targets/sm_80/sm80_isa.cpp - sm_80's encoding tables (also sm_86, sm_89) ----------===//
///
/// \file
/// sm_80 (sm_86, and sm_89 but for a few spellings) is an overlay on the 128-bit family's rows (today the rows of
/// targets/sm_90/sm90_forms.def): its own rows (sm80_forms.def) are tried first and replace
/// the family rows of the opcodes listed there with REPLACES. No logic lives here.
//===----------------------------------------------------------------------------------===//
#include "targets/common/form_row.h"

namespace ptxmini::targets {

extern const std::span<const FormRow> kFamilyForms;
extern const std::span<const NamedValue> kFamilySpecialRegs;

namespace {
#define FORM(opc, match, text, fixed) {opc, match, text, fixed},
#define REPLACES(opc)
constexpr FormRow kSm80Forms[] = {
#include "targets/sm_80/sm80_sm86_forms.def"
#include "targets/sm_80/sm80_forms.def"
};
constexpr FormRow kSm89Forms[] = {
#include "targets/sm_80/sm80_forms.def"
};
#undef REPLACES
#undef FORM

constexpr uint16_t kSm80Replaced[] = {
#define FORM(opc, match, text, fixed)
#define REPLACES(opc) opc,
#include "targets/sm_80/sm80_forms.def"
#undef REPLACES
#undef FORM
};
} // namespace

// HW: the special-register numbers nvdisasm 13.2 -b SM80 prints for ptxas's S2R/CS2R words
// are sm_90's for every register the sm_80 corpus reads (conformance run, ENCODING.md).
extern const IsaTables kSm80Tables = {"sm_80", kSm80Forms, kFamilySpecialRegs, kFamilyForms,
                                      kSm80Replaced};
/// sm_89 (Ada): sm_80's rows but for the spellings of sm80_sm86_forms.def.
extern const IsaTables kSm89Tables = {"sm_89", kSm89Forms, kFamilySpecialRegs, kFamilyForms,
                                      kSm80Replaced};

} // namespace ptxmini::targets
