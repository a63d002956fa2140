//===- phases/split_live_ranges.cpp - OriSplitLiveRanges (phase 19) ---------------------===//
///
/// \file
/// Seed 004, phase table and "Related passes": "19 OriSplitLiveRanges -- splits live ranges
/// at loop boundaries to reduce register pressure post-simplification", after loop
/// simplification (18) and before strength reduction (21) and unrolling (22). The seed gives
/// the placement and the purpose, no algorithm and no knob. This is the split of a virtual
/// register into its independent live ranges (webs) where a loop boundary separates them.
///
/// Ori is not SSA: one virtual register may carry several unrelated values, e.g. a PTX
/// register reused as the counter of two loops in a row, or a temporary of a loop body that
/// the code before or after the loop reuses. Whatever holds one name is one unit for the
/// passes after this one: the register allocator gives it one location and spills it as a
/// whole (a value spilled for the pressure of one loop reloads in every other), the loop
/// phases see one register written in both loops (fusion refuses such pairs: "B reads a
/// register A writes"), and the schedulers order every access by it (WAR/WAW edges).
///
/// Algorithm, per virtual register of class R, UR, P or UP (pairs and quads included, every
/// 32-bit component followed on its own):
///   1. reaching definitions over the CFG (forward, per component): each definition site is
///      one item, plus an "entry" item for the value on entry (parameters, or undefined);
///      an unguarded definition of a component kills the items of that component, a guarded
///      one adds itself to them (the old value may survive);
///   2. webs: the items reaching each read of a component (uses, memory bases, descriptors,
///      constant-bank indices, guards) are united (union-find); a read of a whole pair or
///      quad unites the items of all its components;
///   3. each web's loop set: the loops (f.loops) containing a block where the web is read
///      or written;
///   4. webs are grouped by loop set. When there is more than one group the register is
///      split "at loop boundaries": the group holding the entry item (else the one holding
///      the register's first reference in layout order) keeps the name, and every other
///      group gets a fresh register of the same class and width, renamed in all its
///      references. Webs with the same loop set stay together: they are not separated by
///      a loop boundary, so this phase has no business with them.
/// Exact: every read sees, on every path, a definition of its own web (all definitions that
/// may reach it were united with it), and a web's references all move to the same name, so
/// every read sees the same definition as before. Nothing is added or removed, no live range
/// grows; the allocator and the schedulers just see separate units.
///
/// Skipped: physical registers (calling-convention and pinned values are PReg, never
/// renamed); registers of other classes (B: barrier registers). Cost: registers with at
/// least two definitions (or one that does not reach every read) and a reference inside a
/// loop only; the data flow touches only the blocks that reference the register.
///
/// Knob: SplitLiveRangesAtLoops (ours; seed 004 names no knob for phase 19): master switch.
/// DUMPIR after the phase prints one line per register split and a statistics line:
///   `# split %r7: 2 live ranges -> %r7, %r31 (loop sets {}, {loop})`
///   `# [split registers=N] [new live ranges=M]`
//===----------------------------------------------------------------------------------===//
#include "ori/cfg.h"
#include "phases/phase_manager.h"

#include "llvm/ADT/BitVector.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

