//===- scheduler/instr_deps.cpp - register keys of an allocated Ori instruction ------===//
#include "scheduler/instr_deps.h"

#include <algorithm>

namespace ptxmini::sched {

namespace {

void addKeys(const ori::Operand &r, llvm::SmallVectorImpl<uint16_t> &out) {
  if (r.kind != ori::OperandKind::PReg || r.isFixed() || r.cls == ori::RegClass::B)
    return;
  unsigned first = r.reg, count = std::max<unsigned>(1, r.width);
  if (r.sub != ori::kWholeReg) {
    first += r.sub;
    count = 1;
  }
  for (unsigned k = 0; k < count; ++k)
    if (first + k < regKeyLimit(r.cls))
      out.push_back(static_cast<uint16_t>(regKeyBase(r.cls) + first + k));
}

} // namespace

InstrDeps instrDeps(const ori::Instr &in, const Target &target) {
  InstrDeps d;
  const SassOpInfo *op = target.sassOp(in.info().name);
  d.opFlags = op ? op->flags : 0;
  d.cls = target.latClass(in);
  d.vlat = target.needsScoreboard(in);
  d.late = target.readsLate(in);
  d.guarded = in.isGuarded();
  d.noWaits = in.op == ori::Opcode::WARPGROUP && in.hasModifier(ori::Modifier::DEPBAR);
  llvm::SmallVector<uint16_t, 4> tmp;
  if (in.guard.kind == ori::OperandKind::PReg) {
    addKeys(in.guard, tmp);
    for (uint16_t k : tmp)
      d.reads.push_back({k, ReadKind::Guard});
  }
  for (const ori::Operand &o : in.defs()) {
    size_t before = d.defs.size();
    addKeys(o, d.defs);
    for (size_t k = before; k < d.defs.size(); ++k)
      d.defCls.push_back(static_cast<uint8_t>(k == before + 1 && d.defs.size() - before == 2
                                                  ? target.pairHighClass(d.cls)
                                                  : d.cls));
  }
  for (const ori::Operand &o : in.uses()) {
    tmp.clear();
    if (o.kind == ori::OperandKind::Mem) {
      if (o.hasMemBase())
        addKeys(o.memBase(), tmp);
      addKeys(o.memDesc(), tmp);
    } else if (o.hasCbankIndex()) {
      addKeys(o.cbankIndex(), tmp);
    } else {
      addKeys(o, tmp);
    }
    bool pred = o.kind == ori::OperandKind::PReg && ori::isPredicateClass(o.cls);
    ReadKind kind = pred && d.has(OP_PCTRL) ? ReadKind::Guard : ReadKind::Src;
    for (uint16_t k : tmp) {
      d.reads.push_back({k, kind});
      // HW: only GPR operands are read after issue (hazard_check.cpp: uniform operands of a
      // store are overwritten by ptxas while its read scoreboard is pending).
      if (d.late && regKeyFile(k) == ori::RegClass::R)
        d.lateSrcs.push_back(k);
    }
  }
  std::sort(d.lateSrcs.begin(), d.lateSrcs.end());
  d.lateSrcs.erase(std::unique(d.lateSrcs.begin(), d.lateSrcs.end()), d.lateSrcs.end());
  return d;
}

} // namespace ptxmini::sched
