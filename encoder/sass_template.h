//===- encoder/sass_template.h - the text template of an encoding-table row -------------===//
///
/// \file
/// A row of an SM's encoding table (targets/common/form_row.h) describes an instruction form
/// by the text nvdisasm prints for it, with `{...}` placeholders tied to bit ranges:
///
///   IMAD{E@73 .U32|} {R@16}, {R@24}, {I@32/32 s}, {R@64 -75}
///
/// One template drives both directions: render() turns a word into text (the decoder) and
/// match() turns text into bits (the assembler), so they cannot disagree. Placeholders:
///
///   {R@lo}  {UR@lo}  {P@lo}  {UP@lo}  {B@lo/w}   a register field (RZ/URZ/PT/UPT for all ones)
///       attributes: -N (bit N prints '-'), |N (abs), ~N (bitwise not), !N (predicate not),
///       rN (bit N prints '.reuse'; R@24/32/64 default to 122/123/124), r- (no reuse bit),
///       ^V (the field holds the register number XOR V)
///   {I@lo/w[,lo/w]}  integer (a second range holds the high bits), printed in hex; `s` signed, `+` an address offset (omitted when 0,
///                else `+0x10` / `+-0x10`), `d` decimal
///   {F@lo}       f32 immediate;  {D@lo} f64 whose upper 32 bits are the field;
///   {H@lo}       f16 immediate;  {BH@lo}  bf16 immediate (printed as the f32 it is the upper
///                half of)
///   {E@lo/w a|b|c}  an enumerated modifier: value k prints alternative k; `?` = invalid
///   {?N text}    literal text printed when bit N is 1 ({?N! text}: when it is 0)
///   {SR@lo/w}    a special register name from the SM's table
///   {SB@lo/w}    a set of scoreboards, one bit each, printed `{5,4,0}` (highest first; an
///                empty set has no text and does not match)
///   {T@lo/w,lo/w}  branch target: a signed count of 4-byte units (low part first),
///                  printed as the absolute address pc + 16 + 4 * value (`b`: bytes; `o`:
///                  the signed offset 4 * value itself, as BRX prints it)
///   {A@ R@lo UR@lo I@lo/w X@bit R!}  the inside of an address: GPR (omitted when RZ unless
///                  R!), `.64` when bit X is set, uniform GPR (omitted when URZ unless U!), signed
///                  offset (omitted when 0 unless nothing else prints), joined by '+'
/// Anything else is literal text. Widths default to the natural size of the kind.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "encoder/bit_writer.h"
#include "targets/common/form_row.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxmini::enc {

enum class PieceKind { Lit, Reg, UReg, Pred, UPred, Bar, Int, F32, F64H, F16, BF16, Enum, Flag, SReg, Target, Addr, SbSet };

struct Piece {
  PieceKind kind = PieceKind::Lit;
  std::string lit;                  ///< Lit text, or the Flag text
  BitRange field;
  BitRange field2;                  ///< Target/Int: the high part
  int negBit = -1, absBit = -1, invBit = -1, notBit = -1, reuseBit = -1;
  bool flagWhenZero = false;        ///< Flag printed when the bit is 0
  uint64_t xorValue = 0;            ///< register fields stored inverted (`^7`)
  bool isSigned = false, offset = false, decimal = false;
  bool byteUnits = false;           ///< Target counts bytes, not 4-byte units (`b`)
  bool relative = false;            ///< Target prints the signed offset itself (`o`, BRX)
  std::vector<std::string> alts;    ///< Enum alternatives by value
  // Addr: the terms of an address, each optional (width 0 = not in this form)
  BitRange aReg, aUReg, aImm;
  int aWide = -1;                   ///< bit that prints `.64` after the GPR
  bool aRegAlways = false;          ///< print the GPR even when it is RZ
  bool aURegAlways = false;         ///< print the uniform GPR even when it is URZ (`U!`)
};

struct Template {
  std::vector<Piece> pieces;
  std::string mnemonic;  ///< the leading literal up to the first '.', ' ' or '{' ("IMAD")
  Word128 owned;         ///< every bit some placeholder reads or writes
};

/// Context a template needs beyond the word: the SM's named values and the address.
struct TemplateEnv {
  const targets::IsaTables *tables = nullptr;
  uint64_t pc = 0;
};

/// Parses a template; on error returns nullopt and says why in `err`.
std::optional<Template> parseTemplate(std::string_view text, std::string &err);

/// The text of word `w` under template `t`; nullopt when a field holds a value the template
/// has no text for (an invalid enumerator, an unknown special register).
std::optional<std::string> render(const Template &t, const Word128 &w, const TemplateEnv &env);

/// Matches canonical `text` (see canonicalSpacing) against `t`, writing the fields into `w`.
/// Returns false when the text does not have this form.
bool match(const Template &t, std::string_view text, const TemplateEnv &env, Word128 &w);

/// nvdisasm's spacing: single spaces, ", " between operands, no space inside brackets.
std::string canonicalSpacing(std::string_view text);

/// nvdisasm's text for immediates (exposed for the unit tests).
std::string formatF32(uint32_t bits);
std::string formatF64High(uint32_t hiBits);
std::string formatF16(uint16_t bits);
std::string formatBF16(uint16_t bits);
std::string formatHex(int64_t v);  ///< 0x1f / -0x20

} // namespace ptxmini::enc
