//===- targets/sm_90/sched_tables.cpp - the sm_90 scheduling tables as data -------------===//
///
/// \file
/// sass_ops.def and latencies.def instantiated by targets/common/sched_tables.inc.
//===----------------------------------------------------------------------------------===//
#define PTXMINI_SASS_OPS_DEF "targets/sm_90/sass_ops.def"
#define PTXMINI_LATENCIES_DEF "targets/sm_90/latencies.def"
#define PTXMINI_SCHED_TABLES_FN sm90SchedTables
#include "targets/common/sched_tables.inc"
