//===- phases/split_high_pressure.cpp - OriSplitHighPressureLiveRanges (phase 138) ------===//
///
/// \file
/// Seed 004, related passes: "138 OriSplitHighPressureLiveRanges -- Last-resort splitter
/// when unrolling or LICM caused excessive register pressure". The seed gives no algorithm
/// and no knobs. Here the phase runs after AllocateRegisters (phase 101, whose spill code is
/// "spill everywhere": a victim lives in its frame slot for its whole life, with a store
/// after each definition and a load before each use, regalloc/spill.cpp) and splits each
/// spilled value's range once more, by pressure: where a register is free, the value lives
/// there instead of being reloaded. Only code the allocator marked {spill} is touched
/// (`STL [R1+slot], r` / `r = LDL [R1+slot]`); nothing here can spill, and the register
/// count does not grow (only registers the function already writes are taken). It is
/// last-resort in that it does nothing when the allocator did not spill.
///   1. Loads out of loops (innermost loop first). For a loop with a preheader (the header's
///      one predecessor outside the loop, whose one successor is the header), no call, no
///      write of R1 and no local store other than spill stores, each slot the loop reloads
///      but never stores is given a register the loop leaves free: one no instruction of
///      the loop names and that is not live into the header (physical-register liveness,
///      computed here), aligned for the slot's width, among the R registers the function
///      writes anyway. The slot is loaded into it once at the end of the preheader and each
///      reload inside the loop becomes a MOV from it (slots with the most reloads first,
///      weighted by 10^loop depth). Such a register is dead throughout the loop, so the
///      value may live there: the range is split at the loop's boundary into an in-memory
///      part outside and an in-register part inside.
///   2. Reloads of values still in a register (forward "available" data flow, meet =
///      intersection over predecessors, in RPO to a fixed point): after `STL [slot], r` or
///      `r = LDL [slot]` the slot's value is in r until r (or R1) is written, the slot is
///      stored, or a call. A later reload of the same slot and width becomes a MOV from the
///      register holding it (deleted when it is the same register). A guarded spill store
///      or load forgets what it touches.
///   3. Spill stores whose slot no load reads any more are deleted.
/// Correctness: registers are per thread, so the per-thread CFG is exact for both data
/// flows; a call or RET is taken to read every register (conservative). Kernels with
/// setmaxnreg regions are left alone (a register outside a region's count is not free).
/// Spill traffic (FrameInfo spillLoadBytes/spillStoreBytes, the -v report) is updated.
/// DUMPIR prints `# [reloads hoisted=N from loops=L] [reloads forwarded=F] [stores deleted=S]`.
/// The phase is switched off with `-knob DisablePhases=OriSplitHighPressureLiveRanges`.
//===----------------------------------------------------------------------------------===//
#include "phases/phase_manager.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <bitset>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

constexpr uint32_t kNumR = 256;
using RegSet = std::bitset<kNumR>;

struct Ctx {
  ori::Function &f;
  uint32_t sp; ///< the stack pointer (R1)
  unsigned hoisted = 0, loops = 0, forwarded = 0, storesDeleted = 0;
};

bool isRReg(const Operand &o) {
  return o.kind == OperandKind::PReg && o.cls == RegClass::R && !o.isFixed();
}
uint32_t widthOf(const Operand &o) { return std::max<uint32_t>(1, o.width); }

/// A spill slot access: [R1 + off], `width` words.
struct SlotRef {
  int32_t off;
  uint32_t width;
  uint32_t reg; ///< the register loaded or stored
};

