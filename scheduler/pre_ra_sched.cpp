//===- scheduler/pre_ra_sched.cpp - ScheduleInstructionsPreRA: pressure-aware list scheduling ===//
///
/// \file
/// Phase 100 (number GUESS). Reorders each block's instructions on virtual registers, before
/// allocation, so that long-latency loads issue early and their consumers late while the
/// register pressure stays under a target. After allocation the order can no longer change
/// much: registers reused by the allocator add false (WAR/WAW) dependences that pin
/// independent loads behind each other (ScheduleInstructionsPostRA sees them as edges).
///
/// The seeds' scheduling document (seed 002, "Instruction Scheduling") describes the pieces
/// this follows: per-class register pressure tracked incrementally (MRPA: a running pressure
/// updated by deltas, not recomputed), and the selection heuristic's level 1 (the deepest
/// instruction first: the latency-weighted path to the end of the block), with a switch to
/// register-pressure-driven choices (cicc's sched4reg) where pressure would pass the limit.
///
/// Per block:
///   1. Dependences on virtual and physical registers (one key per virtual register, its
///      components together): RAW with the target's writer x reader latency (fixed-latency
///      writers) or the scheduler's variable-latency estimate (loads, MUFU, ...); WAR and WAW
///      (the same virtual register redefined: Ori is not SSA) with latency 0.
///   2. Memory and effects, which the register keys do not see:
///      - fences (BSSY, BSYNC, WARPSYNC, BAR, MEMBAR, CALL, DEPBAR, OF_BAR) stay in place
///        relative to every instruction;
///      - plain loads and stores (opcodes.def OF_GMEM/OF_SMEM/OF_LMEM, not volatile) are
///        ordered only where one of them writes and their state spaces may overlap
///        (generic LD/ST may touch all three); two accesses through the same base register
///        value (no redefinition between them) at disjoint [offset, offset + size) do not
///        overlap either (not for warp-collective LDSM/STSM, whose lanes use each other's
///        addresses, nor for texture and surface operands). Constant loads and texture
///        fetches (not coherent with the kernel's own writes) are free;
///      - everything else with an effect (atomics, reductions, async copies, volatile
///        accesses, EXIT, clocks: reads of special registers that are not stable) keeps its
///        order with the other effects and with every memory access;
///      - warp-synchronous instructions (OF_WARP) keep their order among themselves and with
///        the effects;
///      - the block's final branch or terminator stays last.
///   3. Heights: the longest latency path from each instruction to the end of the block.
///   4. Cycle-driven top-down list scheduling. The running pressure per register class
///      (R in 32-bit units: pairs count 2, quads 4; UR; P; UP) follows the block's values:
///      a value is live from its definition (or the block's entry when live-in) while a read
///      of it remains or, for the last definition, when it is live out. Reads between two
///      definitions of a register are ordered before the second by the WAR edges, so each
///      definition's reads are known and the running count is exact for the order built.
///      Among the instructions whose inputs are available at the current cycle and that keep
///      every class within its target: the greatest height, then a variable-latency
///      instruction (a load) before others, then the input order. When every ready
///      instruction would pass a target: the one passing it least (then the smallest total
///      change, then height, input order), available or not. When nothing is available the
///      clock jumps to the earliest available cycle.
///   5. The new order is kept only when its maximum pressure in every class is at most the
///      larger of the input order's maximum and the target. Otherwise the block is scheduled
///      once more with the input order's maximum as the target (the greedy top-down choice
///      can fill the registers with long-lived values early and then find nothing that
///      frees one), then both once more within a window of the input order (an instruction
///      waits while it lies kSchedWindow or more positions after the first unscheduled one:
///      on a long block of many alike independent chains, a fully unrolled loop, critical
///      path first starts every chain at once and finds no way back under the target), and
///      failing that keeps its input order: the scheduler never makes a block need more
///      registers than it did and than the target allows.
///
/// Targets: R from the knob SchedPreRARegTarget when set, else the most registers that keep
/// the function's occupancy (resident warps per SM sub-partition, targets/ register file
/// facts) at the pressure of its input order, less a slack for the allocator's own
/// inflation, never below the input order's maximum, capped by its register limit
/// (-maxrregcount, .maxnreg, launch bounds, RegAllocLimit); ptxas -v's count is the highest
/// register + 3, so a count N leaves N - 3 registers for values. A device function keeps
/// its input order's maximum (what it may clobber, its callers may not use across the call),
/// and a kernel whose occupancy step is its register limit (above it: spills) keeps both its
/// input order's maximum and the limit less twice the slack (a block above that only improves). UR, P, UP: the allocatable registers of
/// their files. Deterministic: every choice ends in the input position.
///
/// DUMPIR=ScheduleInstructionsPreRA prints one note per function:
///   `# [pre-RA scheduled blocks=N] [reordered=M] [kept input order=K] [R target=T]
///    [input max R=I] [windowed=W]` (I: the largest R pressure of the input order; W: blocks
///    whose order came from a windowed attempt).
//===----------------------------------------------------------------------------------===//
#include "phases/phase_manager.h"
#include "regalloc/occupancy.h"
#include "scheduler/dep_graph.h"
#include "scheduler/reg_keys.h"

