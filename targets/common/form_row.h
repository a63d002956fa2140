//===- targets/common/form_row.h - one row of an SM's encoding table --------------------===//
///
/// \file
/// The declarative shape every 128-bit-family encoding table uses. A FormRow says: this
/// opcode (bits 0..11, operand-form bits included), when these extra bits hold (`match`),
/// prints as this `text` template, and ptxas sets these bits that nothing prints (`fixed`).
/// The template language (placeholders such as `{R@16}`, `{E@73 .U32|}`) is interpreted by
/// encoder/sass_template.cpp; its grammar is documented there and in targets/sm_90/ENCODING.md.
///
///   match / fixed: space-separated `LO-HI=VALUE` or `BIT=VALUE` (VALUE decimal or 0x hex).
///
/// Rows are tried in table order: for decoding, the first row whose opcode and match bits
/// hold wins (so special cases such as nvdisasm's IMAD.MOV alias come before the general
/// row); for assembling, the first row whose template matches the text wins.
//===----------------------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <span>

namespace ptxmini::targets {

struct FormRow {
  uint16_t opcode;      ///< bits 0..11
  const char *match;    ///< extra bits that select this row ("" = none)
  const char *text;     ///< template: mnemonic, modifiers and operands
  const char *fixed;    ///< unprinted bits and the values ptxas gives them
};

/// A named value of an enumerated register-like field (special registers for S2R/CS2R).
struct NamedValue {
  uint16_t value;
  const char *name;
};

/// Everything an SM's encoder needs; one per SM in the 128-bit family. An SM whose encoding
/// differs from the family's in a few forms is an overlay: its own rows (`forms`, tried
/// first) over the family rows it shares (`shared`), minus the family rows of the opcodes it
/// replaces entirely (`replaced`: bits 0..11, operand-form bits included).
struct IsaTables {
  const char *name;                    ///< "sm_90"
  std::span<const FormRow> forms;
  std::span<const NamedValue> specialRegs;
  std::span<const FormRow> shared = {};
  std::span<const uint16_t> replaced = {};
};

/// The tables for an SM (`sm` as in ArchInfo::sm), or nullptr when none exist.
const IsaTables *isaTablesFor(unsigned sm);

} // namespace ptxmini::targets
