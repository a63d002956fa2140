//===- frontend/lower/lower_mem.cpp - moves, addresses, loads and stores ------------------===//
///
/// \file
/// Instruction selection for data movement, as ptxas 13.0.88 selects it for sm_90 (every
/// form below was read off its output with nvdisasm/cuobjdump 13.2; the probes are one PTX
/// instruction per kernel):
///   ld.param (kernel)     LDC[.U8|.S8|.U16|.S16|.64] d, c[0x0][paramBase + offset]
///   ld.const              LDC d, c[0x3][offset] / c[0x3][Rindex+offset]
///   ld/st.global          LDG.E / STG.E with desc[UR] (the descriptor from c[0x0][0x208]),
///                         .U8/.S8/.U16/.S16/(32)/.64/.128; vectors of 32/64-bit elements are
///                         one access into an aligned pair or quad (ptxas: LDG.E.128 for .v4.u32),
///                         vectors of 8/16-bit elements one access per element (ptxas packs
///                         them and splits with PRMT; separate accesses read the same bytes)
///   ld/st (generic)       LD.E / ST.E with desc[UR] and a 64-bit generic address
///   ld/st.shared          LDS / STS on a 32-bit shared-window address (the low half of a
///                         64-bit register when the PTX gives one, as ptxas does)
///   ldu.global            LDG.E (HW: no .CONSTANT)
///   prefetch[u]           CCTL.E.PF1 / .PF2 / .PML2 [Ra] (no descriptor); .local: nothing
///   cache operators       ld: .ca -> STRONG.SM, .cg -> STRONG.GPU, .cs -> EF, .lu -> LU,
///                         .cv -> STRONG.SYS, .nc -> CONSTANT; st: .wb -> STRONG.SM, .cg ->
///                         STRONG.GPU, .cs -> EF, .wt -> STRONG.SYS
///   eviction / L2 hints   .L1::no_allocate NA, .L1::evict_first EF, .L1::evict_last EL,
///                         .L1::evict_unchanged EU, .L1::evict_normal (nothing);
///                         .L2::64B/128B/256B LTC64B/LTC128B/LTC256B
///   ordering              .volatile STRONG.SYS; .relaxed/.acquire/.release with .cta SM,
///                         .cluster/.gpu GPU, .sys SYS; an acquire load is followed by
///                         CCTL.IVALL (gpu/cluster/sys), a release store preceded by
///                         MEMBAR.ALL.CTA (cta) or MEMBAR.ALL.GPU/SYS; ERRBAR; CGAERRBAR.
///                         Shared accesses have no ordering field (fences only).
///   mov d, gvar           LDC.64 d, c[0x4][slot] (the variable's address slot)
///   mov d, cvar           the variable's offset in the .const bank (MOV)
///   mov d, svar           MOV t, 0x400+off; S2R c, SR_CgaCtaId; LEA d, c, t, 0x18
///   mov d, kernel param   the parameter's constant-bank-0 offset (ld.param through it is
///                         LDC c[0x0][Rindex+off]; GUESS: ptxas folds these, no generic use)
///   cvta.global / .to     a copy (a global address is its generic address)
///   cvta.shared           lo = the shared address, hi = S2R SR_SWINHI
///   cvta.to.shared        lo = the low half, hi = 0
///   cvta[.to].const       plus / minus the .const bank's generic address (c[0x0][0xd0])
///   cvta[.to].param       plus / minus the parameter window's generic address
///   mov d, %sreg          special registers: lower_sreg.cpp (the target's table)
/// Everything else (.local, device-function .param, .mmio, cache-policy operands, ...) is
/// reported as not supported.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_mem.h"

#include "frontend/lower/lower_common.h"
#include "frontend/lower/lower_int.h"
#include "targets/isa_caps.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string_view>
#include <utility>

namespace ptxmini::frontend::lower {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;
using ori::SpecialReg;
using ptx::StateSpace;

// ---- shared helpers (lower_mem.h) --------------------------------------------------------

void add64Imm(LowerCtx &ctx, const Operand &d, const Operand &s, int64_t imm) {
  if (imm == 0) {
    if (!(d == s)) {
      ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {component(s, 0)});
      ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {component(s, 1)});
    }
    return;
  }
  Operand carry = ctx.temp(RegClass::P);
  int32_t lo = static_cast<int32_t>(static_cast<uint32_t>(imm));
  int32_t hi = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(imm) >> 32));
  ctx.emit(Opcode::IADD3, {}, {component(d, 0), carry},
           {component(s, 0), Operand::intImm(lo), RZ()});
  ctx.emit(Opcode::IADD3, {Modifier::X}, {component(d, 1)},
           {component(s, 1), hi ? Operand::intImm(hi) : RZ(), RZ(), carry, notPT()});
}

Operand sharedWindowAddress(LowerCtx &ctx, uint32_t windowOffset, const Operand &dest) {
  Operand d = dest.kind != OperandKind::None ? dest : ctx.temp(RegClass::R);
  ctx.out.referencesShared = true;
  if (!isaCapsFor(ctx.target.arch().sm).cgaSharedWindow) {
    // HW: ptxas 13.0 sm_80: the address is the offset itself (`MOV R0, 0x10`).
    ctx.emit(Opcode::MOV, {}, {d}, {Operand::intImm(windowOffset)});
    return d;
  }
  // HW: ptxas 13.0: MOV R0, 0x400; S2R R5, SR_CgaCtaId; LEA R5, R5, R0, 0x18.
  Operand off = ctx.temp(RegClass::R);
  Operand cta = ctx.temp(RegClass::R);
  ctx.emit(Opcode::MOV, {}, {off}, {Operand::intImm(windowOffset)});
  ctx.emit(Opcode::S2R, {}, {cta}, {Operand::sreg(SpecialReg::CGACTAID)});
  ctx.emit(Opcode::LEA, {}, {d},
           {cta, off, Operand::intImm(ctx.target.memory().sharedCtaShift)});
  return d;
}

namespace {

/// The largest immediate offset a memory operand holds (signed 24 bits: I@40/24).
constexpr int64_t kMaxMemOffset = (1 << 23) - 1;
constexpr int64_t kMinMemOffset = -(1 << 23);

const ModuleVar *moduleVar(LowerCtx &ctx, const std::string &name) {
  if (!ctx.moduleLayout)
    return nullptr;
  auto it = ctx.moduleLayout->vars.find(name);
  return it == ctx.moduleLayout->vars.end() ? nullptr : &it->second;
}

/// The 64-bit address of a module .global variable: its constant-bank-4 slot.
Operand globalVarAddress(LowerCtx &ctx, const ModuleVar &v) {
  Operand a = ctx.temp(RegClass::R, 2);
  ctx.emit(Opcode::LDC, {Modifier::Size64}, {a},
           {Operand::cbank(ctx.target.memory().addressSlotBank, v.slotOffset)});
  return a;
}

} // namespace

bool memAddress(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &op,
                StateSpace space, MemAddress &out) {
  auto form = [&] {
    return ctx.unsupported(in, "This address operand of '" + in.fullOpcode() + "'");
  };
  if (!op.is<ptx::AddressOperand>())
    return form();
  const auto &a = op.as<ptx::AddressOperand>();
  if (!a.extra.empty())
    return form();
  int64_t off = a.offset;
  bool shared = space == StateSpace::Shared;
  switch (a.baseKind) {
  case ptx::AddressOperand::BaseKind::Register: {
    Operand r = ctx.reg(in, a.base);
    if (r.kind == OperandKind::None)
      return false;
    if (r.cls != RegClass::R)
      return form();
    if (shared) {
      out.base = r.width == 2 ? component(r, 0) : r;
    } else {
      if (r.width != 2)
        return ctx.unsupported(in, "A 32-bit address in '" + in.fullOpcode() + "'");
      out.base = r;
    }
    break;
  }
  case ptx::AddressOperand::BaseKind::Symbol: {
    if (shared) {
      auto it = ctx.sharedVars.find(a.base);
      if (it == ctx.sharedVars.end())
        return ctx.unsupported(in, "The address of '" + a.base + "' in '" + in.fullOpcode() +
                                       "'");
      out.base = sharedWindowAddress(ctx, it->second);
      break;
    }
    const ModuleVar *v = moduleVar(ctx, a.base);
    if (!v || v->kind != ModuleVar::Kind::Global)
      return ctx.unsupported(in, "The address of '" + a.base + "' in '" + in.fullOpcode() +
                                     "'");
    out.base = globalVarAddress(ctx, *v);
    break;
  }
  case ptx::AddressOperand::BaseKind::None:
    if (!shared)
      return ctx.unsupported(in, "An absolute address in '" + in.fullOpcode() + "'");
    out.base = RZ();
    break;
  }
  // Offsets beyond the instruction's immediate go into the base.
  if (off > kMaxMemOffset || off < kMinMemOffset) {
    if (shared) {
      Operand t = ctx.temp(RegClass::R);
      ctx.emit(Opcode::IADD3, {}, {t},
               {out.base, Operand::intImm(static_cast<int32_t>(off)), RZ()});
      out.base = t;
    } else {
      Operand t = ctx.temp(RegClass::R, 2);
      add64Imm(ctx, t, out.base, off);
      out.base = t;
    }
    off = 0;
  }
  out.offset = static_cast<int32_t>(off);
  return true;
}