/// `r = LDL [R1+off] {spill}` or `STL [R1+off], r {spill}` with a plain R register.
std::optional<SlotRef> spillAccess(const Ctx &c, const Instr &in, Opcode op) {
  if (in.op != op || !in.hasFlag(ori::IF_Spill_bit))
    return std::nullopt;
  const Operand *mem = nullptr, *reg = nullptr;
  if (op == Opcode::LDL && in.numDefs == 1 && in.ops.size() == 2)
    reg = &in.ops[0], mem = &in.ops[1];
  else if (op == Opcode::STL && in.numDefs == 0 && in.ops.size() == 2)
    mem = &in.ops[0], reg = &in.ops[1];
  if (!mem || !reg || mem->kind != OperandKind::Mem || !isRReg(*reg) || mem->hasMemDesc())
    return std::nullopt;
  Operand base = mem->memBase();
  if (base.kind != OperandKind::PReg || base.cls != RegClass::R || base.reg != c.sp)
    return std::nullopt;
  return SlotRef{mem->memOffset(), widthOf(*reg), reg->reg};
}

/// The R registers an instruction reads / writes (a call or RET reads every register).
void readsOf(const Instr &in, RegSet &s) {
  if (in.op == Opcode::CALL || in.op == Opcode::RET) {
    s.set();
    return;
  }
  auto add = [&](const Operand &o) {
    if (isRReg(o))
      for (uint32_t k = 0; k < widthOf(o) && o.reg + k < kNumR; ++k)
        s.set(o.reg + k);
  };
  for (const Operand &u : in.uses()) {
    if (u.kind == OperandKind::Mem) {
      add(u.memBase());
      add(u.memDesc());
    } else if (u.kind == OperandKind::CBank) {
      add(u.cbankIndex());
    } else {
      add(u);
    }
  }
}
void writesOf(const Instr &in, RegSet &s) {
  for (const Operand &d : in.defs())
    if (isRReg(d))
      for (uint32_t k = 0; k < widthOf(d) && d.reg + k < kNumR; ++k)
        s.set(d.reg + k);
}

/// Backward liveness of the R registers per block (a guarded write does not kill).
std::vector<RegSet> liveIn(const ori::Function &f) {
  size_t n = f.blocks.size();
  std::vector<RegSet> use(n), def(n), in(n);
  for (size_t b = 0; b < n; ++b)
    for (auto it = f.blocks[b].instrs.rbegin(); it != f.blocks[b].instrs.rend(); ++it) {
      RegSet w, r;
      writesOf(*it, w);
      readsOf(*it, r);
      if (!it->isGuarded()) {
        use[b] &= ~w;
        def[b] |= w;
      }
      use[b] |= r;
      def[b] &= ~r;
    }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = f.rpo.size(); i-- > 0;) {
      uint32_t b = f.rpo[i];
      RegSet out;
      for (uint32_t s : f.blocks[b].succs)
        out |= in[s];
      RegSet now = use[b] | (out & ~def[b]);
      if (now != in[b]) {
        in[b] = now;
        changed = true;
      }
    }
  }
  return in;
}

Instr makeMov(uint32_t dst, uint32_t src, uint32_t line) {
  Instr m(Opcode::MOV);
  m.addDef(Operand::preg(RegClass::R, dst));
  m.addUse(Operand::preg(RegClass::R, src));
  m.srcLine = line;
  return m;
}

/// `dst[0..w) = src[0..w)` as MOVs (the ranges are disjoint).
void emitCopies(std::vector<Instr> &out, uint32_t dst, uint32_t src, uint32_t w, uint32_t line) {
  for (uint32_t k = 0; k < w; ++k)
    out.push_back(makeMov(dst + k, src + k, line));
}

/// A local store that is not spill code (it could write any slot: conservatively all).
bool otherLocalStore(const Instr &in) {
  return in.info().has(ori::OF_ST) && in.info().has(ori::OF_LMEM) &&
         !in.hasFlag(ori::IF_Spill_bit);
}

bool writesSp(const Ctx &c, const Instr &in) {
  RegSet w;
  writesOf(in, w);
  return w.test(c.sp);
}

// ---- 1. loads out of loops --------------------------------------------------------------

