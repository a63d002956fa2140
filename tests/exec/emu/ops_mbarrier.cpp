/* ops_mbarrier.cpp - mbarrier operations (SYNCS) in shared memory.
 *
 * The barrier is the 64-bit word at its shared address. Layout (HW: read off ptxas 13.0's own
 * code, frontend/lower/lower_mbarrier.cpp: mbarrier.init writes {v << 1, v << 11} with
 * v = 0x100000 - count, and pending_count computes 0x100000 - (hi >> 11 & 0xfffff)):
 *   bit 63       the current phase's parity
 *   bits 43..62  the arrival counter C: pending arrivals = 0x100000 - C
 *   bits 1..20   the reload value 0x100000 - count (C's value at the start of a phase)
 * C = 0 means 0x100000: every arrival is in while transaction bytes are still pending.
 * GUESS: where the hardware keeps the transaction count is not visible in ptxas's code; the
 * emulator keeps it beside the word (Cta::mbar_tx, by shared address), cleared by init and
 * inval. A phase completes when no arrival and no transaction byte is pending: the parity
 * flips and C is reloaded. Operations of a warp apply lane by lane in lane order.
 *   SYNCS.EXCH.64 URZ, [a], UR            the word = UR pair (init), once per warp
 *   SYNCS.ARRIVE.TRANS64[.RED][.OPTOUT][.A1T0|.ART0|.A0TR|.A0TX] d, [a], r
 *       arrivals: A1T0 1, ART0 r, A0TR/A0TX 0, none 1; transaction bytes: none/A0TR expect r
 *       more, A0TX r complete; OPTOUT (arrive_drop) also lowers the count of later phases by
 *       the arrivals; d = the word before this lane's operation (the PTX state)
 *   SYNCS.PHASECHK.TRANS64[.TRYWAIT] P, [a], r   P = the phase of bit 31 of r has completed,
 *       i.e. the word's parity differs from it (TRYWAIT does not suspend here: it returns the
 *       same answer at once, which PTX allows: try_wait may return false before the timeout)
 *   SYNCS.CCTL.IV [a]                     inval: the word and its transaction count cleared
 * Also here: UBLKCP (cp.async.bulk, completing transaction bytes) and USETMAXREG. */
#include "tests/exec/emu/ops.h"

#include <cstring>

namespace ptxmini::exec {
namespace {

constexpr uint64_t kCountBase = 0x100000;

uint64_t load64(uint8_t* p) { uint64_t v; std::memcpy(&v, p, 8); return v; }
void store64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }

size_t mem_operand(const Exec& e) {
  for (size_t i = 0; i < e.nops(); ++i)
    if (e.op(i).kind == OpndKind::Mem) return i;
  e.trap("SYNCS without a memory operand");
}

// The barrier word's shared address for lane l (the shared::cluster window of this CTA).
uint32_t bar_addr(const Exec& e, int l, const Operand& m) {
  uint64_t a = e.address(l, m, false);
  return static_cast<uint32_t>(a);
}

// One operation on the barrier word at shared address a: `arrivals` arrivals (also taken off
// the count of later phases when `drop`), `tx` transaction bytes added (expect) or, negative,
// completed. Returns the word before the operation.
uint64_t mbar_update(Exec& e, int l, uint32_t a, uint64_t arrivals, int64_t tx_delta, bool drop) {
  uint8_t* p = e.mem(l, 's', a, 8);
  uint64_t old = load64(p);
  int64_t& tx = e.cta.mbar_tx[a];
  tx += tx_delta;
  uint64_t phase = old >> 63, reload = old >> 1 & 0xfffff;
  // The counter starts at the reload value (>= 1: a count is at most 2^20 - 1), so a zero
  // field means it wrapped: every arrival is in, transaction bytes are still pending.
  uint64_t field = old >> 43 & 0xfffff;
  uint64_t count = (field == 0 ? kCountBase : field) + arrivals;
  if (drop) reload += arrivals;
  if (count >= kCountBase && tx == 0) {
    // Phase complete: flip the parity, reload the counter.
    phase ^= 1;
    count = reload;
  }
  store64(p, (phase << 63) | ((count & 0xfffff) << 43) | ((reload & 0xfffff) << 1));
  return old;
}

void op_arrive(Exec& e, size_t mi) {
  std::string kind = e.in.pick({"A1T0", "ART0", "A0TR", "A0TX", "A0T1"});
  bool drop = e.in.has("OPTOUT");
  e.each([&](int l) {
    uint32_t a = bar_addr(e, l, e.op(mi));
    uint64_t r = mi + 1 < e.nops() ? e.u32(l, e.op(mi + 1)) : 0;
    // A0T1 (cp.async.mbarrier.arrive): one more pending arrival, i.e. the counter goes back.
    uint64_t arrivals = kind == "A1T0" || kind.empty() ? 1 : kind == "ART0" ? r
                        : kind == "A0T1"                 ? ~uint64_t{0}
                                                         : 0;
    int64_t tx = kind.empty() || kind == "A0TR" ? static_cast<int64_t>(r)
                 : kind == "A0TX"               ? -static_cast<int64_t>(r)
                                                : 0;
    uint64_t old = mbar_update(e, l, a, arrivals, tx, drop);
    if (mi > 0) e.set64(l, e.op(0), old);
  });
}

}  // namespace

