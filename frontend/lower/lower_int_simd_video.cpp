//===- frontend/lower/lower_int_simd_video.cpp - SIMD video instructions -----------------===//
///
/// \file
/// The SIMD video instructions (PTX ISA 9.0 section 9.7.17.2): vadd2, vsub2, vavrg2,
/// vabsdiff2, vmin2, vmax2 on the two 16-bit halves of a word and their 4-lane byte forms
/// (vadd4, ...), `vop.dtype.atype.btype{.sat} d{.mask}, a, b, c` and the secondary
/// accumulation `vop.dtype.atype.btype.add d{.mask}, a, b, c`; vset2/vset4
/// (`vset.atype.btype.cmp{.add} d{.mask}, a, b, c`: 1 or 0 per lane).
/// sm_90 has no video unit; ptxas 13.0 expands them into integer code (PRMT/LOP3/IADD,
/// I2I.S16.SAT, VIMNMX, IDP.4A for vadd4.add, VABSDIFF4 for vabsdiff4; HW: nvdisasm of its
/// code for each form), and so does this file, lane by lane, following the ISA's semantics:
///   1. lane i of a and of b (half i / byte i), zero- or sign-extended to 32 bits by
///      atype/btype (PRMT with a sign-replicating selector);
///   2. the operation on those 32-bit values (exact: at most 17 significant bits):
///      add, sub, avrg ((x + y + 1) >> 1 when x + y >= 0, else (x + y) >> 1), |x - y|,
///      min, max (signed compares of the extended values), vset's comparison (1 or 0);
///   3. .sat clamps each lane result to dtype's lane range (s32: -2^(w-1)..2^(w-1)-1,
///      u32: 0..2^w-1);
///   4. .add: d = c + the sum of the (full, signed) results of the lanes in the mask;
///      otherwise d = c with each lane in the mask replaced by the result's low w bits
///      (the default mask is every lane, so c is then unused).
/// Refused: source lane selectors (.h10/.b3210 on a or b; the parser does not accept them
/// yet) and masks other than the default, .h0/.h1 (x2) and one byte .bK (x4).
/// The exec test int_video_simd runs ptxas's cubin and ours against one reference.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_int.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxmini::frontend::lower::intsel {

namespace {

/// The operation of each SIMD family (the name without its lane count).
enum class SimdOp { Add, Sub, Avrg, Absdiff, Min, Max, Set };

struct SimdRow {
  std::string_view name;
  SimdOp op;
};
constexpr std::array kSimdOps = {
    SimdRow{"vadd", SimdOp::Add},       SimdRow{"vsub", SimdOp::Sub},
    SimdRow{"vavrg", SimdOp::Avrg},     SimdRow{"vabsdiff", SimdOp::Absdiff},
    SimdRow{"vmin", SimdOp::Min},       SimdRow{"vmax", SimdOp::Max},
    SimdRow{"vset", SimdOp::Set},
};

struct CmpRow {
  std::string_view name;
  Modifier mod;
};
constexpr std::array kCmps = {CmpRow{"eq", Modifier::EQ}, CmpRow{"ne", Modifier::NE},
                              CmpRow{"lt", Modifier::LT}, CmpRow{"le", Modifier::LE},
                              CmpRow{"gt", Modifier::GT}, CmpRow{"ge", Modifier::GE}};

/// The PRMT selector moving lane `i` (of `lanes` in a word) to the low bits, zero- or
/// sign-extended (a nibble with bit 3 set replicates that byte's sign; 4 is a byte of RZ).
uint32_t laneSelector(unsigned lanes, unsigned i, bool sign) {
  unsigned w = 4 / lanes; // bytes per lane
  unsigned top = i * w + w - 1;
  uint32_t sel = 0;
  for (unsigned j = 0; j < 4; ++j) {
    unsigned from = j < w ? i * w + j : sign ? (8u | top) : 4u;
    sel |= from << (4 * j);
  }
  return sel;
}

} // namespace

