//===- ori/builder.h - building Ori from C++ (frontend lowering, phases, tests) --------===//
///
/// \file
/// A thin helper over the Function's vectors: creates blocks and fresh virtual registers,
/// appends instructions at the end of the current block, and finishes the function by
/// rebuilding the CFG and the register table, so the result is what the parser would give
/// for the same text.
///
///     Builder b(f);
///     uint32_t entry = b.createBlock("entry");
///     b.setBlock(entry);
///     Operand tid = b.newReg(RegClass::R);
///     b.emit(Opcode::S2R, {tid}, {Operand::sreg(SpecialReg::TID_X)});
///     b.emit(Opcode::EXIT, {}, {});
///     b.finish();
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/cfg.h"
#include "ori/ori.h"

#include <initializer_list>
#include <string>

namespace ptxmini::ori {

class Builder {
public:
  explicit Builder(Function &f) : f_(f) {}

  /// Appends a block labelled `name` (layout order = creation order); returns its index.
  uint32_t createBlock(std::string name) {
    f_.blocks.emplace_back();
    f_.blocks.back().name = std::move(name);
    return static_cast<uint32_t>(f_.blocks.size() - 1);
  }
  void setBlock(uint32_t b) { block_ = b; }
  uint32_t block() const { return block_; }

  Operand newReg(RegClass c, uint8_t width = 1) { return f_.newReg(c, width); }

  /// Appends `op mods defs = uses` to the current block and returns it (valid until the
  /// block's instruction vector grows again).
  Instr &emit(Opcode op, std::initializer_list<Operand> defs, std::initializer_list<Operand> uses,
              std::initializer_list<Modifier> mods = {}) {
    Instr in(op);
    for (const Operand &d : defs)
      in.addDef(d);
    for (const Operand &u : uses)
      in.addUse(u);
    in.mods.assign(mods.begin(), mods.end());
    auto &v = f_.blocks[block_].instrs;
    v.push_back(std::move(in));
    return v.back();
  }
  /// Same, executed only when `pred` (a P/UP register or PT) is true, or false if `negate`.
  Instr &emitGuarded(Operand pred, bool negate, Opcode op, std::initializer_list<Operand> defs,
                     std::initializer_list<Operand> uses,
                     std::initializer_list<Modifier> mods = {}) {
    Instr &in = emit(op, defs, uses, mods);
    pred.mods = negate ? OM_NOT : 0;
    in.guard = pred;
    return in;
  }

  /// Rebuilds preds/succs and the register table; call after the last emit.
  void finish() {
    buildCFG(f_);
    f_.recomputeRegTable();
  }

private:
  Function &f_;
  uint32_t block_ = 0;
};

} // namespace ptxmini::ori
