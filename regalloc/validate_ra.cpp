//===- regalloc/validate_ra.cpp - checks an allocation before the rewrite --------------===//
///
/// \file
/// The allocation checker (in the spirit of Mesa ACO's validate_ra), run by
/// AllocateRegisters under the ValidateIR knob on the code that still names virtual
/// registers, with the assignment about to be applied. A forward data-flow over blocks
/// (iterated to a fixed point) tracks, for every physical register, the set of virtual
/// registers it may hold:
///   - a definition of v writes v into the register(s) assigned to v (a component
///     definition into one of them; a guarded one adds v to what was there);
///   - a definition of a physical register (calling-convention copies) and a call's clobber
///     set leave "no virtual register" behind;
///   - at a join the sets unite (more than 4 members: "anything").
/// A read of v is wrong when its register's set lacks v (and is not empty: an undefined
/// read is the program's business), or when v is certainly defined on every path (a
/// must-definition analysis) and the set holds anything else.
//===----------------------------------------------------------------------------------===//
#include "regalloc/regalloc_internal.h"

#include "ori/print.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

namespace ptxmini::ra {

using ori::Instr;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

namespace {

constexpr uint32_t kPhys = 0xFFFFFFFEu; ///< "a value that is not a virtual register"
constexpr uint32_t kAny = 0xFFFFFFFFu;  ///< "anything": too many to track
constexpr size_t kMaxSet = 4;
constexpr unsigned kRegs = 256;

using Set = llvm::SmallVector<uint32_t, 2>;

uint32_t key(RegClass c, uint32_t n) { return static_cast<uint32_t>(c) << 24 | n; }

struct State {
  std::array<std::vector<Set>, ori::kNumRegClasses> regs;
  llvm::BitVector mustDef; ///< by flat virtual register index
  bool valid = false;
};

void addTo(Set &s, uint32_t v) {
  if (!s.empty() && s[0] == kAny)
    return;
  if (std::find(s.begin(), s.end(), v) != s.end())
    return;
  if (s.size() >= kMaxSet) {
    s.assign(1, kAny);
    return;
  }
  s.push_back(v);
  std::sort(s.begin(), s.end());
}

bool join(State &into, const State &from) {
  if (!from.valid)
    return false;
  if (!into.valid) {
    into = from;
    return true;
  }
  bool changed = false;
  for (unsigned c = 0; c < ori::kNumRegClasses; ++c)
    for (unsigned r = 0; r < kRegs; ++r) {
      Set before = into.regs[c][r];
      for (uint32_t v : from.regs[c][r])
        addTo(into.regs[c][r], v);
      changed |= before != into.regs[c][r];
    }
  llvm::BitVector m = into.mustDef;
  m &= from.mustDef;
  if (m != into.mustDef) {
    into.mustDef = m;
    changed = true;
  }
  return changed;
}

struct Checker {
  const ori::Function &f;
  const Target &t;
  const std::vector<std::vector<int32_t>> &assign;
  ori::PhysRegSet all;
  std::vector<std::string> problems;
  bool reporting = false;
  /// Per flat virtual register, the components some instruction writes: a read of a whole
  /// register does not read the never-written tail of an operand tuple (live_intervals.cpp
  /// leaves those registers to other values).
  std::vector<uint8_t> written;

  /// The physical registers (first, count) an operand of virtual register v occupies.
  std::pair<int32_t, uint32_t> place(const Operand &v) const {
    const auto &a = assign[size_t(v.cls)];
    if (v.reg >= a.size() || a[v.reg] < 0)
      return {-1, 0};
    if (v.sub != ori::kWholeReg)
      return {a[v.reg] + v.sub, 1};
    return {a[v.reg], std::max<uint32_t>(1, v.width)};
  }

  void report(const ori::Block &b, const Instr &in, const std::string &msg) {
    if (reporting && problems.size() < 20)
      problems.push_back("@" + f.name + " " + b.name + ": '" + ori::toString(f, in) + "': " + msg);
  }

  void read(State &s, const ori::Block &b, const Instr &in, const Operand &v) {
    auto [r0, n] = place(v);
    if (r0 < 0) {
      report(b, in, "a read of an unassigned virtual register");
      return;
    }
    bool must = v.reg < f.numRegs(v.cls) && s.mustDef.test(f.flatRegIndex(v.cls, v.reg));
    uint8_t mask = v.reg < f.numRegs(v.cls) ? written[f.flatRegIndex(v.cls, v.reg)] : 0;
    for (uint32_t x = static_cast<uint32_t>(r0); x < static_cast<uint32_t>(r0) + n; ++x) {
      uint32_t comp = x - static_cast<uint32_t>(r0) + (v.sub != ori::kWholeReg ? v.sub : 0);
      if (mask && !(mask >> comp & 1))
        continue;
      const Set &set = s.regs[size_t(v.cls)][x];
      if (set.empty() || set[0] == kAny)
        continue;
      bool has = std::find(set.begin(), set.end(), key(v.cls, v.reg)) != set.end();
      if (!has || (must && set.size() > 1))
        report(b, in, std::string(ori::vregPrefix(v.cls)) + std::to_string(v.reg) + " in " +
                          std::string(ori::pregPrefix(v.cls)) + std::to_string(x) +
                          " may hold another value there");
    }
  }

