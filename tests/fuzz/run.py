#!/usr/bin/env python3
"""Differential runner for generated PTX programs (issue 15).

    run.py [--seeds A-B | --count N [--start S]] [-j J] [--size S] [--bin DIR] [--ptxas P]
           [--results DIR] [--no-phases] [--quiet]

For each seed: tests/fuzz/gen.py writes a program and its launch description; it is compiled
by ptxas-mini -O0, ptxas-mini -O3, ptxas-mini -O3 with each implemented optimization phase
disabled in turn (-knob DisablePhases=<name>; the phases are read from
`ptxas-mini --list-phases`: status "implemented" with a minimum -O level of 1 or more, so
phases landing later are picked up without touching this file), ptxas -O0 and ptxas -O3.
Every cubin runs on the SASS emulator (exec-run --no-ref --dump) with the same inputs and all
output buffers are compared bit for bit.

  - reference: ptxas -O0's outputs. A program whose ptxas -O0 cubin ptxas rejects or the
    emulator cannot run is SKIPPED (the reason is counted), never passed.
  - failure: any ptxas-mini configuration that fails to compile, traps on the emulator or
    whose outputs differ from the reference or from each other.
  - ptxas -O3 is compared with ptxas -O0 separately: a difference is recorded (results/
    ptxas_o3/) and counted, but is not a failure of ptxas-mini.
A failure saves seed, PTX, description, SASS listings (build/bin/sass-mc -disassemble) and
outputs of the two configurations that disagree under results/fail/seed<N>/.

The last line is `N passed, N failed` (ctest reads it); exit status 0 when nothing failed,
1 otherwise, 77 when ptxas is missing (ctest SKIPPED)."""
import argparse
import collections
import multiprocessing
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

CFG = {}  # filled in main(), read by workers (fork start method)


def first_line(s):
    s = (s or "").strip()
    return s.splitlines()[0] if s else ""


def opt_phases(mini):
    """Implemented phases that only run at -O1 and above (optimizations): their names."""
    r = subprocess.run([mini, "--list-phases"], capture_output=True, text=True)
    out = []
    for line in r.stdout.splitlines():
        m = re.match(r"\s*(\d+)\s+(\S+)\s+implemented\s+(\d+)\s", line)
        if m and int(m.group(3)) >= 1:
            out.append(m.group(2))
    return out


def configs():
    ptxas = CFG["ptxas"]
    extra = [x for k in CFG.get("mini_knobs", []) for x in ("-knob", k)]
    mini = [CFG["mini"], "-arch=sm_90"] + CFG["mini_flags"] + extra
    c = [("ptxas-O0", [ptxas, "-arch=sm_90", "-O0"]), ("mini-O0", mini + ["-O0"]),
         ("mini-O3", mini + ["-O3"])]
    for p in CFG["phases"]:
        c.append(("mini-O3-no-" + p, mini + ["-O3", "-knob", "DisablePhases=" + p]))
    c.append(("ptxas-O3", [ptxas, "-arch=sm_90", "-O3"]))
    return c