namespace ptxmini {
namespace {

using ori::Instr;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

bool splittableClass(RegClass c) {
  return c == RegClass::R || c == RegClass::UR || c == RegClass::P || c == RegClass::UP;
}

/// One reference of a register: where, and which operand (guard = -1, else index in ops;
/// `nested` 0 = the operand itself, 1 = a Mem base, 2 = a Mem descriptor, 3 = a CBank index).
struct Ref {
  uint32_t block;
  uint32_t instr;
  int32_t op;
  uint8_t nested;
  bool isDef;
  uint8_t sub; ///< component, or kWholeReg
};

/// Every reference of every splittable virtual register, in layout order.
using RegKey = std::pair<RegClass, uint32_t>;
std::map<RegKey, std::vector<Ref>> collectRefs(const ori::Function &f) {
  std::map<RegKey, std::vector<Ref>> refs;
  for (uint32_t b = 0; b < f.blocks.size(); ++b) {
    const auto &ins = f.blocks[b].instrs;
    for (uint32_t k = 0; k < ins.size(); ++k) {
      const Instr &in = ins[k];
      auto add = [&](const Operand &v, int32_t op, uint8_t nested, bool def) {
        if (v.kind == OperandKind::VReg && splittableClass(v.cls))
          refs[{v.cls, v.reg}].push_back({b, k, op, nested, def, v.sub});
      };
      if (in.guard.kind == OperandKind::VReg)
        add(in.guard, -1, 0, false);
      for (uint32_t o = 0; o < in.ops.size(); ++o) {
        const Operand &x = in.ops[o];
        const bool def = o < in.numDefs;
        if (x.kind == OperandKind::VReg) {
          add(x, int32_t(o), 0, def);
        } else if (x.kind == OperandKind::Mem) {
          if (x.memBaseIsVReg())
            add(x.memBase(), int32_t(o), 1, false);
          if (Operand d = x.memDesc(); d.kind == OperandKind::VReg)
            add(d, int32_t(o), 2, false);
        } else if (x.kind == OperandKind::CBank) {
          if (Operand d = x.cbankIndex(); d.kind == OperandKind::VReg)
            add(d, int32_t(o), 3, false);
        }
      }
    }
  }
  return refs;
}

void renameRef(ori::Function &f, const Ref &r, uint32_t to) {
  Instr &in = f.blocks[r.block].instrs[r.instr];
  Operand &o = r.op < 0 ? in.guard : in.ops[size_t(r.op)];
  switch (r.nested) {
  case 0:
  case 1: o.reg = to; break; // a Mem base lives in the operand's own reg field
  case 2: {
    Operand d = o.memDesc();
    d.reg = to;
    o.setMemDesc(d);
    break;
  }
  default: {
    Operand d = o.cbankIndex();
    d.reg = to;
    o.setCbankIndex(d);
    break;
  }
  }
}

struct UnionFind {
  std::vector<uint32_t> p;
  explicit UnionFind(size_t n) : p(n) { std::iota(p.begin(), p.end(), 0u); }
  uint32_t find(uint32_t x) {
    while (p[x] != x)
      x = p[x] = p[p[x]];
    return x;
  }
  void unite(uint32_t a, uint32_t b) {
    a = find(a), b = find(b);
    if (a != b)
      p[std::max(a, b)] = std::min(a, b);
  }
};

struct Stats {
  unsigned regs = 0, newRanges = 0;
};

/// Splits register `key` (references `refs`, layout order); returns whether it did.
bool splitRegister(ori::Function &f, RegKey key, const std::vector<Ref> &refs,
                   const std::vector<int32_t> &innermost, std::ostream &notes, Stats &st) {
  const uint8_t width = f.regInfo(key.first, key.second).width;
  if (width == 0 || width > 4)
    return false;
  // Items: 0 = the entry value, then one per definition reference.
  std::vector<uint32_t> itemOf(refs.size(), 0);
  uint32_t items = 1;
  for (size_t i = 0; i < refs.size(); ++i)
    if (refs[i].isDef)
      itemOf[i] = items++;
  // Per block: the refs it holds (indices into refs, in order).
  std::map<uint32_t, std::vector<uint32_t>> byBlock;
  for (uint32_t i = 0; i < refs.size(); ++i)
    byBlock[refs[i].block].push_back(i);
  const size_t nb = f.blocks.size();
  // The state: one flat bit vector, component c's items at [c * items, (c + 1) * items).
  const unsigned bits = width * items;
  // A block's transfer: reads see the state, definitions update it. `onRead` gets the
  // items a read sees.
  auto transfer = [&](uint32_t b, llvm::BitVector &s, auto &&onRead) {
    auto it = byBlock.find(b);
    if (it == byBlock.end())
      return;
    const auto &list = it->second;
    for (size_t j = 0; j < list.size();) {
      // One instruction at a time: its reads first, then its definitions.
      const uint32_t instr = refs[list[j]].instr;
      size_t e = j;
      while (e < list.size() && refs[list[e]].instr == instr)
        ++e;
      for (size_t q = j; q < e; ++q) {
        const Ref &r = refs[list[q]];
        if (r.isDef)
          continue;
        llvm::BitVector seen(items);
        for (uint8_t c = 0; c < width; ++c)
          if (r.sub == ori::kWholeReg || r.sub == c)
            for (int x = s.find_first_in(c * items, (c + 1) * items); x >= 0;
                 x = s.find_first_in(unsigned(x) + 1, (c + 1) * items))
              seen.set(unsigned(x) - c * items);
        onRead(list[q], seen);
      }
      const Instr &in = f.blocks[b].instrs[instr];
      const bool guarded = in.isGuarded();
      for (size_t q = j; q < e; ++q) {
        const Ref &r = refs[list[q]];
        if (!r.isDef)
          continue;
        for (uint8_t c = 0; c < width; ++c)
          if (r.sub == ori::kWholeReg || r.sub == c) {
            if (!guarded)
              s.reset(c * items, (c + 1) * items);
            s.set(c * items + itemOf[list[q]]);
          }
      }
      j = e;
    }
  };
  // 1. Reaching definitions, iterated in RPO to a fixed point (out states only; a block's
  // in state is the union of its predecessors', plus the entry item at the entry).
  std::vector<llvm::BitVector> out(nb);
  llvm::BitVector s(bits);
  auto inOf = [&](uint32_t b, llvm::BitVector &st) {
    st.reset();
    if (b == 0)
      for (uint8_t c = 0; c < width; ++c)
        st.set(c * items);
    for (uint32_t p : f.blocks[b].preds)
      if (!out[p].empty())
        st |= out[p];
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b : f.rpo) {
      inOf(b, s);
      transfer(b, s, [](uint32_t, const llvm::BitVector &) {});
      if (out[b].empty() || s != out[b]) {
        out[b] = s;
        changed = true;
      }
    }
  }
  // 2. Webs.
  UnionFind uf(items);
  for (uint32_t b : f.rpo) {
    inOf(b, s);
    transfer(b, s, [&](uint32_t, const llvm::BitVector &seen) {
      int first = seen.find_first();
      if (first < 0)
        return;
      for (int x = seen.find_next(first); x >= 0; x = seen.find_next(x))
        uf.unite(uint32_t(first), uint32_t(x));
    });
  }
  // A read's web: the web of any item it sees (all united); reads in unreachable blocks
  // and definitions there belong to the entry web (left as they are).
  std::vector<uint32_t> webOfRef(refs.size(), 0);
  for (uint32_t b : f.rpo) {
    inOf(b, s);
    transfer(b, s, [&](uint32_t ri, const llvm::BitVector &seen) {
      const int first = seen.find_first();
      webOfRef[ri] = uf.find(first < 0 ? 0u : uint32_t(first));
    });
  }
  std::vector<bool> isReached(nb, false);
  for (uint32_t b : f.rpo)
    isReached[b] = true;
  for (size_t i = 0; i < refs.size(); ++i)
    if (refs[i].isDef)
      webOfRef[i] = isReached[refs[i].block] ? uf.find(itemOf[i]) : uf.find(0);
    else if (!isReached[refs[i].block])
      webOfRef[i] = uf.find(0);
  // 3. Loop sets per web.
  std::map<uint32_t, std::vector<uint32_t>> loopsOf; // web -> sorted loop indices
  for (size_t i = 0; i < refs.size(); ++i) {
    auto &v = loopsOf[webOfRef[i]];
    for (int32_t l = innermost[refs[i].block]; l >= 0; l = f.loops[size_t(l)].parent)
      v.push_back(uint32_t(l));
  }
  for (auto &[w, v] : loopsOf) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  // 4. Groups by loop set; the keeper: the entry web's group, else the first reference's.
  std::map<std::vector<uint32_t>, std::vector<uint32_t>> groups; // loop set -> webs
  for (auto &[w, v] : loopsOf)
    groups[v].push_back(w);
  if (groups.size() < 2)
    return false;
  const uint32_t entryWeb = uf.find(0);
  const std::vector<uint32_t> &keep =
      loopsOf.count(entryWeb) ? loopsOf[entryWeb] : loopsOf[webOfRef[0]];
  std::map<std::vector<uint32_t>, uint32_t> newName;
  for (auto &[set, webs] : groups)
    if (set != keep)
      newName[set] = f.newReg(key.first, width).reg;
  for (size_t i = 0; i < refs.size(); ++i) {
    auto it = newName.find(loopsOf[webOfRef[i]]);
    if (it != newName.end())
      renameRef(f, refs[i], it->second);
  }
  ++st.regs;
  st.newRanges += static_cast<unsigned>(newName.size());
  // Text: the register names as the printer spells them, the loops by header label.
  auto regName = [&](uint32_t n) {
    std::string p = key.first == RegClass::R    ? "%r"
                    : key.first == RegClass::UR ? "%ur"
                    : key.first == RegClass::P  ? "%p"
                                                : "%up";
    return p + std::to_string(n);
  };
  auto setName = [&](const std::vector<uint32_t> &set) {
    std::string s = "{";
    for (size_t j = 0; j < set.size(); ++j)
      s += (j ? "," : "") + f.blocks[f.loops[set[j]].header].name;
    return s + "}";
  };
  notes << "# split " << regName(key.second) << ": " << groups.size() << " live ranges -> "
        << regName(key.second) << ' ' << setName(keep);
  for (auto &[set, n] : newName)
    notes << ", " << regName(n) << ' ' << setName(set);
  notes << '\n';
  return true;
}

} // namespace