Operand memOperand(LowerCtx &ctx, const MemAddress &a, StateSpace space) {
  if (space == StateSpace::Shared)
    return Operand::mem(a.base.isFixed() ? Operand{} : a.base, a.offset);
  return Operand::mem(a.base, a.offset, ctx.globalDescriptor());
}

namespace {

/// PTX scope words and the SASS scope of STRONG / the MEMBAR scope of a release fence.
struct ScopeRow {
  std::string_view ptx;
  Modifier strong; ///< STRONG.<this>
  Modifier fence;  ///< MEMBAR.ALL.<this>
};
// HW: ld.relaxed.cta STRONG.SM, .cluster/.gpu STRONG.GPU, .sys STRONG.SYS; st.release.cta
// MEMBAR.ALL.CTA, .cluster/.gpu MEMBAR.ALL.GPU, .sys MEMBAR.ALL.SYS.
constexpr std::array kScopes = {
    ScopeRow{"cta", Modifier::SM, Modifier::CTA},
    ScopeRow{"cluster", Modifier::GPU, Modifier::GPU},
    ScopeRow{"gpu", Modifier::GPU, Modifier::GPU},
    ScopeRow{"sys", Modifier::SYS, Modifier::SYS},
};

} // namespace

bool memOrder(LowerCtx &ctx, const ptx::Instruction &in, bool isAtomic, MemOrder &out,
              std::vector<std::string_view> &used) {
  const ScopeRow *scope = nullptr;
  std::string_view sem;
  for (const ptx::Modifier &m : in.modifiers) {
    if (m.kind != ptx::Modifier::Kind::Other)
      continue;
    for (const ScopeRow &r : kScopes)
      if (m.text == r.ptx) {
        scope = &r;
        used.push_back(r.ptx);
      }
    for (std::string_view s : {"volatile", "relaxed", "acquire", "release", "acq_rel", "weak"})
      if (m.text == s) {
        if (!sem.empty())
          return ctx.unsupported(in, "The ordering qualifiers of '" + in.fullOpcode() + "'");
        sem = s;
        used.push_back(s);
      }
  }
  out = MemOrder{};
  if (sem == "weak")
    return !scope ? true : ctx.unsupported(in);
  if (sem == "volatile") {
    // HW: ld.volatile / st.volatile are .STRONG.SYS.
    if (scope)
      return ctx.unsupported(in);
    out.scope = Modifier::SYS;
    return true;
  }
  if (sem.empty()) {
    if (!isAtomic)
      return scope ? ctx.unsupported(in, "A scope without .relaxed/.acquire/.release in '" +
                                             in.fullOpcode() + "'")
                   : true;
    // HW: atom/red without .sem are relaxed; their scope defaults to .gpu.
    out.scope = scope ? scope->strong : Modifier::GPU;
    return true;
  }
  if (!scope) {
    if (!isAtomic)
      return ctx.unsupported(in, "." + std::string(sem) + " without a scope in '" +
                                     in.fullOpcode() + "'");
    scope = &kScopes[2]; // .gpu
  }
  out.scope = scope->strong;
  out.fenceScope = scope->fence;
  out.acquire = (sem == "acquire" || sem == "acq_rel") && scope->strong != Modifier::SM;
  out.releaseFence = sem == "release" || sem == "acq_rel";
  return true;
}

void appendOrder(const MemOrder &o, llvm::SmallVectorImpl<Modifier> &mods) {
  if (o.scope) {
    mods.push_back(Modifier::STRONG);
    mods.push_back(*o.scope);
  }
}

void emitReleaseFence(LowerCtx &ctx, const MemOrder &o) {
  if (!o.releaseFence)
    return;
  ctx.emit(Opcode::MEMBAR, {Modifier::ALL, o.fenceScope}, {}, {});
  if (o.fenceScope != Modifier::CTA) {
    ctx.emit(Opcode::ERRBAR, {}, {}, {});
    ctx.emit(Opcode::CGAERRBAR, {}, {}, {});
  }
}

void emitAcquireFence(LowerCtx &ctx, const MemOrder &o) {
  if (o.acquire)
    ctx.emit(Opcode::CCTL, {Modifier::IVALL}, {}, {});
}

namespace {

// ---- cache operators and hints ---------------------------------------------------------

/// A PTX caching word and what ptxas turns it into (see the file comment).
struct CacheRow {
  std::string_view ptx;
  bool forLoad, forStore;
  std::optional<Modifier> cache;  ///< the cache-policy field (EF, EL, LU, EU, NA)
  std::optional<Modifier> strong; ///< STRONG.<scope> instead
  std::optional<Modifier> ltc;    ///< the L2 sector field
  bool constant = false;          ///< .CONSTANT (ld.global.nc)
};
constexpr std::array kCacheRows = {
    CacheRow{"ca", true, false, {}, Modifier::SM, {}},
    CacheRow{"cg", true, true, {}, Modifier::GPU, {}},
    CacheRow{"cs", true, true, Modifier::EF, {}, {}},
    CacheRow{"lu", true, false, Modifier::LU, {}, {}},
    CacheRow{"cv", true, false, {}, Modifier::SYS, {}},
    CacheRow{"wb", false, true, {}, Modifier::SM, {}},
    CacheRow{"wt", false, true, {}, Modifier::SYS, {}},
    CacheRow{"nc", true, false, {}, {}, {}, true},
    CacheRow{"L1::no_allocate", true, true, Modifier::NA, {}, {}},
    CacheRow{"L1::evict_first", true, true, Modifier::EF, {}, {}},
    CacheRow{"L1::evict_last", true, true, Modifier::EL, {}, {}},
    CacheRow{"L1::evict_unchanged", true, true, Modifier::EU, {}, {}},
    CacheRow{"L1::evict_normal", true, true, {}, {}, {}},
    CacheRow{"L2::64B", true, false, {}, {}, Modifier::LTC64B},
    CacheRow{"L2::128B", true, false, {}, {}, Modifier::LTC128B},
    CacheRow{"L2::256B", true, false, {}, {}, Modifier::LTC256B},
};

/// Everything an access carries besides its width.
struct AccessMods {
  std::optional<Modifier> cache, ltc;
  bool constant = false;
  MemOrder order;
};

/// Reads the caching and ordering words of `in`; false after reporting. `allowed` are other
/// words the caller handles itself.
bool accessMods(LowerCtx &ctx, const ptx::Instruction &in, bool isLoad, AccessMods &out,
                std::initializer_list<std::string_view> allowed = {}) {
  std::vector<std::string_view> used(allowed);
  if (!memOrder(ctx, in, false, out.order, used))
    return false;
  std::optional<Modifier> cacheStrong;
  for (const ptx::Modifier &m : in.modifiers) {
    if (m.kind != ptx::Modifier::Kind::Other)
      continue;
    bool known = false;
    for (std::string_view u : used)
      known |= m.text == u;
    if (known)
      continue;
    const CacheRow *row = nullptr;
    for (const CacheRow &r : kCacheRows)
      if (r.ptx == m.text && (isLoad ? r.forLoad : r.forStore))
        row = &r;
    if (!row)
      return ctx.unsupported(in, "Modifier '." + m.text + "' of '" + in.fullOpcode() + "'");
    if (row->cache) {
      if (out.cache)
        return ctx.unsupported(in, "Modifier '." + m.text + "' of '" + in.fullOpcode() + "'");
      out.cache = row->cache;
    }
    if (row->ltc)
      out.ltc = row->ltc;
    if (row->constant)
      out.constant = true;
    if (row->strong) {
      if (cacheStrong)
        return ctx.unsupported(in, "Modifier '." + m.text + "' of '" + in.fullOpcode() + "'");
      cacheStrong = row->strong;
    }
  }
  // HW: ld.global.nc.ca / .nc.cg are plain LDG.E.CONSTANT.
  if (cacheStrong && !out.constant) {
    if (out.order.scope)
      return ctx.unsupported(in, "The qualifiers of '" + in.fullOpcode() + "'");
    out.order.scope = cacheStrong;
  }
  if (out.constant && out.order.scope)
    return ctx.unsupported(in, "The qualifiers of '" + in.fullOpcode() + "'");
  return true;
}

// ---- access widths -----------------------------------------------------------------------

/// The SASS size modifier of a `bytes`-wide access (none for 4).
std::optional<Modifier> sizeModifier(unsigned bytes, bool isSigned) {
  switch (bytes) {
  case 1: return isSigned ? Modifier::S8 : Modifier::U8;
  case 2: return isSigned ? Modifier::S16 : Modifier::U16;
  case 8: return Modifier::Size64;
  case 16: return Modifier::Size128;
  default: return std::nullopt;
  }
}

/// The modifiers of one LDG/STG/LD/ST/LDS/STS access in SASS order: E, cache, LTC, size,
/// ordering / CONSTANT.
llvm::SmallVector<Modifier, 6> accessModifiers(StateSpace space, const AccessMods &am,
                                               unsigned bytes, bool isSigned) {
  llvm::SmallVector<Modifier, 6> mods;
  bool shared = space == StateSpace::Shared;
  if (!shared) {
    mods.push_back(Modifier::E);
    if (am.cache)
      mods.push_back(*am.cache);
    if (am.ltc)
      mods.push_back(*am.ltc);
  }
  if (auto s = sizeModifier(bytes, isSigned))
    mods.push_back(*s);
  if (!shared) {
    if (am.constant)
      mods.push_back(Modifier::CONSTANT);
    appendOrder(am.order, mods);
  }
  return mods;
}

ori::Instr &emitMods(LowerCtx &ctx, Opcode op, llvm::ArrayRef<Modifier> mods,
                     std::initializer_list<Operand> defs, std::initializer_list<Operand> uses) {
  ori::Instr &i = ctx.emit(op, {}, defs, uses);
  for (Modifier m : mods)
    i.mods.push_back(m);
  return i;
}

bool isSignedType(ptx::ScalarType t) { return ptx::typeKind(t) == ptx::TypeKind::Signed; }

/// Widens the 32-bit value already in component 0 of `d` (a pair) into its high half.
void extendHigh(LowerCtx &ctx, const Operand &d, bool isSigned) {
  if (isSigned)
    ctx.emit(Opcode::SHF, {Modifier::R, Modifier::S32, Modifier::HI}, {component(d, 1)},
             {RZ(), Operand::intImm(31), component(d, 0)});
  else
    ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {RZ()});
}

