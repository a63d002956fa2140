//===- frontend/ptx_check.cpp - semantic checks of a PTX module ------------------------===//
///
/// \file
/// Algorithm: one walk over the module.
///  1. Module header: .version supported, .target known, .version new enough for .target
///     (ptx_targets.def). Unsupported values are fatal, as in ptxas.
///  2. Module scope: every global variable and function name; a second definition is an
///     error (a function may be declared, then defined, once).
///  3. Each function body, block by block: a block's labels are collected first (branches
///     go forward), declarations enter the scope in order, nested blocks get a child scope.
///     Names resolve innermost-first; `%r7` also matches a `%r<N>` range with 7 < N;
///     special registers come from ptx_sregs.def.
///  4. Each instruction against its ptx_instructions.def row (see the signature letters
///     there): feature .version/.target, type set, operand count, then each operand.
/// Every error goes through the DiagEngine; after maxErrors the walk stops.
//===----------------------------------------------------------------------------------===//
#include "frontend/ptx_check.h"

#include "frontend/ptx_instr_table.h"
#include "targets/arch.h"

#include <array>
#include <charconv>
#include <set>
#include <unordered_map>

namespace ptxmini::frontend {
namespace {

using namespace ptx;

struct TargetRow {
  std::string_view name;
  unsigned minPtx;
};
constexpr TargetRow kTargets[] = {
#define PTX_TARGET(NAME, MINPTX) {NAME, MINPTX},
#include "frontend/ptx_targets.def"
};

struct SregRow {
  std::string_view name;
  unsigned count;
  ScalarType type;
  bool components;
};
constexpr SregRow kSregs[] = {
#define PTX_SREG(NAME, COUNT, TYPE, COMP) {NAME, COUNT, ScalarType::TYPE, COMP},
#include "frontend/ptx_sregs.def"
};

/// Maximum PTX ISA version ptxas 13.0 reads (HW: "current version is '9.0'").
constexpr unsigned kMaxPtxVersion = 90;

struct Sym {
  enum class Kind : uint8_t { Reg, Var, Label, Function } kind = Kind::Var;
  ScalarType type = ScalarType::None;
  unsigned vectorWidth = 1;
  StateSpace space = StateSpace::None;
  bool hasBody = false;
};

struct Scope {
  Scope *parent = nullptr;
  std::unordered_map<std::string, Sym> names;
  /// `%r<N>` ranges: prefix -> (count, symbol)
  std::unordered_map<std::string, std::pair<unsigned, Sym>> ranges;
};

/// Splits "%r123" into ("%r", 123); false when there is no decimal tail.
bool splitNumbered(std::string_view name, std::string_view &prefix, unsigned &n) {
  size_t k = name.size();
  while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
    --k;
  if (k == name.size() || k == 0)
    return false;
  std::string_view digits = name.substr(k);
  if (digits.size() > 1 && digits[0] == '0')
    return false;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc())
    return false;
  prefix = name.substr(0, k);
  return true;
}

class Checker {
public:
  Checker(Module &m, const ArchInfo &arch, DiagEngine &diag, unsigned maxErrors,
          PendingDiags &pending)
      : m_(m), arch_(arch), diag_(diag), maxErrors_(maxErrors), pending_(pending),
        errorsAtStart_(pending.size()) {}

  void run() {
    if (!header())
      return;
    Scope global;
    for (VarDecl &v : m_.globals)
      declare(global, v, true);
    for (Function &f : m_.functions) {
      declareFunction(global, f);
      checkParams(f);
    }
    for (Function &f : m_.functions) {
      if (!f.hasBody || stop())
        continue;
      Scope fs;
      fs.parent = &global;
      for (VarDecl &p : f.returns)
        declare(fs, p, false);
      for (VarDecl &p : f.params)
        declare(fs, p, false);
      block(f.body, fs);
    }
  }

private:
  Module &m_;
  const ArchInfo &arch_;
  DiagEngine &diag_;
  unsigned maxErrors_;
  PendingDiags &pending_;
  size_t errorsAtStart_;
  std::optional<ArchInfo> target_;
  std::set<std::array<unsigned, 3>> locsSeen_; ///< (file, line, column) of every .loc so far

