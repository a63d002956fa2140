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
/// Lane selectors on a and b (`.hxy`, `.bwxyz`) pick each lane from the 64-bit {b, a}; the
/// destination's mask (`.h0`, `.h10`, `.b20`, ...) names the lanes written or summed.
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

/// The PRMT selector moving lane `k` of the 64-bit {b, a} (halves 0-3 or bytes 0-7; PRMT's
/// bytes 0-3 are its first source, 4-7 its second) to the low bits, zero- or sign-extended:
/// a nibble with bit 3 set replicates that byte's sign, `zeroByte` names a byte of RZ (the
/// caller puts RZ in the other source).
uint32_t laneSelector(unsigned lanes, unsigned k, bool sign, unsigned zeroByte) {
  unsigned w = 4 / lanes; // bytes per lane
  unsigned top = k * w + w - 1;
  uint32_t sel = 0;
  for (unsigned j = 0; j < 4; ++j) {
    unsigned from = j < w ? k * w + j : sign ? (8u | top) : zeroByte;
    sel |= from << (4 * j);
  }
  return sel;
}

/// A lane selector `.hxy` (x2) or `.bwxyz` (x4): the source lane of each lane, lane 0 last.
/// Empty text: the default, `dflt`.
bool laneSources(std::string_view text, unsigned lanes, const std::array<unsigned, 4> &dflt,
                 std::array<unsigned, 4> &out) {
  out = dflt;
  if (text.empty())
    return true;
  char kind = lanes == 2 ? 'h' : 'b';
  unsigned most = lanes == 2 ? 3 : 7;
  if (text.size() != lanes + 1 || text[0] != kind)
    return false;
  for (unsigned i = 0; i < lanes; ++i) {
    char ch = text[lanes - i];
    if (ch < '0' || static_cast<unsigned>(ch - '0') > most)
      return false;
    out[i] = static_cast<unsigned>(ch - '0');
  }
  return true;
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
    // .h0 .h1 .h10 (x2); .b0 ... .b3210 (x4): the lanes written or summed.
    mask = 0;
    if (sel.size() < 2 || sel.size() > lanes + 1 || sel[0] != (lanes == 2 ? 'h' : 'b'))
      return s.badForm();
    for (char ch : sel.substr(1)) {
      if (ch < '0' || static_cast<unsigned>(ch - '0') >= lanes)
        return s.badForm();
      mask |= 1u << (ch - '0');
    }
  }
  Operand d = ctx.reg(in, dname);
  if (d.kind == ori::OperandKind::None)
    return false;
  if (d.cls != RegClass::R || d.width != 1)
    return s.badForm();
  // Source lane selectors (PTX ISA: a's default .h10/.b3210, b's .h32/.b7654, both indexing
  // the 64-bit {b, a}); c takes none.
  std::array<std::string, 3> names;
  std::array<std::string, 3> sels;
  for (unsigned k = 1; k < 4; ++k) {
    if (!in.operands[k].is<ptx::RegOperand>() || in.operands[k].as<ptx::RegOperand>().negated)
      return s.badForm();
    names[k - 1] = in.operands[k].as<ptx::RegOperand>().name;
    if (size_t dot = names[k - 1].rfind('.'); dot != std::string::npos) {
      sels[k - 1] = names[k - 1].substr(dot + 1);
      names[k - 1].resize(dot);
    }
  }
  std::array<unsigned, 4> aSrc, bSrc;
  const std::array<unsigned, 4> aDefault = {0, 1, 2, 3};
  const std::array<unsigned, 4> bDefault = lanes == 2 ? std::array<unsigned, 4>{2, 3, 0, 0}
                                                      : std::array<unsigned, 4>{4, 5, 6, 7};
  if (!sels[2].empty() || !laneSources(sels[0], lanes, aDefault, aSrc) ||
      !laneSources(sels[1], lanes, bDefault, bSrc))
    return s.badForm();
  Operand a = ctx.reg(in, names[0]), b = ctx.reg(in, names[1]), c = ctx.reg(in, names[2]);
  if (a.kind == ori::OperandKind::None || b.kind == ori::OperandKind::None ||
      c.kind == ori::OperandKind::None)
    return false;
  if (a.width != 1 || b.width != 1 || c.width != 1)
    return s.badForm();
  const unsigned w = 32 / lanes;
  const bool dsigned = isSignedType(dt);
  std::vector<Operand> t(lanes);
  for (unsigned i = 0; i < lanes; ++i) {
    if (!(mask >> i & 1))
      continue;
    // 1. The lanes, extended: from {b, a} by the selectors; a zero byte from RZ (PRMT x, a,
    // sel, RZ with byte 4) when the lane lies in a, else from b's PRMT over {RZ, b}.
    auto extract = [&](unsigned k, bool sign) {
      Operand x = s.temp();
      unsigned w = 4 / lanes;
      if (k * w < 4)
        s.emit(Opcode::PRMT, {}, {x}, {a, imm(laneSelector(lanes, k, sign, 4)), RZ()});
      else
        s.emit(Opcode::PRMT, {}, {x},
               {RZ(), imm(laneSelector(lanes, k, sign, 0)), b});
      return x;
    };
    Operand x = extract(aSrc[i], isSignedType(at)), y = extract(bSrc[i], isSignedType(bt));
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
