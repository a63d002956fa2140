/* ops_warp.cpp - instructions that combine the lanes of a warp: SHFL, VOTE, MATCH, REDUX.
 * They see the group of lanes issuing together (the guard-true lanes at this PC). */
#include "tests/exec/emu/ops.h"

namespace ptxmini::exec {

// SHFL.{IDX,UP,DOWN,BFLY} Pd, d, a, b, c: PTX shfl.sync semantics with c = clamp[4:0] |
// segmask[12:8]. HW: ptxas 13.0 prints PTX's packed c unchanged ("SHFL.DOWN PT, R21, R4, 0x1,
// 0x101f" for width 16, "SHFL.UP ..., RZ"); the warp_ops exec test checks all four modes and the
// 16-lane segment. Pd = source lane in range.
void op_shfl(Exec& e) {
  std::string mode = e.in.pick({"IDX", "UP", "DOWN", "BFLY"});
  uint32_t vals[32];
  for (int l = 0; l < 32; ++l) vals[l] = e.u32(l, e.op(2));
  e.each([&](int l) {
    uint32_t b = e.u32(l, e.op(3)) & 31, c = e.u32(l, e.op(4));
    uint32_t clamp = c & 31, seg = (c >> 8) & 31;
    uint32_t lane = static_cast<uint32_t>(l);
    uint32_t maxl = (lane & seg) | (clamp & ~seg), minl = lane & seg;
    int64_t j;
    bool ok;
    if (mode == "UP") { j = int64_t{lane} - b; ok = j >= static_cast<int64_t>(maxl); }
    else if (mode == "DOWN") { j = int64_t{lane} + b; ok = j <= static_cast<int64_t>(maxl); }
    else if (mode == "BFLY") { j = lane ^ b; ok = j <= static_cast<int64_t>(maxl); }
    else { j = minl | (b & ~seg); ok = j <= static_cast<int64_t>(maxl); }
    if (!ok) j = lane;
    e.set(l, e.op(1), vals[j]);
    e.setp(l, e.op(0), ok);
  });
}

// VOTE.{ANY,ALL,EQ} [d,] Pd, Ps : d = ballot of Ps over the group; Pd = any/all/uniform.
void op_vote(Exec& e) {
  bool has_r = e.op(0).kind == OpndKind::Reg || e.op(0).kind == OpndKind::UReg;
  size_t pd = has_r ? 1 : 0, ps = pd + 1;
  uint32_t ballot = 0;
  e.each([&](int l) { if (e.pred(l, e.op(ps))) ballot |= 1u << l; });
  bool any = ballot != 0, all = ballot == e.mask, eq = ballot == 0 || all;
  bool r = e.in.has("ALL") ? all : e.in.has("EQ") ? eq : any;
  e.each([&](int l) {
    if (has_r) e.set(l, e.op(0), ballot);
    e.setp(l, e.op(pd), r);
  });
}

// MATCH.ANY d, a : lanes of the group holding the same value; MATCH.ALL Pd, d, a : the group
// if all hold the same value, else 0, and Pd whether they did (HW: nvdisasm 13.2 prints
// ptxas's `match.all.sync` as "MATCH.ALL P1, R0, R4"). .U64 compares register pairs.
void op_match(Exec& e) {
  bool wide = e.in.has("U64");
  const Operand& a = e.op(e.nops() - 1);
  uint64_t v[32];
  e.each([&](int l) { v[l] = wide ? e.u64(l, a) : e.u32(l, a); });
  if (e.in.has("ALL")) {
    if (e.nops() != 3 || e.op(0).kind != OpndKind::Pred) e.trap("MATCH.ALL expects Pd, d, a");
    bool same = true;
    int first = __builtin_ctz(e.mask);
    e.each([&](int l) { same = same && v[l] == v[first]; });
    e.each([&](int l) {
      e.set(l, e.op(1), same ? e.mask : 0);
      e.setp(l, e.op(0), same);
    });
    return;
  }
  e.each([&](int l) {
    uint32_t m = 0;
    e.each([&](int k) { if (v[k] == v[l]) m |= 1u << k; });
    e.set(l, e.op(0), m);
  });
}

// ELECT Pd, URd, Pm : one leader among the group's lanes whose Pm holds (the lowest):
// Pd true in the leader only, URd = the leader's lane id (HW: ptxas 13.0 compiles
// `elect.sync %r|%p, -1` to "ELECT P0, UR4, PT" and uses UR4 as %r, PTX's leader lane).
void op_elect(Exec& e) {
  uint32_t cand = 0;
  e.each([&](int l) { if (e.pred(l, e.op(2))) cand |= 1u << l; });
  int leader = cand ? __builtin_ctz(cand) : -1;
  e.each([&](int l) {
    e.setp(l, e.op(0), l == leader);
    e.set(l, e.op(1), static_cast<uint32_t>(leader < 0 ? 0 : leader));
  });
}

// REDUX.{SUM,MIN,MAX,AND,OR,XOR}[.S32|.U32] d, a : reduction over the group (d usually UR).
// AND is the default operation and is not printed (HW: ptxas 13.0 aggregates a warp's
// atomicAnd with "REDUX UR9, R12"; the atomics2 exec test checks it).
void op_redux(Exec& e) {
  std::string k = e.in.pick({"SUM", "MIN", "MAX", "AND", "OR", "XOR"});
  if (k.empty()) k = "AND";
  bool s = e.in.has("S32");
  bool first = true;
  uint32_t acc = 0;
  e.each([&](int l) {
    uint32_t x = e.u32(l, e.op(1));
    if (first) { acc = x; first = false; return; }
    if (k == "SUM") acc += x;
    else if (k == "AND") acc &= x;
    else if (k == "OR") acc |= x;
    else if (k == "XOR") acc ^= x;
    else {
      bool less = s ? static_cast<int32_t>(x) < static_cast<int32_t>(acc) : x < acc;
      if ((k == "MIN") == less) acc = x;
    }
  });
  e.each([&](int l) { e.set(l, e.op(0), acc); });
}

}  // namespace ptxmini::exec
