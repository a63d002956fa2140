#!/usr/bin/env python3
"""Derive the sm_90 latency table (targets/sm_90/latencies.def) from ptxas's own code.

    tests/scheduler/hazard_corpus.py --sass-mc build/bin/sass-mc --corpus --dump-deps deps.txt
    tests/scheduler/derive_latencies.py deps.txt [--members] [--ops]

The checker's dependence dump has one line per register read that found a fixed-latency
producer in flight (`RAW writerClass readerClass file kind cycles writer reader`, cycles = the
stall cycles ptxas left between them along the worst path), one per scoreboard wait
(`SBWAIT cycles` since the youngest setter) and one per instruction (`OP mnemonic stall yield
writeSb readSb`). ptxas's code is correct, so the smallest distance it ever leaves between a
writer class and a dependent reader class is an upper bound of the hardware latency, and the
strongest evidence there is: the table takes it. Prints RAW(...) rows with their evidence
(pairs seen, the member pairs that reach the minimum), the scoreboard set-to-wait minimum,
and with --ops per-opcode scoreboard use, smallest stall and yield pattern.
"""
import argparse
import collections
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("deps")
    ap.add_argument("--members", action="store_true", help="per writer/reader opcode minima")
    ap.add_argument("--ops", action="store_true", help="per-opcode scoreboard/stall/yield statistics")
    ap.add_argument("--min-pairs", type=int, default=1)
    args = ap.parse_args()

    cells = collections.defaultdict(lambda: [10 ** 9, 0, collections.Counter()])
    members = collections.defaultdict(lambda: [10 ** 9, 0])
    sbwait = collections.Counter()
    ops = collections.defaultdict(lambda: {"n": 0, "w": 0, "r": 0, "stall": collections.Counter(),
                                           "yield": collections.Counter()})
    with open(args.deps) as f:
        for line in f:
            p = line.split()
            if not p:
                continue
            if p[0] == "RAW" and len(p) == 8:
                w, r, fl, kind, cyc, wm, rm = p[1], p[2], p[3], p[4], int(p[5]), p[6], p[7]
                c = cells[(w, r, fl, kind)]
                if cyc < c[0]:
                    c[0] = cyc
                    c[2] = collections.Counter()
                if cyc == c[0]:
                    c[2][(wm, rm)] += 1
                c[1] += 1
                m = members[(wm, rm, fl, kind, w, r)]
                m[0] = min(m[0], cyc)
                m[1] += 1
            elif p[0] == "SBWAIT":
                sbwait[int(p[1])] += 1
            elif p[0] == "OP" and len(p) == 6:
                o = ops[p[1]]
                o["n"] += 1
                o["w"] += p[4] != "7"
                o["r"] += p[5] != "7"
                o["stall"][int(p[2])] += 1
                o["yield"][(int(p[2]), p[3])] += 1

    print("// Derived by tests/scheduler/derive_latencies.py from %d dependent reads." %
          sum(c[1] for c in cells.values()))
    rows = collections.defaultdict(list)
    for (w, r, fl, kind), (mn, n, ex) in cells.items():
        if n >= args.min_pairs:
            rows[(w, fl, kind)].append((r, mn, n, ex))
    for (w, fl, kind) in sorted(rows):
        cells = sorted(rows[(w, fl, kind)], key=lambda x: x[0])
        # The row default (readers never seen after this writer): the largest measured cell,
        # so the scheduler stays on the safe side where the corpus has no evidence.
        print("RAW_ANY(%-8s %-2s %-5s %2d)  // GUESS: the largest measured cell of the row" %
              (w + ",", fl + ",", kind + ",", max(c[1] for c in cells)))
        for r, mn, n, ex in cells:
            top = ", ".join("%s->%s" % k for k, _ in ex.most_common(2))
            print("RAW(%-8s %-8s %-2s %-5s %2d)  // HW: min over %d pairs (%s)" %
                  (w + ",", r + ",", fl + ",", kind + ",", mn, n, top))
    if sbwait:
        print("// scoreboard set -> first wait: min %d cycles over %d waits %s" %
              (min(sbwait), sum(sbwait.values()), sorted(sbwait.items())[:6]))
    if args.members:
        print("// member pairs (writer reader file kind class pair: min / count)")
        for k in sorted(members, key=lambda k: (k[4], k[5], k[2], k[3], members[k][0])):
            mn, n = members[k]
            if n >= 20:
                print("//   %-14s %-14s %-2s %-5s %s->%s: %d / %d" % (k[0], k[1], k[2], k[3], k[4], k[5], mn, n))
    if args.ops:
        print("// opcode: count, write SB %, read SB %, smallest stall, share with yield bit clear ('Y')")
        for name in sorted(ops, key=lambda x: -ops[x]["n"]):
            o = ops[name]
            y = sum(v for (st, yb), v in o["yield"].items() if yb == "1")
            print("//   %-14s %7d  W %5.1f%%  R %5.1f%%  min stall %2d  Y %5.1f%%" %
                  (name, o["n"], 100.0 * o["w"] / o["n"], 100.0 * o["r"] / o["n"],
                   min(o["stall"]), 100.0 * y / o["n"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
