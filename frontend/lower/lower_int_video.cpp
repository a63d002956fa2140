//===- frontend/lower/lower_int_video.cpp - scalar video instructions --------------------===//
///
/// \file
/// The scalar video instructions vadd, vsub, vabsdiff, vmin, vmax (PTX ISA 9.0 section
/// 9.7.17.1): `vop.dtype.atype.btype{.sat}{.op2} d{.dsel}, a{.asel}, b{.bsel}{, c}`, and vset
/// (`vset.atype.btype.cmp{.op2} d{.dsel}, a, b{, c}`: 1 or 0 by the comparison, dtype u32),
/// vshl/vshr (`vshl.dtype.atype.u32.clamp|wrap{.op2} d{.dsel}, a, b{, c}`: a shifted by b
/// clamped to 32 or taken mod 32; vshr arithmetic for a signed atype; HW: ptxas's SEL b, 0x20
/// / LOP3 b & 0x1f, then SHF.L.U32 or SHF.R.S64 on {sign, a}).
/// sm_90 has no video unit; ptxas 13.0 expands them into integer code, and so does this file,
/// following the semantics its expansions compute (HW: nvdisasm of ptxas's code for each
/// form; exec test int_video checks ptxas's cubin and ours against one reference):
///   1. a and b: the selected byte (.b0-.b3), half (.h0/.h1) or the word, zero- or
///      sign-extended by atype/btype (PRMT with a sign-replicating selector), as 33-bit values
///      (a 64-bit pair whose high word is the sign or 0);
///   2. the operation on those 64-bit values: add, sub, |a - b| (sub, then negate when
///      negative), min/max (a signed 64-bit compare), vset's comparison (signed 64-bit),
///      the shifts;
///   3. .sat with an s32 dtype clamps the 64-bit result to the s32 range; with a u32 dtype a
///      negative result becomes 0 and any other keeps its low word (ptxas 13.0 does not clamp
///      at 2^32 - 1: vadd.u32.u32.u32.sat of 1 and 0xffffffff is 0); otherwise the low word;
///   4. .add adds c (32 bits); .min/.max compare with c, zero- or sign-extended by dtype, as
///      64-bit values (signed iff dtype is), as ptxas's ISETP.U32 + ISETP.EX pair does: the
///      whole 64-bit result of vmin/vmax/vset/vshl/vshr, the low word sign-extended after
///      vadd/vsub/vabsdiff or .sat;
///   5. a destination selector merges with c: .bK puts the result's low byte at byte K, .h0
///      its low half, .h1 its high half in place (ptxas: PRMT d, t, 0x7054, c for .b2 and
///      0x3254 for .h1; the PTX ISA's pseudo-code shifts the low half there).
/// vmad (`vmad.dtype.atype.btype{.sat} d, a{.asel}, b{.bsel}, c`): a and b (a selected byte
/// or half extended by its type; a whole word as it is) multiplied into 64 bits as signed
/// words plus c sign-extended, whatever the types (HW: ptxas 13.0's IMAD.WIDE and SHF.R.S32.HI
/// of c even for vmad.u32.u32.u32.sat); .sat clamps that sum to the s32 range when atype or
/// btype is signed, else to 0..2^32-1, whatever dtype is (HW: the same code for
/// vmad.s32.u32.s32.sat and vmad.u32.s32.s32.sat; `hi < 0 ? 0 : hi != 0 ? ~0 : lo` for
/// vmad.u32.u32.u32.sat); without .sat the low word (one IMAD).
/// Refused (with the instruction named): .sat together with a destination selector, .sat on
/// the shifts, vmad's negated operands, .po and .shr7/.shr15 (the parser does not accept
/// them yet). The SIMD x2/x4 forms are lower_int_simd_video.cpp's.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_int.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptxmini::frontend::lower::intsel {

namespace {

/// A video operand: a register with an optional byte/half selector (`%r2.b1`, `%r3.h0`).
struct VideoOperand {
  std::string reg;
  int byte = -1; ///< .bK: K
  int half = -1; ///< .hK: K
};

std::optional<VideoOperand> videoOperand(const ptx::Operand &op) {
  if (!op.is<ptx::RegOperand>() || op.as<ptx::RegOperand>().negated)
    return std::nullopt;
  VideoOperand v;
  v.reg = op.as<ptx::RegOperand>().name;
  size_t dot = v.reg.rfind('.');
  if (dot != std::string::npos && dot + 3 == v.reg.size()) {
    char kind = v.reg[dot + 1], k = v.reg[dot + 2];
    if (kind == 'b' && k >= '0' && k <= '3')
      v.byte = k - '0';
    else if (kind == 'h' && (k == '0' || k == '1'))
      v.half = k - '0';
    else
      return std::nullopt;
    v.reg.resize(dot);
  }
  return v;
}

/// The PRMT selector extracting byte `k` (or half `h`) into the low bits, zero- or
/// sign-extended (a selector nibble with bit 3 set replicates that byte's sign).
uint32_t extractSelector(const VideoOperand &v, bool sign) {
  unsigned top = v.byte >= 0 ? static_cast<unsigned>(v.byte) : 2u * v.half + 1;
  unsigned fill = sign ? (8u | top) : 4u; // 4: a byte of RZ
  if (v.byte >= 0)
    return fill << 12 | fill << 8 | fill << 4 | top;
  return fill << 12 | fill << 8 | top << 4 | (top - 1);
}

struct Video {
  IntSel &s;
  ptx::ScalarType dt, at, bt;