/// The destination registers of a load (`_` sinks are kind None).
bool loadDests(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &op,
               unsigned vec, std::vector<Operand> &out) {
  if (vec == 1) {
    if (!op.is<ptx::RegOperand>())
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    Operand d = ctx.reg(in, op.as<ptx::RegOperand>().name);
    if (d.kind == OperandKind::None)
      return false;
    out.push_back(d);
    return true;
  }
  if (!op.is<ptx::VectorOperand>() || op.as<ptx::VectorOperand>().elems.size() != vec)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  for (const ptx::Operand &e : op.as<ptx::VectorOperand>().elems) {
    if (e.is<ptx::SinkOperand>()) {
      out.push_back(Operand{});
      continue;
    }
    if (!e.is<ptx::RegOperand>())
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    Operand d = ctx.reg(in, e.as<ptx::RegOperand>().name);
    if (d.kind == OperandKind::None)
      return false;
    out.push_back(d);
  }
  return true;
}

/// The source values of a store (registers or immediates).
bool storeSources(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &op,
                  unsigned vec, std::vector<Operand> &out) {
  auto one = [&](const ptx::Operand &e) {
    Operand s = ctx.source(in, e);
    if (s.kind == OperandKind::None)
      return false;
    if (s.isReg() && s.cls != RegClass::R)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    out.push_back(s);
    return true;
  };
  if (vec == 1)
    return one(op);
  if (!op.is<ptx::VectorOperand>() || op.as<ptx::VectorOperand>().elems.size() != vec)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  for (const ptx::Operand &e : op.as<ptx::VectorOperand>().elems)
    if (!one(e))
      return false;
  return true;
}

/// Component `k` (32 bits) of a store source: registers by component, immediates by bits.
Operand sourceWord(const Operand &s, unsigned k) {
  if (s.kind == OperandKind::VReg)
    return s.width == 1 ? (k == 0 ? s : RZ()) : component(s, k);
  if (s.kind == OperandKind::Imm || s.kind == OperandKind::FImm64 ||
      s.kind == OperandKind::FImm32) {
    uint64_t bits = static_cast<uint64_t>(s.imm);
    if (s.kind == OperandKind::FImm32)
      bits &= 0xffffffffu;
    uint32_t w = static_cast<uint32_t>(bits >> (32 * k));
    return w == 0 ? RZ() : Operand::intImm(w); // MOV/STG take the 32 bits unsigned
  }
  return s;
}

/// A register holding `v` (immediates and RZ are copied into a fresh one; STG/STS need a
/// register source).
Operand asRegister(LowerCtx &ctx, const Operand &v) {
  if (v.kind == OperandKind::VReg || v.isFixed())
    return v;
  Operand t = ctx.temp(RegClass::R);
  ctx.emit(Opcode::MOV, {}, {t}, {v});
  return t;
}

/// Opcode of a load / store in `space` (Global, Shared, None = generic).
Opcode loadOpcode(StateSpace s) {
  return s == StateSpace::Global ? Opcode::LDG : s == StateSpace::Shared ? Opcode::LDS : Opcode::LD;
}
Opcode storeOpcode(StateSpace s) {
  return s == StateSpace::Global ? Opcode::STG : s == StateSpace::Shared ? Opcode::STS : Opcode::ST;
}

/// ld/ldu in global, shared or generic memory.
bool lowerMemoryLoad(LowerCtx &ctx, const ptx::Instruction &in, StateSpace space,
                     const AccessMods &am) {
  ptx::ScalarType t = in.type();
  unsigned bits = ptx::typeBits(t), vec = in.vectorWidth();
  if (bits == 0 || bits > 128 || (bits == 128 && vec != 1) || bits * vec > 128 ||
      ptx::typeKind(t) == ptx::TypeKind::Pred)
    return ctx.unsupported(in);
  if (in.operands.size() != 2)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  std::vector<Operand> dests;
  if (!loadDests(ctx, in, in.operands[0], vec, dests))
    return false;
  MemAddress a;
  if (!memAddress(ctx, in, in.operands[1], space, a))
    return false;
  emitReleaseFence(ctx, am.order);
  Opcode op = loadOpcode(space);
  bool sgn = isSignedType(t);
  if (bits < 32) {
    // One access per element, each extended to 32 bits by the access itself.
    for (unsigned i = 0; i < vec; ++i) {
      if (dests[i].kind == OperandKind::None)
        continue;
      MemAddress ai = a;
      ai.offset += static_cast<int32_t>(i * bits / 8);
      Operand d = dests[i];
      emitMods(ctx, op, accessModifiers(space, am, bits / 8, sgn),
               {d.width == 2 ? component(d, 0) : d}, {memOperand(ctx, ai, space)});
      if (d.width == 2)
        extendHigh(ctx, d, sgn);
    }
    emitAcquireFence(ctx, am.order);
    return true;
  }
  unsigned words = bits * vec / 32;
  unsigned elemWords = bits / 32;
  Operand m = memOperand(ctx, a, space);
  auto mods = accessModifiers(space, am, words * 4, false);
  if (vec == 1) {
    Operand d = dests[0];
    if (d.width == words) {
      emitMods(ctx, op, mods, {d}, {m});
    } else if (words == 1 && d.width == 2) {
      emitMods(ctx, op, mods, {component(d, 0)}, {m});
      extendHigh(ctx, d, sgn);
    } else {
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    }
    emitAcquireFence(ctx, am.order);
    return true;
  }
  // A vector: one access into an aligned pair/quad, then a copy per element.
  Operand tmp = ctx.temp(RegClass::R, static_cast<uint8_t>(words));
  emitMods(ctx, op, mods, {tmp}, {m});
  for (unsigned i = 0; i < vec; ++i) {
    Operand d = dests[i];
    if (d.kind == OperandKind::None)
      continue;
    if (elemWords == 1 && d.width == 1) {
      ctx.emit(Opcode::MOV, {}, {d}, {component(tmp, i)});
    } else if (elemWords == 1 && d.width == 2) {
      ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {component(tmp, i)});
      extendHigh(ctx, d, sgn);
    } else if (elemWords == 2 && d.width == 2) {
      ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {component(tmp, 2 * i)});
      ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {component(tmp, 2 * i + 1)});
    } else {
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    }
  }
  emitAcquireFence(ctx, am.order);
  return true;
}