void hoistLoopReloads(Ctx &c) {
  ori::Function &f = c.f;
  std::vector<RegSet> lin = liveIn(f);
  RegSet written; // registers the function writes anyway (the count does not grow)
  for (const ori::Block &b : f.blocks)
    for (const Instr &in : b.instrs)
      writesOf(in, written);
  written.reset(c.sp);
  for (size_t li = f.loops.size(); li-- > 0;) {
    const ori::Loop &l = f.loops[li];
    const ori::Block &hdr = f.blocks[l.header];
    // The preheader: the header's one predecessor outside the loop, leading only to it.
    int32_t pre = -1;
    bool ok = true;
    for (uint32_t p : hdr.preds)
      if (!std::binary_search(l.blocks.begin(), l.blocks.end(), p)) {
        ok = ok && pre < 0;
        pre = static_cast<int32_t>(p);
      }
    if (!ok || pre < 0 || f.blocks[pre].succs.size() != 1)
      continue;
    RegSet named = lin[l.header];
    std::map<std::pair<int32_t, uint32_t>, double> reloads; // (slot, width) -> weight
    std::vector<std::pair<int32_t, int32_t>> stored;          // byte ranges stored
    for (uint32_t b : l.blocks)
      for (const Instr &in : f.blocks[b].instrs) {
        readsOf(in, named);
        writesOf(in, named);
        if (in.op == Opcode::CALL || writesSp(c, in) || otherLocalStore(in))
          ok = false;
        if (auto s = spillAccess(c, in, Opcode::STL))
          stored.push_back({s->off, s->off + 4 * static_cast<int32_t>(s->width)});
        else if (auto ld = spillAccess(c, in, Opcode::LDL); ld && !in.isGuarded())
          reloads[{ld->off, ld->width}] += std::pow(10.0, f.blocks[b].loopDepth);
      }
    if (!ok || reloads.empty())
      continue;
    // The preheader's last instruction (a branch or terminator) must not name the register.
    std::vector<Instr> &pinstrs = f.blocks[pre].instrs;
    size_t at = pinstrs.size();
    if (at && (pinstrs.back().info().has(ori::OF_TERM) || pinstrs.back().info().has(ori::OF_BR)))
      --at;
    for (size_t i = at; i < pinstrs.size(); ++i) {
      readsOf(pinstrs[i], named);
      writesOf(pinstrs[i], named);
    }
    std::vector<std::pair<double, std::pair<int32_t, uint32_t>>> order;
    for (auto &[key, wgt] : reloads) {
      int32_t lo = key.first, hi = key.first + 4 * static_cast<int32_t>(key.second);
      bool clobbered = llvm::any_of(stored, [&](auto r) { return r.first < hi && lo < r.second; });
      if (!clobbered)
        order.push_back({-wgt, key});
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    bool any = false;
    for (auto &[negW, key] : order) {
      auto [off, w] = key;
      int32_t reg = -1;
      for (uint32_t r = 0; r + w <= kNumR && reg < 0; r += w) {
        bool free = true;
        for (uint32_t k = 0; k < w && free; ++k)
          free = written.test(r + k) && !named.test(r + k);
        if (free)
          reg = static_cast<int32_t>(r);
      }
      if (reg < 0)
        break;
      uint32_t fr = static_cast<uint32_t>(reg);
      for (uint32_t k = 0; k < w; ++k)
        named.set(fr + k);
      // The load at the end of the preheader, a copy of the loop's first reload.
      std::optional<Instr> proto;
      for (uint32_t b : l.blocks) {
        std::vector<Instr> out;
        for (Instr &in : f.blocks[b].instrs) {
          auto ld = spillAccess(c, in, Opcode::LDL);
          if (ld && !in.isGuarded() && ld->off == off && ld->width == w) {
            if (!proto)
              proto = in;
            emitCopies(out, ld->reg, fr, w, in.srcLine);
            f.frame.spillLoadBytes -= 4 * w;
            ++c.hoisted;
            continue;
          }
          out.push_back(std::move(in));
        }
        f.blocks[b].instrs = std::move(out);
      }
      Instr ld = *proto;
      ld.ops[0].reg = fr;
      ld.ctrl = {};
      pinstrs.insert(pinstrs.begin() + static_cast<ptrdiff_t>(at), ld);
      ++at;
      f.frame.spillLoadBytes += 4 * w;
      any = true;
    }
    c.loops += any;
  }
}

// ---- 2. reloads of values still in a register --------------------------------------------

/// Slot [off, off + 4*width) is also in R[reg, reg + width).
struct Fact {
  int32_t off;
  uint32_t width, reg;
  auto key() const { return std::tuple(off, width, reg); }
  bool operator==(const Fact &o) const { return key() == o.key(); }
  bool operator<(const Fact &o) const { return key() < o.key(); }
};
using Facts = std::vector<Fact>; // sorted

void killRegs(Facts &s, const RegSet &w) {
  llvm::erase_if(s, [&](const Fact &x) {
    for (uint32_t k = 0; k < x.width; ++k)
      if (x.reg + k < kNumR && w.test(x.reg + k))
        return true;
    return false;
  });
}
void killBytes(Facts &s, int32_t lo, int32_t hi) {
  llvm::erase_if(s, [&](const Fact &x) {
    return x.off < hi && lo < x.off + 4 * static_cast<int32_t>(x.width);
  });
}
void addFact(Facts &s, Fact x) {
  auto it = std::lower_bound(s.begin(), s.end(), x);
  if (it == s.end() || !(*it == x))
    s.insert(it, x);
}

/// The effect of one instruction on the facts; `rewrite` (when non-null) receives the
/// instructions to put in its place, and the forwarded count is kept.
void transfer(Ctx &c, const Instr &in, Facts &s, std::vector<Instr> *rewrite) {
  if (in.op == Opcode::CALL || writesSp(c, in)) {
    s.clear();
    if (rewrite)
      rewrite->push_back(in);
    return;
  }
  if (auto st = spillAccess(c, in, Opcode::STL)) {
    killBytes(s, st->off, st->off + 4 * static_cast<int32_t>(st->width));
    if (!in.isGuarded())
      addFact(s, {st->off, st->width, st->reg});
    if (rewrite)
      rewrite->push_back(in);
    return;
  }
  if (otherLocalStore(in)) {
    Operand base = in.uses().empty() ? Operand{} : in.uses()[0].memBase();
    if (in.op == Opcode::STL && base.kind == OperandKind::PReg && base.reg == c.sp &&
        in.uses().size() >= 2 && in.uses()[1].isReg()) {
      int32_t lo = in.uses()[0].memOffset();
      killBytes(s, lo, lo + 4 * static_cast<int32_t>(widthOf(in.uses()[1])));
    } else {
      s.clear();
    }
  }
  RegSet w;
  writesOf(in, w);
  if (auto ld = spillAccess(c, in, Opcode::LDL); ld && !in.isGuarded()) {
    std::optional<Fact> have;
    for (const Fact &x : s)
      if (x.off == ld->off && x.width == ld->width &&
          (x.reg == ld->reg || x.reg + x.width <= ld->reg || ld->reg + ld->width <= x.reg))
        if (!have || x.reg == ld->reg)
          have = x;
    killRegs(s, w);
    if (have && have->reg == ld->reg) {
      addFact(s, *have);
      if (rewrite) {
        c.f.frame.spillLoadBytes -= 4 * ld->width;
        ++c.forwarded;
      }
      return; // deleted: the register already holds the slot
    }
    if (have) {
      addFact(s, *have);
      if (rewrite) {
        emitCopies(*rewrite, ld->reg, have->reg, ld->width, in.srcLine);
        c.f.frame.spillLoadBytes -= 4 * ld->width;
        ++c.forwarded;
      }
    } else if (rewrite) {
      rewrite->push_back(in);
    }
    addFact(s, {ld->off, ld->width, ld->reg});
    return;
  }
  killRegs(s, w);
  if (rewrite)
    rewrite->push_back(in);
}

void forwardReloads(Ctx &c) {
  ori::Function &f = c.f;
  std::vector<std::optional<Facts>> entry(f.blocks.size());
  if (f.rpo.empty())
    return;
  entry[f.rpo[0]] = Facts{};
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b : f.rpo) {
      if (!entry[b])
        continue;
      Facts s = *entry[b];
      for (const Instr &in : f.blocks[b].instrs)
        transfer(c, in, s, nullptr);
      for (uint32_t succ : f.blocks[b].succs) {
        if (succ == f.rpo[0])
          continue; // the entry starts with nothing (nothing flows around to it)
        if (!entry[succ]) {
          entry[succ] = s;
          changed = true;
          continue;
        }
        Facts meet;
        std::set_intersection(entry[succ]->begin(), entry[succ]->end(), s.begin(), s.end(),
                              std::back_inserter(meet));
        if (meet != *entry[succ]) {
          entry[succ] = std::move(meet);
          changed = true;
        }
      }
    }
  }
  for (uint32_t b : f.rpo) {
    Facts s = entry[b] ? *entry[b] : Facts{};
    std::vector<Instr> out;
    out.reserve(f.blocks[b].instrs.size());
    for (const Instr &in : f.blocks[b].instrs)
      transfer(c, in, s, &out);
    f.blocks[b].instrs = std::move(out);
  }
}