#include "ori/analysis/liveness.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

/// Register classes whose pressure is tracked (B registers are not).
constexpr unsigned kPressureClasses = 4; // R, UR, P, UP
using Pressure = std::array<int32_t, kPressureClasses>;

/// Block size above which a block keeps its input order (the ready-list scan is quadratic).
/// GUESS: far above the exec kernels' largest blocks (about 1,300 instructions).
constexpr size_t kMaxBlockInstrs = 4096;
/// Plain memory accesses kept for disambiguation since the last effect; past it the next
/// access is ordered after all of them (keeps graph construction linear on huge blocks).
constexpr size_t kMaxTrackedAccesses = 512;
/// Input positions a windowed attempt may look ahead of the first unscheduled instruction.
/// GUESS, tuned on the exec kernel local_array (64 unrolled elements of ~20 instructions,
/// 18,265 modelled cycles in input order): 8 -> 12,679, 16 -> 13,123, 24 -> 10,329,
/// 32 -> 9,971; 48 and 64 found no order under the target (input order kept).
constexpr uint32_t kSchedWindow = 32;

struct KeyRead {
  uint32_t key;
  RegClass file;
  ReadKind kind;
};

/// A virtual register access, for the pressure count: local register index, the definition
/// segment whose value the instruction reads (-1: none) and whether it starts a new one.
struct VAccess {
  uint32_t local;
  int32_t readSeg;
  bool def;
};

struct Node {
  llvm::SmallVector<uint32_t, 4> defs; ///< keys written
  llvm::SmallVector<RegClass, 4> defFiles;
  llvm::SmallVector<KeyRead, 8> reads; ///< keys read (guard included)
  llvm::SmallVector<VAccess, 6> vacc;
  ori::LatClass cls = ori::LatClass::Alu;
  bool vlat = false;
};

/// A virtual register touched in the block.
struct Local {
  uint32_t flat;
  RegClass cls;
  uint8_t width;
  bool liveIn, liveOut;
  std::vector<uint32_t> segReads; ///< reads of each definition's value (segment 0: live-in)
};

struct SchedPreRACtx {
  const ori::Function &f;
  const Target &t;
  const ori::Liveness &lv;
  std::vector<RegClass> flatCls;
  std::vector<uint32_t> flatNum;
};

int pressureIndex(RegClass c) {
  switch (c) {
  case RegClass::R:
    return 0;
  case RegClass::UR:
    return 1;
  case RegClass::P:
    return 2;
  case RegClass::UP:
    return 3;
  default:
    return -1;
  }
}

/// The block's state for pressure: locals, nodes' accesses, and the running count.
struct BlockPressure {
  std::vector<Local> locals;
  std::vector<uint32_t> curSeg;
  std::vector<std::vector<uint32_t>> rem;
  Pressure base{}; ///< values live through the block without being touched
  Pressure cur{};

  static bool liveAt(const Local &l, uint32_t seg, uint32_t remReads) {
    if (seg == 0 && !l.liveIn)
      return false;
    return remReads > 0 || (seg + 1 == l.segReads.size() && l.liveOut);
  }
  void reset() {
    curSeg.assign(locals.size(), 0);
    rem.resize(locals.size());
    cur = base;
    for (size_t i = 0; i < locals.size(); ++i) {
      rem[i] = locals[i].segReads;
      if (liveAt(locals[i], 0, rem[i][0]))
        add(cur, locals[i], 1);
    }
  }
  static void add(Pressure &p, const Local &l, int sign) {
    int k = pressureIndex(l.cls);
    if (k >= 0)
      p[static_cast<size_t>(k)] += sign * static_cast<int32_t>(l.width);
  }
  Pressure delta(const Node &n) const {
    Pressure d{};
    for (const VAccess &a : n.vacc) {
      const Local &l = locals[a.local];
      uint32_t s = curSeg[a.local];
      bool before = liveAt(l, s, rem[a.local][s]);
      uint32_t ns = s + (a.def ? 1 : 0);
      uint32_t nr = rem[a.local][ns] - (a.readSeg >= 0 && ns == s ? 1 : 0);
      bool after = liveAt(l, ns, nr);
      if (before != after)
        add(d, l, after ? 1 : -1);
    }
    return d;
  }
  void apply(const Node &n) {
    Pressure d = delta(n);
    for (const VAccess &a : n.vacc) {
      if (a.readSeg >= 0 && rem[a.local][static_cast<uint32_t>(a.readSeg)] > 0)
        --rem[a.local][static_cast<uint32_t>(a.readSeg)];
      if (a.def)
        ++curSeg[a.local];
    }
    for (size_t k = 0; k < kPressureClasses; ++k)
      cur[k] += d[k];
  }
  /// The maximum pressure per class along `order`.
  Pressure maxAlong(const std::vector<Node> &nodes, const std::vector<uint32_t> &order) {
    reset();
    Pressure m = cur;
    for (uint32_t i : order) {
      apply(nodes[i]);
      for (size_t k = 0; k < kPressureClasses; ++k)
        m[k] = std::max(m[k], cur[k]);
    }
    return m;
  }
};