/// st in global, shared or generic memory.
bool lowerMemoryStore(LowerCtx &ctx, const ptx::Instruction &in, StateSpace space,
                      const AccessMods &am) {
  ptx::ScalarType t = in.type();
  unsigned bits = ptx::typeBits(t), vec = in.vectorWidth();
  if (bits == 0 || bits > 128 || (bits == 128 && vec != 1) || bits * vec > 128 ||
      ptx::typeKind(t) == ptx::TypeKind::Pred)
    return ctx.unsupported(in);
  if (in.operands.size() != 2)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  std::vector<Operand> srcs;
  if (!storeSources(ctx, in, in.operands[1], vec, srcs))
    return false;
  MemAddress a;
  if (!memAddress(ctx, in, in.operands[0], space, a))
    return false;
  Opcode op = storeOpcode(space);
  if (bits < 32) {
    std::vector<Operand> regs;
    for (unsigned i = 0; i < vec; ++i)
      regs.push_back(asRegister(ctx, sourceWord(srcs[i], 0)));
    emitReleaseFence(ctx, am.order);
    for (unsigned i = 0; i < vec; ++i) {
      MemAddress ai = a;
      ai.offset += static_cast<int32_t>(i * bits / 8);
      emitMods(ctx, op, accessModifiers(space, am, bits / 8, isSignedType(t)), {},
               {memOperand(ctx, ai, space), regs[i]});
    }
    return true;
  }
  unsigned words = bits * vec / 32;
  unsigned elemWords = bits / 32;
  Operand value;
  if (vec == 1 && srcs[0].kind == OperandKind::VReg && srcs[0].width == words) {
    value = srcs[0];
  } else if (vec == 1 && words == 1) {
    value = asRegister(ctx, sourceWord(srcs[0], 0));
  } else {
    // Gather the elements into an aligned pair/quad.
    value = ctx.temp(RegClass::R, static_cast<uint8_t>(words));
    for (unsigned i = 0; i < vec; ++i) {
      const Operand &s = srcs[i];
      if (s.kind == OperandKind::VReg && s.width < elemWords)
        return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
      for (unsigned k = 0; k < elemWords; ++k)
        ctx.emit(Opcode::MOV, {}, {component(value, i * elemWords + k)}, {sourceWord(s, k)});
    }
  }
  emitReleaseFence(ctx, am.order);
  emitMods(ctx, op, accessModifiers(space, am, words * 4, false), {},
           {memOperand(ctx, a, space), value});
  return true;
}

// ---- constant banks: ld.param (kernels), ld.const --------------------------------------

/// Loads `vec` elements of `bits` from c[bank][index + offset] into `dests`: LDC with
/// .U8/.S8/.U16/.S16/(32)/.64, 64-bit pieces where the offset allows (LDC reads at most 64
/// bits).
bool lowerBankLoad(LowerCtx &ctx, const ptx::Instruction &in, uint32_t bank,
                   const Operand &index, int64_t offset, const std::vector<Operand> &dests) {
  ptx::ScalarType t = in.type();
  unsigned bits = ptx::typeBits(t), vec = in.vectorWidth();
  bool sgn = isSignedType(t);
  if (bits == 0 || bits > 64 || ptx::typeKind(t) == ptx::TypeKind::Pred)
    return ctx.unsupported(in);
  // An indexed address whose offset leaves the unsigned 16-bit field ([%rd+-16] after a
  // pointer into a by-value struct parameter was moved back) adds the offset to the index
  // first. GUESS: the field may be signed in hardware; ptxas folds these loads (cutlass
  // basic_gemm), so there is no oracle for a negative indexed LDC.
  Operand idx = index;
  const int64_t maxOff = ctx.target.constBank().maxLdcOffset;
  if (idx.isReg() && (offset < 0 || offset + 8 * vec > maxOff)) {
    Operand t2 = ctx.temp(RegClass::R);
    ctx.emit(Opcode::IADD3, {}, {t2},
             {idx, Operand::intImm(static_cast<uint32_t>(offset)), RZ()});
    idx = t2;
    offset = 0;
  }
  auto cb = [&](int64_t off) {
    if (off < 0 || off > maxOff)
      return Operand{};
    return Operand::cbank(bank, off, idx);
  };
  auto ldc = [&](unsigned bytes, bool s, const Operand &d, int64_t off) {
    Operand c = cb(off);
    if (c.kind == OperandKind::None)
      return ctx.unsupported(in, "A constant-bank offset out of range in '" + in.fullOpcode() +
                                     "'");
    ori::Instr &i = ctx.emit(Opcode::LDC, {}, {d}, {c});
    if (auto m = sizeModifier(bytes, s))
      i.mods.push_back(*m);
    return true;
  };
  if (bits < 32) {
    for (unsigned i = 0; i < vec; ++i) {
      Operand d = dests[i];
      if (d.kind == OperandKind::None)
        continue;
      if (!ldc(bits / 8, sgn, d.width == 2 ? component(d, 0) : d, offset + i * bits / 8))
        return false;
      if (d.width == 2)
        extendHigh(ctx, d, sgn);
    }
    return true;
  }
  if (bits == 32) {
    // Pairs of elements as one LDC.64 where both are wanted and 8-byte aligned.
    for (unsigned i = 0; i < vec; ++i) {
      Operand d = dests[i];
      if (d.kind == OperandKind::None)
        continue;
      int64_t off = offset + 4 * i;
      if (i + 1 < vec && i % 2 == 0 && off % 8 == 0 && !idx.isReg() &&
          dests[i + 1].kind != OperandKind::None && d.width == 1 && dests[i + 1].width == 1) {
        Operand tmp = ctx.temp(RegClass::R, 2);
        if (!ldc(8, false, tmp, off))
          return false;
        ctx.emit(Opcode::MOV, {}, {d}, {component(tmp, 0)});
        ctx.emit(Opcode::MOV, {}, {dests[i + 1]}, {component(tmp, 1)});
        ++i;
        continue;
      }
      if (!ldc(4, false, d.width == 2 ? component(d, 0) : d, off))
        return false;
      if (d.width == 2)
        extendHigh(ctx, d, sgn);
    }
    return true;
  }
  for (unsigned i = 0; i < vec; ++i) {
    Operand d = dests[i];
    if (d.kind == OperandKind::None)
      continue;
    if (d.width != 2)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    int64_t off = offset + 8 * i;
    if (off % 8 == 0) {
      if (!ldc(8, false, d, off))
        return false;
    } else if (!ldc(4, false, component(d, 0), off) || !ldc(4, false, component(d, 1), off + 4)) {
      return false;
    }
  }
  return true;
}