def run_config(w, name, cmd, ptx, desc, buffers):
    """-> (status, detail, outputs): status ok | reject | crash | trap | timeout."""
    cubin = os.path.join(w, name + ".cubin")
    try:
        r = subprocess.run(cmd + [ptx, "-o", cubin], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "timeout", "compiler timed out", None
    if r.returncode:
        kind = "reject" if r.returncode in (1, 255) else "crash"
        return kind, "exit %d: %s" % (r.returncode, first_line(r.stderr) or first_line(r.stdout)), None
    d = os.path.join(w, name + ".out")
    os.makedirs(d, exist_ok=True)
    try:
        r = subprocess.run([CFG["exec_run"], "--cubin", cubin, "--desc", desc, "--no-ref", "--dump", d],
                           capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "timeout", "emulator timed out", None
    if r.returncode:
        msg = [l for l in (r.stdout + r.stderr).splitlines() if "TRAP" in l.upper() or "error" in l.lower()]
        return "trap", (msg[0] if msg else first_line(r.stdout + r.stderr)), None
    outs = {b: open(os.path.join(d, b + ".bin"), "rb").read() for b in buffers}
    return "ok", "", outs


def diff_text(a, b):
    out = []
    for buf in a:
        x, y = a[buf], b[buf]
        words = [i for i in range(0, min(len(x), len(y)), 8) if x[i:i + 8] != y[i:i + 8]]
        if words:
            out.append("%s: %d of %d u64 words differ, first at word %s" % (
                buf, len(words), len(x) // 8, ", ".join(str(i // 8) for i in words[:6])))
    return "; ".join(out)


def save(dest, seed, ptx_text, desc_text, w, names, note):
    os.makedirs(dest, exist_ok=True)
    open(os.path.join(dest, "prog.ptx"), "w").write(ptx_text)
    open(os.path.join(dest, "prog.desc"), "w").write(desc_text)
    open(os.path.join(dest, "README"), "w").write("seed %d (size %d)\n%s\n" % (seed, CFG["size"], note))
    for n in names:
        cubin = os.path.join(w, n + ".cubin")
        if os.path.exists(cubin):
            shutil.copy(cubin, os.path.join(dest, n + ".cubin"))
            r = subprocess.run([CFG["sass_mc"], "-disassemble", cubin], capture_output=True, text=True)
            open(os.path.join(dest, n + ".sass"), "w").write(r.stdout + r.stderr)
        od = os.path.join(w, n + ".out")
        if os.path.isdir(od):
            shutil.copytree(od, os.path.join(dest, n + ".out"), dirs_exist_ok=True)


def one(seed):
    """-> (seed, verdict, detail, o3_diff)  verdict: pass | fail | skip."""
    ptx_text, desc_text = gen.generate(seed, CFG["size"], CFG["features"])
    with tempfile.TemporaryDirectory(prefix="fz%d_" % seed) as w:
        ptx, desc = os.path.join(w, "prog.ptx"), os.path.join(w, "prog.desc")
        open(ptx, "w").write(ptx_text)
        open(desc, "w").write(desc_text)
        buffers = [l.split()[1] for l in desc_text.splitlines() if l.startswith("output ")]
        res = {}
        for name, cmd in configs():
            res[name] = run_config(w, name, cmd, ptx, desc, buffers)
            if name == "ptxas-O0" and res[name][0] != "ok":
                st, det, _ = res[name]
                return seed, "skip", "ptxas -O0: %s: %s" % (st, det), None
        ref = res["ptxas-O0"][2]
        problems = []
        for name, (st, det, outs) in res.items():
            if not name.startswith("mini"):
                continue
            if st != "ok":
                problems.append((name, "%s: %s" % (st, det)))
            elif outs != ref:
                problems.append((name, "outputs differ from ptxas-O0: " + diff_text(ref, outs)))
        o3 = None
        st, det, outs = res["ptxas-O3"]
        if st != "ok":
            o3 = "ptxas -O3 %s: %s" % (st, det)
        elif outs != ref:
            o3 = "ptxas -O3 differs from ptxas -O0: " + diff_text(ref, outs)
        if o3 and CFG["results"] and st == "ok":
            save(os.path.join(CFG["results"], "ptxas_o3", "seed%d" % seed), seed, ptx_text, desc_text, w,
                 ["ptxas-O0", "ptxas-O3", "mini-O0"], o3)
        if problems:
            note = "\n".join("%s: %s" % p for p in problems)
            if CFG["results"]:
                names = ["ptxas-O0"] + [p[0] for p in problems]
                if "mini-O0" not in names:
                    names.append("mini-O0")
                save(os.path.join(CFG["results"], "fail", "seed%d" % seed), seed, ptx_text, desc_text, w, names, note)
            return seed, "fail", note, o3
        return seed, "pass", "", o3


def parse_seeds(a):
    if a.seeds:
        out = []
        for part in a.seeds.split(","):
            if "-" in part:
                lo, hi = part.split("-")
                out += list(range(int(lo), int(hi) + 1))
            else:
                out.append(int(part))
        return out
    return list(range(a.start, a.start + a.count))


def main():
    root = os.path.dirname(os.path.dirname(HERE))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", help="A-B[,C,...]: these seeds")
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--size", type=int, default=40, help="statements per program (gen.py --size)")
    ap.add_argument("--bin", default=os.path.join(root, "build", "bin"))
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    ap.add_argument("--results", default="fuzz-results", help="where failures are saved ('' = nowhere)")
    ap.add_argument("--features", default="", help="optional generator features (gen.py --features)")
    ap.add_argument("--no-phases", action="store_true", help="skip the DisablePhases configurations")
    ap.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    ap.add_argument("--phases", default="", help="only these DisablePhases configurations (comma-separated names)")
    ap.add_argument("--mini-knob", action="append", default=[],
                    help="NAME=VALUE passed to every ptxas-mini configuration (repeatable), e.g. to force a code path")
    ap.add_argument("--mini-flags", default="",
                    help="extra ptxas-mini options for every ptxas-mini configuration, e.g. "
                         "'-knob RegAllocLimit=24' to force spilling")
    a = ap.parse_args()
    if not a.ptxas or not os.path.exists(a.ptxas):
        print("SKIPPED: ptxas not found (%s)" % a.ptxas)
        return 77
    mini = os.path.join(a.bin, "ptxas-mini")
    for t in ("ptxas-mini", "exec-run", "sass-mc"):
        if not os.path.exists(os.path.join(a.bin, t)):
            print("error: %s not built in %s" % (t, a.bin))
            return 1
    CFG.update(mini=mini, mini_flags=shlex.split(a.mini_flags), ptxas=a.ptxas, exec_run=os.path.join(a.bin, "exec-run"),
               sass_mc=os.path.join(a.bin, "sass-mc"), size=a.size,
               features=[f for f in a.features.split(",") if f],
               results=os.path.abspath(a.results) if a.results else "",
               phases=[] if a.no_phases else [p for p in opt_phases(mini)
                                              if not a.phases or p in a.phases.split(",")],
               mini_knobs=a.mini_knob)
    seeds = parse_seeds(a)
    print("fuzz: %d programs, configurations: %s" % (len(seeds), ", ".join(n for n, _ in configs())), flush=True)
    counts = collections.Counter()
    skips = collections.Counter()
    o3n = o3trap = 0
    fails = []
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(a.j) as pool:
        for seed, verdict, detail, o3 in pool.imap_unordered(one, seeds):
            counts[verdict] += 1
            if o3:
                if "differs" in o3:
                    o3n += 1
                else:
                    o3trap += 1
                if not a.quiet or "differs" in o3:
                    print("seed %d: %s" % (seed, o3), flush=True)
            if verdict == "skip":
                skips[re.sub(r"0x[0-9a-f]+|\d+", "N", detail)[:120]] += 1
                if not a.quiet:
                    print("seed %d: SKIPPED (%s)" % (seed, detail), flush=True)
            elif verdict == "fail":
                fails.append(seed)
                print("seed %d: FAIL\n  %s" % (seed, detail.replace("\n", "\n  ")), flush=True)
            elif not a.quiet:
                print("seed %d: ok" % seed, flush=True)
            done = sum(counts.values())
            if done % 100 == 0 and done < len(seeds):
                # A long run stopped early still accounts for what it ran.
                print("progress: %d of %d: %d passed, %d failed, %d skipped, ptxas -O3 != -O0 %d, not run %d"
                      % (done, len(seeds), counts["pass"], counts["fail"], counts["skip"], o3n, o3trap), flush=True)
    print("programs run: %d; skipped: %d; mismatches involving ptxas-mini: %d; ptxas -O3 != ptxas -O0: %d"
          " (ptxas -O3 not compared, the emulator cannot run its cubin: %d)"
          % (counts["pass"] + counts["fail"], counts["skip"], counts["fail"], o3n, o3trap))
    for why, n in skips.most_common():
        print("  skipped %d: %s" % (n, why))
    if fails:
        print("failing seeds: %s (saved under %s/fail)" % (" ".join(map(str, sorted(fails))), CFG["results"]))
    print("%d passed, %d failed" % (counts["pass"], counts["fail"]))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