/// Where a plain memory access goes, for disambiguation.
struct MemAccess {
  uint32_t node;
  uint16_t spaces; ///< OF_GMEM | OF_SMEM | OF_LMEM bits
  bool write;
  bool addrKnown; ///< base/offset/size meaningful
  int64_t baseKey; ///< -1: no base register (absolute address)
  uint32_t baseVersion;
  int64_t lo, hi; ///< [offset, offset + size)
};

bool mayOverlap(const MemAccess &a, const MemAccess &b) {
  if (!(a.spaces & b.spaces))
    return false;
  if (a.addrKnown && b.addrKnown && a.baseKey == b.baseKey && a.baseVersion == b.baseVersion)
    return a.lo < b.hi && b.lo < a.hi;
  return true;
}

class BlockScheduler {
public:
  BlockScheduler(SchedPreRACtx &c, const ori::Block &b, uint32_t bi) : c_(c), b_(b), bi_(bi) {}

  /// Builds nodes, pressure bookkeeping and the dependence graph.
  void build();
  /// The scheduled order under `target`.
  std::vector<uint32_t> schedule(const Pressure &target, uint32_t window = UINT32_MAX);
  BlockPressure &pressure() { return bp_; }
  const std::vector<Node> &nodes() const { return nodes_; }

private:
  int64_t keyOf(const Operand &o) const {
    if (o.kind == OperandKind::VReg) {
      if (o.reg >= c_.f.numRegs(o.cls))
        return -1;
      return sched::kNumRegKeys + c_.f.flatRegIndex(o.cls, o.reg);
    }
    if (o.kind == OperandKind::PReg && !o.isFixed() && o.cls != RegClass::B)
      return sched::regKeyBase(o.cls) + o.reg;
    return -1;
  }
  void keysOf(const Operand &o, llvm::SmallVectorImpl<std::pair<uint32_t, RegClass>> &out) const {
    if (o.kind == OperandKind::VReg) {
      if (int64_t k = keyOf(o); k >= 0)
        out.push_back({static_cast<uint32_t>(k), o.cls});
      return;
    }
    if (o.kind != OperandKind::PReg || o.isFixed() || o.cls == RegClass::B)
      return;
    unsigned first = o.reg, count = std::max<unsigned>(1, o.width);
    if (o.sub != ori::kWholeReg)
      first += o.sub, count = 1;
    for (unsigned k = 0; k < count; ++k)
      if (first + k < sched::regKeyLimit(o.cls))
        out.push_back({sched::regKeyBase(o.cls) + first + k, o.cls});
  }
  void edge(uint32_t i, uint32_t j, unsigned lat) {
    if (i == j)
      return;
    auto [it, fresh] = edges_[i].try_emplace(j, static_cast<uint16_t>(lat));
    if (!fresh)
      it->second = std::max<uint16_t>(it->second, static_cast<uint16_t>(lat));
  }

  SchedPreRACtx &c_;
  const ori::Block &b_;
  uint32_t bi_;
  std::vector<Node> nodes_;
  BlockPressure bp_;
  std::vector<std::map<uint32_t, uint16_t>> edges_;
  sched::DepGraph g_;
};