/// ld.param / ld.const: the bank, index register and offset of the address operand.
bool bankAddress(LowerCtx &ctx, const ptx::Instruction &in, StateSpace space,
                 const ptx::Operand &op, uint32_t &bank, Operand &index, int64_t &offset) {
  if (!op.is<ptx::AddressOperand>() || !op.as<ptx::AddressOperand>().extra.empty())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  const auto &a = op.as<ptx::AddressOperand>();
  offset = a.offset;
  if (space == StateSpace::Param) {
    bank = 0;
    if (a.baseKind == ptx::AddressOperand::BaseKind::Symbol) {
      auto p = ctx.params.find(a.base);
      if (p == ctx.params.end() || !ctx.out.isKernel)
        return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
      offset += ctx.target.constBank().paramBase + p->second.offset;
      return true;
    }
  } else {
    bank = ctx.target.memory().constVarBank;
    if (a.baseKind == ptx::AddressOperand::BaseKind::Symbol) {
      const ModuleVar *v = moduleVar(ctx, a.base);
      if (!v || v->kind != ModuleVar::Kind::Const)
        return ctx.unsupported(in, "The address of '" + a.base + "' in '" + in.fullOpcode() +
                                       "'");
      offset += v->constOffset;
      return true;
    }
  }
  if (a.baseKind != ptx::AddressOperand::BaseKind::Register)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  // A register holding a .param/.const address (the bank offset, see mov of a variable):
  // its low 32 bits index the bank.
  Operand r = ctx.reg(in, a.base);
  if (r.kind == OperandKind::None)
    return false;
  if (r.cls != RegClass::R)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  if (space == StateSpace::Param && !ctx.out.isKernel)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  if (r.width == 1) {
    index = r;
  } else {
    // The index must be a whole register (Operand::cbank): copy the low half.
    index = ctx.temp(RegClass::R);
    ctx.emit(Opcode::MOV, {}, {index}, {component(r, 0)});
  }
  return true;
}

bool lowerBankLoadInstr(LowerCtx &ctx, const ptx::Instruction &in, StateSpace space) {
  if (!ctx.onlyModifiers(in, {}))
    return false;
  if (in.operands.size() != 2)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  std::vector<Operand> dests;
  if (!loadDests(ctx, in, in.operands[0], in.vectorWidth(), dests))
    return false;
  uint32_t bank = 0;
  Operand index;
  int64_t offset = 0;
  if (!bankAddress(ctx, in, space, in.operands[1], bank, index, offset))
    return false;
  return lowerBankLoad(ctx, in, bank, index, offset, dests);
}

// ---- the handlers ------------------------------------------------------------------------

/// The state space of a global/shared/generic access (None = generic).
bool accessSpace(LowerCtx &ctx, const ptx::Instruction &in, StateSpace &space) {
  space = in.space();
  switch (space) {
  case StateSpace::Global:
  case StateSpace::Shared:
  case StateSpace::None:
    return true;
  default:
    return ctx.unsupported(in);
  }
}

bool lowerLd(LowerCtx &ctx, const ptx::Instruction &in) {
  if (in.has("param::entry") && in.space() == StateSpace::None && ctx.out.isKernel) {
    // ld.param::entry: a kernel parameter, as ld.param reads it (HW: ptxas 13.0 for
    // ld.param::entry.b32 on sm_90: the same LDC from c[0x0][0x210 + offset]).
    ptx::Instruction plain = in;
    for (ptx::Modifier &m : plain.modifiers)
      if (m.kind == ptx::Modifier::Kind::Other && m.text == "param::entry")
        m = ptx::Modifier{ptx::Modifier::Kind::Space, "param", ptx::ScalarType::None,
                          StateSpace::Param};
    return lowerLd(ctx, plain);
  }
  switch (in.space()) {
  case StateSpace::Param:
  case StateSpace::Const:
    return lowerBankLoadInstr(ctx, in, in.space());
  default:
    break;
  }
  StateSpace space;
  if (!accessSpace(ctx, in, space))
    return false;
  AccessMods am;
  if (!accessMods(ctx, in, true, am))
    return false;
  if (space == StateSpace::Shared) {
    // HW: LDS has no cache or ordering field: ld.volatile/.relaxed.shared are plain LDS;
    // fences stay.
    if (am.cache || am.ltc || am.constant)
      return ctx.unsupported(in);
  } else if (am.constant && space != StateSpace::Global) {
    return ctx.unsupported(in);
  }
  return lowerMemoryLoad(ctx, in, space, am);
}

bool lowerLdu(LowerCtx &ctx, const ptx::Instruction &in) {
  // HW: ldu.global is a plain LDG.E.
  if (in.space() != StateSpace::Global || !ctx.onlyModifiers(in, {}))
    return in.space() != StateSpace::Global ? ctx.unsupported(in) : false;
  return lowerMemoryLoad(ctx, in, StateSpace::Global, AccessMods{});
}

bool lowerSt(LowerCtx &ctx, const ptx::Instruction &in) {
  StateSpace space;
  if (!accessSpace(ctx, in, space))
    return false;
  AccessMods am;
  if (!accessMods(ctx, in, false, am))
    return false;
  if (am.order.acquire)
    return ctx.unsupported(in);
  if (space == StateSpace::Shared && (am.cache || am.ltc))
    return ctx.unsupported(in);
  return lowerMemoryStore(ctx, in, space, am);
}

bool lowerPrefetch(LowerCtx &ctx, const ptx::Instruction &in) {
  if (in.has("tensormap"))
    return lowerPrefetchTensormap(ctx, in); // lower_tensor_copy.cpp
  // HW: prefetch{,u}[.global].L1 -> CCTL.E.PF1 [Ra], .L2 -> CCTL.E.PF2,
  // .L2::evict_last -> CCTL.E.PML2, .L2::evict_normal -> PF2; prefetch.local: no code.
  StateSpace space = in.space();
  if (space == StateSpace::Local)
    return ctx.onlyModifiers(in, {"L1", "L2"});
  if (space != StateSpace::None && space != StateSpace::Global)
    return ctx.unsupported(in);
  std::optional<Modifier> kind;
  for (const ptx::Modifier &m : in.modifiers) {
    if (m.kind != ptx::Modifier::Kind::Other)
      continue;
    if (m.text == "L1")
      kind = Modifier::PF1;
    else if (m.text == "L2" || m.text == "L2::evict_normal")
      kind = Modifier::PF2;
    else if (m.text == "L2::evict_last")
      kind = Modifier::PML2;
    else
      return ctx.unsupported(in, "Modifier '." + m.text + "' of '" + in.fullOpcode() + "'");
  }
  if (!kind || in.operands.size() != 1)
    return ctx.unsupported(in);
  MemAddress a;
  if (!memAddress(ctx, in, in.operands[0], StateSpace::Global, a))
    return false;
  ctx.emit(Opcode::CCTL, {Modifier::E, *kind}, {}, {Operand::mem(a.base, a.offset)});
  return true;
}

Operand plainReg(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &op);

/// applypriority[.global].L2::evict_normal [a], 128 and discard[.global].L2 [a], 128: cache
/// line operations on the 128 bytes at a. HW: ptxas 13.0 selects CCTL.E.DML2 [Ra] and
/// CCTL.E.RML2 [Ra] (no descriptor). The size must be 128 (the checker's and ptxas's rule).
/// discard leaves the line's contents undefined; the emulator keeps them (a legal outcome).
bool lowerCacheLineOp(LowerCtx &ctx, const ptx::Instruction &in) {
  bool discard = in.opcode == "discard";
  StateSpace space = in.space();
  if (space != StateSpace::None && space != StateSpace::Global)
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {discard ? "L2" : "L2::evict_normal"}))
    return false;
  if (!in.has(discard ? "L2" : "L2::evict_normal"))
    return ctx.unsupported(in);
  if (in.operands.size() != 2 || !in.operands[1].is<ptx::ImmOperand>() ||
      in.operands[1].as<ptx::ImmOperand>().value != 128)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  MemAddress a;
  if (!memAddress(ctx, in, in.operands[0], StateSpace::Global, a))
    return false;
  ctx.emit(Opcode::CCTL, {Modifier::E, discard ? Modifier::RML2 : Modifier::DML2}, {},
           {Operand::mem(a.base, a.offset)});
  return true;
}

