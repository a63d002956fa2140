/* ops_gmma.cpp - warpgroup matrix multiply-accumulate (wgmma.mma_async): HGMMA (f16, bf16,
 * tf32 inputs), QGMMA (e4m3/e5m2) and IGMMA (s8/u8), as ptxas 13.0.88 emits them for sm_90a.
 *
 * Forms (HW: nvdisasm 13.2 on ptxas 13.0.88's cubins of probe kernels):
 *   HGMMA.64xNxK.<acc>[.<types>] Rd, gdesc[URx][.negA][.negB][.tnspA][.tnspB], Rc[, UPp][, gsb0]
 *   HGMMA.64xNxK.<acc>[.<types>] Rd, [-]Ra, gdesc[URx][.negB][.tnspB], Rc[, UPp][, gsb0]
 * gdesc[URx] names a UR quad: URx:URx+1 the 64-bit descriptor of A, URx+2:URx+3 that of B. In
 * the register-A form ptxas still names the quad and B's descriptor is URx+2:URx+3 (HW: a
 * kernel whose only descriptor is B's loads it into UR6:UR7 and prints gdesc[UR4]). Rc is the
 * accumulator read (the same tuple as Rd) or RZ; the predicate is scale-d: `!UPT` (with RZ) =
 * 0, absent = 1, UPp = the predicate (PTX: d = scale-d ? A*B + D : A*B). .negA/.negB are
 * imm-scale-a/b = -1 (with A in registers, -Ra), .tnspA/.tnspB imm-trans-a/b = 1 (A M-major, B N-major). gsb0 marks the
 * last MMA of a wgmma.commit_group; WARPGROUP.DEPBAR.LE gsb0, n is wgmma.wait_group n and
 * WARPGROUP.ARRIVE is wgmma.fence (opcodes.def: no-ops, see "Ordering" below).
 *
 * Shapes: M is always 64 = 4 warps x 16 rows; N = 8..256 in steps of 8; K = 32 bytes of input
 * (16 for f16/bf16, 8 for tf32, 32 for 8-bit types). Accumulators: F32 (f32), F16 (binary16
 * pairs), S32 (IGMMA).
 *
 * Register fragments (PTX ISA, "Register Fragments" of wgmma, public): the warp w = warp id % 4
 * of the warpgroup owns rows 16w..16w+15 of A and D. With g = lane / 4 and t = lane % 4, D
 * element i (i = 0 .. N/2-1 of a 32-bit accumulator; f16: register i/2, low half for even i)
 * is (row 16w + g + 8 * (i / 2 % 2), col 8 * (i / 4) + 2t + i % 2). A from registers (4
 * registers): register r holds row 16w + g + 8 * (r % 2) and, for 16-bit types, k = 8 * (r / 2)
 * + 2t + half; for 8-bit types k = 16 * (r / 2) + 4t + byte; for tf32 k = 4 * (r / 2) + t.
 *
 * Shared-memory matrix descriptors (PTX ISA, "Matrix Descriptor Format" and "Shared Memory
 * Matrix Layout", public): bits 0-13 start address >> 4, 16-29 leading-dimension byte offset
 * (LBO) >> 4, 32-45 stride-dimension byte offset (SBO) >> 4, 49-51 base offset, 62-63 swizzle
 * (0 none, 1 128B, 2 64B, 3 32B). Element (i, k) of an operand (i = the row m of A or the
 * column n of B), with e its size in bytes and S the swizzle width in bytes:
 *   K-major (not transposed), no swizzle: start + (i / 8) * SBO + (k*e / 16) * LBO
 *                                         + (i % 8) * 16 + k*e % 16   (8x16-byte core matrices)
 *   K-major, swizzled:   start + (i / 8) * SBO + (i % 8) * S + k*e    (LBO unused)
 *   MN-major, no swizzle: start + (i*e / 16) * SBO + (k / 8) * LBO + (k % 8) * 16 + i*e % 16
 *   MN-major, swizzled:  start + (i*e / S) * LBO + (k / 8) * SBO + (k % 8) * S + i*e % S
 * and a swizzled address then has its 16-byte chunk bits [4, 4+b) XORed with bits [7, 7+b),
 * b = log2(S / 16) (CUTLASS's Swizzle<b,4,3>), on the absolute shared address: the repeating
 * pattern starts at a 1024/512/256-byte boundary. A non-zero base offset (a pattern that does
 * not start at such a boundary) is not modelled and traps; so does transposition of a non-16-bit
 * type (ptxas rejects it). Every access is a bounds-checked shared-memory read of this CTA.
 *
 * Arithmetic (GUESS, as ops_mma.cpp for HMMA): each product is exact in a double, the K
 * products and the accumulator are summed in double and rounded once (f32 or f16, round to
 * nearest even). tf32 inputs ignore their low 13 bits; e4m3/e5m2 are decoded exactly (e4m3
 * S.1111.111 and e5m2 exponent 31 with a mantissa are NaN, e5m2 exponent 31 without one is
 * infinity). IGMMA: exact integer dot products, wrapping modulo 2^32 or, with .SAT, clamped.
 * The hardware's accumulation order and internal precision are not documented: tests use
 * inputs whose sums are exact in f32, or a tolerance.
 *
 * Ordering. The hardware runs an MMA asynchronously: it may read its shared-memory operands and
 * write its accumulators at any time until the wgmma.wait_group that retires its group, and
 * the four warps of the warpgroup execute one MMA together. Here each warp computes its own 16
 * rows completely when it issues the instruction (A's and D's rows of warp w depend only on
 * warp w's registers and on shared memory), which is one of the executions the PTX memory model
 * allows for a program that follows the rules (no access to the accumulators, and no write to
 * the operands in shared memory, between the mma_async and the wait that retires it). So
 * WARPGROUP.ARRIVE and WARPGROUP.DEPBAR are no-ops, and a program that breaks the rules is not
 * diagnosed. Not modelled (trap): sparse forms (.SP), a partial warp issuing the MMA. */
