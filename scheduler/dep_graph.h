//===- scheduler/dep_graph.h - the dependence graph of one block ----------------------===//
///
/// \file
/// Nodes are a block's instructions; an edge i -> j (i before j in the input order) says j
/// may issue no earlier than `latency` cycles after i:
///   RAW  j reads a register i writes: the target's rawLatency for fixed-latency writers, an
///        estimate of the queue latency for variable-latency ones (scoreboards make any
///        order correct; the estimate only steers the priority);
///   WAR  j overwrites a register i reads: 0 (j after i);
///   WAW  j overwrites a register i writes: 1;
///   memory  loads may pass loads; a store or any other side effect stays after every earlier
///        memory access and side effect, and loads stay after the last side effect (constant
///        loads read a read-only bank and are free);
///   barrier  BSSY, BSYNC, WARPSYNC, BAR, MEMBAR and CALL are fences for every instruction
///        (convergence and synchronisation points: the set of threads executing an
///        instruction must not change);
///   control  the block's final branch or exit stays last.
/// Each node also gets its height: the longest latency path from it to the end of the block,
/// plus what its own result still needs afterwards (the list scheduler's priority).
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"
#include "scheduler/instr_deps.h"

#include <vector>

namespace ptxmini::sched {

struct DepEdge {
  uint32_t to;
  uint16_t latency;
};

struct DepGraph {
  std::vector<std::vector<DepEdge>> succs;
  std::vector<uint32_t> numPreds;
  std::vector<unsigned> height;
};

DepGraph buildDepGraph(const ori::Block &b, const std::vector<InstrDeps> &deps, const Target &t);

/// The priority estimate of a variable-latency result's arrival in cycles (GUESS; the real
/// wait is a scoreboard, so no correctness rests on it). Shared by both schedulers.
unsigned variableLatencyEstimate(ori::LatClass c);
/// Whether `in` is a fence for every instruction of its block (convergence and
/// synchronisation points: BSSY, BSYNC, WARPSYNC, BAR, MEMBAR, CALL, DEPBAR, OF_BAR).
bool isSchedulingFence(const ori::Instr &in);

} // namespace ptxmini::sched
