//===- frontend/ptx_instr_table.h - queries over ptx_instructions.def ------------------===//
///
/// \file
/// The per-instruction knowledge of the frontend, as data: the rows of
/// ptx_instructions.def (families, operand signatures, type sets, .version/.target needs)
/// and the modifier vocabulary of ptx_modifiers.def. The grammar only knows that an
/// instruction is `opcode(.word)* operands;`; everything instruction-specific is asked here.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "frontend/ptx_ast.h"

#include <optional>
#include <string_view>

namespace ptxmini::frontend {

enum class TypeSet : uint8_t { Any, Int, Arith, Float, Logic, Signed };

enum InstrFlag : unsigned {
  None = 0,
  TypeReq = 1, ///< a type modifier is required
  ArchA = 2,   ///< only on the `a` variant of minTarget (wgmma: sm_90a)
  ArchAF = 4,  ///< minTarget or later, with the `a` or `f` suffix (tcgen05)
};

struct InstrInfo {
  std::string_view name;      ///< "cp.async.bulk"
  std::string_view signature; ///< operand letters, see ptx_instructions.def
  TypeSet types;
  unsigned minPtx;            ///< x10
  std::string_view minTarget; ///< "" or "sm_90"
  unsigned flags;
  unsigned words;             ///< number of dot-separated words in `name`
};

unsigned instrCount();
const InstrInfo &instrInfo(unsigned index);

/// Finds the family of `words` (the opcode split at dots): the row whose name is the longest
/// prefix of `words`. A word matches a row word when equal, or when it is the row word
/// followed by `::...` (tcgen05.fence::before_thread_sync). Sets `consumed` to the number of
/// words the family takes.
std::optional<unsigned> matchFamily(const std::vector<std::string_view> &words,
                                    size_t &consumed);

/// Decodes one modifier word (no dot) into a Modifier; `known` is false for words that are
/// no type, space, vector width, pattern word nor in ptx_modifiers.def.
ptx::Modifier classifyModifier(std::string_view word, bool &known);

bool typeInSet(ptx::ScalarType t, TypeSet set);

} // namespace ptxmini::frontend