#include "tests/exec/emu/fp_util.h"
#include "tests/exec/emu/ops.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace ptxmini::exec {
namespace {

enum class ElemType { F16, BF16, TF32, E4M3, E5M2, S8, U8 };

int elem_bytes(ElemType t) {
  switch (t) {
    case ElemType::F16:
    case ElemType::BF16: return 2;
    case ElemType::TF32: return 4;
    default: return 1;
  }
}

double fp8_value(uint8_t b, bool e4m3) {
  int sign = b >> 7;
  int exp = e4m3 ? (b >> 3 & 0xf) : (b >> 2 & 0x1f);
  int man = e4m3 ? (b & 7) : (b & 3);
  int mbits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  double v;
  if (e4m3 && exp == 15 && man == 7) return std::numeric_limits<double>::quiet_NaN();
  if (!e4m3 && exp == 31) v = man ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (exp == 0) v = std::ldexp(man, 1 - bias - mbits);
  else v = std::ldexp(man | (1 << mbits), exp - bias - mbits);
  return sign ? -v : v;
}

// One element's raw bits (up to 32) as a double of its type (integers as their value).
double elem_value(ElemType t, uint32_t bits) {
  switch (t) {
    case ElemType::F16: return half_to_float(static_cast<uint16_t>(bits));
    case ElemType::BF16: return bf16_to_float(static_cast<uint16_t>(bits));
    case ElemType::TF32: return bitsf(bits & 0xffffe000u);
    case ElemType::E4M3: return fp8_value(static_cast<uint8_t>(bits), true);
    case ElemType::E5M2: return fp8_value(static_cast<uint8_t>(bits), false);
    case ElemType::S8: return static_cast<int8_t>(bits);
    case ElemType::U8: return static_cast<uint8_t>(bits);
  }
  return 0;
}

// A decoded shared-memory matrix descriptor.
struct Desc {
  uint32_t start, lbo, sbo, swizzle_bytes;  // swizzle_bytes 0 = none
};

Desc decode_desc(const Exec& e, uint64_t d) {
  Desc r;
  r.start = static_cast<uint32_t>(d & 0x3fff) << 4;
  r.lbo = static_cast<uint32_t>(d >> 16 & 0x3fff) << 4;
  r.sbo = static_cast<uint32_t>(d >> 32 & 0x3fff) << 4;
  uint32_t base_offset = static_cast<uint32_t>(d >> 49 & 7);
  static constexpr uint32_t kSwizzle[4] = {0, 128, 64, 32};
  r.swizzle_bytes = kSwizzle[d >> 62];
  if (base_offset) e.trap("wgmma descriptor base offset " + std::to_string(base_offset) + " is not modelled");
  return r;
}

// The shared address of element (i, k) of an operand described by `d` (file comment).
uint32_t elem_addr(const Desc& d, bool mn_major, uint32_t i, uint32_t k, uint32_t eb) {
  uint32_t S = d.swizzle_bytes, a;
  if (!mn_major) {
    uint32_t kb = k * eb;
    a = S == 0 ? d.start + (i / 8) * d.sbo + (kb / 16) * d.lbo + (i % 8) * 16 + kb % 16
               : d.start + (i / 8) * d.sbo + (i % 8) * S + kb;
  } else {
    uint32_t ib = i * eb;
    a = S == 0 ? d.start + (ib / 16) * d.sbo + (k / 8) * d.lbo + (k % 8) * 16 + ib % 16
               : d.start + (ib / S) * d.lbo + (k / 8) * d.sbo + (k % 8) * S + ib % S;
  }
  if (S) a ^= ((a >> 7) & (S / 16 - 1)) << 4;
  return a;
}

uint32_t load_elem(Exec& e, int lane, uint32_t addr, uint32_t eb) {
  uint32_t v = 0;
  std::memcpy(&v, e.mem(lane, 's', addr, eb), eb);
  return v;
}

struct Form {
  int n = 0, k = 0;
  enum Acc { F32, F16, S32 } acc = F32;
  ElemType a = ElemType::F16, b = ElemType::F16;
  bool sat = false;
};

// "64x128x16" -> n, k
bool parse_shape(const std::string& s, int& n, int& k) {
  unsigned m, nn, kk;
  char tail;
  if (std::sscanf(s.c_str(), "%ux%ux%u%c", &m, &nn, &kk, &tail) != 3 || m != 64) return false;
  n = static_cast<int>(nn);
  k = static_cast<int>(kk);
  return n >= 8 && n <= 256 && n % 8 == 0;
}

Form parse_form(const Exec& e) {
  Form f;
  const auto& mods = e.in.mods;
  if (mods.empty() || !parse_shape(mods[0], f.n, f.k)) e.trap("GMMA shape not modelled");
  std::vector<ElemType> types;
  for (size_t i = 1; i < mods.size(); ++i) {
    const std::string& m = mods[i];
    if (m == "F32" && i == 1) f.acc = Form::F32;
    else if (m == "F16" && i == 1) f.acc = Form::F16;
    else if (m == "BF16") types.push_back(ElemType::BF16);
    else if (m == "TF32") types.push_back(ElemType::TF32);
    else if (m == "E4M3") types.push_back(ElemType::E4M3);
    else if (m == "E5M2") types.push_back(ElemType::E5M2);
    else if (m == "S8") types.push_back(ElemType::S8);
    else if (m == "U8") types.push_back(ElemType::U8);
    else if (m == "SAT") f.sat = true;
    else e.trap("GMMA modifier ." + m + " not modelled here");
  }
  const std::string& op = e.in.opcode;
  if (op == "HGMMA") {
    if (types.size() > 1) e.trap("HGMMA with two input types");
    f.a = f.b = types.empty() ? ElemType::F16 : types[0];
    if ((f.a == ElemType::BF16 || f.a == ElemType::TF32) && f.acc != Form::F32) e.trap("HGMMA bf16/tf32 needs F32");
  } else if (op == "QGMMA") {
    if (types.size() != 2) e.trap("QGMMA needs two fp8 types");
    f.a = types[0];
    f.b = types[1];
  } else {  // IGMMA: no accumulator word, the two input types
    if (types.size() != 2 || mods.size() < 3) e.trap("IGMMA needs two integer types");
    f.acc = Form::S32;
    f.a = types[0];
    f.b = types[1];
  }
  for (ElemType t : {f.a, f.b}) {
    bool ok = op == "HGMMA"   ? (t == ElemType::F16 || t == ElemType::BF16 || t == ElemType::TF32)
              : op == "QGMMA" ? (t == ElemType::E4M3 || t == ElemType::E5M2)
                              : (t == ElemType::S8 || t == ElemType::U8);
    if (!ok) e.trap("GMMA input type not valid for " + op);
  }
  if (f.sat && op != "IGMMA") e.trap(".SAT on a floating-point GMMA");
  if (f.k * elem_bytes(f.a) != 32) e.trap("GMMA K does not match the input type (K must be 32 bytes)");
  return f;
}

}  // namespace