void BlockScheduler::build() {
  const Target &t = c_.t;
  size_t n = b_.instrs.size();
  nodes_.resize(n);
  edges_.assign(n, {});
  llvm::DenseMap<uint32_t, uint32_t> localOf; // flat -> local
  auto local = [&](const Operand &o) -> uint32_t {
    uint32_t flat = c_.f.flatRegIndex(o.cls, o.reg);
    auto [it, fresh] = localOf.try_emplace(flat, static_cast<uint32_t>(bp_.locals.size()));
    if (fresh) {
      Local l;
      l.flat = flat;
      l.cls = o.cls;
      l.width = static_cast<uint8_t>(std::max<unsigned>(1, c_.f.regInfo(o.cls, o.reg).width));
      l.liveIn = c_.lv.liveIn[bi_].test(flat);
      l.liveOut = c_.lv.liveOut[bi_].test(flat);
      l.segReads.push_back(0);
      bp_.locals.push_back(std::move(l));
    }
    return it->second;
  };

  // Register keys and pressure accesses.
  llvm::SmallVector<std::pair<uint32_t, RegClass>, 4> tmp;
  for (size_t j = 0; j < n; ++j) {
    const Instr &in = b_.instrs[j];
    Node &nd = nodes_[j];
    nd.cls = t.latClass(in);
    nd.vlat = t.needsScoreboard(in);
    bool pctrl = false;
    if (const SassOpInfo *op = t.sassOp(in.info().name))
      pctrl = (op->flags & OP_PCTRL) != 0;
    llvm::SmallVector<std::pair<uint32_t, bool>, 6> vreads; // local, read
    auto noteRead = [&](const Operand &v) {
      if (v.kind == OperandKind::VReg && v.reg < c_.f.numRegs(v.cls))
        vreads.push_back({local(v), true});
    };
    auto readOp = [&](const Operand &o, ReadKind kind) {
      tmp.clear();
      keysOf(o, tmp);
      for (auto [k, file] : tmp)
        nd.reads.push_back({k, file, kind});
      noteRead(o);
    };
    if (in.guard.kind == OperandKind::VReg || in.guard.kind == OperandKind::PReg)
      readOp(in.guard, ReadKind::Guard);
    for (const Operand &o : in.uses()) {
      if (o.kind == OperandKind::Mem) {
        if (o.hasMemBase())
          readOp(o.memBase(), ReadKind::Src);
        if (o.hasMemDesc())
          readOp(o.memDesc(), ReadKind::Src);
      } else if (o.hasCbankIndex()) {
        readOp(o.cbankIndex(), ReadKind::Src);
      } else {
        bool pred = o.isReg() && ori::isPredicateClass(o.cls);
        readOp(o, pred && pctrl ? ReadKind::Guard : ReadKind::Src);
      }
    }
    // A guarded or partial definition merges with the old value: it reads it too.
    bool mergeDefs = in.isGuarded();
    for (const Operand &o : in.defs()) {
      tmp.clear();
      keysOf(o, tmp);
      for (auto [k, file] : tmp) {
        nd.defs.push_back(k);
        nd.defFiles.push_back(file);
      }
      if (o.kind == OperandKind::VReg && o.reg < c_.f.numRegs(o.cls)) {
        uint32_t l = local(o);
        if (mergeDefs || o.sub != ori::kWholeReg)
          vreads.push_back({l, true});
        vreads.push_back({l, false});
      }
    }
    // One access per local: the read belongs to the segment before the instruction's own
    // definition.
    std::sort(vreads.begin(), vreads.end(), [](auto a, auto b) { return a.first < b.first; });
    for (size_t k = 0; k < vreads.size();) {
      uint32_t l = vreads[k].first;
      bool rd = false, df = false;
      for (; k < vreads.size() && vreads[k].first == l; ++k)
        (vreads[k].second ? rd : df) = true;
      Local &L = bp_.locals[l];
      int32_t seg = -1;
      if (rd) {
        seg = static_cast<int32_t>(L.segReads.size() - 1);
        ++L.segReads.back();
      }
      if (df)
        L.segReads.push_back(0);
      nd.vacc.push_back({l, seg, df});
    }
  }
  // Values live through the block untouched.
  {
    llvm::BitVector through = c_.lv.liveIn[bi_];
    through &= c_.lv.liveOut[bi_];
    for (int r = through.find_first(); r >= 0; r = through.find_next(r)) {
      if (localOf.count(static_cast<uint32_t>(r)))
        continue;
      RegClass cls = c_.flatCls[static_cast<size_t>(r)];
      int k = pressureIndex(cls);
      if (k >= 0)
        bp_.base[static_cast<size_t>(k)] +=
            std::max<unsigned>(1, c_.f.regInfo(cls, c_.flatNum[static_cast<size_t>(r)]).width);
    }
  }

  // Register dependences.
  llvm::DenseMap<uint32_t, uint32_t> lastWriter;
  llvm::DenseMap<uint32_t, llvm::SmallVector<uint32_t, 4>> readersSince;
  llvm::DenseMap<uint32_t, uint32_t> version; // key -> definitions so far
  for (uint32_t j = 0; j < n; ++j) {
    const Node &d = nodes_[j];
    for (const KeyRead &r : d.reads) {
      auto it = lastWriter.find(r.key);
      if (it == lastWriter.end())
        continue;
      const Node &w = nodes_[it->second];
      unsigned lat = w.vlat ? sched::variableLatencyEstimate(w.cls)
                            : std::max(t.rawLatency(w.cls, d.cls, r.file, r.kind),
                                       t.rawLatency(t.pairHighClass(w.cls), d.cls, r.file, r.kind));
      edge(it->second, j, lat);
    }
    for (uint32_t k : d.defs) {
      if (auto it = lastWriter.find(k); it != lastWriter.end())
        edge(it->second, j, 0);
      if (auto it = readersSince.find(k); it != readersSince.end()) {
        for (uint32_t rd : it->second)
          edge(rd, j, 0);
        it->second.clear();
      }
    }
    for (const KeyRead &r : d.reads)
      readersSince[r.key].push_back(j);
    for (uint32_t k : d.defs)
      lastWriter[k] = j;
  }

  // Memory, effects, fences, warp-synchronous order. `version` counts definitions of a key
  // in input order, so equal versions name the same base value.
  int32_t lastFence = -1, lastSide = -1, lastWarp = -1;
  std::vector<uint32_t> sinceFence;
  std::vector<MemAccess> accesses; // plain accesses since the last effect
  for (uint32_t j = 0; j < n; ++j) {
    const Instr &in = b_.instrs[j];
    const ori::OpcodeInfo &info = in.info();
    uint16_t spaces = info.flags & (ori::OF_GMEM | ori::OF_SMEM | ori::OF_LMEM);
    bool fence = sched::isSchedulingFence(in);
    bool volatileAccess = in.hasFlag(ori::IF_Volatile_bit);
    // Texture fetches are as free as constant loads: the texture cache is not kept coherent
    // with global or surface writes within a kernel call, so a fetch of an address the
    // same kernel wrote returns undefined data (CUDA C++ Programming Guide, "Texture and
    // Surface Memory"): no store orders them (ptxas issues tex_fetch's TLDs ahead of its
    // stores). Fences still do.
    bool texFetch = in.op == ori::Opcode::TEX || in.op == ori::Opcode::TLD ||
                    in.op == ori::Opcode::TXQ;
    bool plain = !fence && spaces && !volatileAccess && !texFetch &&
                 info.has(ori::OF_LD) != info.has(ori::OF_ST);
    bool unstableClock = false;
    for (const Operand &o : in.uses())
      if (o.kind == OperandKind::SReg && !ori::specialRegIsStable(static_cast<ori::SpecialReg>(o.reg)))
        unstableClock = true;
    bool constLoad = info.has(ori::OF_LD) && !info.has(ori::OF_ST) && !info.has(ori::OF_SIDE) &&
                     (nodes_[j].cls == ori::LatClass::Const || texFetch);
    bool side = !fence && !plain &&
                (volatileAccess || unstableClock ||
                 (!constLoad && (info.has(ori::OF_SIDE) || info.has(ori::OF_LD) ||
                                 info.has(ori::OF_ST) || info.has(ori::OF_BR) ||
                                 info.has(ori::OF_TERM))));
    bool warp = info.has(ori::OF_WARP);

    if (fence) {
      if (lastFence >= 0)
        edge(static_cast<uint32_t>(lastFence), j, 0);
      for (uint32_t p : sinceFence)
        edge(p, j, 0);
      sinceFence.clear();
      lastFence = static_cast<int32_t>(j);
      lastSide = static_cast<int32_t>(j);
      lastWarp = static_cast<int32_t>(j);
      accesses.clear();
      continue;
    }
    if (lastFence >= 0)
      edge(static_cast<uint32_t>(lastFence), j, 0);
    sinceFence.push_back(j);
    if (warp || side) {
      if (lastWarp >= 0)
        edge(static_cast<uint32_t>(lastWarp), j, 0);
      if (lastSide >= 0)
        edge(static_cast<uint32_t>(lastSide), j, 0);
    }
    if (side) {
      for (const MemAccess &a : accesses)
        edge(a.node, j, 0);
      accesses.clear();
      lastSide = static_cast<int32_t>(j);
    }
    if (plain) {
      if (lastSide >= 0)
        edge(static_cast<uint32_t>(lastSide), j, 0);
      MemAccess m{j, spaces, info.has(ori::OF_ST), false, -1, 0, 0, 0};
      // Base + offset identify the address for the per-thread plain forms only.
      std::string_view sig = info.signature;
      if (!warp && (sig == "R:M" || sig == ":MR")) {
        for (const Operand &o : in.uses())
          if (o.kind == OperandKind::Mem) {
            m.addrKnown = true;
            if (o.hasMemBase()) {
              int64_t k = keyOf(o.memBase());
              if (k < 0) {
                m.addrKnown = false;
                break;
              }
              m.baseKey = k;
              auto it = version.find(static_cast<uint32_t>(k));
              m.baseVersion = it == version.end() ? 0 : it->second;
            }
            m.lo = o.memOffset();
          }
        unsigned words = 1;
        for (const Operand &o : in.ops)
          if (o.isReg() && o.kind != OperandKind::Mem)
            words = std::max<unsigned>(words, o.width);
        int64_t size = 4 * words;
        if (in.hasModifier(ori::Modifier::Size64))
          size = std::max<int64_t>(size, 8);
        if (in.hasModifier(ori::Modifier::Size128))
          size = std::max<int64_t>(size, 16);
        m.hi = m.lo + size;
      }
      for (const MemAccess &a : accesses)
        if ((a.write || m.write) && mayOverlap(a, m))
          edge(a.node, j, 0);
      if (accesses.size() >= kMaxTrackedAccesses) {
        // Too many to keep comparing: j becomes an ordering point after all of them.
        for (const MemAccess &a : accesses)
          edge(a.node, j, 0);
        accesses.clear();
        lastSide = static_cast<int32_t>(j);
      } else {
        accesses.push_back(m);
      }
    }
    if (warp)
      lastWarp = static_cast<int32_t>(j);
    for (uint32_t k : nodes_[j].defs)
      ++version[k];
  }
  // The block's final control transfer stays last.
  if (n > 0) {
    const Instr &last = b_.instrs[n - 1];
    if (last.info().has(ori::OF_BR) || last.info().has(ori::OF_TERM))
      for (uint32_t i = 0; i + 1 < n; ++i)
        edge(i, static_cast<uint32_t>(n - 1), 0);
  }

  g_.succs.assign(n, {});
  g_.numPreds.assign(n, 0);
  g_.height.assign(n, 0);
  for (uint32_t i = 0; i < n; ++i)
    for (auto [j, lat] : edges_[i]) {
      g_.succs[i].push_back({j, lat});
      ++g_.numPreds[j];
    }
  for (uint32_t i = static_cast<uint32_t>(n); i-- > 0;) {
    const Node &d = nodes_[i];
    unsigned h = 0;
    for (size_t k = 0; k < d.defs.size(); ++k)
      h = std::max(h, d.vlat ? sched::variableLatencyEstimate(d.cls)
                             : t.maxRawLatency(d.cls, d.defFiles[k]));
    for (const sched::DepEdge &e : g_.succs[i])
      h = std::max(h, e.latency + g_.height[e.to]);
    g_.height[i] = h;
  }
}

