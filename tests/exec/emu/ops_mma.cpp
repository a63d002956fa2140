/* ops_mma.cpp - warp-level matrix instructions: tensor-core multiply-accumulate (HMMA, IMMA,
 * DMMA) and the 8x8 b16 matrix moves (LDSM, STSM, MOVM).
 *
 * Every one of them is executed by the whole warp at once (kWarpWide): a lane's registers hold
 * a fragment of a matrix, and the instruction combines the fragments of all 32 lanes. They
 * trap unless all 32 lanes issue together (mma.sync/ldmatrix.sync.aligned require it).
 *
 * Fragment layouts. A SASS register of a fragment holds exactly what the corresponding PTX
 * register of mma.sync / ldmatrix holds (HW: ptxas 13.0 passes the PTX registers {a0..a3},
 * {b0,b1}, {c0..c3} of mma.m16n8k16 as the quads/pairs R4..R7, R8..R9, R12..R15 of
 * `HMMA.16816.F32 R4, R4, R8, R12`, in order), so the layouts are the PTX ISA's "Matrix
 * Fragments for mma.m*n*k*" (public documentation). With g = lane >> 2 ("groupID") and
 * t = lane & 3 ("threadID_in_group"), a lane holds, for the element (row, col) of each matrix:
 *   16-bit A (m16 x k):   register (row >= 8) + 2 * (col / 8), half col & 1, at row % 8 = g,
 *                         (col % 8) / 2 = t;  16-bit B (k x n8): register k / 8, half k & 1,
 *                         at n = g, (k % 8) / 2 = t;
 *   tf32 A:               register (row >= 8) + 2 * (col / 4), at row % 8 = g, col % 4 = t;
 *   tf32 B:               register k / 4, at n = g, k % 4 = t;
 *   8-bit A (IMMA):       register (row >= 8) + 2 * (col / 16), byte col % 4, at row % 8 = g,
 *                         (col % 16) / 4 = t;  8-bit B: register k / 16, byte k % 4, at n = g,
 *                         (k % 16) / 4 = t;
 *   f64 A (DMMA):         register pair (row >= 8) + 2 * (col / 4), at row % 8 = g, col % 4 = t;
 *   f64 B:                pair k / 4, at n = g, k % 4 = t;
 *   C / D (m x n8):       element (row >= 8) * 2 + (col & 1) (a register, an f16 half of
 *                         register (row >= 8), or an f64 pair), at row % 8 = g, col / 2 = t.
 * For m8 shapes (IMMA.8816, DMMA.8x8x4) the row >= 8 terms vanish.
 * These layouts are also checked against ptxas's own expansion of wmma.load/store (plain
 * LDG/LDS/STG with ptxas's addressing) by the wmma exec tests.
 *
 * Arithmetic.
 *  - HMMA with an F32 accumulator: each product of two f16/bf16/tf32 inputs is exact in a
 *    double, the k products and C are summed in double and rounded once to f32. The hardware's
 *    internal accumulation order and intermediate precision are not documented (GUESS): tests
 *    compare with a tolerance, or use inputs whose sums are exact in f32.
 *  - HMMA with an F16 accumulator: the same sum, rounded once to binary16 (GUESS, as above).
 *  - .TF32 inputs are f32 registers of which only the upper 19 bits (sign, exponent, 10
 *    mantissa bits) take part; the low 13 bits are ignored (GUESS: truncation, matching the
 *    PTX ISA's statement that tf32 operands carry 10 mantissa bits; tests feed exact tf32).
 *  - IMMA: exact integer dot products (8-bit inputs, signed or unsigned per .S8/.U8 for A then
 *    B) added to C; the result wraps modulo 2^32, or with .SAT (PTX .satfinite) clamps to
 *    [INT32_MIN, INT32_MAX].
 *  - DMMA: d = C, then d = fma(A[m][k], B[k][n], d) for k = 0, 1, ... in the rounding mode of
 *    .RN (default) / .RZ / .RM / .RP (GUESS: a chain of fused multiply-adds; tests use inputs
 *    for which every model of the order gives the same exact result).
 *
 * LDSM.16.{M88,MT88}[.2|.4] d, [a]: ldmatrix. Matrix j (j < 1, 2, 4) has its row r at the
 * 16-byte shared address held by lane 8j + r; d+j of lane l receives row l/4, elements
 * 2(l%4) and 2(l%4)+1 (low half first) of matrix j, or with .MT88 the transposed matrix
 * (elements [2(l%4)][l/4] and [2(l%4)+1][l/4]). The address is a 32-bit shared address (ptxas
 * passes the low word of a generic one). STSM is the inverse store; MOVM.16.MT88 d, a
 * transposes the 8x8 matrix held in a (layout as one LDSM matrix) into d. */