  bool stop() const { return pending_.size() - errorsAtStart_ >= maxErrors_; }
  SourceLoc at(uint32_t line, uint32_t col = 0) const {
    return SourceLoc{m_.fileName, line, col};
  }
  void error(uint32_t line, uint32_t col, const std::string &msg) {
    if (!stop())
      pending_.push_back(PendingDiag{line, col, msg});
  }

  /// HW (ptxas 13.0.88): a kernel's parameters are .param ("Entry parameter 'p' must have
  /// .param state space" for `.reg`); `.ptr` is for kernel parameters only ("Illegal
  /// placement of kernel parameter attribute" on a .func parameter).
  void checkParams(const Function &f) {
    for (const VarDecl &p : f.params) {
      if (f.isEntry && p.space != StateSpace::Param)
        error(p.line, p.column, "Entry parameter '" + p.name + "' must have .param state space");
      if (!f.isEntry && p.isPtr)
        error(p.line, p.column, "Illegal placement of kernel parameter attribute");
    }
  }

  // ---- 1. header --------------------------------------------------------------------------
  bool header() {
    if (m_.version() > kMaxPtxVersion || m_.versionMajor > 9 || m_.versionMinor > 9)
      diag_.fatal(at(m_.versionLine), "Unsupported .version " + std::to_string(m_.versionMajor) +
                                          "." + std::to_string(m_.versionMinor) +
                                          "; current version is '9.0'");
    bool ok = true;
    bool versionRefused = false;
    for (const std::string &t : m_.targets) {
      if (t.starts_with("sm_") || t.starts_with("compute_")) {
        std::optional<ArchInfo> a = parseArch(t);
        if (!a || a->isVirtual)
          diag_.fatal(at(m_.targetLine), "Unsupported .target '" + t + "'");
        target_ = a;
        m_.target = a;
        for (const TargetRow &r : kTargets)
          if (r.name == t && m_.version() < r.minPtx) {
            error(m_.targetLine, 0,
                  "PTX .version " + std::to_string(m_.versionMajor) + "." +
                      std::to_string(m_.versionMinor) + " does not support .target " + t);
            versionRefused = true;
          }
      } else if (t != "texmode_unified" && t != "texmode_independent" && t != "debug" &&
                 t != "map_f64_to_f32") {
        diag_.fatal(at(m_.targetLine), "Unsupported .target '" + t + "'");
      }
    }
    // -arch versus .target (HW: ptxas 13.0.88 messages, no file or line), unless the
    // .version already refused the .target (ptxas reports that one: `.version 8.0`,
    // `.target sm_100`, -arch=sm_90).
    if (target_ && !versionRefused)
      if (std::string why = archTargetRefusal(arch_, *target_); !why.empty())
        diag_.fatal(why);
    return ok;
  }

  // ---- 2. declarations --------------------------------------------------------------------
  static Sym symOf(const VarDecl &v) {
    Sym s;
    s.kind = v.space == StateSpace::Reg ? Sym::Kind::Reg : Sym::Kind::Var;
    s.type = v.type;
    s.vectorWidth = v.vectorWidth;
    s.space = v.space;
    return s;
  }

  void declare(Scope &sc, const VarDecl &v, bool moduleScope) {
    if (moduleScope && v.space == StateSpace::Reg) {
      error(v.line, v.column, "Module-scoped variables in .reg state space are not allowed with ABI");
      return;
    }
    if (moduleScope && v.space == StateSpace::Local && v.linkage == Linkage::Visible) {
      // allowed by PTX; nothing to check
    }
    Sym s = symOf(v);
    if (v.rangeCount) {
      auto [it, inserted] = sc.ranges.emplace(v.name, std::make_pair(v.rangeCount, s));
      if (!inserted)
        // HW (ptxas 13.0.88): a repeated `%f<5>` is named '%f<' whatever the count.
        error(v.line, v.column, "Duplicate definition of variable '" + v.name + "<'");
      return;
    }
    bool dup = sc.names.count(v.name) != 0;
    std::string_view prefix;
    unsigned n = 0;
    if (!dup && splitNumbered(v.name, prefix, n)) {
      auto it = sc.ranges.find(std::string(prefix));
      dup = it != sc.ranges.end() && n < it->second.first;
    }
    if (dup) {
      // `.extern` declarations may repeat
      if (moduleScope && v.linkage == Linkage::Extern)
        return;
      error(v.line, v.column, "Duplicate definition of variable '" + v.name + "'");
      return;
    }
    sc.names.emplace(v.name, s);
  }