// HGMMA / QGMMA / IGMMA (file comment). kWarpWide: the handler sees the whole warp.
void op_gmma(Exec& e) {
  if (e.mask != 0xffffffffu) e.trap("warpgroup MMA issued by part of a warp (wgmma is .sync.aligned)");
  if (e.in.has("SP")) e.trap("sparse warpgroup MMA (.SP) is not modelled");
  Form f = parse_form(e);
  // Operands: D, [A reg,] gdesc, C, [scale-d predicate], [gsb0]
  size_t nops = e.nops();
  while (nops && e.op(nops - 1).kind == OpndKind::Word && e.op(nops - 1).sreg_name == "gsb0") --nops;
  if (nops < 3) e.trap("GMMA operands");
  const Operand& D = e.op(0);
  bool reg_a = e.op(1).kind == OpndKind::Reg;
  size_t gi = reg_a ? 2 : 1;
  const Operand& G = e.op(gi);
  if (G.kind != OpndKind::UReg || G.sreg_name != "gdesc") e.trap("GMMA without a gdesc[UR] operand");
  if (G.reg % 4 || G.reg + 3 >= kURZ) e.trap("gdesc[UR] must name an aligned UR quad");
  if (gi + 1 >= nops) e.trap("GMMA without an accumulator operand");
  const Operand& C = e.op(gi + 1);
  bool scale_d = true;
  if (gi + 2 < nops) {
    if (e.op(gi + 2).kind != OpndKind::UPred || gi + 3 != nops) e.trap("GMMA trailing operands not modelled");
    scale_d = e.pred(0, e.op(gi + 2));
  }
  bool negA = false, negB = false, tnspA = false, tnspB = false;
  {
    std::string s = G.suffix;
    size_t p = 0;
    while (p < s.size()) {
      size_t q = s.find('.', p);
      std::string m = s.substr(p, q == std::string::npos ? std::string::npos : q - p);
      if (m == "negA") negA = true;
      else if (m == "negB") negB = true;
      else if (m == "tnspA") tnspA = true;
      else if (m == "tnspB") tnspB = true;
      else e.trap("gdesc modifier ." + m + " not modelled");
      if (q == std::string::npos) break;
      p = q + 1;
    }
  }
  if ((tnspA || tnspB) && elem_bytes(f.a) != 2) e.trap("transposed GMMA operand of a non-16-bit type");
  if (reg_a && tnspA) e.trap("tnspA with A in registers");
  // Register A: imm-scale-a = -1 is printed as a negated register (`-R56`), not .negA.
  if (reg_a && e.op(1).neg) negA = true;
  if (D.kind != OpndKind::Reg || D.reg == kRZ) e.trap("GMMA destination must be a register tuple");
  if (C.kind != OpndKind::Reg || (C.reg != kRZ && C.reg != D.reg)) e.trap("GMMA accumulator must be the destination tuple or RZ");
  int nregs = f.acc == Form::F16 ? f.n / 4 : f.n / 2;
  // GUESS: the tuple alignment the hardware needs is not documented; ptxas starts accumulators
  // at multiples of 8 (R24, R40, R88). Checked here: 4, as for register A.
  if (D.reg % 4 || D.reg + nregs > 255) e.trap("GMMA accumulator tuple misaligned or out of range");
  const Operand* A = reg_a ? &e.op(1) : nullptr;
  if (A && (A->reg == kRZ || A->reg % 4 || A->reg + 4 > 255)) e.trap("GMMA register A must be an aligned quad");
  bool use_c = scale_d && C.reg != kRZ;

  uint64_t bdesc = uint64_t{e.ureg(G.reg + 3)} << 32 | e.ureg(G.reg + 2);
  Desc db = decode_desc(e, bdesc);
  Desc da{};
  if (!reg_a) da = decode_desc(e, uint64_t{e.ureg(G.reg + 1)} << 32 | e.ureg(G.reg));
  uint32_t ea = static_cast<uint32_t>(elem_bytes(f.a)), eb = static_cast<uint32_t>(elem_bytes(f.b));
  int quarter = static_cast<int>(e.w.id % 4);
  int K = f.k, N = f.n;

  // B: N x K (b[n][k]), shared by the four warps; read once per warp.
  std::vector<double> bv(static_cast<size_t>(N) * K);
  std::vector<int64_t> bi(static_cast<size_t>(N) * K);
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k) {
      uint32_t bits = load_elem(e, 0, elem_addr(db, tnspB, n, k, eb), eb);
      double v = elem_value(f.b, bits);
      bv[n * K + k] = negB ? -v : v;
      bi[n * K + k] = static_cast<int64_t>(v);
    }
  // A: this warp's 16 rows.
  double av[16][32];
  int64_t ai[16][32];
  for (int r = 0; r < 16; ++r)
    for (int k = 0; k < K; ++k) {
      uint32_t bits;
      if (reg_a) {
        int g = r % 8, reg = (r >= 8 ? 1 : 0), t, sub;
        if (ea == 2) { reg += 2 * (k / 8); t = (k % 8) / 2; sub = k % 2; }
        else if (ea == 1) { reg += 2 * (k / 16); t = (k % 16) / 4; sub = k % 4; }
        else { reg += 2 * (k / 4); t = k % 4; sub = 0; }
        uint32_t word = e.reg(g * 4 + t, A->reg + reg);
        bits = ea == 4 ? word : (word >> (8 * ea * sub)) & ((1u << (8 * ea)) - 1);
      } else {
        bits = load_elem(e, 0, elem_addr(da, tnspA, static_cast<uint32_t>(16 * quarter + r), k, ea), ea);
      }
      double v = elem_value(f.a, bits);
      av[r][k] = negA ? -v : v;
      ai[r][k] = static_cast<int64_t>(v);
    }
  // D = A * B (+ C), element by element of each lane's fragment.
  std::vector<uint32_t> out(static_cast<size_t>(32) * nregs);
  for (int l = 0; l < 32; ++l) {
    int g = l / 4, t = l % 4;
    int nelem = N / 2;  // elements of D per lane: 64 * N / 128
    for (int i = 0; i < nelem; ++i) {
      int row = g + 8 * (i / 2 % 2), col = 8 * (i / 4) + 2 * t + i % 2;
      int reg = f.acc == Form::F16 ? i / 2 : i;
      uint32_t& slot = out[static_cast<size_t>(l) * nregs + reg];
      uint32_t cword = use_c ? e.reg(l, C.reg + reg) : 0;
      if (f.acc == Form::S32) {
        int64_t s = use_c ? static_cast<int32_t>(cword) : 0;
        for (int k = 0; k < K; ++k) s += ai[row][k] * bi[col * K + k];
        if (f.sat) s = std::min<int64_t>(std::max<int64_t>(s, INT32_MIN), INT32_MAX);
        slot = static_cast<uint32_t>(s);
        continue;
      }
      double s = 0;
      if (use_c)
        s = f.acc == Form::F32 ? static_cast<double>(bitsf(cword))
                               : static_cast<double>(half_to_float(static_cast<uint16_t>(cword >> (16 * (i % 2)))));
      for (int k = 0; k < K; ++k) s += av[row][k] * bv[col * K + k];
      if (f.acc == Form::F32) {
        slot = fbits(static_cast<float>(s));
      } else {
        uint32_t h = double_to_half(s);
        slot = i % 2 ? (slot & 0xffffu) | h << 16 : (slot & 0xffff0000u) | h;
      }
    }
  }
  for (int l = 0; l < 32; ++l)
    for (int r = 0; r < nregs; ++r) e.w.t[l].R[D.reg + r] = out[static_cast<size_t>(l) * nregs + r];
}

}  // namespace ptxmini::exec