/// multimem.st / multimem.red on a multimem (multicast) address: HW: ptxas 13.0 for sm_90
/// selects the plain global store and reduction with the written order and scope
/// (multimem.st.relaxed.sys.global.b32 is STG.E.STRONG.SYS, multimem.red.relaxed.sys.global
/// .add.u32 REDG.E.ADD.STRONG.SYS; the memory system does the multicast), so they are lowered
/// as st/red with the same qualifiers. multimem.ld_reduce (LDGMC) is not selected yet.
bool lowerMultimem(LowerCtx &ctx, const ptx::Instruction &in) {
  ptx::Instruction plain = in;
  plain.modifiers.clear();
  for (const ptx::Modifier &m : in.modifiers) {
    if (plain.opcode == in.opcode && m.kind == ptx::Modifier::Kind::Other) {
      if (m.text != "st" && m.text != "red")
        return ctx.unsupported(in);
      plain.opcode = m.text;
      continue;
    }
    plain.modifiers.push_back(m);
  }
  if (plain.opcode == in.opcode || plain.space() != StateSpace::Global)
    return ctx.unsupported(in);
  // multimem.red.add.f16x2/.bf16x2 has no .noftz word (red requires it): the same
  // reduction (HW: ptxas 13.0 selects REDG.E.ADD.F16x2.RN.STRONG.SYS /
  // REDG.E.ADD.BF16x2.RN.STRONG.SYS for multimem.red.relaxed.sys.global.add.{f16x2,bf16x2}).
  ptx::ScalarType t = plain.type();
  if (plain.opcode == "red" && (t == ptx::ScalarType::F16X2 || t == ptx::ScalarType::BF16X2) &&
      !plain.has("noftz"))
    plain.modifiers.push_back(ptx::Modifier{ptx::Modifier::Kind::Other, "noftz"});
  return plain.opcode == "st" ? lowerSt(ctx, plain) : lowerRedInstr(ctx, plain);
}

/// createpolicy.fractional.L2::<primary>[.L2::<secondary>].b64 d[, fraction]: an L2 cache
/// policy for the cache_hint forms of ld/st/atom/cp.async, a constant of the qualifiers and
/// the fraction (default 1.0). HW: ptxas 13.0 computes it with uniform ops whose constants give
/// d = ((0x100 | primary | secondary | (ceil(fraction * 16) - 1)) << 20) << 32, primary
/// evict_unchanged 0x00 / evict_first 0x20 / evict_last 0x40 / evict_normal 0x60, secondary
/// evict_unchanged 0x00 / evict_first 0x10 (probed on every pair and on the fractions 1.0,
/// 0.99, 0.5, 0.3, 0.25, 0.0625, 0.01). ptxas-mini moves the constant into d.
/// createpolicy.cvt.L2.b64 d, a converts a policy made for an older target: on sm_90 ptxas
/// 13.0.88 copies it (R2UR of both words, UIMAD.WIDE.U32 d, URZ, URZ, a, MOVs back), so
/// ptxas-mini moves a into d. The .range form is refused.
bool lowerCreatePolicy(LowerCtx &ctx, const ptx::Instruction &in) {
  if (in.has("cvt")) {
    if (!ctx.onlyModifiers(in, {"cvt", "L2"}))
      return false;
    if (in.operands.size() != 2 || !in.has("L2"))
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    Operand d = plainReg(ctx, in, in.operands[0]), a = plainReg(ctx, in, in.operands[1]);
    if (d.kind == OperandKind::None || a.kind == OperandKind::None)
      return false;
    if (d.width != 2 || a.width != 2)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {component(a, 0)});
    ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {component(a, 1)});
    return true;
  }
  if (!in.has("fractional") || in.operands.empty() || in.operands.size() > 2)
    return ctx.unsupported(in);
  uint32_t code = 0x100;
  int level = 0;
  for (const ptx::Modifier &m : in.modifiers) {
    if (m.kind != ptx::Modifier::Kind::Other || m.text == "fractional")
      continue;
    static constexpr std::pair<std::string_view, uint32_t> kPrimary[] = {
        {"L2::evict_unchanged", 0x00}, {"L2::evict_first", 0x20},
        {"L2::evict_last", 0x40}, {"L2::evict_normal", 0x60}};
    std::optional<uint32_t> bits;
    for (const auto &[name, v] : kPrimary)
      if (m.text == name)
        bits = v;
    if (!bits || (level == 1 && *bits != 0x00 && *bits != 0x20) || level > 1)
      return ctx.unsupported(in, "Modifier '." + m.text + "' of '" + in.fullOpcode() + "'");
    code |= level == 0 ? *bits : *bits >> 1; // secondary evict_first: 0x10
    ++level;
  }
  if (level == 0)
    return ctx.unsupported(in);
  double fraction = 1.0;
  if (in.operands.size() == 2) {
    if (!in.operands[1].is<ptx::FloatOperand>())
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    const auto &f = in.operands[1].as<ptx::FloatOperand>();
    fraction = f.isDouble ? f.value : static_cast<double>(static_cast<float>(f.value));
  }
  float sixteenths = static_cast<float>(fraction) * 16.0f;
  int steps = static_cast<int>(std::ceil(sixteenths)) - 1;
  code |= static_cast<uint32_t>(std::clamp(steps, 0, 15));
  Operand d = plainReg(ctx, in, in.operands[0]);
  if (d.kind == OperandKind::None)
    return false;
  if (d.width != 2)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {RZ()});
  ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {Operand::intImm(code << 20)});
  return true;
}

/// mapa[.shared::cluster].u32|u64 d, a, rank: a's address in the shared memory of CTA `rank`
/// of the cluster, and getctarank[.shared::cluster].u32|u64 d, a: the rank an address names.
/// A shared::cluster window address carries the CTA rank in bits 24..31 of its low word.
/// HW: ptxas 13.0 selects PRMT d.lo, rank, 0x654, a.lo (the high word copied) for mapa and
/// SHF.L.U64.HI d, a.lo, 0x8, RZ (a.lo >> 24) for getctarank, for every space and size.
bool lowerClusterAddress(LowerCtx &ctx, const ptx::Instruction &in) {
  bool mapa = in.opcode == "mapa";
  StateSpace space = in.space();
  if (space != StateSpace::None && space != StateSpace::SharedCluster)
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {}) || in.operands.size() != (mapa ? 3u : 2u))
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand d = plainReg(ctx, in, in.operands[0]);
  Operand a = plainReg(ctx, in, in.operands[1]);
  if (d.kind == OperandKind::None || a.kind == OperandKind::None)
    return false;
  Operand aLo = a.width == 2 ? component(a, 0) : a;
  if (!mapa) {
    ctx.emit(Opcode::SHF, {Modifier::L, Modifier::U64, Modifier::HI}, {d},
             {aLo, Operand::intImm(8), RZ()});
    return true;
  }
  Operand rank = ctx.source(in, in.operands[2]);
  if (rank.kind == OperandKind::None)
    return false;
  if (rank.kind != OperandKind::VReg) {
    Operand t = ctx.temp(RegClass::R);
    ctx.emit(Opcode::MOV, {}, {t}, {rank});
    rank = t;
  }
  ctx.emit(Opcode::PRMT, {}, {d.width == 2 ? component(d, 0) : d},
           {rank, Operand::intImm(0x654), aLo});
  if (d.width == 2)
    ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {a.width == 2 ? component(a, 1) : RZ()});
  return true;
}

/// d = the address of `name + off` (a module variable, a shared variable, a kernel
/// parameter), as mov/cvta see it. False after reporting.
bool symbolValue(LowerCtx &ctx, const ptx::Instruction &in, const std::string &name,
                 int64_t off, const Operand &d) {
  auto lo32 = [&](uint64_t v) {
    if (d.width == 2) {
      ctx.emit(Opcode::MOV, {}, {component(d, 0)},
               {Operand::intImm(static_cast<uint32_t>(v))});
      ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {RZ()});
    } else {
      ctx.emit(Opcode::MOV, {}, {d}, {Operand::intImm(static_cast<uint32_t>(v))});
    }
  };
  if (auto it = ctx.sharedVars.find(name); it != ctx.sharedVars.end()) {
    sharedWindowAddress(ctx, static_cast<uint32_t>(it->second + off),
                        d.width == 2 ? component(d, 0) : d);
    if (d.width == 2)
      ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {RZ()});
    return true;
  }
  if (const ModuleVar *v = moduleVar(ctx, name)) {
    if (v->kind == ModuleVar::Kind::Const) {
      lo32(v->constOffset + static_cast<uint64_t>(off));
      return true;
    }
    if (v->kind == ModuleVar::Kind::Global) {
      if (d.width != 2)
        return ctx.unsupported(in, "A 32-bit address in '" + in.fullOpcode() + "'");
      // HW: ptxas 13.0 gives a kernel that takes a virtual table's address (newdelete's
      // vectorCreate) private copies of every address-taken function, as below.
      if (v->holdsFunctionAddress && ctx.moduleLayout)
        for (const auto &fp : ctx.moduleLayout->functionPointerOrder)
          (void)ctx.fn().calleeIndex(fp);
      Operand a = globalVarAddress(ctx, *v);
      add64Imm(ctx, d, a, off);
      return true;
    }
  }
  if (auto p = ctx.params.find(name); p != ctx.params.end() && ctx.out.isKernel) {
    lo32(ctx.target.constBank().paramBase + p->second.offset + static_cast<uint64_t>(off));
    return true;
  }
  // A function's address: its function-pointer value (lower_call.cpp's indirect calls).
  if (ctx.moduleLayout && off == 0)
    if (auto f = ctx.moduleLayout->functionPointers.find(name);
        f != ctx.moduleLayout->functionPointers.end()) {
      lo32(f->second);
      // HW: ptxas 13.0 gives a kernel that takes a function's address (and makes no indirect
      // call) private copies of every address-taken function too, as it does a kernel that
      // calls through a pointer: the value indexes a per-kernel table of their code offsets.
      for (const auto &fp : ctx.moduleLayout->functionPointerOrder)
        (void)ctx.fn().calleeIndex(fp);
      return true;
    }
  return ctx.unsupported(in, "The address of '" + name + "' in '" + in.fullOpcode() + "'");
}