void op_syncs(Exec& e) {
  size_t mi = mem_operand(e);
  if (e.in.has("EXCH")) {
    // Uniform: executed once per warp (its first operand is URZ).
    if (!e.in.has("64") || mi + 1 >= e.nops()) e.trap("only SYNCS.EXCH.64 URZ, [a], UR is modelled");
    e.each([&](int l) {
      uint32_t a = bar_addr(e, l, e.op(mi));
      uint8_t* p = e.mem(l, 's', a, 8);
      store64(p, e.u64(l, e.op(mi + 1)));
      e.cta.mbar_tx[a] = 0;
    });
    return;
  }
  if (e.in.has("ARRIVE")) {
    if (!e.in.has("TRANS64")) e.trap("SYNCS.ARRIVE without TRANS64 is not modelled");
    op_arrive(e, mi);
    return;
  }
  if (e.in.has("PHASECHK")) {
    if (!e.in.has("TRANS64") || mi != 1 || e.nops() != 3) e.trap("only SYNCS.PHASECHK.TRANS64 P, [a], R is modelled");
    e.each([&](int l) {
      uint8_t* p = e.mem(l, 's', bar_addr(e, l, e.op(mi)), 8);
      uint32_t cur = static_cast<uint32_t>(load64(p) >> 63);
      uint32_t want = e.u32(l, e.op(2)) >> 31;
      e.setp(l, e.op(0), cur != want);
    });
    return;
  }
  if (e.in.has("CCTL")) {
    if (!e.in.has("IV")) e.trap("only SYNCS.CCTL.IV is modelled");
    e.each([&](int l) {
      uint32_t a = bar_addr(e, l, e.op(mi));
      store64(e.mem(l, 's', a, 8), 0);
      e.cta.mbar_tx.erase(a);
    });
    return;
  }
  e.trap("SYNCS form not modelled");
}

// UBLKCP.S.G [URd], [URs], URn / UBLKCP.G.S [URd], [URs], URn (cp.async.bulk): n * 16 bytes,
// copied at once (the copy is complete before any later instruction of any warp runs, which
// is one of the orders the asynchronous copy allows). .S.G: URd = the shared destination,
// URd+1 the mbarrier whose transaction count the bytes complete (complete_tx), URs:URs+1 the
// global source; .G.S: URd:URd+1 the global destination, URs the shared source. Executed once
// per issue (uniform operands), for the lowest lane of the group.
void op_ublkcp(Exec& e) {
  bool s_g = e.in.mods.size() >= 2 && e.in.mods[0] == "S" && e.in.mods[1] == "G";
  bool g_s = e.in.mods.size() >= 2 && e.in.mods[0] == "G" && e.in.mods[1] == "S";
  if ((!s_g && !g_s) || e.nops() != 3 || e.in.has("MULTICAST"))
    e.trap("only UBLKCP.S.G / UBLKCP.G.S [UR], [UR], UR is modelled");
  const Operand& d = e.op(0);
  const Operand& s = e.op(1);
  if (d.mem_base < 0 || !d.mem_base_ureg || s.mem_base < 0 || !s.mem_base_ureg)
    e.trap("UBLKCP operands must be uniform registers");
  int l = __builtin_ctz(e.mask);
  uint32_t n = e.u32(l, e.op(2)) * 16;
  auto ur = [&](int r) { return e.ureg(r); };
  // 16-byte pieces: each is bounds checked and 16-byte aligned, which is what cp.async.bulk
  // requires of its addresses and size (Exec::mem would demand alignment to the whole size).
  if (s_g) {
    uint32_t dst = ur(d.mem_base), bar = ur(d.mem_base + 1);
    uint64_t src = uint64_t{ur(s.mem_base + 1)} << 32 | ur(s.mem_base);
    for (uint32_t o = 0; o < n; o += 16) std::memcpy(e.mem(l, 's', dst + o, 16), e.mem(l, 'g', src + o, 16), 16);
    mbar_update(e, l, bar, 0, -static_cast<int64_t>(n), false);
  } else {
    uint64_t dst = uint64_t{ur(d.mem_base + 1)} << 32 | ur(d.mem_base);
    uint32_t src = ur(s.mem_base);
    for (uint32_t o = 0; o < n; o += 16) std::memcpy(e.mem(l, 'g', dst + o, 16), e.mem(l, 's', src + o, 16), 16);
  }
}

// ARRIVES.LDGSTSBAR.64.TRANSCNT|ARVCNT [a] (cp.async.mbarrier.arrive[.noinc]): an arrival on
// the barrier once this thread's LDGSTS copies are done; the emulator's LDGSTS completes at
// issue, so the arrival happens at once. TRANSCNT follows ptxas's A0T1 (one more pending
// arrival), so both forms count one arrival here.
void op_arrives(Exec& e) {
  if (!e.in.has("LDGSTSBAR") || !e.in.has("64") || e.nops() != 1) e.trap("only ARRIVES.LDGSTSBAR.64 [a] is modelled");
  e.each([&](int l) { mbar_update(e, l, bar_addr(e, l, e.op(0)), 1, 0, false); });
}

// USETMAXREG.TRY_ALLOC.CTAPOOL UP, n / USETMAXREG.DEALLOC.CTAPOOL n (setmaxnreg). The emulator
// has no per-warp register budget: an allocation always succeeds (UP = true) and a release
// does nothing. GUESS-free for results: a kernel's values do not depend on the budget.
void op_setmaxreg(Exec& e) {
  if (e.in.has("TRY_ALLOC")) {
    if (e.nops() != 2 || e.op(0).kind != OpndKind::UPred) e.trap("USETMAXREG.TRY_ALLOC form not modelled");
    e.each([&](int l) { e.setp(l, e.op(0), true); });
  }
}

}  // namespace ptxmini::exec
