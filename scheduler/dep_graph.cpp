//===- scheduler/dep_graph.cpp - the dependence graph of one block --------------------===//
#include "scheduler/dep_graph.h"

#include <algorithm>
#include <array>
#include <map>

namespace ptxmini::sched {

/// GUESS: a priority estimate of a variable-latency result's arrival (the real wait is a
/// scoreboard, so no correctness rests on it): shared memory and constants about 25 cycles,
/// global memory longer, the multi-function unit and conversions shorter.
unsigned variableLatencyEstimate(ori::LatClass c) {
  switch (c) {
  case ori::LatClass::Mem:
    return 40;
  case ori::LatClass::Shared:
  case ori::LatClass::Const:
  case ori::LatClass::Special:
    return 24;
  default:
    return 16;
  }
}

bool isSchedulingFence(const ori::Instr &in) {
  switch (in.op) {
  case ori::Opcode::BSSY:
  case ori::Opcode::BSYNC:
  case ori::Opcode::WARPSYNC:
  case ori::Opcode::BAR:
  case ori::Opcode::MEMBAR:
  case ori::Opcode::CALL:
  case ori::Opcode::DEPBAR:
    return true;
  default:
    return in.info().has(ori::OF_BAR);
  }
}

DepGraph buildDepGraph(const ori::Block &b, const std::vector<InstrDeps> &deps, const Target &t) {
  size_t n = b.instrs.size();
  DepGraph g;
  g.succs.resize(n);
  g.numPreds.assign(n, 0);
  g.height.assign(n, 0);
  // Edge (i, j) keeps the largest latency asked for.
  std::vector<std::map<uint32_t, uint16_t>> edges(n);
  auto edge = [&](uint32_t i, uint32_t j, unsigned lat) {
    if (i == j)
      return;
    auto [it, fresh] = edges[i].try_emplace(j, static_cast<uint16_t>(lat));
    if (!fresh)
      it->second = std::max<uint16_t>(it->second, static_cast<uint16_t>(lat));
  };
  std::vector<int32_t> lastWriter(kNumRegKeys, -1);
  std::vector<std::vector<uint32_t>> readersSince(kNumRegKeys);
  // Memory order. Instructions with effects stay in order among themselves (lastSide). A
  // plain load or store (opcodes.def OF_GMEM/OF_SMEM/OF_LMEM, not volatile) is ordered only
  // against effects that may touch one of its state spaces: a global load may pass a spill
  // store (STL), a shared load a global store. Everything else is ordered against all.
  constexpr unsigned kSpaces = 3;
  auto spaceMask = [](const ori::Instr &in) -> unsigned {
    const ori::OpcodeInfo &info = in.info();
    if (in.hasFlag(ori::IF_Volatile_bit) || info.has(ori::OF_LD) == info.has(ori::OF_ST))
      return 0; // not a plain access: every space
    return (info.has(ori::OF_GMEM) ? 1u : 0u) | (info.has(ori::OF_SMEM) ? 2u : 0u) |
           (info.has(ori::OF_LMEM) ? 4u : 0u);
  };
  int32_t lastSide = -1, lastFence = -1;
  std::array<int32_t, kSpaces> lastSideIn;
  lastSideIn.fill(-1);
  std::array<std::vector<uint32_t>, kSpaces> loadsSinceSideIn;
  std::vector<uint32_t> sinceFence;
  for (uint32_t j = 0; j < n; ++j) {
    const ori::Instr &in = b.instrs[j];
    const InstrDeps &d = deps[j];
    for (const RegRead &r : d.reads) {
      int32_t w = lastWriter[r.key];
      if (w >= 0) {
        const InstrDeps &wd = deps[static_cast<uint32_t>(w)];
        ori::LatClass wc = wd.cls;
        for (size_t n = 0; n < wd.defs.size(); ++n)
          if (wd.defs[n] == r.key)
            wc = static_cast<ori::LatClass>(wd.defCls[n]);
        unsigned lat = wd.vlat ? variableLatencyEstimate(wd.cls)
                               : t.rawLatency(wc, d.cls, regKeyFile(r.key), r.kind);
        edge(static_cast<uint32_t>(w), j, lat);
      }
    }
    for (uint16_t k : d.defs) {
      if (lastWriter[k] >= 0)
        edge(static_cast<uint32_t>(lastWriter[k]), j, 1);
      for (uint32_t rd : readersSince[k])
        edge(rd, j, 0);
    }
    bool fence = isSchedulingFence(in);
    bool side = in.info().has(ori::OF_SIDE);
    bool load = in.info().has(ori::OF_LD) && d.cls != ori::LatClass::Const;
    if (fence) {
      for (uint32_t p : sinceFence)
        edge(p, j, 0);
      if (lastFence >= 0)
        edge(static_cast<uint32_t>(lastFence), j, 0);
    } else if (lastFence >= 0) {
      edge(static_cast<uint32_t>(lastFence), j, 0);
    }
    unsigned mask = (fence || !(side || load)) ? 0 : spaceMask(in);
    unsigned touched = mask ? mask : (1u << kSpaces) - 1;
    if (side || fence) {
      if (lastSide >= 0)
        edge(static_cast<uint32_t>(lastSide), j, 0);
      for (unsigned s = 0; s < kSpaces; ++s)
        if (touched & (1u << s))
          for (uint32_t l : loadsSinceSideIn[s])
            edge(l, j, 0);
    } else if (load) {
      for (unsigned s = 0; s < kSpaces; ++s)
        if ((touched & (1u << s)) && lastSideIn[s] >= 0)
          edge(static_cast<uint32_t>(lastSideIn[s]), j, 0);
    }
    // Bookkeeping after the edges into j.
    for (const RegRead &r : d.reads)
      readersSince[r.key].push_back(j);
    for (uint16_t k : d.defs) {
      lastWriter[k] = static_cast<int32_t>(j);
      readersSince[k].clear();
    }
    if (side || fence) {
      lastSide = static_cast<int32_t>(j);
      for (unsigned s = 0; s < kSpaces; ++s)
        if (touched & (1u << s)) {
          lastSideIn[s] = static_cast<int32_t>(j);
          loadsSinceSideIn[s].clear();
        }
    } else if (load) {
      for (unsigned s = 0; s < kSpaces; ++s)
        if (touched & (1u << s))
          loadsSinceSideIn[s].push_back(j);
    }
    if (fence) {
      lastFence = static_cast<int32_t>(j);
      sinceFence.clear();
    } else {
      sinceFence.push_back(j);
    }
  }
  // The block's final control transfer stays last.
  if (n > 0) {
    const ori::Instr &last = b.instrs[n - 1];
    if (last.info().has(ori::OF_BR) || last.info().has(ori::OF_TERM))
      for (uint32_t i = 0; i + 1 < n; ++i)
        edge(i, static_cast<uint32_t>(n - 1), 0);
  }
  for (uint32_t i = 0; i < n; ++i)
    for (auto [j, lat] : edges[i]) {
      g.succs[i].push_back({j, lat});
      ++g.numPreds[j];
    }
  // Heights, in reverse order (edges only go forward).
  for (uint32_t i = static_cast<uint32_t>(n); i-- > 0;) {
    const InstrDeps &d = deps[i];
    unsigned h = 0;
    for (uint16_t k : d.defs)
      h = std::max(h, d.vlat ? variableLatencyEstimate(d.cls) : t.maxRawLatency(d.cls, regKeyFile(k)));
    for (const DepEdge &e : g.succs[i])
      h = std::max(h, e.latency + g.height[e.to]);
    g.height[i] = h;
  }
  return g;
}

} // namespace ptxmini::sched
