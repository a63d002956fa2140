//===- targets/isa_tables.cpp - which encoding tables an SM uses ------------------------===//
///
/// \file
/// The one place that maps an SM number to its encoding tables. sm_90a shares sm_90's rows
/// (its extra instructions are rows in the same table). Adding sm_80/86/89/100/120 means
/// adding a targets/sm_XX/ table and a line here.
//===----------------------------------------------------------------------------------===//
#include "targets/common/form_row.h"

namespace ptxmini::targets {

extern const IsaTables kSm90Tables;

const IsaTables *isaTablesFor(unsigned sm) {
  switch (sm) {
  case 90:
    return &kSm90Tables;
  default:
    return nullptr;
  }
}

} // namespace ptxmini::targets