#include "tests/exec/emu/fp_util.h"
#include "tests/exec/emu/ops.h"

#include <cstring>
#include <limits>

namespace ptxmini::exec {
namespace {

void need_full_warp(const Exec& e) {
  if (e.mask != 0xffffffffu)
    e.trap("warp-level matrix instruction issued by lanes " + [&] {
      char b[16];
      std::snprintf(b, sizeof b, "%08x", e.mask);
      return std::string(b);
    }() + ", not the whole warp");
}

// The trailing uniform predicate of HMMA/IMMA/DMMA (printed only when it is not UPT): ptxas
// never emits one for mma.sync, so its meaning is unknown and it traps.
void no_trailing_pred(const Exec& e, size_t nops) {
  if (e.nops() > nops) e.trap("trailing predicate operand of a matrix instruction is not modelled");
}

uint32_t regv(const Exec& e, int lane, const Operand& base, int k) {
  if (base.kind != OpndKind::Reg) e.trap("matrix operand is not a register");
  if (base.reg == kRZ) return 0;
  if (base.reg + k > 254) e.trap("register tuple out of range");
  return e.reg(lane, base.reg + k);
}

void check_align(const Exec& e, const Operand& r, int n) {
  if (r.kind == OpndKind::Reg && r.reg != kRZ && n > 1 && r.reg % n)
    e.trap("misaligned register tuple");
}

// The element of a C/D fragment for (row, col) of an m x 8 matrix: which 32-bit "slot"
// (a register, or an f64 pair index) and which lane.
struct Slot {
  int lane, idx;
};
Slot cd_slot(int row, int col) { return {(row % 8) * 4 + col / 2, (row >= 8 ? 2 : 0) + (col & 1)}; }

int shape_k(const std::string& s) {
  // "16816" -> 16, "1688" -> 8, "1684" -> 4, "16832" -> 32, "8816" -> 16
  if (s == "16816" || s == "8816") return 16;
  if (s == "1688") return 8;
  if (s == "1684") return 4;
  if (s == "16832") return 32;
  return 0;
}

float tf32_value(uint32_t bits) { return bitsf(bits & 0xffffe000u); }

}  // namespace

// HMMA.{16816,1688,1684}.{F16,F32}[.BF16|.TF32] d, a, b, c
void op_hmma(Exec& e) {
  need_full_warp(e);
  no_trailing_pred(e, 4);
  std::string shape = e.in.pick({"16816", "1688", "1684"});
  int K = shape_k(shape);
  bool f32acc = e.in.has("F32"), bf16 = e.in.has("BF16"), tf32 = e.in.has("TF32");
  if (!K || (!f32acc && !e.in.has("F16"))) e.trap("HMMA shape/accumulator not modelled");
  if ((tf32 && (K == 16 || !f32acc)) || (!tf32 && K == 4) || (bf16 && !f32acc))
    e.trap("HMMA type/shape combination not modelled");
  const Operand &D = e.op(0), &A = e.op(1), &B = e.op(2), &C = e.op(3);
  int nA = tf32 ? K / 2 : K / 4, nB = tf32 ? K / 4 : K / 8, nC = f32acc ? 4 : 2;
  check_align(e, A, nA);
  check_align(e, B, nB);
  check_align(e, C, nC);
  check_align(e, D, nC);
  // Gather the matrices.
  double a[16][16], b[16][8], c[16][8];
  auto in16 = [&](uint32_t h) { return bf16 ? double{bitsf(h << 16)} : double{half_to_float(static_cast<uint16_t>(h))}; };
  for (int m = 0; m < 16; ++m)
    for (int k = 0; k < K; ++k) {
      if (tf32) {
        int lane = (m % 8) * 4 + k % 4, r = (m >= 8 ? 1 : 0) + 2 * (k / 4);
        a[m][k] = tf32_value(regv(e, lane, A, r));
      } else {
        int lane = (m % 8) * 4 + (k % 8) / 2, r = (m >= 8 ? 1 : 0) + 2 * (k / 8);
        a[m][k] = in16(regv(e, lane, A, r) >> (16 * (k & 1)) & 0xffff);
      }
    }
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < 8; ++n) {
      if (tf32) {
        b[k][n] = tf32_value(regv(e, n * 4 + k % 4, B, k / 4));
      } else {
        b[k][n] = in16(regv(e, n * 4 + (k % 8) / 2, B, k / 8) >> (16 * (k & 1)) & 0xffff);
      }
    }
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 8; ++n) {
      Slot s = cd_slot(m, n);
      if (f32acc) c[m][n] = bitsf(regv(e, s.lane, C, s.idx));
      else c[m][n] = half_to_float(static_cast<uint16_t>(regv(e, s.lane, C, s.idx / 2) >> (16 * (s.idx & 1))));
    }
  // Compute, then scatter.
  uint32_t out[32][4] = {};
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 8; ++n) {
      double sum = c[m][n];
      for (int k = 0; k < K; ++k) sum += a[m][k] * b[k][n];
      Slot s = cd_slot(m, n);
      if (f32acc) {
        out[s.lane][s.idx] = fbits(static_cast<float>(sum));
      } else {
        uint32_t h = double_to_half(sum);
        out[s.lane][s.idx / 2] |= h << (16 * (s.idx & 1));
      }
    }
  for (int l = 0; l < 32; ++l) e.setn(l, D, nC, out[l]);
}