std::vector<uint32_t> BlockScheduler::schedule(const Pressure &target, uint32_t window) {
  size_t n = nodes_.size();
  std::vector<uint32_t> preds = g_.numPreds;
  std::vector<uint64_t> avail(n, 0);
  std::vector<uint32_t> ready, order;
  std::vector<bool> done(n, false);
  uint32_t low = 0; // the first instruction of the input order not yet scheduled
  order.reserve(n);
  for (uint32_t i = 0; i < n; ++i)
    if (!preds[i])
      ready.push_back(i);
  bp_.reset();
  uint64_t clock = 0;
  std::vector<Pressure> deltas;
  // Outside the window (input positions low + window and beyond) an instruction waits: the
  // input order's first unscheduled instruction has all its predecessors (edges go forward)
  // scheduled, so it is always ready and inside.
  auto outside = [&](uint32_t i) { return window != UINT32_MAX && i >= low + window; };
  while (!ready.empty()) {
    deltas.resize(ready.size());
    bool anyFits = false;
    uint64_t soonestFit = UINT64_MAX;
    int best = -1;
    for (size_t k = 0; k < ready.size(); ++k) {
      uint32_t i = ready[k];
      deltas[k] = bp_.delta(nodes_[i]);
      if (outside(i))
        continue;
      bool fits = true;
      for (size_t c = 0; c < kPressureClasses; ++c)
        if (deltas[k][c] > 0 && bp_.cur[c] + deltas[k][c] > target[c])
          fits = false;
      if (!fits)
        continue;
      anyFits = true;
      soonestFit = std::min(soonestFit, avail[i]);
      if (avail[i] > clock)
        continue;
      if (best < 0) {
        best = static_cast<int>(k);
        continue;
      }
      uint32_t b = ready[static_cast<size_t>(best)];
      const Node &ni = nodes_[i], &nb = nodes_[b];
      if (g_.height[i] != g_.height[b] ? g_.height[i] > g_.height[b]
          : ni.vlat != nb.vlat         ? ni.vlat
                                       : i < b)
        best = static_cast<int>(k);
    }
    if (best < 0 && anyFits) {
      clock = std::max(clock + 1, soonestFit);
      continue;
    }
    if (best < 0) {
      // Everything ready passes a target: the least harmful choice.
      auto excess = [&](size_t k) {
        int64_t e = 0;
        for (size_t c = 0; c < kPressureClasses; ++c)
          e += std::max<int64_t>(0, bp_.cur[c] + deltas[k][c] - target[c]);
        return e;
      };
      auto total = [&](size_t k) {
        int64_t s = 0;
        for (size_t c = 0; c < kPressureClasses; ++c)
          s += deltas[k][c];
        return s;
      };
      for (size_t k = 0; k < ready.size(); ++k) {
        if (outside(ready[k]))
          continue;
        if (best < 0) {
          best = static_cast<int>(k);
          continue;
        }
        size_t bk = static_cast<size_t>(best);
        uint32_t i = ready[k], b = ready[bk];
        int64_t ei = excess(k), eb = excess(bk), ti = total(k), tb = total(bk);
        bool ai = avail[i] <= clock, ab = avail[b] <= clock;
        if (ei != eb ? ei < eb
            : ti != tb ? ti < tb
            : ai != ab ? ai
            : g_.height[i] != g_.height[b] ? g_.height[i] > g_.height[b]
                                           : i < b)
          best = static_cast<int>(k);
      }
    }
    uint32_t i = ready[static_cast<size_t>(best)];
    ready.erase(ready.begin() + best);
    order.push_back(i);
    done[i] = true;
    while (low < n && done[low])
      ++low;
    bp_.apply(nodes_[i]);
    clock = std::max(clock, avail[i]);
    for (const sched::DepEdge &e : g_.succs[i]) {
      avail[e.to] = std::max(avail[e.to], clock + e.latency);
      if (--preds[e.to] == 0)
        ready.push_back(e.to);
    }
    ++clock;
  }
  return order;
}

} // namespace

