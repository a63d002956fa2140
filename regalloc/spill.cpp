//===- regalloc/spill.cpp - spill code and rematerialization ----------------------------===//
///
/// \file
/// "Spill everywhere" (Chaitin et al., "Register allocation via coloring", 1981; the
/// spill-code shape of Poletto and Sarkar's linear scan): a victim loses its register for
/// its whole life. Each instruction that reads it gets a fresh temporary loaded just before
/// it, each instruction that writes it writes a fresh temporary stored just after it (under
/// the same guard), so the victim's long interval becomes a few one-instruction intervals,
/// and the allocator runs again.
///   R   LDL/STL[.64/.128] t, [R1 + slot]; a write of one component stores only that word;
///       a guarded write loads the old value first (the temporary must not be live-in)
///   P   into an R register of its own (no frame slot): SEL r, RZ, 0x1, !p  after each
///       write, ISETP.NE.AND p, PT, r, RZ, PT before each read; r is an ordinary value
///       (ptxas keeps predicates in R registers too, with P2R/R2P)
///   UR  through R temporaries: MOV r, u ; STL  and  LDL ; R2UR u, r (per 32-bit component)
/// Rematerialization instead of a slot: a victim with a single unguarded whole definition
/// whose sources are constants (MOV/UMOV of an immediate, a constant-bank word or R1,
/// LDC/ULDC, `IADD3 d, R1, imm, RZ` - a local address) or a special register that a thread
/// always reads the same (S2R of %tid, %ctaid, %laneid, ...: ori::specialRegIsStable) is
/// recomputed before each reader, and its definition deleted (ptxas rematerializes constant
/// loads the same way).
/// Slots follow the PTX .local variables in the frame, each at its natural alignment;
/// FrameInfo counts the bytes of spill stores and loads the code contains (ptxas -v).
//===----------------------------------------------------------------------------------===//
#include "regalloc/regalloc_internal.h"

#include <algorithm>
#include <optional>

namespace ptxmini::ra {

using ori::Instr;
using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

namespace {

uint32_t alignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

bool isReg(const Operand &o, RegClass c, uint32_t n) {
  return o.kind == OperandKind::VReg && o.cls == c && o.reg == n;
}

/// Replaces virtual register (c, n) by `t` (same width) wherever `o` names it.
bool replace(Operand &o, RegClass c, uint32_t n, const Operand &t) {
  bool hit = false;
  if (isReg(o, c, n)) {
    o.reg = t.reg;
    hit = true;
  } else if (o.kind == OperandKind::Mem) {
    Operand base = o.memBase(), desc = o.memDesc();
    bool b = isReg(base, c, n), d = isReg(desc, c, n);
    if (b || d) {
      if (b)
        base.reg = t.reg;
      if (d)
        desc.reg = t.reg;
      Operand m = Operand::mem(base, o.memOffset(), desc);
      m.mods |= o.mods & ~(ori::OM_MEMBASE_V | ori::OM_MEMBASE_P);
      o = m;
      hit = true;
    }
  }
  return hit;
}

bool reads(const Instr &in, RegClass c, uint32_t n) {
  for (const Operand &u : in.uses())
    for (const Operand &v : u.vregs())
      if (isReg(v, c, n))
        return true;
  return isReg(in.guard, c, n);
}

bool writes(const Instr &in, RegClass c, uint32_t n) {
  for (const Operand &d : in.defs())
    if (isReg(d, c, n))
      return true;
  return false;
}

Operand sp(const Target &t) {
  return Operand::preg(RegClass::R, t.callingConvention().stackPointer);
}

std::optional<Modifier> sizeMod(unsigned width) {
  if (width == 2)
    return Modifier::Size64;
  if (width == 4)
    return Modifier::Size128;
  return std::nullopt;
}

Instr make(Opcode op, std::initializer_list<Operand> defs, std::initializer_list<Operand> uses,
           std::initializer_list<Modifier> mods = {}) {
  Instr i(op);
  for (const Operand &d : defs)
    i.addDef(d);
  for (const Operand &u : uses)
    i.addUse(u);
  for (Modifier m : mods)
    i.mods.push_back(m);
  i.flags |= ori::instrFlagMask(ori::IF_Spill_bit);
  return i;
}

Operand comp(Operand r, unsigned k) {
  r.sub = static_cast<uint8_t>(k);
  return r;
}

} // namespace

/// A constant definition that can be repeated anywhere in the function.
bool rematerializable(const Instr &in, const Target &t) {
  if (in.isGuarded() || in.numDefs != 1 || in.defs()[0].sub != ori::kWholeReg)
    return false;
  switch (in.op) {
  case Opcode::MOV:
  case Opcode::UMOV:
  case Opcode::LDC:
  case Opcode::ULDC:
  case Opcode::IADD3:
    break;
  case Opcode::S2R:
    // A special register whose value one thread always reads the same (%tid, %ctaid,
    // %laneid, the lane masks): reading it again costs no frame slot and no store.
    for (const Operand &u : in.uses())
      if (u.kind != OperandKind::SReg ||
          !ori::specialRegIsStable(static_cast<ori::SpecialReg>(u.reg)))
        return false;
    return true;
  default:
    return false;
  }
  for (const Operand &u : in.uses()) {
    // No register sources (vregs() also covers registers nested in an operand).
    if (u.kind == OperandKind::VReg || u.kind == OperandKind::Mem || !u.vregs().empty())
      return false;
    if (u.kind == OperandKind::PReg && !u.isFixed() &&
        !(u.cls == RegClass::R && u.reg == t.callingConvention().stackPointer))
      return false;
  }
  return true;
}

namespace {

struct SpillCtx {
  ori::Function &f;
  const Target &t;
  std::vector<std::pair<RegClass, uint32_t>> &temps;
  /// The R register that holds the current P victim instead of a frame slot.
  std::optional<Operand> home;

