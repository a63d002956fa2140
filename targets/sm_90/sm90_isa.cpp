//===- targets/sm_90/sm90_isa.cpp - sm_90's encoding tables -----------------------------===//
///
/// \file
/// Expands the declarative rows (sm90_forms.def, sm90_sregs.def) into the IsaTables the
/// generic encoder (encoder/isa_table.cpp) consumes. No logic lives here.
//===----------------------------------------------------------------------------------===//
#include "targets/common/form_row.h"

namespace ptxmini::targets {

namespace {
constexpr FormRow kSm90Forms[] = {
#define FORM(opc, match, text, fixed) {opc, match, text, fixed},
#include "targets/sm_90/sm90_forms.def"
#undef FORM
};

constexpr NamedValue kSm90SpecialRegs[] = {
#define SREG(v, name) {v, name},
#include "targets/sm_90/sm90_sregs.def"
#undef SREG
};
} // namespace

extern const IsaTables kSm90Tables = {"sm_90", kSm90Forms, kSm90SpecialRegs};
/// sm_90's rows are the 128-bit family's shared table that other SMs overlay (sm_80: its
/// differences in targets/sm_80/sm80_forms.def).
extern const std::span<const FormRow> kFamilyForms = kSm90Forms;
extern const std::span<const NamedValue> kFamilySpecialRegs = kSm90SpecialRegs;

} // namespace ptxmini::targets
