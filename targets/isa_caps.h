//===- targets/isa_caps.h - what an SM's instruction set offers the lowering ---------===//
///
/// \file
/// The encoding tables say how a form is spelled; they do not say whether an instruction
/// exists on an SM at all: sm_80's table shares the family's rows, so an sm_90-only opcode
/// such as VIADD still "encodes" there (with a word sm_80 does not execute). This table is
/// the other half: per SM, the Ori opcodes the SM lacks and how phase 78
/// (LateExpansionUnsupportedOps) rewrites them, and the facts the lowering reads where sm_80
/// code takes another shape. One row file per SM family (targets/sm_XX/isa_caps.def); an
/// SM with no row file has every opcode (sm_90, the reference).
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"

#include <span>
#include <string_view>

namespace ptxmini {

/// How phase 78 turns an opcode the SM lacks into ones it has.
enum class OpRewrite : uint8_t {
  Iadd3,  ///< VIADD d, a, b          -> IADD3 d, a, b, RZ
  Imnmx,  ///< VIMNMX[.U32] d, a, b, p -> IMNMX[.U32] d, a, b, p (32-bit forms only)
  I2f,    ///< I2FP.F32.S32/U32 d, a  -> I2F[.U32] d, a (variable latency)
  Drop,   ///< the instruction has nothing to do on the SM: removed
  Refuse, ///< no expansion yet: the compilation stops with an error naming the opcode
};

struct MissingOp {
  ori::Opcode op;
  OpRewrite how;
};

struct IsaCaps {
  /// Opcodes the SM lacks; phase 78 rewrites every instruction of them.
  std::span<const MissingOp> missing;
  /// A shared variable's generic window address carries the CTA's id in the cluster
  /// (`S2R SR_CgaCtaId; LEA d, cta, off, shift`); without clusters it is the offset itself.
  bool cgaSharedWindow = true;
  /// Global accesses name their memory descriptor in the text (`LDG.E R2, desc[UR4][R2.64]`);
  /// else the descriptor is implicit in the text (nvdisasm prints `LDG.E R2, [R2.64]`) and
  /// the encoding rows write UR `implicitDescUr` into the word (targets/sm_80/sm80_forms.def).
  bool memDescInText = true;
  unsigned implicitDescUr = 4;
  /// Where the word keeps the implicit descriptor's UR (6 bits from this one), by mnemonic;
  /// the emitter writes the descriptor's register there (the rows write implicitDescUr).
  struct DescField {
    std::string_view mnemonic;
    unsigned lo;
  };
  std::span<const DescField> implicitDescFields;
  /// Instructions the reference ISA and this SM's nvdisasm spell differently (the same
  /// instruction): the emitter writes `to` where the text (after any guard) starts with
  /// `from` followed by the end, a space or a '.'.
  struct Respell {
    std::string_view from, to;
  };
  std::span<const Respell> respell;
  /// The SM has cluster, elect, mbarrier-try-wait, bulk-copy and warpgroup instructions
  /// (the lowering refuses PTX needing them with an error instead of emitting them).
  bool hopperInstructions = true;

  /// The row for `op`, or nullptr when the SM has it.
  const MissingOp *lacks(ori::Opcode op) const {
    for (const MissingOp &m : missing)
      if (m.op == op)
        return &m;
    return nullptr;
  }
};

/// The capabilities of SM `sm` (as ArchInfo::sm); every opcode for an SM without a table.
const IsaCaps &isaCapsFor(unsigned sm);

} // namespace ptxmini