  void declareFunction(Scope &sc, const Function &f) {
    auto it = sc.names.find(f.name);
    if (it == sc.names.end()) {
      Sym s;
      s.kind = Sym::Kind::Function;
      s.hasBody = f.hasBody;
      sc.names.emplace(f.name, s);
      return;
    }
    const uint32_t at = f.declLine ? f.declLine : f.line;
    if (it->second.kind != Sym::Kind::Function) {
      error(at, f.column, "Duplicate definition of function '" + f.name + "'");
      return;
    }
    if (it->second.hasBody && f.hasBody)
      error(at, f.column, "Duplicate definition of function '" + f.name + "'");
    it->second.hasBody |= f.hasBody;
  }

  // ---- 3. lookup --------------------------------------------------------------------------
  const Sym *lookup(const Scope &sc, const std::string &name) {
    std::string_view prefix;
    unsigned n = 0;
    bool numbered = name[0] == '%' && splitNumbered(name, prefix, n);
    for (const Scope *s = &sc; s; s = s->parent) {
      if (auto it = s->names.find(name); it != s->names.end())
        return &it->second;
      if (numbered && !s->ranges.empty()) {
        auto it = s->ranges.find(std::string(prefix));
        if (it != s->ranges.end() && n < it->second.first)
          return &it->second.second;
      }
    }
    if (const Sym *s = sreg(name))
      return s;
    // Component selectors: `%r2.b0`, `%r3.h1` (video instructions), `%v.x` (vector
    // variables). The component is a byte/half/element of the register named before it.
    if (size_t dot = name.rfind('.'); dot != std::string::npos && dot > 0) {
      std::string_view comp = std::string_view(name).substr(dot + 1);
      static constexpr std::string_view kComponents[] = {"b0", "b1", "b2", "b3", "h0", "h1",
                                                         "x",  "y",  "z",  "w",  "r",  "g",
                                                         "b",  "a"};
      for (std::string_view c : kComponents)
        if (c == comp)
          return lookup(sc, name.substr(0, dot));
      // SIMD video lane selectors and masks: `.h10`, `.h32` (halves 0-3 of {b, a}), `.b3210`,
      // `.b7654` (bytes 0-7), masks such as `.b20`.
      auto digits = [&](char kind, char hi, size_t most) {
        if (comp.size() < 2 || comp.size() > most + 1 || comp[0] != kind)
          return false;
        for (char ch : comp.substr(1))
          if (ch < '0' || ch > hi)
            return false;
        return true;
      };
      if (digits('h', '3', 2) || digits('b', '7', 4))
        return lookup(sc, name.substr(0, dot));
    }
    return nullptr;
  }

  const Sym *sreg(std::string_view name) {
    static Sym sregSyms[std::size(kSregs)];
    if (name.empty() || name[0] != '%')
      return nullptr;
    for (size_t i = 0; i < std::size(kSregs); ++i) {
      const SregRow &r = kSregs[i];
      if (!name.starts_with(r.name))
        continue;
      std::string_view tail = name.substr(r.name.size());
      bool ok = false;
      if (r.count) {
        unsigned n = 0;
        auto [p, ec] = std::from_chars(tail.data(), tail.data() + tail.size(), n);
        ok = ec == std::errc() && p == tail.data() + tail.size() && n < r.count && !tail.empty();
      } else if (tail.empty()) {
        ok = true;
      } else if (r.components) {
        ok = tail == ".x" || tail == ".y" || tail == ".z" || tail == ".w";
      }
      if (ok) {
        Sym &s = sregSyms[i];
        s.kind = Sym::Kind::Reg;
        s.type = r.type;
        s.space = StateSpace::SReg;
        s.vectorWidth = r.components && tail.empty() ? 4 : 1;
        return &s;
      }
    }
    return nullptr;
  }

  // ---- 4. blocks and instructions ---------------------------------------------------------
  void block(Block &b, Scope &parent) {
    Scope sc;
    sc.parent = &parent;
    blockInto(b, sc);
  }