  /// Operand `i` selected and extended, as a 64-bit pair (high word: sign or RZ).
  Operand widened(const VideoOperand &v, bool sign) {
    Operand r = s.ctx.reg(s.in, v.reg);
    if (r.kind == ori::OperandKind::None)
      return {};
    if (r.width != 1) {
      s.badForm();
      return {};
    }
    Operand lo = r;
    if (v.byte >= 0 || v.half >= 0) {
      lo = s.temp();
      s.emit(Opcode::PRMT, {}, {lo}, {r, imm(extractSelector(v, sign)), RZ()});
    }
    Operand w = s.temp(2);
    s.emit(Opcode::MOV, {}, {component(w, 0)}, {lo});
    if (sign)
      s.emit(Opcode::SHF, {Modifier::R, Modifier::S32, Modifier::HI}, {component(w, 1)},
             {RZ(), imm(31), lo});
    else
      s.emit(Opcode::MOV, {}, {component(w, 1)}, {RZ()});
    return w;
  }

  bool run() {
    const ptx::Instruction &in = s.in;
    std::string op = in.opcode;
    std::optional<std::string> op2;
    std::optional<Modifier> cmp;
    bool sat = false, vset = op == "vset", shift = op == "vshl" || op == "vshr";
    std::optional<bool> clamp;
    for (const ptx::Modifier &m : in.modifiers) {
      if (m.kind != ptx::Modifier::Kind::Other)
        continue;
      static constexpr std::pair<std::string_view, Modifier> kCmp[] = {
          {"eq", Modifier::EQ}, {"ne", Modifier::NE}, {"lt", Modifier::LT},
          {"le", Modifier::LE}, {"gt", Modifier::GT}, {"ge", Modifier::GE}};
      bool isCmp = false;
      for (const auto &[name, mod] : kCmp)
        if (vset && !cmp && m.text == name)
          cmp = mod, isCmp = true;
      if (isCmp)
        continue;
      if (shift && !clamp && (m.text == "clamp" || m.text == "wrap")) {
        clamp = m.text == "clamp";
        continue;
      }
      if (m.text == "sat" && !vset)
        sat = true;
      else if (m.text == "add" || m.text == "min" || m.text == "max")
        op2 = m.text;
      else
        return s.fail("Modifier '." + m.text + "' of '" + in.fullOpcode() + "'");
    }
    std::vector<ptx::ScalarType> types = in.types();
    if (types.size() != (vset ? 2u : 3u) || (vset && !cmp) || (shift && (!clamp || sat)))
      return s.fail();
    if (vset)
      dt = ptx::ScalarType::U32, at = types[0], bt = types[1];
    else
      dt = types[0], at = types[1], bt = types[2];
    size_t n = in.operands.size();
    if (n != 3 && n != 4)
      return s.badForm();
    std::optional<VideoOperand> d = videoOperand(in.operands[0]),
                                a = videoOperand(in.operands[1]),
                                b = videoOperand(in.operands[2]);
    if (!d || !a || !b)
      return s.badForm();
    bool merge = d->byte >= 0 || d->half >= 0;
    if ((merge || op2) != (n == 4) || (merge && op2))
      return s.badForm();
    if (merge && sat)
      return s.fail("'.sat' with a destination selector in '" + in.fullOpcode() + "'");
    Operand c;
    if (n == 4) {
      std::optional<VideoOperand> cv = videoOperand(in.operands[3]);
      if (!cv || cv->byte >= 0 || cv->half >= 0)
        return s.badForm();
      c = s.ctx.reg(in, cv->reg);
      if (c.kind == ori::OperandKind::None)
        return false;
    }
    Operand dr = s.ctx.reg(in, d->reg);
    if (dr.kind == ori::OperandKind::None)
      return false;
    if (dr.width != 1)
      return s.badForm();
    bool dsigned = isSignedType(dt);
    Operand x = widened(*a, isSignedType(at));
    Operand y = widened(*b, isSignedType(bt));
    if (x.kind == ori::OperandKind::None || y.kind == ori::OperandKind::None)
      return false;
    // 2. The operation on 64-bit values.
    Operand t = s.temp(2);
    if (op == "vadd" || op == "vsub") {
      s.add64(t, x, y, op == "vsub");
    } else if (op == "vabsdiff") {
      Operand diff = s.temp(2), neg = s.temp(2);
      s.add64(diff, x, y, true);
      s.neg64(neg, diff);
      Operand p = s.ptemp();
      s.emit(Opcode::ISETP, {Modifier::LT, Modifier::AND}, {p, PT()},
             {component(diff, 1), RZ(), PT()});
      s.sel64(t, neg, diff, p);
    } else if (shift) {
      Operand n = s.temp();
      if (*clamp) {
        Operand small = s.ptemp();
        s.emit(Opcode::ISETP, {Modifier::LT, Modifier::U32, Modifier::AND}, {small, PT()},
               {component(y, 0), imm(32), PT()});
        s.emit(Opcode::SEL, {}, {n}, {component(y, 0), imm(32), small});
      } else {
        s.emit(Opcode::LOP3, {Modifier::LUT}, {n}, {component(y, 0), imm(31), RZ(), imm(0xc0), NPT()});
      }
      if (op == "vshl")
        s.shl64(t, x, n);
      else
        s.shr64(t, x, n, isSignedType(at));
    } else if (vset) {
      Operand p = s.ptemp();
      s.cmp64(p, PT(), *cmp, false, x, y);
      s.emit(Opcode::SEL, {}, {component(t, 0)}, {s.inReg(imm(1)), RZ(), p});
      s.emit(Opcode::MOV, {}, {component(t, 1)}, {RZ()});
    } else {
      Operand p = s.ptemp();
      s.cmp64(p, PT(), op == "vmin" ? Modifier::LT : Modifier::GT, false, x, y);
      s.sel64(t, x, y, p);
    }
    // 3. Saturation to dtype's range, else the low word.
    Operand r = component(t, 0);
    if (sat && dsigned) {
      Operand hiC = s.inReg(imm(0x7fffffffll), 2), loC = s.inReg(imm(-0x80000000ll), 2);
      Operand over = s.ptemp(), under = s.ptemp();
      s.cmp64(over, PT(), Modifier::GT, false, t, hiC);
      s.cmp64(under, PT(), Modifier::LT, false, t, loC);
      Operand r1 = s.temp(), r2 = s.temp();
      s.emit(Opcode::SEL, {}, {r1}, {component(hiC, 0), r, over});
      s.emit(Opcode::SEL, {}, {r2}, {component(loC, 0), r1, under});
      r = r2;
    } else if (sat) {
      Operand neg = s.ptemp(), r1 = s.temp();
      s.emit(Opcode::ISETP, {Modifier::LT, Modifier::AND}, {neg, PT()},
             {component(t, 1), RZ(), PT()});
      s.emit(Opcode::SEL, {}, {r1}, {r, RZ(), notP(neg)});
      r = r1;
    }
    // 4. The secondary operation, or 5. the merge, into d.
    if (op2 && *op2 == "add") {
      s.emit(Opcode::IADD3, {}, {dr}, {r, c, RZ()});
    } else if (op2) {
      Operand tw = s.temp(2), cw = s.temp(2);
      bool whole = !sat && (op == "vmin" || op == "vmax" || vset || shift);
      s.emit(Opcode::MOV, {}, {component(tw, 0)}, {r});
      if (whole)
        s.emit(Opcode::MOV, {}, {component(tw, 1)}, {component(t, 1)});
      else
        s.emit(Opcode::SHF, {Modifier::R, Modifier::S32, Modifier::HI}, {component(tw, 1)},
               {RZ(), imm(31), r});
      s.emit(Opcode::MOV, {}, {component(cw, 0)}, {c});
      if (dsigned)
        s.emit(Opcode::SHF, {Modifier::R, Modifier::S32, Modifier::HI}, {component(cw, 1)},
               {RZ(), imm(31), c});
      else
        s.emit(Opcode::MOV, {}, {component(cw, 1)}, {RZ()});
      Operand p = s.ptemp();
      s.cmp64(p, PT(), *op2 == "min" ? Modifier::LT : Modifier::GT, !dsigned, tw, cw);
      s.emit(Opcode::SEL, {}, {dr}, {r, c, p});
    } else if (merge) {
      uint32_t sel = 0;
      for (unsigned j = 0; j < 4; ++j) {
        unsigned from = 4 + j; // c's byte j
        if (d->byte >= 0 && j == static_cast<unsigned>(d->byte))
          from = 0; // the result's low byte
        else if (d->half >= 0 && j / 2 == static_cast<unsigned>(d->half))
          from = j; // the result's half in place
        sel |= from << (4 * j);
      }
      s.emit(Opcode::PRMT, {}, {dr}, {r, imm(sel), c});
    } else {
      s.emit(Opcode::MOV, {}, {dr}, {r});
    }
    return true;
  }
};

} // namespace

