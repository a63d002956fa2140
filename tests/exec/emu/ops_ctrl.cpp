/* ops_ctrl.cpp - branches, calls, exit, convergence barriers and CTA barriers.
 * The waiting rules (BSYNC, WARPSYNC, BAR) are enforced by the scheduler (emulator.cpp); the
 * handlers only record what each thread waits for. */
#include "tests/exec/emu/ops.h"

namespace ptxmini::exec {
namespace {
uint32_t target_of(const Exec& e, const Operand& o) {
  if (o.kind != OpndKind::Target && o.kind != OpndKind::Imm) e.trap("branch target expected");
  return static_cast<uint32_t>(o.imm);
}
}  // namespace

// BRA [Pcond,] target : taken where the guard and Pcond hold.
// BRA.DIV mask, target : taken when the executing group is not the whole non-exited part of
// `mask` (the warp is diverged), which sends ptxas's code to its divergent fallback path.
void op_bra(Exec& e) {
  const Operand& t = e.op(e.nops() - 1);
  uint32_t tgt = target_of(e, t);
  if (e.in.has("DIV")) {
    uint32_t live = 0;
    for (int l = 0; l < 32; ++l)
      if (e.w.t[l].state != Thread::Exited) live |= 1u << l;
    int first = __builtin_ctz(e.mask);
    uint32_t m = e.u32(first, e.op(0)) & live;
    bool diverged = (m & ~e.mask) != 0;
    if (diverged) e.each([&](int l) { e.next_pc[l] = tgt; });
    return;
  }
  e.each([&](int l) {
    bool c = e.nops() >= 2 ? e.pred(l, e.op(0)) : true;
    if (c) e.next_pc[l] = tgt;
  });
}

// BRX Ra imm: indirect branch to (pc + 16) + Ra + imm (HW: "BRX R4 -0x2f0" at 0x2e0 with R4 loaded
// from a jump table in c[0x2] holding section offsets, observed in ptxas 13.0 output).
void op_brx(Exec& e) {
  if (e.nops() != 2) e.trap("BRX operand count");
  e.each([&](int l) { e.next_pc[l] = e.in.pc + 16 + e.u32(l, e.op(0)) + static_cast<uint32_t>(e.u32(l, e.op(1))); });
}

void op_exit(Exec& e) {
  e.each([&](int l) { e.w.t[l].state = Thread::Exited; });
}

// BSSY Bx, reconvergence-target: Bx = the executing threads.
void op_bssy(Exec& e) {
  int b = e.op(0).reg;
  e.each([&](int l) { e.w.t[l].B[b] = e.mask; });
}

// BSYNC Bx: wait until every non-exited thread of Bx waits at this BSYNC.
void op_bsync(Exec& e) {
  int b = e.op(0).reg;
  e.each([&](int l) {
    e.w.t[l].state = Thread::AtBsync;
    e.w.t[l].wait_bar = b;
  });
}

// BREAK Bx: the executing threads leave barrier Bx (of every thread of the warp).
// BREAK [Pp,] Bx: the issuing threads (those with Pp true, when a predicate is given) leave
// the convergence barrier Bx. HW: ptxas's f32 division slow path uses `@!P0 BREAK !P2, B2`.
void op_break(Exec& e) {
  int b = e.op(e.nops() - 1).reg;
  uint32_t m = e.mask;
  if (e.nops() == 2) {
    m = 0;
    e.each([&](int l) { if (e.pred(l, e.op(0))) m |= 1u << l; });
  }
  for (auto& t : e.w.t) t.B[b] &= ~m;
}

// BMOV.32[.CLEAR] Rd, Bx  |  BMOV.32 Bx, Ra
void op_bmov(Exec& e) {
  const Operand &d = e.op(0), &s = e.op(1);
  e.each([&](int l) {
    if (d.kind == OpndKind::BarReg) {
      e.w.t[l].B[d.reg] = e.u32(l, s);
    } else if (s.kind == OpndKind::BarReg) {
      e.set(l, d, e.w.t[l].B[s.reg]);
      if (e.in.has("CLEAR")) e.w.t[l].B[s.reg] = 0;
    } else {
      e.trap("BMOV without a barrier register");
    }
  });
}

// WARPSYNC mask | WARPSYNC.ALL : wait until every non-exited thread of the mask is here.
// WARPSYNC.COLLECTIVE mask, end ... ENDCOLLECTIVE : ptxas's fallback for a warp-synchronous
// instruction (SHFL, VOTE, ...) that BRA.DIV found the warp diverged for (HW: "BRA.DIV UR4, L",
// then at L "WARPSYNC.COLLECTIVE R8, E; SHFL.DOWN P0, R6, R9, R10, R11; ENDCOLLECTIVE" with E the
// address after ENDCOLLECTIVE, observed in ptxas 13.0 output for __shfl_down_sync). GUESS: the
// threads of the mask gather here as at WARPSYNC and run the body together; `end` is where they
// continue, which is the fall-through past ENDCOLLECTIVE in every observed case.
void op_warpsync(Exec& e) {
  if (e.in.has("COLLECTIVE") && e.nops() != 2) e.trap("WARPSYNC.COLLECTIVE needs a mask and an end address");
  e.each([&](int l) {
    e.w.t[l].state = Thread::AtWarpSync;
    e.w.t[l].wait_mask = e.in.has("ALL") ? 0xffffffffu : e.u32(l, e.op(0));
  });
}

// BAR.SYNC / BAR.ARV / BAR.RED.{POPC,AND,OR} id[, count][, Pp] (.DEFER_BLOCKING: a scheduling
// hint). The id and count are immediates or registers; one register named twice holds
// count << 16 | id (HW: ptxas 13.0 packs `bar.sync %r1, %r2` so: SHF.L.U32 + LOP3 0xf8, then
// "BAR.SYNC.DEFER_BLOCKING R4, R4"). Without a count every non-exited thread of the CTA takes
// part. The barrier itself (arrivals, completion, B2R's result) lives in the CTA (emulator.cpp).
void op_bar(Exec& e) {
  bool sync = e.in.has("SYNC"), arv = e.in.has("ARV"), red = e.in.has("RED");
  if (sync + arv + red != 1) e.trap("BAR needs one of SYNC, ARV, RED");
  size_t n = e.nops();
  const Operand* pred = nullptr;
  if (red) {
    if (n < 2 || e.op(n - 1).kind != OpndKind::Pred) e.trap("BAR.RED needs a predicate");
    pred = &e.op(n - 1);
    --n;
  }
  if (n < 1 || n > 2 || (arv && n != 2)) e.trap("BAR operand count");
  int first = __builtin_ctz(e.mask);
  const Operand& a = e.op(0);
  uint32_t id, count = 0;
  if (n == 2 && a.kind == OpndKind::Reg && e.op(1).kind == OpndKind::Reg && a.reg == e.op(1).reg) {
    uint32_t v = e.u32(first, a);
    id = v & 0xf;
    count = v >> 16;
  } else {
    id = e.u32(first, a);
    if (n == 2) count = e.u32(first, e.op(1));
  }
  if (id > 15) e.trap("barrier id out of range");
  NamedBarrier& b = e.cta.bars[id];
  if (count) {
    if (b.arrived && b.expected != count) e.trap("threads arrive at a barrier with different counts");
    b.expected = count;
  }
  uint8_t op = !red ? 0 : e.in.has("POPC") ? 1 : e.in.has("AND") ? 2 : e.in.has("OR") ? 3 : 0;
  if (red && !op) e.trap("BAR.RED needs POPC, AND or OR");
  e.each([&](int l) {
    ++b.arrived;
    if (red) {
      ++b.reds;
      b.popc += e.pred(l, *pred);
    }
    if (!arv) {
      Thread& t = e.w.t[l];
      t.state = Thread::AtBar;
      t.wait_bar = static_cast<int>(id);
      t.bar_op = op;
    }
  });
}

// B2R.RESULT Rd[, Pd]: the count (BAR.RED.POPC) and the predicate (AND / OR) of the thread's
// last BAR.RED.
void op_b2r(Exec& e) {
  if (!e.in.has("RESULT")) e.trap("only B2R.RESULT is modelled");
  e.each([&](int l) {
    e.set(l, e.op(0), e.w.t[l].bar_result);
    if (e.nops() >= 2) e.setp(l, e.op(1), e.w.t[l].bar_pred);
  });
}

// CALL.REL.NOINC target: the return address was put in a register by the caller's code.
// CALL.ABS.NOINC Rn goes to an external function (__assertfail, vprintf) through an address the
// loader left 0: not modelled, so it stops the run instead of jumping to address 0.
// CALL.REL.NOINC Rn target: an indirect call to the section offset Rn + target (HW: ptxas
// 13.0 calls through a function pointer with `CALL.REL.NOINC R8 0x0`, R8 holding the callee's
// offset in the kernel's .text, read from the pointer or from .nv.constant2.<kernel>).
void op_call(Exec& e) {
  if (e.in.has("ABS")) e.trap("CALL.ABS (a call to an external function) is not modelled");
  uint32_t tgt = target_of(e, e.op(e.nops() - 1));
  if (e.nops() >= 2 && e.op(0).kind == OpndKind::Reg) {
    const Operand& r = e.op(0);
    e.each([&](int l) { e.next_pc[l] = e.u32(l, r) + tgt; });
    return;
  }
  e.each([&](int l) { e.next_pc[l] = tgt; });
}

// RET.REL.NODEC Rn [, fn]: jump to the section offset held in Rn (HW: "MOV R2, 0x90; CALL ...;"
// returns to 0x90, observed in ptxas 13.0 output).
void op_ret(Exec& e) {
  const Operand& r = e.op(0);
  if (r.kind != OpndKind::Reg) e.trap("RET needs a register");
  e.each([&](int l) { e.next_pc[l] = e.u32(l, r); });
}

void op_bpt(Exec& e) { e.trap("BPT.TRAP executed (the kernel trapped)"); }

}  // namespace ptxmini::exec
