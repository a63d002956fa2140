//===- targets/sm_80/sched_tables.cpp - the sm_80/86/89 scheduling tables as data --------===//
///
/// \file
/// The family's opcode rows (targets/sm_90/sass_ops.def: every sm_80 mnemonic has its row
/// there) with sm_80's own latencies (targets/sm_80/latencies.def, measured off ptxas's sm_80
/// code), instantiated by targets/common/sched_tables.inc.
//===----------------------------------------------------------------------------------===//
#define PTXMINI_SASS_OPS_DEF "targets/sm_90/sass_ops.def"
#define PTXMINI_LATENCIES_DEF "targets/sm_80/latencies.def"
#define PTXMINI_SCHED_TABLES_FN sm80SchedTables
#include "targets/common/sched_tables.inc"