bool lowerVideo(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  Video v{s, {}, {}, {}};
  return v.run();
}

bool lowerVmad(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  bool sat = false;
  for (const ptx::Modifier &m : in.modifiers)
    if (m.kind == ptx::Modifier::Kind::Other) {
      if (m.text != "sat")
        return s.fail("Modifier '." + m.text + "' of '" + in.fullOpcode() + "'");
      sat = true;
    }
  std::vector<ptx::ScalarType> types = in.types();
  if (types.size() != 3 || in.operands.size() != 4)
    return s.badForm();
  std::optional<VideoOperand> d = videoOperand(in.operands[0]),
                              a = videoOperand(in.operands[1]),
                              b = videoOperand(in.operands[2]),
                              c = videoOperand(in.operands[3]);
  if (!d || !a || !b || !c || d->byte >= 0 || d->half >= 0 || c->byte >= 0 || c->half >= 0)
    return s.badForm();
  const bool sign = isSignedType(types[1]) || isSignedType(types[2]);
  Operand dr = ctx.reg(in, d->reg), cr = ctx.reg(in, c->reg);
  if (dr.kind == ori::OperandKind::None || cr.kind == ori::OperandKind::None)
    return false;
  if (dr.width != 1 || cr.width != 1)
    return s.badForm();
  auto part = [&](const VideoOperand &v, ptx::ScalarType t) -> Operand {
    Operand r = ctx.reg(in, v.reg);
    if (r.kind == ori::OperandKind::None)
      return {};
    if (r.width != 1) {
      s.badForm();
      return {};
    }
    if (v.byte < 0 && v.half < 0)
      return r;
    Operand x = s.temp();
    s.emit(Opcode::PRMT, {}, {x}, {r, imm(extractSelector(v, isSignedType(t))), RZ()});
    return x;
  };
  Operand x = part(*a, types[1]), y = part(*b, types[2]);
  if (x.kind == ori::OperandKind::None || y.kind == ori::OperandKind::None)
    return false;
  if (!sat) {
    s.emit(Opcode::IMAD, {}, {dr}, {x, y, cr});
    return true;
  }
  Operand cw = s.temp(2), t = s.temp(2);
  s.emit(Opcode::MOV, {}, {component(cw, 0)}, {cr});
  s.emit(Opcode::SHF, {Modifier::R, Modifier::S32, Modifier::HI}, {component(cw, 1)},
         {RZ(), imm(31), cr});
  s.emit(Opcode::IMAD, {Modifier::WIDE}, {t}, {x, y, cw});
  if (sign) {
    // In range iff the high word is the low word's sign; else the bound of t's sign.
    Operand lowSign = s.temp(), diff = s.temp(), bound = s.temp();
    Operand fits = s.ptemp(), nonNeg = s.ptemp();
    s.emit(Opcode::SHF, {Modifier::R, Modifier::S32, Modifier::HI}, {lowSign},
           {RZ(), imm(31), component(t, 0)});
    s.emit(Opcode::LOP3, {Modifier::LUT}, {diff},
           {lowSign, component(t, 1), RZ(), imm(0x3c), NPT()});
    s.emit(Opcode::ISETP, {Modifier::GE, Modifier::AND}, {nonNeg, PT()},
           {component(t, 1), RZ(), PT()});
    s.emit(Opcode::SEL, {}, {bound}, {s.inReg(imm(0x7fffffff)), imm(0x80000000), nonNeg});
    s.emit(Opcode::ISETP, {Modifier::EQ, Modifier::AND}, {fits, PT()}, {diff, RZ(), PT()});
    s.emit(Opcode::SEL, {}, {dr}, {component(t, 0), bound, fits});
  } else {
    Operand fits = s.ptemp(), neg = s.ptemp(), r1 = s.temp();
    s.emit(Opcode::ISETP, {Modifier::EQ, Modifier::U32, Modifier::AND}, {fits, PT()},
           {component(t, 1), RZ(), PT()});
    s.emit(Opcode::ISETP, {Modifier::LT, Modifier::AND}, {neg, PT()},
           {component(t, 1), RZ(), PT()});
    s.emit(Opcode::SEL, {}, {r1}, {component(t, 0), s.inReg(imm(0xffffffff)), fits});
    s.emit(Opcode::SEL, {}, {dr}, {RZ(), r1, neg});
  }
  return true;
}

} // namespace ptxmini::frontend::lower::intsel
