//===- targets/isa_tables.cpp - which encoding tables an SM uses ------------------------===//
///
/// \file
/// The one place that maps an SM number to its encoding tables. sm_90a shares sm_90's rows
/// (its extra instructions are rows in the same table). Adding sm_80/86/89/100/120 means
/// adding a targets/sm_XX/ table (an overlay on the family's rows, as sm_80's) and a
/// line here.
//===----------------------------------------------------------------------------------===//
#include "targets/common/form_row.h"

namespace ptxmini::targets {

extern const IsaTables kSm90Tables;
extern const IsaTables kSm80Tables;
extern const IsaTables kSm89Tables;

const IsaTables *isaTablesFor(unsigned sm) {
  switch (sm) {
  case 90:
    return &kSm90Tables;
  // HW: sm_86 words are sm_80's, sm_89's too but for a few spellings of nvdisasm -b SM89
  // (conformance runs of ptxas's sm_86/sm_89 code, targets/sm_80/ENCODING.md).
  case 80:
  case 86:
    return &kSm80Tables;
  case 89:
    return &kSm89Tables;
  default:
    return nullptr;
  }
}

} // namespace ptxmini::targets