/// A register operand of `in` as a whole register of the declared width (no negation).
Operand plainReg(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &op) {
  if (!op.is<ptx::RegOperand>() || op.as<ptx::RegOperand>().negated) {
    ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    return {};
  }
  return ctx.reg(in, op.as<ptx::RegOperand>().name);
}

/// isspacep.space p, a (HW: ptxas 13.0 for sm_90, read with nvdisasm 13.2):
///   .shared/.shared::cta  QSPC.E.S p, RZ, [a]      .shared::cluster  QSPC.E.D
///   .local                QSPC.E.L                 .global           QSPC.E.G
///   .param/.param::entry  c[0x0][0x198] <= a <= c[0x0][0x1a0] (64-bit unsigned compares)
///   .const                false: ptxas's `a >= c[0x0][0xd0] && !(a >= c[0x0][0xd0])` is
///                         false for every address (the .global test ANDs its negation).
bool lowerIsspacep(LowerCtx &ctx, const ptx::Instruction &in) {
  bool entry = in.has("param::entry");
  if (!ctx.onlyModifiers(in, entry ? std::initializer_list<std::string_view>{"param::entry"}
                                   : std::initializer_list<std::string_view>{}))
    return false;
  if (in.operands.size() != 2)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand p = plainReg(ctx, in, in.operands[0]);
  Operand a = plainReg(ctx, in, in.operands[1]);
  if (p.kind == OperandKind::None || a.kind == OperandKind::None)
    return false;
  if (p.cls != RegClass::P || a.cls != RegClass::R || a.width != 2)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  StateSpace space = entry ? StateSpace::Param : in.space();
  std::optional<Modifier> window;
  switch (space) {
  case StateSpace::Shared: window = Modifier::S; break;
  case StateSpace::SharedCluster: window = Modifier::D; break;
  case StateSpace::Local: window = Modifier::L; break;
  case StateSpace::Global: window = Modifier::G; break;
  case StateSpace::Const:
    ctx.emit(Opcode::ISETP, {Modifier::NE, Modifier::AND}, {p, PT()}, {RZ(), RZ(), PT()});
    return true;
  case StateSpace::Param: {
    const ConstBankLayout &cb = ctx.target.constBank();
    Operand first = ctx.temp(RegClass::R, 2), last = ctx.temp(RegClass::R, 2);
    ctx.emit(Opcode::LDC, {Modifier::Size64}, {first}, {Operand::cbank(0, cb.paramWindowFirst)});
    ctx.emit(Opcode::LDC, {Modifier::Size64}, {last}, {Operand::cbank(0, cb.paramWindowLast)});
    Operand above = ctx.temp(RegClass::P), notAbove = above;
    notAbove.mods ^= ori::OM_NOT;
    ctx.emit(Opcode::ISETP, {Modifier::GT, Modifier::U32, Modifier::AND}, {above, PT()},
             {component(a, 0), component(last, 0), PT()});
    ctx.emit(Opcode::ISETP, {Modifier::GT, Modifier::U32, Modifier::AND, Modifier::EX},
             {above, PT()}, {component(a, 1), component(last, 1), PT(), above});
    ctx.emit(Opcode::ISETP, {Modifier::GE, Modifier::U32, Modifier::AND}, {p, PT()},
             {component(a, 0), component(first, 0), PT()});
    ctx.emit(Opcode::ISETP, {Modifier::GE, Modifier::U32, Modifier::AND, Modifier::EX},
             {p, PT()}, {component(a, 1), component(first, 1), notAbove, p});
    return true;
  }
  default:
    return ctx.unsupported(in);
  }
  ctx.emit(Opcode::QSPC, {Modifier::E, *window}, {p, RZ()}, {Operand::mem(a, 0)});
  return true;
}

bool lowerMov(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}))
    return false;
  if (in.operands.size() != 2)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  // Special registers (%tid, %ntid, %laneid, %clock64, ...): one table, lower_sreg.cpp.
  if (in.operands[1].is<ptx::RegOperand>() &&
      !isDeclaredRegister(ctx, in.operands[1].as<ptx::RegOperand>().name)) {
    Operand d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
    return d.kind != ori::OperandKind::None &&
           lowerSpecialRegister(ctx, in, d, in.operands[1].as<ptx::RegOperand>().name);
  }
  unsigned bits = ptx::typeBits(in.type());
  ptx::TypeKind kind = ptx::typeKind(in.type());
  if ((bits != 16 && bits != 32 && bits != 64) || kind == ptx::TypeKind::Pred)
    return ctx.unsupported(in);
  const ptx::Operand &dst = in.operands[0], &src = in.operands[1];
  // Unpack: mov.b64 {lo, hi}, %rd / mov.b32 {lo16, hi16}, %r.
  if (dst.is<ptx::VectorOperand>()) {
    const auto &el = dst.as<ptx::VectorOperand>().elems;
    Operand s = plainReg(ctx, in, src);
    if (s.kind == OperandKind::None)
      return false;
    if (el.size() != 2 || kind != ptx::TypeKind::Bit || bits == 16)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    for (unsigned k = 0; k < 2; ++k) {
      if (el[k].is<ptx::SinkOperand>())
        continue;
      Operand d = plainReg(ctx, in, el[k]);
      if (d.kind == OperandKind::None)
        return false;
      if (bits == 64 && d.width == 1 && s.width == 2)
        ctx.emit(Opcode::MOV, {}, {d}, {component(s, k)});
      else if (bits == 32 && d.width == 1 && s.width == 1)
        // 16-bit halves: the low one is the register itself (upper bits unspecified).
        k == 0 ? (void)ctx.emit(Opcode::MOV, {}, {d}, {s})
               : (void)ctx.emit(Opcode::SHF, {Modifier::R, Modifier::U32, Modifier::HI}, {d},
                                {RZ(), Operand::intImm(16), s});
      else
        return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    }
    return true;
  }
  if (!dst.is<ptx::RegOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand d = ctx.reg(in, dst.as<ptx::RegOperand>().name);
  if (d.kind == OperandKind::None)
    return false;
  if (d.cls != RegClass::R)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  // Pack: mov.b64 %rd, {lo, hi} / mov.b32 %r, {lo16, hi16}.
  if (src.is<ptx::VectorOperand>()) {
    const auto &el = src.as<ptx::VectorOperand>().elems;
    if (el.size() != 2 || kind != ptx::TypeKind::Bit || bits == 16)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    Operand lo = ctx.source(in, el[0]), hi = ctx.source(in, el[1]);
    if (lo.kind == OperandKind::None || hi.kind == OperandKind::None)
      return false;
    if (bits == 64 && d.width == 2 && (!lo.isReg() || lo.width == 1) &&
        (!hi.isReg() || hi.width == 1)) {
      Operand t = ctx.temp(RegClass::R, 2); // the halves may be read from d itself
      ctx.emit(Opcode::MOV, {}, {component(t, 0)}, {lo.isReg() ? lo : sourceWord(lo, 0)});
      ctx.emit(Opcode::MOV, {}, {component(t, 1)}, {hi.isReg() ? hi : sourceWord(hi, 0)});
      ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {component(t, 0)});
      ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {component(t, 1)});
      return true;
    }
    // An immediate half (`mov.b32 %f1, {0, %rs1}`: llm.c's bf16 -> f32 for sm_80) moves into
    // a register first, so the halves are packed as two registers.
    auto inReg = [&](Operand &o) {
      if (bits != 32 || o.kind != OperandKind::Imm)
        return;
      Operand t = ctx.temp(RegClass::R);
      ctx.emit(Opcode::MOV, {}, {t}, {Operand::intImm(static_cast<uint16_t>(o.imm))});
      o = t;
    };
    inReg(lo);
    inReg(hi);
    if (bits == 32 && d.width == 1 && lo.isReg() && hi.isReg() && lo.width == 1 &&
        hi.width == 1) {
      // HW: PRMT d, lo, 0x5410, hi (the low halves of both).
      ctx.emit(Opcode::PRMT, {}, {d}, {lo, Operand::intImm(0x5410), hi});
      return true;
    }
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  }
  // The address of a variable or parameter.
  if (src.is<ptx::SymbolOperand>()) {
    const auto &sym = src.as<ptx::SymbolOperand>();
    return symbolValue(ctx, in, sym.name, sym.offset, d);
  }
  if (src.is<ptx::RegOperand>()) {
    const std::string &name = src.as<ptx::RegOperand>().name;
    if (!name.empty() && name[0] == '%' && ctx.regTypes.find(name) == ctx.regTypes.end() &&
        name.find_first_of("0123456789") == std::string::npos)
      return ctx.unsupported(in, "Special register '" + name + "'");
  }
  Operand s = ctx.source(in, src);
  if (s.kind == OperandKind::None)
    return false;
  if (s.isReg() && s.cls != RegClass::R)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  if (d.width == 2) {
    if (s.isReg() && s.width != 2)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {sourceWord(s, 0)});
    ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {sourceWord(s, 1)});
    return true;
  }
  if (s.isReg() && s.width != 1)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  // MOV's immediate is the 32 bits, unsigned (HW: nvdisasm prints MOV R0, 0xffffffff).
  ctx.emit(Opcode::MOV, {}, {d},
           {s.kind == OperandKind::FImm64 || s.kind == OperandKind::Imm ? sourceWord(s, 0) : s});
  return true;
}