  Operand temp(RegClass c, uint8_t width) {
    Operand r = f.newReg(c, width);
    temps.push_back({c, r.reg});
    return r;
  }
};

/// Load the slot into `t` (class and width of the victim) before an instruction.
void emitLoad(SpillCtx &sc, const Operand &t, int32_t slot, std::vector<Instr> &out) {
  ori::FrameInfo &fr = sc.f.frame;
  Operand addr = Operand::mem(sp(sc.t), slot);
  switch (t.cls) {
  case RegClass::R: {
    Instr ld = make(Opcode::LDL, {t}, {addr});
    if (auto m = sizeMod(t.width))
      ld.mods.push_back(*m);
    out.push_back(ld);
    fr.spillLoadBytes += 4 * t.width;
    break;
  }
  case RegClass::P: {
    Operand r = sc.home ? *sc.home : sc.temp(RegClass::R, 1);
    if (!sc.home)
      out.push_back(make(Opcode::LDL, {r}, {addr}));
    out.push_back(make(Opcode::ISETP, {t, Operand::fixed(RegClass::P)},
                       {r, Operand::fixed(RegClass::R), Operand::fixed(RegClass::P)},
                       {Modifier::NE, Modifier::AND}));
    if (!sc.home)
      fr.spillLoadBytes += 4;
    break;
  }
  case RegClass::UR: {
    Operand r = sc.temp(RegClass::R, t.width);
    Instr ld = make(Opcode::LDL, {r}, {addr});
    if (auto m = sizeMod(t.width))
      ld.mods.push_back(*m);
    out.push_back(ld);
    for (unsigned k = 0; k < t.width; ++k)
      out.push_back(make(Opcode::R2UR, {t.width > 1 ? comp(t, k) : t},
                         {t.width > 1 ? comp(r, k) : r}));
    fr.spillLoadBytes += 4 * t.width;
    break;
  }
  default:
    break;
  }
}

/// Store `t` (or its component `sub`) after a writing instruction, under `guard`.
void emitStore(SpillCtx &sc, const Operand &t, uint8_t sub, int32_t slot, const Operand &guard,
               std::vector<Instr> &out) {
  ori::FrameInfo &fr = sc.f.frame;
  bool part = sub != ori::kWholeReg && t.width > 1;
  Operand v = part ? comp(t, sub) : t;
  unsigned width = part ? 1 : t.width;
  Operand addr = Operand::mem(sp(sc.t), slot + (part ? 4 * sub : 0));
  size_t first = out.size();
  switch (t.cls) {
  case RegClass::R: {
    Instr st = make(Opcode::STL, {}, {addr, v});
    if (auto m = sizeMod(width))
      st.mods.push_back(*m);
    out.push_back(st);
    break;
  }
  case RegClass::P: {
    Operand r = sc.home ? *sc.home : sc.temp(RegClass::R, 1);
    Operand np = v;
    np.mods |= ori::OM_NOT;
    out.push_back(make(Opcode::SEL, {r}, {Operand::fixed(RegClass::R), Operand::intImm(1), np}));
    if (sc.home)
      break;
    out.push_back(make(Opcode::STL, {}, {addr, r}));
    fr.spillStoreBytes += 4 * width;
    break;
  }
  case RegClass::UR: {
    Operand r = sc.temp(RegClass::R, static_cast<uint8_t>(width));
    for (unsigned k = 0; k < width; ++k)
      out.push_back(make(Opcode::MOV, {width > 1 ? comp(r, k) : r}, {width > 1 ? comp(v, k) : v}));
    Instr st = make(Opcode::STL, {}, {addr, r});
    if (auto m = sizeMod(width))
      st.mods.push_back(*m);
    out.push_back(st);
    break;
  }
  default:
    break;
  }
  if (t.cls != RegClass::P)
    fr.spillStoreBytes += 4 * width;
  for (size_t k = first; k < out.size(); ++k)
    out[k].guard = guard;
}

} // namespace

bool insertSpillCode(ori::Function &f, const Target &t,
                     const std::vector<std::pair<RegClass, uint32_t>> &victims,
                     std::vector<std::pair<RegClass, uint32_t>> &spillTemps, std::string &error) {
  SpillCtx sc{f, t, spillTemps, std::nullopt};
  for (auto [c, n] : victims) {
    uint8_t width = f.regInfo(c, n).width;
    // Rematerialize a single constant definition.
    const Instr *def = nullptr;
    unsigned defs = 0;
    for (const ori::Block &b : f.blocks)
      for (const Instr &in : b.instrs)
        if (writes(in, c, n)) {
          ++defs;
          def = &in;
        }
    if (defs == 1 && rematerializable(*def, t)) {
      Instr proto = *def;
      for (ori::Block &b : f.blocks) {
        std::vector<Instr> out;
        for (Instr &in : b.instrs) {
          if (writes(in, c, n))
            continue; // the definition goes
          if (reads(in, c, n)) {
            Operand tmp = sc.temp(c, width);
            Instr copy = proto;
            copy.ops[0].reg = tmp.reg;
            copy.flags |= ori::instrFlagMask(ori::IF_Spill_bit);
            out.push_back(copy);
            for (Operand &o : in.uses())
              replace(o, c, n, tmp);
            replace(in.guard, c, n, tmp);
          }
          out.push_back(std::move(in));
        }
        b.instrs = std::move(out);
      }
      continue;
    }
    if (width > 4) { // octets are unspillable (live_intervals.cpp); never a victim
      error = "spilling a " + std::to_string(32 * width) + "-bit register is not supported";
      return false;
    }
    if (c != RegClass::R && c != RegClass::P && c != RegClass::UR) {
      error = "spilling " + std::string(ori::pregPrefix(c)) + " registers is not supported";
      return false;
    }
    // A P value lives on in an R register of its own (0 or 1: SEL after each write,
    // ISETP before each read), which is an ordinary value the next round may keep in a
    // register or spill in turn; R and UR values get a slot after the locals and earlier
    // slots, at the value's natural alignment (UR values go through R words).
    uint32_t slot = 0;
    sc.home.reset();
    if (c == RegClass::P) {
      sc.home = f.newReg(RegClass::R, 1);
    } else {
      ori::FrameInfo &fr = f.frame;
      uint32_t align = 4 * width;
      uint32_t end = fr.localBytes + fr.spillSlotBytes;
      slot = alignUp(end, align);
      fr.spillSlotBytes = slot + 4 * width - fr.localBytes;
      fr.align = std::max(fr.align, align);
    }
    for (ori::Block &b : f.blocks) {
      std::vector<Instr> out;
      out.reserve(b.instrs.size());
      for (Instr &in : b.instrs) {
        bool r = reads(in, c, n), w = writes(in, c, n);
        if (!r && !w) {
          out.push_back(std::move(in));
          continue;
        }
        Operand tmp = sc.temp(c, width);
        // A guarded write may leave the old value: load it first, so the temporary is
        // defined on every path (else it would be live from the function's entry).
        if (r || in.isGuarded())
          emitLoad(sc, tmp, static_cast<int32_t>(slot), out);
        // Whole writes go through `tmp`; a write of one component through a 32-bit
        // temporary of its own, stored to that word of the slot.
        std::vector<std::pair<Operand, uint8_t>> stored;
        for (unsigned k = 0; k < in.ops.size(); ++k) {
          Operand &o = in.ops[k];
          if (k < in.numDefs && isReg(o, c, n) && o.sub != ori::kWholeReg && width > 1) {
            Operand part = sc.temp(c, 1);
            if (in.isGuarded())
              emitLoad(sc, part, static_cast<int32_t>(slot + 4 * o.sub), out);
            stored.push_back({part, static_cast<uint8_t>(o.sub)});
            uint8_t mods = o.mods;
            o = part;
            o.mods = mods;
            continue;
          }
          if (k < in.numDefs && isReg(o, c, n))
            stored.push_back({tmp, ori::kWholeReg});
          replace(o, c, n, tmp);
        }
        replace(in.guard, c, n, tmp);
        // The stores go under the instruction's guard, unless the instruction rewrites its own
        // guard register (`@P0 ISETP P0, P6, ...`): the stores would then test the new value
        // and drop a write made under the old one. Unguarded they are right too, since a
        // guarded write loaded the old value into its temporaries first. Found by tests/fuzz
        // (seed 36: @%p0 setp.le.xor.s64 %p0|%p2, ... with %p2 spilled).
        Operand guard = in.guard;
        for (unsigned k = 0; k < in.numDefs && in.isGuarded(); ++k)
          if (in.ops[k].kind == guard.kind && in.ops[k].cls == guard.cls && in.ops[k].reg == guard.reg)
            guard = Operand{};
        out.push_back(std::move(in));
        for (const auto &[v, sub] : stored) {
          uint32_t at = slot + (sub == ori::kWholeReg ? 0 : 4u * sub);
          emitStore(sc, v, ori::kWholeReg, static_cast<int32_t>(at), guard, out);
        }
      }
      b.instrs = std::move(out);
    }
  }
  f.recomputeRegTable();
  return true;
}

} // namespace ptxmini::ra