void runScheduleInstructionsPreRA(ori::Function &f, PhaseContext &ctx) {
  const Target &t = *ctx.target;
  ori::Liveness lv = ori::computeLiveness(f);
  SchedPreRACtx c{f, t, lv, {}, {}};
  for (unsigned k = 0; k < ori::kNumRegClasses; ++k) {
    RegClass cls = static_cast<RegClass>(k);
    for (uint32_t n = 0; n < f.numRegs(cls); ++n) {
      c.flatCls.push_back(cls);
      c.flatNum.push_back(n);
    }
  }

  // Each block's graph and its input order's pressure.
  std::vector<std::unique_ptr<BlockScheduler>> blocks(f.blocks.size());
  std::vector<Pressure> inputMax(f.blocks.size());
  int32_t fnMaxR = 0;
  for (uint32_t bi = 0; bi < f.blocks.size(); ++bi) {
    const ori::Block &b = f.blocks[bi];
    if (b.instrs.size() < 3 || b.instrs.size() > kMaxBlockInstrs)
      continue;
    blocks[bi] = std::make_unique<BlockScheduler>(c, b, bi);
    blocks[bi]->build();
    std::vector<uint32_t> input(b.instrs.size());
    for (uint32_t i = 0; i < input.size(); ++i)
      input[i] = i;
    inputMax[bi] = blocks[bi]->pressure().maxAlong(blocks[bi]->nodes(), input);
    fnMaxR = std::max(fnMaxR, inputMax[bi][0]);
  }

  // Targets.
  const RegisterFiles &rf = t.registers();
  uint32_t limit = f.maxRegs ? std::min(f.maxRegs, t.maxRegisterCount()) : t.maxRegisterCount();
  if (int64_t forced = ctx.knobs.getInt(KnobId::RegAllocLimit); forced > 0)
    limit = std::min<uint32_t>(limit, static_cast<uint32_t>(forced));
  constexpr int32_t kCountOverhead = 3; // ptxas -v: highest register + 1 + 2
  // GUESS: the allocator's conservative intervals (hulls over blocks, aligned pairs and
  // quads) need registers beyond the pressure counted here. Measured on the exec kernels
  // (perf_bench, 14:00 UTC run): with a slack of 4, several small kernels still went from
  // under 32 registers to 34 (past sm_90's full-occupancy step); 8 kept those under it.
  constexpr int32_t kAllocatorSlack = 8;
  int32_t targetR;
  if (int64_t knob = ctx.knobs.getInt(KnobId::SchedPreRARegTarget); knob > 0) {
    targetR = static_cast<int32_t>(knob);
  } else {
    uint32_t ceiling = occupancyCeiling(t, static_cast<uint32_t>(fnMaxR + kCountOverhead));
    targetR = std::max(fnMaxR, static_cast<int32_t>(std::min(limit, ceiling)) - kCountOverhead -
                                   kAllocatorSlack);
    // A device function's registers are its callers' too: whatever it may change, a
    // caller's values live across the call must avoid. It does not grow past its input.
    // Nor does a function whose step is its register limit: there the allocator's
    // inflation over this count becomes spills, not a lost occupancy step (ggml
    // fattn-vec q5_1-f16 spilled 128 bytes at 255 registers with a target of 244 units,
    // none from its input order; llm.c trimat_forward 64 bytes under launch bounds of 128).
    if (!f.isKernel)
      targetR = fnMaxR;
    else if (ceiling >= limit) // GUESS: twice the slack; trimat's tri3 spilled at 117 and 115, not at 110
      targetR =
          std::min(fnMaxR, static_cast<int32_t>(limit) - kCountOverhead - 2 * kAllocatorSlack);
    targetR = std::min(targetR, static_cast<int32_t>(limit) - kCountOverhead);
  }
  targetR = std::max(targetR, 1);
  // GUESS: UR0-UR3 are not allocated (regalloc/live_intervals.cpp's budget).
  Pressure target{targetR, static_cast<int32_t>(rf.numUgprs) - 4, static_cast<int32_t>(rf.numPreds),
                  static_cast<int32_t>(rf.numPreds)};

  unsigned scheduled = 0, reordered = 0, kept = 0, inWindow = 0;
  for (uint32_t bi = 0; bi < f.blocks.size(); ++bi) {
    if (!blocks[bi])
      continue;
    ori::Block &b = f.blocks[bi];
    BlockScheduler &s = *blocks[bi];
    ++scheduled;
    // First with the function's targets; when that order needs more than the input order
    // and the target allow, once more with the input order's own maximum as the target (a
    // greedy top-down order can fill the registers with long-lived values early and find
    // nothing that frees one later); then the input order.
    std::vector<uint32_t> order;
    bool accepted = false, changed = false;
    unsigned windowed = 0;
    // Attempts 2 and 3 repeat 0 and 1 within a window of the input order (kSchedWindow):
    // on a long block of many alike independent chains (a fully unrolled loop), critical
    // path first starts every chain at once and no order under the target is left.
    for (int attempt = 0; attempt < 4 && !accepted; ++attempt) {
      Pressure tgt = target;
      if (attempt % 2 == 1)
        for (size_t k = 0; k < kPressureClasses; ++k)
          tgt[k] = std::min(target[k], inputMax[bi][k]);
      order = s.schedule(tgt, attempt >= 2 ? kSchedWindow : UINT32_MAX);
      if (attempt >= 2)
        ++windowed;
      if (order.size() != b.instrs.size())
        break; // cannot happen (edges go forward); keep the input order if it did
      changed = false;
      for (uint32_t i = 0; i < order.size(); ++i)
        changed |= order[i] != i;
      if (!changed)
        break;
      Pressure m = s.pressure().maxAlong(s.nodes(), order);
      bool worse = false;
      for (size_t k = 0; k < kPressureClasses; ++k)
        worse |= m[k] > std::max(inputMax[bi][k], target[k]);
      accepted = !worse;
    }
    if (!changed)
      continue;
    if (!accepted) {
      ++kept;
      continue;
    }
    if (windowed)
      ++inWindow;
    ++reordered;
    std::vector<Instr> out;
    out.reserve(order.size());
    for (uint32_t i : order)
      out.push_back(std::move(b.instrs[i]));
    b.instrs = std::move(out);
  }
  ctx.dumpNotes += "# [pre-RA scheduled blocks=" + std::to_string(scheduled) +
                   "] [reordered=" + std::to_string(reordered) +
                   "] [kept input order=" + std::to_string(kept) +
                   "] [R target=" + std::to_string(targetR) +
                   "] [input max R=" + std::to_string(fnMaxR) +
                   "] [windowed=" + std::to_string(inWindow) + "]\n";
}

} // namespace ptxmini
