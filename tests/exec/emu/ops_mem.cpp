/* ops_mem.cpp - loads, stores, constant loads and atomics.
 *
 * Spaces by opcode: LDG/STG/ATOMG/REDG global, LDS/STS/ATOMS shared, LDL/STL local, LD/ST/
 * ATOM/RED generic (flat: the shared and local windows are recognised by their high word).
 * Global and generic addresses are always 64-bit register pairs, even where nvdisasm prints
 * no ".64" (HW: "ATOMG.E.CAS.STRONG.GPU PT, RZ, [R8+0x4], R4, R5" with R8:R9 built from a
 * 64-bit pointer, observed in ptxas 13.0 output); shared and local addresses are 32-bit.
 * Access widths: .U8/.S8/.U16/.S16 (extended to 32 bits), default 32, .64, .128. Every access
 * is bounds- and alignment-checked (Exec::mem) and traps otherwise. Cache and memory-order
 * hints do not change single-threaded results and are accepted without effect. Atomics of a
 * warp are applied lane by lane in lane order. Packed .F16x2/.BF16x2 adds round each half to
 * nearest even (the .RN the instruction carries). */
#include "tests/exec/emu/fp_util.h"
#include "tests/exec/emu/ops.h"

#include <cstring>

namespace ptxmini::exec {
namespace {

char space_of(const std::string& opc) {
  if (opc == "LDG" || opc == "STG" || opc == "ATOMG" || opc == "REDG") return 'g';
  if (opc == "LDS" || opc == "STS" || opc == "ATOMS") return 's';
  if (opc == "LDL" || opc == "STL") return 'l';
  return 'f';
}

int width_of(const SassInst& in, bool& sign_ext) {
  sign_ext = false;
  if (in.has("U8")) return 1;
  if (in.has("S8")) { sign_ext = true; return 1; }
  if (in.has("U16")) return 2;
  if (in.has("S16")) { sign_ext = true; return 2; }
  if (in.has("64")) return 8;
  if (in.has("128")) return 16;
  return 4;
}

size_t mem_index(const Exec& e) {
  for (size_t i = 0; i < e.nops(); ++i)
    if (e.op(i).kind == OpndKind::Mem) return i;
  e.trap("no memory operand");
}

}  // namespace

void op_ld(Exec& e) {
  char sp = space_of(e.in.opcode);
  bool sx;
  int n = width_of(e.in, sx);
  size_t m = mem_index(e);
  if (m == 0) e.trap("load without destination");
  const Operand& d = e.op(m - 1);
  e.each([&](int l) {
    uint64_t a = e.address(l, e.op(m), sp == 'g' || sp == 'f');
    const uint8_t* p = e.mem(l, sp, a, static_cast<uint32_t>(n));
    uint32_t v[4] = {0, 0, 0, 0};
    if (n < 4) {
      uint32_t x = 0;
      std::memcpy(&x, p, static_cast<size_t>(n));
      if (sx) x = n == 1 ? static_cast<uint32_t>(static_cast<int8_t>(x)) : static_cast<uint32_t>(static_cast<int16_t>(x));
      v[0] = x;
      e.set(l, d, v[0]);
    } else {
      std::memcpy(v, p, static_cast<size_t>(n));
      e.setn(l, d, n / 4, v);
    }
  });
}

void op_st(Exec& e) {
  char sp = space_of(e.in.opcode);
  bool sx;
  int n = width_of(e.in, sx);
  size_t m = mem_index(e);
  if (m + 1 >= e.nops()) e.trap("store without source");
  const Operand& s = e.op(m + 1);
  e.each([&](int l) {
    uint64_t a = e.address(l, e.op(m), sp == 'g' || sp == 'f');
    uint8_t* p = e.mem(l, sp, a, static_cast<uint32_t>(n));
    uint32_t v[4];
    for (int i = 0; i < (n + 3) / 4; ++i) {
      Operand r = s;
      if (i > 0) {
        if (s.kind != OpndKind::Reg && s.kind != OpndKind::UReg) e.trap("wide store from a non-register");
        if (!((s.kind == OpndKind::Reg && s.reg == kRZ) || (s.kind == OpndKind::UReg && s.reg == kURZ))) r.reg = s.reg + i;
      }
      v[i] = e.u32(l, r);
    }
    std::memcpy(p, v, static_cast<size_t>(n));
  });
}

// LDC / ULDC d, c[bank][offset]: .U8/.S8/.U16/.S16/.64 widths.
void op_ldc(Exec& e) {
  bool sx;
  int n = width_of(e.in, sx);
  const Operand& c = e.op(1);
  if (c.kind != OpndKind::CBank) e.trap("LDC needs a constant bank operand");
  e.each([&](int l) {
    if (n == 8) {
      e.set64(l, e.op(0), e.u64(l, c));
    } else if (n == 4) {
      e.set(l, e.op(0), e.u32(l, c));
    } else {
      uint64_t off = c.imm;
      if (c.cbank_reg >= 0) off += c.cbank_ureg ? e.ureg(c.cbank_reg) : e.reg(l, c.cbank_reg);
      const auto* b = e.emu.bank(c.bank);
      if (!b || off + static_cast<uint64_t>(n) > b->size() || off % static_cast<uint64_t>(n)) e.trap("constant bank read out of bounds");
      uint32_t x = 0;
      std::memcpy(&x, b->data() + off, static_cast<size_t>(n));
      if (sx) x = n == 1 ? static_cast<uint32_t>(static_cast<int8_t>(x)) : static_cast<uint32_t>(static_cast<int16_t>(x));
      e.set(l, e.op(0), x);
    }
  });
}

// ATOMG/ATOMS/ATOM [Pd,] d, [mem], a [, b]  and  REDG/RED [mem], a.
// Operation .ADD .MIN .MAX .INC .DEC .AND .OR .XOR .EXCH .CAS; types .S32 .U32 (default),
// .64/.U64/.S64, .F32 (.FTZ.RN), .F64. d receives the old value.
void op_atom(Exec& e) {
  char sp = space_of(e.in.opcode);
  if (e.in.opcode == "RED") sp = 'f';
  if (e.in.has("POPC")) {
    // ATOMS.POPC.INC.32 d, [a]: every lane of the group adds one (the hardware aggregates the
    // group's population count into one update); d gets the value before this lane's increment.
    // GUESS: the per-lane return value order (lane order), not observed being used.
    if (!e.in.has("INC")) e.trap("ATOMS.POPC without INC is not modelled");
    size_t mi = mem_index(e);
    e.each([&](int l) {
      uint8_t* p = e.mem(l, 's', e.address(l, e.op(mi), false), 4);
      uint32_t old;
      std::memcpy(&old, p, 4);
      uint32_t nv = old + 1;
      std::memcpy(p, &nv, 4);
      if (mi > 0) e.set(l, e.op(mi - 1), old);
    });
    return;
  }
  if (e.in.has("CAST")) {
    // ATOMS.CAST.SPIN[.64] d, [a], b, c: compare-and-store; if [a] == b then [a] = c. d = 1 on
    // success, else 0 (64-bit for .64). HW: ptxas 13.0's loop for a float / double atomicAdd on
    // shared memory (llm.c matmul_backward_bias_kernel7, cuda-samples jacobiCudaGraphs): "LDS R6,
    // [R4]; FADD R7, R23, R6; ATOMS.CAST.SPIN R7, [R4], R6, R7; ISETP.EQ.U32.AND P0, PT, R7, 0x1,
    // PT; @!P0 BRA <LDS>", and for .64 the pair compared with 1 (ISETP ... .EX with RZ). GUESS:
    // the failure value is 0 (the code only tests for 1).
    // The generic form ATOM.E.CAST.SPIN PT, d, [a], b, c (ptxas's loop for a float atomic on
    // another CTA's shared memory) works the same on the generic address.
    size_t mi = mem_index(e);
    if (!e.in.has("SPIN") || mi == 0 || e.nops() != mi + 3)
      e.trap("only ATOM[S].CAST.SPIN [PT,] d, [a], b, c is modelled");
    bool wide = e.in.has("64");
    uint32_t n = wide ? 8 : 4;
    e.each([&](int l) {
      uint8_t* p = e.mem(l, sp, e.address(l, e.op(mi), sp == 'f'), n);
      uint64_t old = 0, cmp = wide ? e.u64(l, e.op(mi + 1)) : e.u32(l, e.op(mi + 1));
      uint64_t nw = wide ? e.u64(l, e.op(mi + 2)) : e.u32(l, e.op(mi + 2));
      std::memcpy(&old, p, n);
      bool ok = old == cmp;
      if (ok) std::memcpy(p, &nw, n);
      if (wide) e.set64(l, e.op(mi - 1), ok ? 1 : 0);
      else e.set(l, e.op(mi - 1), ok ? 1u : 0u);
    });
    return;
  }
  std::string opn = e.in.pick({"ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH", "CAS"});
  if (opn.empty()) e.trap("atomic operation missing");
  bool f32 = e.in.has("F32"), f64 = e.in.has("F64");
  bool h2 = e.in.has("F16x2"), bh2 = e.in.has("BF16x2");  // packed pairs, each half .RN
  bool is64 = f64 || e.in.has("64") || e.in.has("U64") || e.in.has("S64");
  bool sgn = e.in.has("S32") || e.in.has("S64");
  size_t m = mem_index(e);
  int dst = -1, pdst = -1;
  for (size_t i = 0; i < m; ++i) {
    const Operand& o = e.op(i);
    if (o.kind == OpndKind::Pred) { if (o.reg != kPT) pdst = static_cast<int>(i); }
    else dst = static_cast<int>(i);
  }
  // ATOM (generic) P, d, [a], b: P tells whether the hardware performed the operation; where
  // it did not, ptxas's code falls back to its own shared (QSPC.E.S) and local paths.
  // GUESS (the fall-back paths ptxas 13.0 writes, frontend/lower/lower_atomic.cpp): 64-bit
  // EXCH/CAS are performed on any non-local address, the others on global addresses only.
  if (pdst >= 0 && sp != 'f') e.trap("atomic predicate destination outside generic ATOM");
  size_t nsrc = e.nops() - m - 1;
  if (nsrc < 1 || (opn == "CAS" && nsrc < 2)) e.trap("atomic source missing");
  uint32_t n = is64 ? 8 : 4;
  e.each([&](int l) {
    uint64_t a = e.address(l, e.op(m), sp == 'g' || sp == 'f');
    if (pdst >= 0) {
      char w = e.flat_space(a);
      bool done = w == 'g' || (is64 && (opn == "EXCH" || opn == "CAS") && w != 'l');
      e.setp(l, e.op(static_cast<size_t>(pdst)), done);
      if (!done) return;
    }
    uint8_t* p = e.mem(l, sp, a, n);
    uint64_t old = 0, src = is64 ? e.u64(l, e.op(m + 1)) : e.u32(l, e.op(m + 1));
    std::memcpy(&old, p, n);
    uint64_t nv = old;
    if (opn == "ADD") {
      if (f32) { volatile float r = ftz(bitsf(static_cast<uint32_t>(old))) + ftz(bitsf(static_cast<uint32_t>(src))); nv = fbits(ftz(r)); }
      else if (h2 || bh2) {
        // Each 16-bit half: the exact sum (a double holds it) rounded once to nearest even.
        uint32_t r = 0;
        for (int k = 0; k < 2; ++k) {
          uint16_t x = static_cast<uint16_t>(old >> (16 * k)), y = static_cast<uint16_t>(src >> (16 * k));
          uint16_t z = h2 ? double_to_half(double{half_to_float(x)} + double{half_to_float(y)})
                          : double_to_bf16(double{bf16_to_float(x)} + double{bf16_to_float(y)});
          r |= uint32_t{z} << (16 * k);
        }
        nv = r;
      }
      else if (f64) nv = std::bit_cast<uint64_t>(std::bit_cast<double>(old) + std::bit_cast<double>(src));
      else nv = old + src;
    } else if (opn == "MIN" || opn == "MAX") {
      bool less;
      if (is64) less = sgn ? static_cast<int64_t>(old) < static_cast<int64_t>(src) : old < src;
      else less = sgn ? static_cast<int32_t>(old) < static_cast<int32_t>(src) : static_cast<uint32_t>(old) < static_cast<uint32_t>(src);
      nv = (opn == "MIN") == less ? old : src;
    } else if (opn == "INC") {
      nv = old >= src ? 0 : old + 1;
    } else if (opn == "DEC") {
      nv = (old == 0 || old > src) ? src : old - 1;
    } else if (opn == "AND") nv = old & src;
    else if (opn == "OR") nv = old | src;
    else if (opn == "XOR") nv = old ^ src;
    else if (opn == "EXCH") nv = src;
    else {  // CAS: compare with a, swap in b
      uint64_t nw = is64 ? e.u64(l, e.op(m + 2)) : e.u32(l, e.op(m + 2));
      nv = old == src ? nw : old;
    }
    std::memcpy(p, &nv, n);
    if (dst >= 0) {
      if (is64) e.set64(l, e.op(static_cast<size_t>(dst)), old);
      else e.set(l, e.op(static_cast<size_t>(dst)), static_cast<uint32_t>(old));
    }
  });
}

// LDGSTS [shared], [global]: the asynchronous global-to-shared copy (cp.async), performed
// at once (completion order is only observable through LDGDEPBAR/DEPBAR, which wait for it).
// Size: none 4 bytes, .64, .128. .ZFILL (partial copies) is not modelled.
// LDGSTS[.ZFILL] [shared], [global][, valid]. What ZFILL does is inferred from how ptxas 13.0
// lowers cp.async's src-size (frontend/lower/lower_async.cpp), not documented (GUESS): the low
// log2(n) bits of the global address count the trailing bytes written as zeros, the rest is
// read from the address rounded down to n; a false `valid` predicate writes n zeros, no read.
void op_ldgsts(Exec& e) {
  bool sx;
  int n = width_of(e.in, sx);
  bool zfill = e.in.has("ZFILL");
  if (e.nops() < 2 || e.op(0).kind != OpndKind::Mem || e.op(1).kind != OpndKind::Mem)
    e.trap("LDGSTS needs a shared and a global address");
  e.each([&](int l) {
    uint8_t buf[16] = {};
    if (e.nops() < 3 || e.pred(l, e.op(2))) {
      uint64_t a = e.address(l, e.op(1), true);
      uint32_t zeros = zfill ? static_cast<uint32_t>(a & static_cast<uint64_t>(n - 1)) : 0;
      if (zfill) a &= ~static_cast<uint64_t>(n - 1);
      // The whole aligned n bytes are read (the emulator checks alignment per access), then
      // the zero-filled tail is cleared.
      std::memcpy(buf, e.mem(l, 'g', a, static_cast<uint32_t>(n)), static_cast<size_t>(n));
      std::memset(buf + (n - static_cast<int>(zeros)), 0, zeros);
    }
    uint8_t* dst = e.mem(l, 's', e.address(l, e.op(0), false), static_cast<uint32_t>(n));
    std::memcpy(dst, buf, static_cast<size_t>(n));
  });
}

// QSPC.E.{G,L,S,D} P, RZ, [a]: whether the generic address a lies in the global, local,
// shared or cluster-shared window (isspacep; ptxas's atomic fall-back paths). The emulator runs
// one CTA per cluster: the cluster window is this CTA's shared window.
void op_qspc(Exec& e) {
  size_t m = mem_index(e);
  if (m == 0 || e.op(0).kind != OpndKind::Pred) e.trap("QSPC needs a predicate destination");
  char want = e.in.has("G")                      ? 'g'
              : e.in.has("L")                    ? 'l'
              : e.in.has("S") || e.in.has("D")   ? 's'
                                                 : 0;
  if (!want) e.trap("QSPC window missing");
  e.each([&](int l) { e.setp(l, e.op(0), e.flat_space(e.address(l, e.op(m), true)) == want); });
}

void op_nop(Exec&) {}

}  // namespace ptxmini::exec