  void blockInto(Block &b, Scope &sc) {
    for (Statement &st : b.statements) {
      if (!st.is<Label>())
        continue;
      const Label &l = st.as<Label>();
      Sym s;
      s.kind = Sym::Kind::Label;
      if (!sc.names.emplace(l.name, s).second)
        error(l.line, l.column, "Duplicate definition of label '" + l.name + "'");
    }
    for (Statement &st : b.statements) {
      if (stop())
        return;
      if (st.is<VarDecl>()) {
        declare(sc, st.as<VarDecl>(), false);
      } else if (st.is<Block>()) {
        block(st.as<Block>(), sc);
      } else if (st.is<Instruction>()) {
        instruction(st.as<Instruction>(), sc);
      } else if (st.is<Directive>()) {
        Directive &d = st.as<Directive>();
        if (d.kind == Directive::Kind::BranchTargets || d.kind == Directive::Kind::CallTargets)
          for (const std::string &n : d.args)
            if (!lookup(sc, n))
              error(d.line, d.column, "Unknown symbol '" + n + "'");
        if (d.kind == Directive::Kind::Loc) {
          // HW (ptxas 13.0.88): the inlined_at location must be one an earlier .loc of the
          // module (any function) names.
          if (d.hasInlinedAt && !locsSeen_.contains(d.inlinedAt))
            error(d.line, d.column,
                  "Source location " + std::to_string(d.inlinedAt[0]) + " " +
                      std::to_string(d.inlinedAt[1]) + " " + std::to_string(d.inlinedAt[2]) +
                      " used in inlined_at directive must be used in a preceding .loc directive");
          locsSeen_.insert({d.file, d.locLine, d.locColumn});
        }
      }
    }
  }

  /// A name no scope declares, where it was found in an instruction's operands.
  struct UnknownName {
    std::string name;
    uint32_t column;
    enum class Where { Value, Address, VectorElement } where;
  };

  /// Resolves every name in `op` (recursively); collects unknown ones into `unknown` (the
  /// caller reports them after the instruction's own error, as ptxas does).
  void resolve(Operand &op, const Scope &sc, const Instruction &ins,
               std::vector<UnknownName> &unknown,
               UnknownName::Where where = UnknownName::Where::Value) {
    (void)ins;
    auto unknownSym = [&](const std::string &n) {
      unknown.push_back(UnknownName{n, op.column, where});
    };
    if (op.is<RegOperand>()) {
      RegOperand &r = op.as<RegOperand>();
      const Sym *s = lookup(sc, r.name);
      if (!s)
        return unknownSym(r.name);
      if (s->kind != Sym::Kind::Reg) {
        std::string name = r.name;
        op.value = SymbolOperand{name, 0, symKind(*s)};
      }
    } else if (op.is<SymbolOperand>()) {
      SymbolOperand &so = op.as<SymbolOperand>();
      // PTX ISA "Predefined identifiers": WARP_SZ is the warp size as an immediate.
      if (so.name == "WARP_SZ") {
        op.value = ImmOperand{32 + so.offset};
        return;
      }
      const Sym *s = lookup(sc, so.name);
      if (!s)
        return unknownSym(so.name);
      if (s->kind == Sym::Kind::Reg && so.offset == 0)
        op.value = RegOperand{so.name, false};
      else
        so.kind = symKind(*s);
    } else if (op.is<AddressOperand>()) {
      AddressOperand &a = op.as<AddressOperand>();
      if (a.baseKind != AddressOperand::BaseKind::None) {
        const Sym *s = lookup(sc, a.base);
        if (!s) {
          unknown.push_back(UnknownName{a.base, op.column, UnknownName::Where::Address});
          return;
        }
        a.baseKind = s->kind == Sym::Kind::Reg ? AddressOperand::BaseKind::Register
                                               : AddressOperand::BaseKind::Symbol;
      }
      for (Operand &e : a.extra)
        resolve(e, sc, ins, unknown, UnknownName::Where::Address);
    } else if (op.is<VectorOperand>()) {
      for (Operand &e : op.as<VectorOperand>().elems)
        resolve(e, sc, ins, unknown, UnknownName::Where::VectorElement);
    } else if (op.is<ListOperand>()) {
      for (Operand &e : op.as<ListOperand>().elems)
        resolve(e, sc, ins, unknown, where);
    } else if (op.is<PairOperand>()) {
      PairOperand &p = op.as<PairOperand>();
      for (const std::string *n : {&p.first, &p.second})
        if (*n != "_" && !lookup(sc, *n))
          unknownSym(*n);
    }
  }

