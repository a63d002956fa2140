//===- encoder/sass_codec.h - one instruction: text <-> 128-bit word --------------------===//
///
/// \file
/// The generic encode/decode over an SM's Isa (isa_table.h): the guard predicate and the
/// control block are family-wide (targets/common/volta_word.h); everything else comes from
/// the first table row whose template matches. No opcode is special-cased here.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "encoder/isa_table.h"
#include "targets/common/volta_word.h"

#include <optional>
#include <string>
#include <string_view>

namespace ptxmini::enc {

/// nvdisasm's text for `w` at address `pc` (no trailing " ;"), or nullopt when no row of the
/// table decodes it.
std::optional<std::string> decodeText(const Isa &isa, const Word128 &w, uint64_t pc);

/// Encodes one instruction's text (nvdisasm syntax, guard included, no control annotation,
/// no ';'). Control bits other than reuse are left 0. On failure says why in `err`.
bool encodeText(const Isa &isa, std::string_view text, uint64_t pc, Word128 &out, std::string &err);

/// `[B------:R-:W-:Y:S04]`: wait mask (digit k when SBk is waited on), read and write
/// scoreboard (digit or '-' for none), `Y` when the yield bit (109) is 0, stall in decimal.
std::string formatControl(const volta::Control &c);
/// Parses the annotation above; false when `s` is not one.
bool parseControl(std::string_view s, volta::Control &c);

} // namespace ptxmini::enc