bool lowerSimdVideo(LowerCtx &ctx, const ptx::Instruction &in) {
  IntSel s(ctx, in);
  const std::string &opcode = in.opcode;
  unsigned lanes = opcode.back() == '2' ? 2 : 4;
  std::string_view base(opcode.data(), opcode.size() - 1);
  const SimdRow *row = nullptr;
  for (const SimdRow &r : kSimdOps)
    if (r.name == base)
      row = &r;
  if (!row)
    return s.fail();
  const bool vset = row->op == SimdOp::Set;
  bool sat = false, add = false;
  std::optional<Modifier> cmp;
  for (const ptx::Modifier &m : in.modifiers) {
    if (m.kind != ptx::Modifier::Kind::Other)
      continue;
    bool isCmp = false;
    for (const CmpRow &c : kCmps)
      if (vset && !cmp && m.text == c.name)
        cmp = c.mod, isCmp = true;
    if (isCmp)
      continue;
    if (m.text == "sat" && !vset)
      sat = true;
    else if (m.text == "add")
      add = true;
    else
      return s.fail("Modifier '." + m.text + "' of '" + in.fullOpcode() + "'");
  }
  std::vector<ptx::ScalarType> types = in.types();
  if (types.size() != (vset ? 2u : 3u) || (vset && !cmp) || (sat && add))
    return s.fail();
  ptx::ScalarType dt = vset ? ptx::ScalarType::U32 : types[0];
  ptx::ScalarType at = types[vset ? 0 : 1], bt = types[vset ? 1 : 2];
  if (in.operands.size() != 4)
    return s.badForm();
  // The destination and its mask (lanes replaced or summed).
  if (!in.operands[0].is<ptx::RegOperand>())
    return s.badForm();
  std::string dname = in.operands[0].as<ptx::RegOperand>().name;
  unsigned mask = (1u << lanes) - 1;
  if (size_t dot = dname.rfind('.'); dot != std::string::npos) {
    std::string sel = dname.substr(dot + 1);
    dname.resize(dot);
    if (lanes == 2 && (sel == "h0" || sel == "h1"))
      mask = 1u << (sel[1] - '0');
    else if (lanes == 2 && sel == "h10")
      mask = 3;
    else if (lanes == 4 && sel.size() == 2 && sel[0] == 'b' && sel[1] >= '0' && sel[1] <= '3')
      mask = 1u << (sel[1] - '0');
    else
      return s.badForm();
  }
  Operand d = ctx.reg(in, dname);
  if (d.kind == ori::OperandKind::None)
    return false;
  if (d.cls != RegClass::R || d.width != 1)
    return s.badForm();
  for (unsigned k = 1; k < 4; ++k)
    if (in.operands[k].is<ptx::RegOperand>() &&
        (in.operands[k].as<ptx::RegOperand>().negated ||
         in.operands[k].as<ptx::RegOperand>().name.find('.') != std::string::npos))
      return s.fail("A lane selector in '" + in.fullOpcode() + "'");
  Operand a = s.inReg(s.src(1)), b = s.inReg(s.src(2)), c = s.inReg(s.src(3));
  if (a.kind == ori::OperandKind::None || b.kind == ori::OperandKind::None ||
      c.kind == ori::OperandKind::None)
    return false;
  const unsigned w = 32 / lanes;
  const bool dsigned = isSignedType(dt);
  std::vector<Operand> t(lanes);
  for (unsigned i = 0; i < lanes; ++i) {
    if (!(mask >> i & 1))
      continue;
    // 1. The lanes, extended.
    Operand x = s.temp(), y = s.temp();
    s.emit(Opcode::PRMT, {}, {x}, {a, imm(laneSelector(lanes, i, isSignedType(at))), RZ()});
    s.emit(Opcode::PRMT, {}, {y}, {b, imm(laneSelector(lanes, i, isSignedType(bt))), RZ()});
    // 2. The operation.
    Operand r = s.temp();
    switch (row->op) {
    case SimdOp::Add:
      s.emit(Opcode::IADD3, {}, {r}, {x, y, RZ()});
      break;
    case SimdOp::Sub:
      s.emit(Opcode::IADD3, {}, {r}, {x, negate(y), RZ()});
      break;
    case SimdOp::Avrg: {
      Operand sum = s.temp(), one = s.temp(), up = s.temp();
      Operand nonNeg = s.ptemp();
      s.emit(Opcode::IADD3, {}, {sum}, {x, y, RZ()});
      s.emit(Opcode::ISETP, {Modifier::GE, Modifier::AND}, {nonNeg, PT()}, {sum, RZ(), PT()});
      s.emit(Opcode::SEL, {}, {one}, {s.inReg(imm(1)), RZ(), nonNeg});
      s.emit(Opcode::IADD3, {}, {up}, {sum, one, RZ()});
      s.emit(Opcode::SHF, {Modifier::R, Modifier::S32, Modifier::HI}, {r}, {RZ(), imm(1), up});
      break;
    }
    case SimdOp::Absdiff: {
      Operand pos = s.temp(), neg = s.temp();
      Operand less = s.ptemp();
      s.emit(Opcode::IADD3, {}, {pos}, {x, negate(y), RZ()});
      s.emit(Opcode::IADD3, {}, {neg}, {y, negate(x), RZ()});
      s.emit(Opcode::ISETP, {Modifier::LT, Modifier::AND}, {less, PT()}, {pos, RZ(), PT()});
      s.emit(Opcode::SEL, {}, {r}, {neg, pos, less});
      break;
    }
    case SimdOp::Min:
    case SimdOp::Max: {
      Operand p = s.ptemp();
      s.emit(Opcode::ISETP, {row->op == SimdOp::Min ? Modifier::LT : Modifier::GT, Modifier::AND},
             {p, PT()}, {x, y, PT()});
      s.emit(Opcode::SEL, {}, {r}, {x, y, p});
      break;
    }
    case SimdOp::Set: {
      Operand p = s.ptemp();
      ori::Instr &cmpI = s.emit(Opcode::ISETP, {}, {p, PT()}, {x, y, PT()});
      cmpI.mods.push_back(*cmp);
      cmpI.mods.push_back(Modifier::AND);
      s.emit(Opcode::SEL, {}, {r}, {s.inReg(imm(1)), RZ(), p});
      break;
    }
    }
    // 3. Saturation to the lane range of dtype.
    if (sat) {
      int64_t hiV = dsigned ? (int64_t{1} << (w - 1)) - 1 : (int64_t{1} << w) - 1;
      int64_t loV = dsigned ? -(int64_t{1} << (w - 1)) : 0;
      Operand over = s.ptemp(), under = s.ptemp(), r1 = s.temp(), r2 = s.temp();
      Operand hiR = s.inReg(imm(static_cast<uint32_t>(hiV)));
      Operand loR = loV ? s.inReg(imm(static_cast<uint32_t>(loV))) : RZ();
      s.emit(Opcode::ISETP, {Modifier::GT, Modifier::AND}, {over, PT()}, {r, hiR, PT()});
      s.emit(Opcode::ISETP, {Modifier::LT, Modifier::AND}, {under, PT()}, {r, loR, PT()});
      s.emit(Opcode::SEL, {}, {r1}, {hiR, r, over});
      s.emit(Opcode::SEL, {}, {r2}, {loR, r1, under});
      r = r2;
    }
    t[i] = r;
  }
  // 4. The accumulation or the merge into c.
  Operand acc = c;
  for (unsigned i = 0; i < lanes; ++i) {
    if (!(mask >> i & 1))
      continue;
    Operand next = s.temp();
    if (add) {
      s.emit(Opcode::IADD3, {}, {next}, {acc, t[i], RZ()});
    } else {
      // Bytes of lane i from the result's low bytes, the others from acc.
      unsigned bw = 4 / lanes;
      uint32_t sel = 0;
      for (unsigned j = 0; j < 4; ++j) {
        unsigned from = j / bw == i ? j - i * bw : 4 + j;
        sel |= from << (4 * j);
      }
      s.emit(Opcode::PRMT, {}, {next}, {t[i], imm(sel), acc});
    }
    acc = next;
  }
  s.emit(Opcode::MOV, {}, {d}, {acc});
  return true;
}

} // namespace ptxmini::frontend::lower::intsel