  static SymbolOperand::Kind symKind(const Sym &s) {
    switch (s.kind) {
    case Sym::Kind::Label: return SymbolOperand::Kind::Label;
    case Sym::Kind::Function: return SymbolOperand::Kind::Function;
    default: return SymbolOperand::Kind::Variable;
    }
  }

  static bool kindCompatible(ScalarType instr, ScalarType reg) {
    TypeKind ik = typeKind(instr), rk = typeKind(reg);
    if (ik == TypeKind::Pred || rk == TypeKind::Pred)
      return ik == rk;
    switch (ik) {
    case TypeKind::Bit:
    case TypeKind::Packed:
    case TypeKind::Opaque:
      return true;
    case TypeKind::Float:
      return rk == TypeKind::Float || rk == TypeKind::Bit || rk == TypeKind::Packed;
    case TypeKind::Unsigned:
    case TypeKind::Signed:
      return rk == TypeKind::Unsigned || rk == TypeKind::Signed || rk == TypeKind::Bit;
    default:
      return true;
    }
  }

  enum class Width { Exact, Double, AtLeast };

  /// One value operand against type `t`; false on a mismatch.
  bool valueMatches(const Operand &op, ScalarType t, Width w, const Scope &sc, unsigned vec) {
    if (t == ScalarType::None)
      return true;
    if (op.is<VectorOperand>()) {
      const auto &el = op.as<VectorOperand>().elems;
      if (vec <= 1)
        return true; // mov.b64 %rd, {%r1, %r2}: packing, element widths differ by design
      if (el.size() != vec)
        return false;
      for (const Operand &e : el)
        if (!e.is<SinkOperand>() && !valueMatches(e, t, w, sc, 1))
          return false;
      return true;
    }
    if (op.is<ImmOperand>())
      return typeKind(t) != TypeKind::Float; // mov.pred %p, 0 / -1 is fine
    if (op.is<FloatOperand>())
      return typeKind(t) == TypeKind::Float || typeKind(t) == TypeKind::Bit ||
             typeKind(t) == TypeKind::Packed;
    if (op.is<RegOperand>()) {
      const Sym *s = lookup(sc, op.as<RegOperand>().name);
      if (!s || s->vectorWidth > 1 || s->type == ScalarType::None)
        return true;
      unsigned want = typeBits(t) * (w == Width::Double ? 2 : 1);
      unsigned have = typeBits(s->type);
      if (w == Width::AtLeast ? have < want : have != want)
        return false;
      return kindCompatible(t, s->type);
    }
    return true; // symbols, sinks, pairs: not a type question
  }