// IMMA.{16816,16832,8816}.{U8,S8}.{U8,S8}[.SAT] d, a.ROW, b.COL, c
void op_imma(Exec& e) {
  need_full_warp(e);
  no_trailing_pred(e, 4);
  std::string shape = e.in.pick({"16816", "16832", "8816"});
  int K = shape_k(shape), M = shape == "8816" ? 8 : 16;
  if (!K) e.trap("IMMA shape not modelled");
  // The two type modifiers in order: A's, then B's.
  std::vector<std::string> types;
  for (const auto& m : e.in.mods)
    if (m == "U8" || m == "S8") types.push_back(m);
  if (types.size() != 2) e.trap("IMMA needs two 8-bit type modifiers");
  bool sa = types[0] == "S8", sb = types[1] == "S8", sat = e.in.has("SAT");
  const Operand &D = e.op(0), &A = e.op(1), &B = e.op(2), &C = e.op(3);
  int nA = M * K / 128, nB = K / 16, nC = M / 4;
  check_align(e, A, nA);
  check_align(e, B, nB);
  check_align(e, C, nC);
  check_align(e, D, nC);
  auto byte = [](uint32_t w, int i, bool s) {
    uint32_t v = w >> (8 * i) & 0xff;
    return s ? int64_t{static_cast<int8_t>(v)} : int64_t{v};
  };
  int64_t a[16][32], b[32][8];
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k)
      a[m][k] = byte(regv(e, (m % 8) * 4 + (k % 16) / 4, A, (m >= 8 ? 1 : 0) + (M == 16 ? 2 : 1) * (k / 16)), k % 4, sa);
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < 8; ++n) b[k][n] = byte(regv(e, n * 4 + (k % 16) / 4, B, k / 16), k % 4, sb);
  uint32_t out[32][4] = {};
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < 8; ++n) {
      Slot s = cd_slot(m, n);
      int64_t sum = static_cast<int32_t>(regv(e, s.lane, C, s.idx));
      for (int k = 0; k < K; ++k) sum += a[m][k] * b[k][n];
      if (sat) sum = std::min<int64_t>(std::max<int64_t>(sum, INT32_MIN), INT32_MAX);
      out[s.lane][s.idx] = static_cast<uint32_t>(sum);
    }
  for (int l = 0; l < 32; ++l) e.setn(l, D, nC, out[l]);
}

// DMMA.{8x8x4,16x8x4,16x8x8,16x8x16}[.RZ|.RM|.RP] d, a, b, c (f64 register pairs)
void op_dmma(Exec& e) {
  need_full_warp(e);
  no_trailing_pred(e, 4);
  std::string shape = e.in.pick({"8x8x4", "16x8x4", "16x8x8", "16x8x16"});
  if (shape.empty()) e.trap("DMMA shape not modelled");
  int M = shape == "8x8x4" ? 8 : 16, K = shape == "16x8x8" ? 8 : shape == "16x8x16" ? 16 : 4;
  std::string rnd = e.in.pick({"RN", "RZ", "RM", "RP"});
  const Operand &D = e.op(0), &A = e.op(1), &B = e.op(2), &C = e.op(3);
  int nA = 2 * (M * K / 32), nB = 2 * (K / 4), nC = 2 * (M / 4);
  for (auto [op, n] : {std::pair{&A, nA}, {&B, nB}, {&C, nC}, {&D, nC}}) check_align(e, *op, std::min(n, 4));
  auto f64 = [&](int lane, const Operand& r, int pair) {
    uint64_t v = uint64_t{regv(e, lane, r, 2 * pair + 1)} << 32 | regv(e, lane, r, 2 * pair);
    double d;
    std::memcpy(&d, &v, 8);
    return d;
  };
  double a[16][16], b[16][8];
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) a[m][k] = f64((m % 8) * 4 + k % 4, A, (m >= 8 ? 1 : 0) + (M == 16 ? 2 : 1) * (k / 4));
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < 8; ++n) b[k][n] = f64(n * 4 + k % 4, B, k / 4);
  uint32_t out[32][8] = {};
  {
    RoundScope rs(rnd.empty() ? "RN" : rnd);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < 8; ++n) {
        Slot s = cd_slot(m, n);
        volatile double d = f64(s.lane, C, s.idx);
        for (int k = 0; k < K; ++k) d = std::fma(a[m][k], b[k][n], d);
        double r = d;
        uint64_t bits;
        std::memcpy(&bits, &r, 8);
        out[s.lane][2 * s.idx] = static_cast<uint32_t>(bits);
        out[s.lane][2 * s.idx + 1] = static_cast<uint32_t>(bits >> 32);
      }
  }
  for (int l = 0; l < 32; ++l) {
    e.setn(l, D, std::min(nC, 4), out[l]);
    if (nC == 8) {  // a 16x8 f64 C/D is two quads
      Operand hi = D;
      hi.reg += 4;
      e.setn(l, hi, 4, out[l] + 4);
    }
  }
}