// ---- 3. spill stores nobody reads ------------------------------------------------------

void deleteDeadSpillStores(Ctx &c) {
  ori::Function &f = c.f;
  std::vector<std::pair<int32_t, int32_t>> read;
  for (const ori::Block &b : f.blocks)
    for (const Instr &in : b.instrs) {
      if (auto ld = spillAccess(c, in, Opcode::LDL)) {
        read.push_back({ld->off, ld->off + 4 * static_cast<int32_t>(ld->width)});
        continue;
      }
      if (in.info().has(ori::OF_LD) && in.info().has(ori::OF_LMEM))
        return; // another local load could read a slot
    }
  for (ori::Block &b : f.blocks)
    llvm::erase_if(b.instrs, [&](const Instr &in) {
      auto st = spillAccess(c, in, Opcode::STL);
      if (!st)
        return false;
      int32_t lo = st->off, hi = st->off + 4 * static_cast<int32_t>(st->width);
      if (llvm::any_of(read, [&](auto r) { return r.first < hi && lo < r.second; }))
        return false;
      f.frame.spillStoreBytes -= 4 * st->width;
      ++c.storesDeleted;
      return true;
    });
}

} // namespace

void runOriSplitHighPressureLiveRanges(ori::Function &f, PhaseContext &pc) {
  bool spills = false;
  for (const ori::Block &b : f.blocks)
    for (const Instr &in : b.instrs) {
      if (in.hasFlag(ori::IF_Spill_bit) && (in.op == Opcode::LDL || in.op == Opcode::STL))
        spills = true;
      if (in.op == Opcode::USETMAXREG)
        return; // a register outside a region's count is not free there
    }
  if (!spills || f.blocks.empty())
    return;
  // Block moves since the last analysis (phase 108) leave the loop table stale.
  runAnalyzeControlFlow(f, pc);
  Ctx c{f, pc.target->callingConvention().stackPointer};
  hoistLoopReloads(c);
  forwardReloads(c);
  deleteDeadSpillStores(c);
  std::ostringstream os;
  os << "# [reloads hoisted=" << c.hoisted << " from loops=" << c.loops
     << "] [reloads forwarded=" << c.forwarded << "] [stores deleted=" << c.storesDeleted << "]\n";
  pc.dumpNotes += os.str();
}

} // namespace ptxmini
