//===- targets/arch.cpp - the SM names ptxas-mini knows ---------------------------------===//
#include "targets/arch.h"

#include <array>
#include <charconv>

namespace ptxmini {
namespace {

/// The SMs ptxas 13.0.88 accepts for -arch (observed: `ptxas --help` lists them, and each
/// was compiled in the probe of cubin-format.md section 4). Which suffixes exist per SM too.
struct KnownSm {
  unsigned sm;
  bool hasA;
  bool hasF;
};
constexpr std::array kKnownSms = {
    KnownSm{75, false, false},  KnownSm{80, false, false},  KnownSm{86, false, false},
    KnownSm{87, false, false},  KnownSm{88, false, false},  KnownSm{89, false, false},
    KnownSm{90, true, false},   KnownSm{100, true, true},   KnownSm{103, true, true},
    KnownSm{110, true, true},   KnownSm{120, true, true},   KnownSm{121, true, true},
};

/// SMs with a code generator in ptxas-mini (targets/sm_90; targets/sm_80 for 80, 86, 89).
constexpr std::array kCodegenSms = {90u, 80u, 86u, 89u};

} // namespace

std::string ArchInfo::name() const {
  std::string s = isVirtual ? "compute_" : "sm_";
  s += std::to_string(sm);
  if (suffix)
    s += suffix;
  return s;
}

bool ArchInfo::hasCodegen() const {
  for (unsigned s : kCodegenSms)
    if (s == sm)
      return true;
  return false;
}

std::string_view address32Refusal(const ArchInfo &arch) {
  // HW: the messages of ptxas 13.0.88 -arch=sm_80 / sm_90 on `.address_size 32` PTX (its
  // leading blank included).
  if (arch.sm >= 90)
    return " 32-Bit ABI (--machine 32 or 32-Bit addressing) is not supported on sm_90 or "
           "higher architectures.";
  return " 32-Bit compilation is no longer supported";
}

std::optional<ArchInfo> parseArch(std::string_view name) {
  ArchInfo a;
  if (name.starts_with("sm_")) {
    name.remove_prefix(3);
  } else if (name.starts_with("compute_")) {
    name.remove_prefix(8);
    a.isVirtual = true;
  } else {
    return std::nullopt;
  }
  if (!name.empty() && (name.back() == 'a' || name.back() == 'f')) {
    a.suffix = name.back();
    name.remove_suffix(1);
  }
  auto [p, ec] = std::from_chars(name.data(), name.data() + name.size(), a.sm);
  if (ec != std::errc() || p != name.data() + name.size() || name.empty())
    return std::nullopt;
  for (const KnownSm &k : kKnownSms) {
    if (k.sm != a.sm)
      continue;
    if ((a.suffix == 'a' && !k.hasA) || (a.suffix == 'f' && !k.hasF))
      return std::nullopt;
    return a;
  }
  return std::nullopt;
}

bool sameFamily(const ArchInfo &a, const ArchInfo &b) { return a.sm / 10 == b.sm / 10; }

bool archCanCompile(const ArchInfo &arch, const ArchInfo &target) {
  if (target.suffix == 'a')
    return arch.sm == target.sm && arch.suffix == 'a';
  // HW (ptxas 13.0.88, every -arch x .target pair of sm_80 ... sm_121f): an `f` target runs
  // on its own SM and the later ones of its family only (sm_100f on sm_100/103, sm_120f on
  // sm_120/121, sm_103f on sm_103); elsewhere "cannot be compiled to different SM-family
  // architecture".
  if (target.suffix == 'f')
    return target.sm <= arch.sm && sameFamily(arch, target);
  return target.sm <= arch.sm;
}

std::string archTargetRefusal(const ArchInfo &arch, const ArchInfo &target) {
  if (archCanCompile(arch, target))
    return {};
  // HW: ptxas 13.0.88's messages (no file or line), checked in this order.
  if (target.suffix == 'f' && target.sm <= arch.sm && !sameFamily(arch, target))
    return "Program with .target '" + target.name() +
           "' cannot be compiled to different SM-family architecture";
  ArchInfo sameSuffix = arch;
  sameSuffix.suffix = target.suffix;
  if (target.suffix && archCanCompile(sameSuffix, target))
    return "PTX with .target '" + target.name() + "' cannot be compiled for architecture '" +
           arch.name() + "'";
  if (target.suffix && archCanCompile(arch, ArchInfo{target.sm, 0, false}))
    return "Program with .target '" + target.name() + "' cannot be compiled to future architecture";
  return "SM version specified by .target is higher than default SM version assumed";
}

} // namespace ptxmini
