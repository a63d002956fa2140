#!/usr/bin/env python3
"""Compile PTX with ptxas (or ptxas-mini) and run the hazard checker on every cubin.

    tests/scheduler/hazard_corpus.py --sass-mc build/bin/sass-mc --corpus
        every /work/corpus/ptx/*.ptx with -arch=sm_90 and /work/corpus/ptx90a/*.ptx with
        -arch=sm_90a (re-listed at each run: the corpus grows), compiled by ptxas 13.0
        (cached by content under /work/cache/hazard, never in the repository), checked by
        `sass-mc -check-hazards`. Prints files checked / instructions / violations and exits 1
        when a violation is found (the latency model may not be stricter than ptxas).

    tests/scheduler/hazard_corpus.py --sass-mc build/bin/sass-mc --compiler ptxas-mini \\
        --ptxas-mini build/bin/ptxas-mini --strict DIR_OR_FILE...
        ptxas-mini's cubins of the given PTX (.ptx, or .cu compiled to PTX by nvcc first),
        checked with -strict (ptxas-mini never relies on unscoreboarded variable latency).
        PTX that ptxas-mini cannot compile yet is counted as skipped, with the reason.

Other options: --dump-deps FILE (the checker's dependence lines, the input of
derive_latencies.py), --jobs N, --cache DIR, --min-files N (fail when fewer files were
checked: a test that checks nothing must not pass).
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

SUMMARY = re.compile(
    r"hazards: (\d+) files, (\d+) functions, (\d+) instructions \((\d+) undecoded, (\d+) opaque\), "
    r"(\d+) dependent reads, (\d+) violations, (\d+) unverified.*?, (\d+) shared scoreboards(.*)")


def find_tool(name, given, extra_dirs):
    if given:
        return given
    for d in extra_dirs:
        p = os.path.join(d, name)
        if os.path.exists(p):
            return p
    return shutil.which(name)


def sha16(path):
    h = hashlib.sha1()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()[:16]


def compile_one(args, src, arch, workdir):
    """Returns (cubin path or None, skip reason or None)."""
    base = os.path.splitext(os.path.basename(src))[0]
    ptx = src
    if src.endswith(".cu"):
        ptx = os.path.join(workdir, base + ".ptx")
        r = subprocess.run([args.nvcc, "-arch=" + arch, "-ptx", src, "-o", ptx],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return None, "nvcc failed: " + r.stderr.strip()[:200]
    if args.compiler == "ptxas":
        key = sha16(ptx)
        d = os.path.join(args.cache, arch)
        os.makedirs(d, exist_ok=True)
        cubin = os.path.join(d, "%s.%s.cubin" % (base, key))
        if os.path.exists(cubin):
            return cubin, None
        if os.path.exists(cubin + ".fail"):
            return None, "ptxas failed (cached)"
        tmp = cubin + ".tmp%d" % os.getpid()
        r = subprocess.run(["nice", args.ptxas, "-arch=" + arch, ptx, "-o", tmp],
                           capture_output=True, text=True)
        if r.returncode != 0:
            open(cubin + ".fail", "w").write(r.stderr)
            return None, "ptxas failed: " + r.stderr.strip()[:200]
        os.replace(tmp, cubin)
        return cubin, None
    cubin = os.path.join(workdir, base + ".mini.cubin")
    r = subprocess.run([args.ptxas_mini, "-arch=" + arch, ptx, "-o", cubin],
                       capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(cubin):
        msg = (r.stderr or r.stdout).strip().splitlines()
        return None, "ptxas-mini: " + (msg[0] if msg else "no cubin")[:200]
    return cubin, None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="*", help="PTX/CUDA files or directories (default: --corpus)")
    ap.add_argument("--corpus", action="store_true", help="the real-PTX corpus under /work/corpus")
    ap.add_argument("--corpus-root", default="/work/corpus")
    ap.add_argument("--arch", default="sm_90", help="arch for the given inputs")
    ap.add_argument("--sass-mc", required=True)
    ap.add_argument("--compiler", choices=["ptxas", "ptxas-mini"], default="ptxas")
    ap.add_argument("--ptxas")
    ap.add_argument("--ptxas-mini")
    ap.add_argument("--nvcc")
    ap.add_argument("--cache", default="/work/cache/hazard")
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--dump-deps")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--min-files", type=int, default=1)
    ap.add_argument("--show", type=int, default=40, help="violation lines to print")
    args = ap.parse_args()

    cuda_dirs = ["/usr/local/cuda/bin"]
    args.ptxas = find_tool("ptxas", args.ptxas, cuda_dirs)
    args.nvcc = find_tool("nvcc", args.nvcc, cuda_dirs)
    if args.compiler == "ptxas" and not args.ptxas:
        print("SKIPPED: ptxas not found")
        return 77

    jobs = []  # (source, arch)
    if args.corpus:
        for sub, arch in (("ptx", "sm_90"), ("ptx90a", "sm_90a")):
            d = os.path.join(args.corpus_root, sub)
            if os.path.isdir(d):
                jobs += [(os.path.join(d, f), arch) for f in sorted(os.listdir(d)) if f.endswith(".ptx")]
    for i in args.inputs:
        if os.path.isdir(i):
            jobs += [(os.path.join(i, f), args.arch) for f in sorted(os.listdir(i))
                     if f.endswith(".ptx") or f.endswith(".cu")]
        else:
            jobs.append((i, args.arch))
    if any(s.endswith(".cu") for s, _ in jobs) and not args.nvcc:
        print("SKIPPED: nvcc not found (needed for .cu inputs)")
        return 77

    work = tempfile.mkdtemp(prefix="hazard_")
    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            results = list(ex.map(lambda j: (j, compile_one(args, j[0], j[1], work)), jobs))
        cubins = [c for (_, (c, _r)) in results if c]
        skipped = [(j[0], r) for (j, (c, r)) in results if not c]
        totals = [0] * 9
        extra = {}
        lines = []
        deps_files = []
        batch = 40
        for b in range(0, len(cubins), batch):
            cmd = [args.sass_mc, "-check-hazards"] + (["-strict"] if args.strict else [])
            if args.dump_deps:
                deps_files.append(os.path.join(work, "deps%d.txt" % b))
                cmd += ["-dump-deps", deps_files[-1]]
            r = subprocess.run(cmd + cubins[b:b + batch], capture_output=True, text=True)
            out = r.stdout.splitlines()
            for line in out:
                m = SUMMARY.match(line)
                if m:
                    vals = [int(m.group(k)) for k in range(1, 10)]
                    totals = [a + v for a, v in zip(totals, vals)]
                    for kind, n in re.findall(r"([a-z-]+) (\d+)", m.group(10)):
                        extra[kind] = extra.get(kind, 0) + int(n)
                elif line.strip():
                    lines.append(line)
            if not any(SUMMARY.match(l) for l in out):
                print("sass-mc failed: " + (r.stderr.strip() or "no summary"))
                return 2
        if args.dump_deps:
            with open(args.dump_deps, "w") as o:
                for f in deps_files:
                    with open(f) as i:
                        shutil.copyfileobj(i, o)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    for l in lines[:args.show]:
        print(l)
    if len(lines) > args.show:
        print("... %d more violation lines" % (len(lines) - args.show))
    for s, r in skipped[:10]:
        print("skipped %s: %s" % (os.path.basename(s), r))
    if len(skipped) > 10:
        print("... %d more skipped" % (len(skipped) - 10))
    files, funcs, insts, undec, opq, reads, viol, unver, shared = totals
    kinds = ", ".join("%s %d" % kv for kv in sorted(extra.items()))
    print("compiler %s%s: %d files checked (%d skipped), %d functions, %d instructions "
          "(%d undecoded, %d opaque), %d dependent reads, %d violations, %d unverified, "
          "%d shared scoreboards%s" % (args.compiler, " (strict)" if args.strict else "", files,
                                      len(skipped), funcs, insts, undec, opq, reads, viol, unver,
                                      shared, (" [" + kinds + "]") if kinds else ""))
    if files < args.min_files:
        print("FAIL: fewer than %d files checked" % args.min_files)
        return 1
    return 1 if viol else 0


if __name__ == "__main__":
    sys.exit(main())