  void step(State &s, const ori::Block &b, const Instr &in) {
    for (const Operand &u : in.uses())
      for (const Operand &v : u.vregs())
        read(s, b, in, v);
    if (in.guard.kind == OperandKind::VReg)
      read(s, b, in, in.guard);
    for (const Operand &d : in.defs()) {
      if (d.kind == OperandKind::VReg) {
        auto [r0, n] = place(d);
        if (r0 < 0) {
          report(b, in, "a write of an unassigned virtual register");
          continue;
        }
        for (uint32_t x = static_cast<uint32_t>(r0); x < static_cast<uint32_t>(r0) + n; ++x) {
          Set &set = s.regs[size_t(d.cls)][x];
          if (!in.isGuarded())
            set.clear();
          addTo(set, key(d.cls, d.reg));
        }
        if (!in.isGuarded() && d.sub == ori::kWholeReg && d.reg < f.numRegs(d.cls))
          s.mustDef.set(f.flatRegIndex(d.cls, d.reg));
      } else if (d.kind == OperandKind::PReg && !d.isFixed() &&
                 !(in.op == ori::Opcode::WARPGROUP && (d.mods & ori::OM_IMPLICIT))) {
        // (A warpgroup fence's or wait's implicit accumulators order accesses; it writes
        // no register: live_intervals.cpp.)
        uint32_t r0 = d.sub != ori::kWholeReg ? d.reg + d.sub : d.reg;
        uint32_t n = d.sub != ori::kWholeReg ? 1 : std::max<uint32_t>(1, d.width);
        for (uint32_t x = r0; x < r0 + n && x < kRegs; ++x)
          s.regs[size_t(d.cls)][x].assign(1, kPhys);
      }
    }
    if (in.op == ori::Opcode::CALL) {
      const ori::PhysRegSet *set = &all;
      for (const Operand &u : in.uses())
        if (u.kind == OperandKind::Func && u.reg < f.calleeClobbers.size() &&
            f.calleeClobbers[u.reg])
          set = &*f.calleeClobbers[u.reg];
      for (unsigned c = 0; c < ori::kNumRegClasses; ++c)
        for (uint32_t x = 0; x < kRegs; ++x)
          if (set->test(static_cast<RegClass>(c), x))
            s.regs[c][x].assign(1, kPhys);
    }
  }
};

} // namespace

std::vector<std::string> validateAllocation(const ori::Function &f, const Target &t,
                                            const std::vector<std::vector<int32_t>> &assignment) {
  Checker ck{f, t, assignment, everyAllocatable(t), {}, false, {}};
  ck.written.assign(f.numFlatRegs(), 0);
  for (const ori::Block &b : f.blocks)
    for (const Instr &i : b.instrs)
      for (const Operand &d : i.defs())
        if (d.kind == OperandKind::VReg && d.reg < f.numRegs(d.cls)) {
          uint8_t all = static_cast<uint8_t>((1u << std::max<unsigned>(1, d.width)) - 1);
          ck.written[f.flatRegIndex(d.cls, d.reg)] |=
              d.sub == ori::kWholeReg ? all : static_cast<uint8_t>(1u << d.sub);
        }
  size_t nb = f.blocks.size();
  std::vector<State> in(nb);
  State entry;
  entry.valid = true;
  for (auto &v : entry.regs)
    v.assign(kRegs, Set{});
  entry.mustDef.resize(f.numFlatRegs());
  if (nb == 0)
    return {};
  in[0] = entry;
  // Iterate in layout order until nothing changes, then once more reporting.
  for (int pass = 0; pass < 1000; ++pass) {
    bool changed = false;
    for (size_t b = 0; b < nb; ++b) {
      if (!in[b].valid)
        continue;
      State s = in[b];
      for (const Instr &i : f.blocks[b].instrs)
        ck.step(s, f.blocks[b], i);
      for (uint32_t succ : f.blocks[b].succs)
        changed |= join(in[succ], s);
    }
    if (!changed)
      break;
  }
  ck.reporting = true;
  for (size_t b = 0; b < nb; ++b) {
    if (!in[b].valid)
      continue;
    State s = in[b];
    for (const Instr &i : f.blocks[b].instrs)
      ck.step(s, f.blocks[b], i);
  }
  return ck.problems;
}

} // namespace ptxmini::ra