void runOriSplitLiveRanges(ori::Function &f, PhaseContext &pc) {
  std::ostringstream notes;
  Stats st;
  if (pc.knobs.getBool(KnobId::SplitLiveRangesAtLoops)) {
    const bool analyzed = f.cfgAnalyzed;
    if (!analyzed)
      runAnalyzeControlFlow(f, pc);
    if (!f.loops.empty()) {
      // Innermost loop per block (loops come outer first, so the last one listed wins).
      std::vector<int32_t> innermost(f.blocks.size(), -1);
      for (uint32_t li = 0; li < f.loops.size(); ++li)
        for (uint32_t b : f.loops[li].blocks)
          if (innermost[b] < 0 || f.loops[li].depth > f.loops[size_t(innermost[b])].depth)
            innermost[b] = int32_t(li);
      const auto refs = collectRefs(f);
      for (const auto &[key, list] : refs) {
        // Worth a look: references in blocks of different innermost loops (else every web
        // has the same loop set) and at least two definitions (one definition and the
        // entry value could be two webs as well, but the entry web is a read of an
        // undefined value or a parameter: left alone).
        bool mixed = false;
        unsigned defs = 0;
        for (const Ref &r : list) {
          mixed = mixed || innermost[r.block] != innermost[list[0].block];
          defs += r.isDef;
        }
        if (!mixed || defs < 2)
          continue;
        splitRegister(f, key, list, innermost, notes, st);
      }
      if (st.regs)
        f.recomputeRegTable();
    }
    if (!analyzed) {
      ori::buildCFG(f);
      f.cfgAnalyzed = false;
    }
  }
  notes << "# [split registers=" << st.regs << "] [new live ranges=" << st.newRanges << "]\n";
  pc.dumpNotes += notes.str();
}

} // namespace ptxmini
