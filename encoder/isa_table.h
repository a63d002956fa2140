//===- encoder/isa_table.h - an SM's encoding table, parsed and indexed -----------------===//
///
/// \file
/// Turns the declarative rows of targets/<sm>/ (targets/common/form_row.h) into Forms with
/// parsed templates and match/fixed masks, indexed by opcode (for decoding) and by mnemonic
/// (for assembling). Built once per SM and cached; a malformed row is a build-time bug and is
/// reported by the unit test that loads every table.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "encoder/sass_template.h"
#include "targets/common/form_row.h"

#include <map>
#include <string>
#include <vector>

namespace ptxmini::enc {

/// A selecting condition that is not a plain bit value: `LO-HI=pow2` (the field holds a power
/// of two) or `LO-HI!=V` (it does not hold V). Needed for nvdisasm's IMAD.SHL alias.
struct FieldCond {
  BitRange range;
  bool pow2 = false;
  uint64_t notValue = 0;
  bool holds(const Word128 &w) const {
    uint64_t v = w.get(range);
    return pow2 ? (v != 0 && (v & (v - 1)) == 0) : v != notValue;
  }
};

struct Form {
  uint16_t opcode = 0;
  Word128 matchMask, matchValue; ///< extra selecting bits
  std::vector<FieldCond> conds;  ///< extra selecting conditions
  Word128 fixedMask, fixedValue; ///< unprinted bits ptxas sets
  Template tmpl;
  bool uniformGuard = false;     ///< the guard is a UP register (`UGUARD` in fixed)
  size_t row = 0;                ///< index in the table (for messages)
};

class Isa {
public:
  /// Parses every row of `tables`; problems go to `errors` (one line each).
  Isa(const targets::IsaTables &tables, std::vector<std::string> &errors);

  const targets::IsaTables &tables() const { return *tables_; }
  const std::vector<Form> &forms() const { return forms_; }
  /// Forms with this 12-bit opcode, in table order.
  const std::vector<size_t> &byOpcode(uint16_t opc) const;
  /// Forms whose mnemonic is `m`, in table order.
  const std::vector<size_t> &byMnemonic(const std::string &m) const;

  /// The cached table for an SM, or nullptr when the SM has none (errors go to stderr once).
  static const Isa *forSm(unsigned sm);

private:
  const targets::IsaTables *tables_;
  std::vector<Form> forms_;
  std::map<uint16_t, std::vector<size_t>> byOpcode_;
  std::map<std::string, std::vector<size_t>> byMnemonic_;
};

/// Parses "LO-HI=V BIT=V ..." into mask/value; false on a malformed spec.
bool parseBitSpec(std::string_view spec, Word128 &mask, Word128 &value, std::string &err,
                  std::vector<FieldCond> *conds = nullptr);

} // namespace ptxmini::enc