namespace {
int ldsm_count(const SassInst& in) { return in.has("4") ? 4 : in.has("2") ? 2 : 1; }
bool ldsm_trans(const Exec& e) {
  if (e.in.has("M816") || e.in.has("M832")) e.trap("LDSM/STSM shapes other than M88/MT88 are not modelled");
  return e.in.has("MT88");
}
// The 8x8 b16 matrix j: element [r][c] as read from / written to the row addresses.
uint32_t frag_element_lane(int r, int c, bool trans, int& half) {
  // Untransposed: lane l holds row l/4, columns 2(l%4) (+1 in the high half).
  // Transposed: lane l holds M[2(l%4)][l/4] and M[2(l%4)+1][l/4].
  if (!trans) {
    half = c & 1;
    return static_cast<uint32_t>(r * 4 + c / 2);
  }
  half = r & 1;
  return static_cast<uint32_t>(c * 4 + r / 2);
}
}  // namespace

void op_ldsm(Exec& e) {
  need_full_warp(e);
  int n = ldsm_count(e.in);
  bool trans = ldsm_trans(e);
  const Operand& D = e.op(0);
  check_align(e, D, n);
  uint32_t out[32][4] = {};
  for (int j = 0; j < n; ++j)
    for (int r = 0; r < 8; ++r) {
      int src = 8 * j + r;
      uint64_t addr = e.address(src, e.op(1), false);
      if (addr % 16) e.trap("LDSM row address not 16-byte aligned");
      uint16_t row[8];
      std::memcpy(row, e.mem(src, 's', addr, 16), 16);
      for (int c = 0; c < 8; ++c) {
        int half;
        uint32_t lane = frag_element_lane(r, c, trans, half);
        out[lane][j] |= uint32_t{row[c]} << (16 * half);
      }
    }
  for (int l = 0; l < 32; ++l) e.setn(l, D, n, out[l]);
}

void op_stsm(Exec& e) {
  need_full_warp(e);
  int n = ldsm_count(e.in);
  bool trans = ldsm_trans(e);
  const Operand& S = e.op(1);
  check_align(e, S, n);
  for (int j = 0; j < n; ++j)
    for (int r = 0; r < 8; ++r) {
      int dst = 8 * j + r;
      uint64_t addr = e.address(dst, e.op(0), false);
      if (addr % 16) e.trap("STSM row address not 16-byte aligned");
      uint16_t row[8];
      for (int c = 0; c < 8; ++c) {
        int half;
        uint32_t lane = frag_element_lane(r, c, trans, half);
        row[c] = static_cast<uint16_t>(regv(e, static_cast<int>(lane), S, j) >> (16 * half));
      }
      std::memcpy(e.mem(dst, 's', addr, 16), row, 16);
    }
}

void op_movm(Exec& e) {
  need_full_warp(e);
  if (!e.in.has("MT88")) e.trap("MOVM shapes other than MT88 are not modelled");
  uint16_t m[8][8];
  for (int l = 0; l < 32; ++l) {
    uint32_t v = regv(e, l, e.op(1), 0);
    m[l / 4][2 * (l % 4)] = static_cast<uint16_t>(v);
    m[l / 4][2 * (l % 4) + 1] = static_cast<uint16_t>(v >> 16);
  }
  for (int l = 0; l < 32; ++l)
    e.set(l, e.op(0), uint32_t{m[2 * (l % 4)][l / 4]} | uint32_t{m[2 * (l % 4) + 1][l / 4]} << 16);
}

}  // namespace ptxmini::exec
