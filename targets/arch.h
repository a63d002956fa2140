//===- targets/arch.h - the SM names ptxas-mini knows -----------------------------------===//
///
/// \file
/// Parses `-arch` values and `.target` names: sm_XX and compute_XX with the `a` (arch-
/// specific) and `f` (family) suffixes. The list of known SMs is the table in arch.cpp; the
/// only place SM numbers are compared is targets/.
//===----------------------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ptxmini {

struct ArchInfo {
  unsigned sm = 0;        ///< 90 for sm_90 / sm_90a / compute_90
  char suffix = 0;        ///< 'a', 'f' or 0
  bool isVirtual = false; ///< compute_XX: parse and check only, write no file (as ptxas)

  /// "sm_90a" / "compute_90".
  std::string name() const;
  /// True when code generation for this SM is implemented (sm_90/sm_90a, sm_80, sm_86, sm_89).
  bool hasCodegen() const;
  /// e_flags bits 8-15 hold the SM (cubin-format.md section 4).
  bool operator==(const ArchInfo &) const = default;
};

/// Parses "sm_90", "sm_90a", "compute_90", "sm_100f"...; nullopt for names ptxas 13.0 does
/// not accept (observed list in arch.cpp).
std::optional<ArchInfo> parseArch(std::string_view name);

/// Why ptxas refuses to generate code for `.address_size 32` PTX for `arch`. HW: ptxas
/// 13.0.88 refuses it for every real SM (compute_XX only parses and accepts it): the 32-bit
/// ABI message for sm_90 and later, "32-Bit compilation is no longer supported" before.
std::string_view address32Refusal(const ArchInfo &arch);

/// Whether code for `target` (a .target) may be compiled for `arch` (-arch): ptxas refuses a
/// .target higher than -arch ("SM version specified by .target is higher than default SM
/// version assumed"), and an `a` target only runs on the same SM with `a`.
/// An `f` (family) target only runs on later SMs of its family (same tens digit).
bool archCanCompile(const ArchInfo &arch, const ArchInfo &target);

/// The two SMs are of one family (sm_100 and sm_103; sm_120 and sm_121).
bool sameFamily(const ArchInfo &a, const ArchInfo &b);

/// ptxas's fatal message when `target` (a .target) cannot be compiled for `arch` (-arch),
/// empty when it can (archCanCompile).
std::string archTargetRefusal(const ArchInfo &arch, const ArchInfo &target);

} // namespace ptxmini