bool lowerCvta(LowerCtx &ctx, const ptx::Instruction &in) {
  bool to = in.has("to");
  if (!ctx.onlyModifiers(in, {"to"}))
    return false;
  if (ptx::typeBits(in.type()) != 64)
    return ctx.unsupported(in);
  if (in.operands.size() != 2 || !in.operands[0].is<ptx::RegOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  if (d.kind == OperandKind::None)
    return false;
  if (d.cls != RegClass::R || d.width != 2)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  // The source: a register or a variable (whose address mov would give).
  Operand s;
  const ptx::Operand &src = in.operands[1];
  if (src.is<ptx::SymbolOperand>()) {
    s = ctx.temp(RegClass::R, 2);
    if (!symbolValue(ctx, in, src.as<ptx::SymbolOperand>().name,
                     src.as<ptx::SymbolOperand>().offset, s))
      return false;
  } else if (src.is<ptx::RegOperand>()) {
    s = ctx.reg(in, src.as<ptx::RegOperand>().name);
    if (s.kind == OperandKind::None)
      return false;
    if (s.cls != RegClass::R || s.width != 2)
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  } else {
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  }
  switch (in.space()) {
  case StateSpace::Global:
    // HW: no code either way; a global address is its generic address on sm_90.
    add64Imm(ctx, d, s, 0);
    return true;
  case StateSpace::Shared:
  case StateSpace::SharedCluster:
    // .shared::cluster: the same code (HW: ptxas 13.0 for cvta.shared::cluster.u64 and
    // cvta.to.shared::cluster.u64 on sm_90: S2R SR_SWINHI as the high word / a zero one; a
    // shared::cta address is the CTA's own shared::cluster address).
    if (to) {
      // HW: the low half is the shared address (MOV R8, R4).
      Operand lo = ctx.temp(RegClass::R);
      ctx.emit(Opcode::MOV, {}, {lo}, {component(s, 0)});
      ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {lo});
      ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {RZ()});
    } else {
      // HW: S2R R7, SR_SWINHI; MOV R2, R0 (the shared address); MOV R3, R7.
      Operand hi = ctx.temp(RegClass::R);
      ctx.emit(Opcode::S2R, {}, {hi}, {Operand::sreg(SpecialReg::SWINHI)});
      ctx.emit(Opcode::MOV, {}, {component(d, 0)}, {component(s, 0)});
      ctx.emit(Opcode::MOV, {}, {component(d, 1)}, {hi});
    }
    return true;
  case StateSpace::Const: {
    // HW: ptxas 13.0.88: cvta.const adds the .const bank's generic address c[0x0][0xd0]
    // (ULDC.64, IADD3, IADD3.X) to the bank offset `mov d, cvar` gives; cvta.to.const
    // subtracts it.
    Operand win = ctx.temp(RegClass::R, 2);
    ctx.emit(Opcode::LDC, {Modifier::Size64}, {win},
             {Operand::cbank(0, ctx.target.memory().constWindowOffset)});
    intsel::IntSel(ctx, in).add64(d, s, win, to);
    return true;
  }
  case StateSpace::Param: {
    // The generic address of a kernel parameter (grid constants, TMA descriptors): the
    // parameter block's generic address (c[0x0][paramWindowFirst]) plus the parameter's
    // offset in the block. ptxas-mini's `mov d, param` gives paramBase + offset (the
    // constant-bank address ld.param [reg] reads), so paramBase comes off again here.
    if (!ctx.out.isKernel)
      return ctx.unsupported(in);
    Operand win = ctx.temp(RegClass::R, 2);
    ctx.emit(Opcode::LDC, {Modifier::Size64}, {win},
             {Operand::cbank(0, ctx.target.constBank().paramWindowFirst)});
    if (to) {
      // The inverse: the generic address minus the window (HW: ptxas 13.0.88 subtracts
      // c[0x0][0x198]) plus paramBase, the bank address ld.param [reg] reads here.
      Operand off = ctx.temp(RegClass::R, 2);
      intsel::IntSel(ctx, in).add64(off, s, win, true);
      add64Imm(ctx, d, off, static_cast<int64_t>(ctx.target.constBank().paramBase));
      return true;
    }
    if (src.is<ptx::SymbolOperand>()) {
      const auto &sym = src.as<ptx::SymbolOperand>();
      auto p = ctx.params.find(sym.name);
      if (p == ctx.params.end())
        return ctx.unsupported(in, "The address of '" + sym.name + "' in '" + in.fullOpcode() +
                                       "'");
      add64Imm(ctx, d, win, static_cast<int64_t>(p->second.offset) + sym.offset);
      return true;
    }
    Operand off = ctx.temp(RegClass::R, 2), carry = ctx.temp(RegClass::P);
    add64Imm(ctx, off, s, -static_cast<int64_t>(ctx.target.constBank().paramBase));
    ctx.emit(Opcode::IADD3, {}, {component(d, 0), carry},
             {component(win, 0), component(off, 0), RZ()});
    ctx.emit(Opcode::IADD3, {Modifier::X}, {component(d, 1)},
             {component(win, 1), component(off, 1), RZ(), carry, notPT()});
    return true;
  }
  default:
    return ctx.unsupported(in);
  }
}

constexpr std::array kRows = {
    HandlerRow{"ld", TypeClass::Any, lowerLd},
    HandlerRow{"ldu", TypeClass::Any, lowerLdu},
    HandlerRow{"st", TypeClass::Any, lowerSt},
    HandlerRow{"mov", TypeClass::Any, lowerMov},
    HandlerRow{"cvta", TypeClass::Any, lowerCvta},
    HandlerRow{"isspacep", TypeClass::Any, lowerIsspacep},
    HandlerRow{"prefetch", TypeClass::Any, lowerPrefetch},
    HandlerRow{"prefetchu", TypeClass::Any, lowerPrefetch},
    HandlerRow{"applypriority", TypeClass::Any, lowerCacheLineOp},
    HandlerRow{"mapa", TypeClass::Any, lowerClusterAddress},
    HandlerRow{"multimem", TypeClass::Any, lowerMultimem},
    HandlerRow{"createpolicy", TypeClass::Any, lowerCreatePolicy},
    HandlerRow{"getctarank", TypeClass::Any, lowerClusterAddress},
    HandlerRow{"discard", TypeClass::Any, lowerCacheLineOp},
};

} // namespace

std::span<const HandlerRow> memoryHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