  void instruction(Instruction &ins, Scope &sc) {
    const InstrInfo &info = instrInfo(ins.tableIndex);
    const std::string name(info.name);
    // .version / .target requirements
    if (m_.version() < info.minPtx)
      error(ins.line, ins.column,
            "Feature '" + name + "' requires PTX ISA .version " + std::to_string(info.minPtx / 10) +
                "." + std::to_string(info.minPtx % 10) + " or later");
    if (!info.minTarget.empty() && target_) {
      std::optional<ArchInfo> need = parseArch(info.minTarget);
      if (info.flags & (ArchA | ArchAF)) {
        ArchInfo base = *need;
        base.suffix = 0;
        bool ok = (info.flags & ArchA) ? archCanCompile(*target_, *need)
                                       : archCanCompile(*target_, base) && target_->suffix != 0;
        if (!ok)
          error(ins.line, ins.column,
                "Instruction '" + name + "' not supported on .target '" + target_->name() + "'");
      } else if (!archCanCompile(*target_, *need)) {
        error(ins.line, ins.column,
              "Feature '" + name + "' requires .target " + std::string(info.minTarget) +
                  " or higher");
      }
    }
    // guard. HW (ptxas 13.0.88): a guard that is not a predicate register, or names nothing
    // declared, is "Predicate expression expected"; an unknown name is then also reported
    // (after the instruction's own error, below).
    std::vector<UnknownName> unknownNames;
    if (ins.guard) {
      const Sym *s = lookup(sc, ins.guard->predicate);
      if (!s || s->type != ScalarType::PRED)
        error(ins.line, ins.column, "Predicate expression expected");
      if (!s)
        unknownNames.push_back(
            UnknownName{ins.guard->predicate, ins.column, UnknownName::Where::Value});
    }
    // types
    std::vector<ScalarType> types = ins.types();
    bool typeOk = !(info.flags & TypeReq) || !types.empty();
    for (ScalarType t : types)
      typeOk &= typeInSet(t, info.types);
    if (!typeOk)
      error(ins.line, ins.column, "Unexpected instruction types specified for '" + name + "'");
    unsigned vec = ins.vectorWidth();
    if (vec != 1 && vec != 2 && vec != 4 && vec != 8)
      error(ins.line, ins.column, "Illegal vector size: " + std::to_string(vec));

    // names
    const size_t guardUnknowns = unknownNames.size();
    std::vector<size_t> unknownOperand; // operand index of each operand name not declared
    for (size_t k = 0; k < ins.operands.size(); ++k) {
      resolve(ins.operands[k], sc, ins, unknownNames);
      unknownOperand.resize(unknownNames.size() - guardUnknowns, k);
    }
    const bool unknown = !unknownNames.empty();
    auto reportUnknown = [&] {
      for (const UnknownName &u : unknownNames)
        if (!stop())
          pending_.push_back(PendingDiag{ins.line, u.column, "Unknown symbol '" + u.name + "'",
                                         false, /*pass=*/1});
    };

    // HW (ptxas 13.0.88): `mad.f32` needs a rounding modifier on every target it compiles for
    // ("Rounding modifier required for instruction 'mad'"); mad.rn.f32 is fma.rn.f32.
    if (name == "mad" && types.size() == 1 && types[0] == ScalarType::F32 &&
        !ins.has("rn") && !ins.has("rz") && !ins.has("rm") && !ins.has("rp")) {
      error(ins.line, ins.column, "Rounding modifier required for instruction 'mad'");
      reportUnknown();
      return;
    }
    // HW (ptxas 13.0.88): a one-element braces list is the scalar itself for the data operand
    // of ld/ldu/st without .vN (`@%p ld.global.b32 { %r1 }, [a]`, `st.global.b32 [a], { %r2 }`:
    // Triton's idiom for every predicated load and store) and for mov (`mov.b32 {%r1}, %r2`),
    // in every state space; with .v2/.v4 it is "Argument vector size mismatch". Unwrapped
    // here so that everything after the check sees the scalar form.
    if (vec == 1 && (name == "ld" || name == "ldu" || name == "st" || name == "mov"))
      for (Operand &op : ins.operands)
        if (op.is<VectorOperand>() && op.as<VectorOperand>().elems.size() == 1 &&
            !op.as<VectorOperand>().elems[0].is<VectorOperand>()) {
          Operand inner = op.as<VectorOperand>().elems[0];
          op = std::move(inner);
        }

    // operand count and kinds
    std::string_view sig = info.signature;
    size_t minOps = 0, maxOps = 0;
    bool star = false;
    for (size_t k = 0; k < sig.size(); ++k) {
      if (sig[k] == '*') {
        star = true;
      } else if (sig[k] != '?') {
        ++maxOps;
        if (k + 1 >= sig.size() || sig[k + 1] != '?')
          minOps = maxOps;
      }
    }
    // HW (ptxas 13.0.88): the message names mul/mad's .lo/.hi/.wide and cvta's .to forms as
    // such ("Arguments mismatch for instruction 'mad.lo'", "... 'mul.wide'", "... 'cvta.to'").
    std::string shown = name;
    if (ins.has("wide"))
      shown += ".wide";
    else if ((name == "mul" || name == "mad") && ins.has("lo"))
      shown += ".lo";
    else if ((name == "mul" || name == "mad") && ins.has("hi"))
      shown += ".hi";
    else if (name == "cvta" && ins.has("to"))
      shown += ".to";
    std::string mismatch = "Arguments mismatch for instruction '" + shown + "'";
    if (ins.operands.size() < minOps || (!star && ins.operands.size() > maxOps)) {
      error(ins.line, ins.column, mismatch);
      reportUnknown();
      return;
    }
    if (unknown) {
      // HW (ptxas 13.0.88): an operand naming nothing declared fails the operand check first
      // -- "Illegal operand type to instruction 'ld'" inside an address, "Illegal expression
      // '%x'" (and for ld/st "Vector with elements of different types ...") inside braces,
      // "Arguments mismatch" anywhere else except a branch target -- and each unknown name
      // is reported after that.
      for (size_t u = guardUnknowns; u < unknownNames.size(); ++u) {
        const UnknownName &un = unknownNames[u];
        size_t k = unknownOperand[u - guardUnknowns];
        size_t letter = 0, seen = 0;
        char c = 'x';
        for (; letter < sig.size(); ++letter) {
          if (sig[letter] == '?' || sig[letter] == '*')
            continue;
          if (seen++ == k) {
            c = sig[letter];
            break;
          }
        }
        if (c == 'l')
          continue; // a branch target: "Unknown symbol" alone
        if (name == "call" && !ins.operands[k].is<ListOperand>()) {
          error(ins.line, ins.column, "Call to '" + un.name + "' requires call prototype");
        } else if (un.where == UnknownName::Where::Address) {
          error(ins.line, ins.column, "Illegal operand type to instruction '" + name + "'");
        } else if (un.where == UnknownName::Where::VectorElement) {
          error(ins.line, ins.column, "Illegal expression '" + un.name + "'");
          if (name == "ld" || name == "st")
            error(ins.line, ins.column,
                  "Vector with elements of different types are not allowed in " + name +
                      " instruction");
        } else {
          error(ins.line, ins.column, mismatch);
        }
        break;
      }
      reportUnknown();
      return;
    }
    if (!typeOk)
      return;
    // HW (ptxas 13.0): a scalar f16/bf16 setp has one predicate destination; `p|q` is
    // "Predicate output not allowed for instruction 'setp'" (f16x2/bf16x2 take p|q or p).
    if (name == "setp" && types.size() == 1 &&
        (types[0] == ScalarType::F16 || types[0] == ScalarType::BF16) &&
        !ins.operands.empty() && ins.operands[0].is<PairOperand>()) {
      error(ins.line, ins.column, "Predicate output not allowed for instruction 'setp'");
      return;
    }
    // HW (ptxas 13.0, every pair tried): `set` on f16/bf16 takes a .u32/.s32 destination or
    // the source's own type; a scalar source also .u16/.s16 and .bf16 (not .f16 from .bf16);
    // anything else (.b32, .f32, ...) is "Unexpected instruction types specified for 'set'".
    if (name == "set" && types.size() == 2 &&
        (types[1] == ScalarType::F16 || types[1] == ScalarType::BF16 ||
         types[1] == ScalarType::F16X2 || types[1] == ScalarType::BF16X2)) {
      ScalarType d = types[0], src = types[1];
      bool scalar = src == ScalarType::F16 || src == ScalarType::BF16;
      bool dOk = d == ScalarType::U32 || d == ScalarType::S32 || d == src ||
                 (scalar && (d == ScalarType::U16 || d == ScalarType::S16 ||
                             d == ScalarType::BF16)); // .f16 only from .f16, .bf16 from both
      if (!dOk) {
        error(ins.line, ins.column, "Unexpected instruction types specified for 'set'");
        return;
      }
    }
    // HW (ptxas 13.0): a packed fp8 source of cvt must be a register ("Arguments mismatch").
    if (name == "cvt" && types.size() == 2 &&
        (types[1] == ScalarType::E4M3X2 || types[1] == ScalarType::E5M2X2) &&
        ins.operands.size() == 2 && ins.operands[1].is<ImmOperand>()) {
      error(ins.line, ins.column, mismatch);
      return;
    }
    // HW (ptxas 13.0): a conversion to a packed fp8 pair needs .satfinite ("'.satfinite'
    // modifier required for instruction 'cvt' with destination type '.e4m3x2'").
    if (name == "cvt" && types.size() == 2 &&
        (types[0] == ScalarType::E4M3X2 || types[0] == ScalarType::E5M2X2) &&
        !ins.has("satfinite")) {
      error(ins.line, ins.column,
            "'.satfinite' modifier required for instruction 'cvt' with destination type '." +
                std::string(types[0] == ScalarType::E4M3X2 ? "e4m3x2" : "e5m2x2") + "'");
      return;
    }
    ScalarType t0 = types.empty() ? ScalarType::None : types[0];
    ScalarType t1 = types.size() > 1 ? types[1] : t0;
    bool wide = ins.has("wide");
    size_t letter = 0;
    for (size_t k = 0; k < ins.operands.size(); ++k) {
      while (letter < sig.size() && (sig[letter] == '?' || sig[letter] == '*'))
        ++letter;
      char c = letter < sig.size() ? sig[letter++] : 'x';
      const Operand &op = ins.operands[k];
      // HW (ptxas 13.0.88): a braces list of the wrong length for ld/st's .vN is "Argument
      // vector size mismatch"; a length no vector has (3, 5, ...) is "Illegal vector size".
      if (c == 'r' && vec > 1 && op.is<VectorOperand>() &&
          op.as<VectorOperand>().elems.size() != vec) {
        size_t n = op.as<VectorOperand>().elems.size();
        error(ins.line, ins.column,
              n == 1 || n == 2 || n == 4 || n == 8
                  ? "Argument vector size mismatch for instruction '" + name + "'"
                  : "Illegal vector size: " + std::to_string(n));
        return;
      }
      bool ok = true;
      switch (c) {
      case 'd': ok = valueMatches(op, t0, Width::Exact, sc, vec); break;
      case 'D': ok = valueMatches(op, t0, wide ? Width::Double : Width::Exact, sc, vec); break;
      case 'r': ok = valueMatches(op, t0, Width::AtLeast, sc, vec); break;
      case 'e': ok = valueMatches(op, t1, Width::AtLeast, sc, vec); break;
      case 'p':
        ok = op.is<PairOperand>() || op.is<SinkOperand>() ||
             (op.is<RegOperand>() && valueMatches(op, ScalarType::PRED, Width::Exact, sc, 1));
        break;
      case 'P':
        ok = op.is<ImmOperand>() ||
             (op.is<RegOperand>() && valueMatches(op, ScalarType::PRED, Width::Exact, sc, 1));
        break;
      case 'u':
        ok = op.is<ImmOperand>() || op.is<SymbolOperand>() ||
             (op.is<RegOperand>() && [&] {
               const Sym *s = lookup(sc, op.as<RegOperand>().name);
               return !s || (typeBits(s->type) <= 32 && typeKind(s->type) != TypeKind::Float &&
                             typeKind(s->type) != TypeKind::Pred);
             }());
        break;
      case 'a': ok = op.is<AddressOperand>(); break;
      case 'l':
        ok = op.is<SymbolOperand>() &&
             (op.as<SymbolOperand>().kind == SymbolOperand::Kind::Label ||
              op.as<SymbolOperand>().kind == SymbolOperand::Kind::Function);
        if (!ok) {
          error(ins.line, ins.column,
                "Label expected for argument " + std::to_string(k) + " of instruction '" +
                    name + "'");
          return;
        }
        break;
      default: break;
      }
      if (!ok) {
        error(ins.line, ins.column, mismatch);
        return;
      }
      if (c == 'a')
        checkAddressSpace(ins, op.as<AddressOperand>(), sc, name);
    }
  }

  void checkAddressSpace(const Instruction &ins, const AddressOperand &a, const Scope &sc,
                         const std::string &name) {
    StateSpace is = ins.space();
    if (is == StateSpace::None || a.baseKind != AddressOperand::BaseKind::Symbol)
      return;
    const Sym *s = lookup(sc, a.base);
    if (!s || s->kind != Sym::Kind::Var)
      return;
    StateSpace vs = s->space;
    bool ok = vs == is || (is == StateSpace::SharedCluster && vs == StateSpace::Shared);
    if (!ok)
      error(ins.line, ins.column,
            "State space mismatch between instruction and address in instruction '" + name + "'");
  }
};

} // namespace

void checkModule(Module &m, const ArchInfo &arch, DiagEngine &diag, unsigned maxErrors,
                 PendingDiags &pending) {
  Checker(m, arch, diag, maxErrors, pending).run();
}

} // namespace ptxmini::frontend
