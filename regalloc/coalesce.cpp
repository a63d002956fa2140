//===- regalloc/coalesce.cpp - merge copies of values that never change ----------------===//
///
/// \file
/// Before the linear scan: a virtual register d whose only definitions are unguarded copies
/// of another one, s (`d = MOV s`, or `d[k] = MOV s[k]` for each component of a pair or
/// quad), becomes s everywhere, when s cannot change while d lives: s has a single
/// unguarded whole definition outside every loop, so once written it keeps its value for the
/// rest of the function. This is the conservative core of copy coalescing (Chaitin's
/// "subsumption"): the lowering makes such copies for every `cvta`, `mov` and call-site
/// parameter, and a component-wise copy of a pair interferes with its source under the
/// interval rules (its first half is written while the source's second half is still to
/// be read), so the scan alone cannot give both one register. Chains (s itself a copy)
/// collapse in a few rounds.
//===----------------------------------------------------------------------------------===//
#include "regalloc/regalloc_internal.h"

#include <map>

namespace ptxmini::ra {

using ori::Instr;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

namespace {

struct DefInfo {
  uint32_t defs = 0;          ///< definitions (any kind)
  bool wholeUnguarded = false; ///< the single one writes the whole register, unguarded
  bool inLoop = false;
  bool onlyCopies = true;     ///< every definition is `MOV d(.k), s(.k)` of one source s
  int64_t source = -1;        ///< that s
  uint8_t copiedMask = 0;     ///< components the copies write
};

int64_t keyOf(const Operand &o) {
  return o.kind == OperandKind::VReg ? (int64_t(o.cls) << 32 | o.reg) : -1;
}

} // namespace

unsigned coalesceCopies(ori::Function &f) {
  unsigned merged = 0;
  // "Outside every loop" needs the loop facts of AnalyzeControlFlow, and a block outside
  // every natural loop may still sit on an irreducible cycle.
  if (!f.cfgAnalyzed || !f.irreducibleEdges.empty())
    return 0;
  for (int round = 0; round < 8; ++round) {
    std::map<int64_t, DefInfo> info;
    for (const ori::Block &b : f.blocks)
      for (const Instr &in : b.instrs)
        for (const Operand &d : in.defs()) {
          int64_t k = keyOf(d);
          if (k < 0)
            continue;
          DefInfo &di = info[k];
          ++di.defs;
          di.wholeUnguarded = !in.isGuarded() && d.sub == ori::kWholeReg;
          di.inLoop |= b.loopDepth > 0 || b.rpoIndex < 0;
          const Operand *s = in.op == ori::Opcode::MOV && in.ops.size() == 2 ? &in.ops[1] : nullptr;
          bool copy = s && s->kind == OperandKind::VReg && s->cls == d.cls && !s->mods &&
                      !in.isGuarded() && s->width == d.width && s->sub == d.sub;
          if (!copy) {
            di.onlyCopies = false;
            continue;
          }
          if (di.source >= 0 && di.source != keyOf(*s))
            di.onlyCopies = false;
          di.source = keyOf(*s);
          di.copiedMask |= d.sub == ori::kWholeReg ? uint8_t((1u << d.width) - 1)
                                                   : uint8_t(1u << d.sub);
        }
    // d -> s for every mergeable d (sources that are themselves merged wait a round).
    std::map<int64_t, int64_t> rename;
    for (auto &[d, di] : info) {
      if (!di.onlyCopies || di.source < 0 || di.source == d)
        continue;
      auto s = info.find(di.source);
      if (s == info.end() || s->second.defs != 1 || !s->second.wholeUnguarded ||
          s->second.inLoop)
        continue;
      RegClass c = static_cast<RegClass>(d >> 32);
      uint8_t width = f.regInfo(c, static_cast<uint32_t>(d & 0xffffffff)).width;
      if (di.copiedMask != uint8_t((1u << width) - 1))
        continue;
      if (rename.count(di.source))
        continue;
      rename[d] = di.source;
    }
    if (rename.empty())
      break;
    auto apply = [&](Operand &o) {
      auto fix = [&](Operand r) {
        if (auto it = rename.find(keyOf(r)); it != rename.end())
          r.reg = static_cast<uint32_t>(it->second & 0xffffffff);
        return r;
      };
      if (o.kind == OperandKind::VReg) {
        o = fix(o);
      } else if (o.kind == OperandKind::Mem) {
        Operand base = o.memBase(), desc = o.memDesc();
        if (keyOf(base) >= 0 || keyOf(desc) >= 0) {
          uint8_t keep = o.mods & static_cast<uint8_t>(~(ori::OM_MEMBASE_V | ori::OM_MEMBASE_P));
          o = Operand::mem(fix(base), o.memOffset(), fix(desc));
          o.mods |= keep;
        }
      }
    };
    for (ori::Block &b : f.blocks) {
      std::erase_if(b.instrs, [&](const Instr &in) {
        return in.op == ori::Opcode::MOV && in.numDefs == 1 && rename.count(keyOf(in.ops[0]));
      });
      for (Instr &in : b.instrs) {
        for (Operand &o : in.ops)
          apply(o);
        apply(in.guard);
      }
    }
    merged += static_cast<unsigned>(rename.size());
    f.recomputeRegTable();
  }
  return merged;
}

} // namespace ptxmini::ra
