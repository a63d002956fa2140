//===- support/knobs.h - the knob registry and per-compilation knob values --------------===//
///
/// \file
/// Knobs are ptxas's internal tuning switches (`-knob Name=Value`, or a knobs file whose first
/// non-blank line is `[knobs]` and whose other lines are `Name=Value`). The set of knobs, their
/// types and defaults is declared once in knobs.def. A `Knobs` object holds the values for one
/// compilation; phases read it through typed getters keyed by KnobId.
//===----------------------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ptxmini {

enum class KnobType { Bool, Int, Float, Double, String, IntList, StringList };

enum class KnobId : uint16_t {
#define KNOB(Name, Type, Default, Desc) Name,
#include "support/knobs.def"
#undef KNOB
  NumKnobs
};

struct KnobInfo {
  KnobId id;
  std::string_view name;
  KnobType type;
  std::string_view defaultValue;
  std::string_view description;
};

/// The type's name as error messages and --list-knobs print it ("BOOL", "INT_LIST", ...).
std::string_view knobTypeName(KnobType t);

/// Every knob, in knobs.def order.
std::span<const KnobInfo> allKnobs();
/// Case-insensitive lookup; nullptr when unknown.
const KnobInfo *findKnob(std::string_view name);
/// The known knob whose name is closest to `name` (edit distance), for "did you mean" errors.
std::string_view closestKnobName(std::string_view name);

using KnobValue = std::variant<bool, int64_t, double, std::string, std::vector<int64_t>,
                               std::vector<std::string>>;

/// Parses `text` as a value of type `t`; nullopt when malformed.
std::optional<KnobValue> parseKnobValue(KnobType t, std::string_view text);

class Knobs {
public:
  Knobs();

  /// Sets a knob from `Name=Value`. On failure returns false and puts a message in `err`
  /// ("Unknown knob 'X'; did you mean 'Y'?" / "Invalid value 'v' for knob 'X' of type INT").
  bool assign(std::string_view assignment, std::string &err);
  bool set(std::string_view name, std::string_view value, std::string &err);
  /// Reads a knobs file. On failure returns false with a message naming the file and line.
  bool loadFile(const std::string &path, std::string &err);

  /// True when the user set the knob (the seeds' "QueryKnob": is an override present).
  bool isSet(KnobId id) const { return set_[index(id)]; }

  bool getBool(KnobId id) const { return std::get<bool>(values_[index(id)]); }
  int64_t getInt(KnobId id) const { return std::get<int64_t>(values_[index(id)]); }
  double getDouble(KnobId id) const { return std::get<double>(values_[index(id)]); }
  const std::string &getString(KnobId id) const {
    return std::get<std::string>(values_[index(id)]);
  }
  const std::vector<int64_t> &getIntList(KnobId id) const {
    return std::get<std::vector<int64_t>>(values_[index(id)]);
  }
  const std::vector<std::string> &getStringList(KnobId id) const {
    return std::get<std::vector<std::string>>(values_[index(id)]);
  }

private:
  static size_t index(KnobId id) { return static_cast<size_t>(id); }
  std::vector<KnobValue> values_;
  std::vector<bool> set_;
};

} // namespace ptxmini
