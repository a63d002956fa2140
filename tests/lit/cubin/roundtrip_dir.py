#!/usr/bin/env python3
"""Round-trip every PTX file of a folder through ptxas and `sass-mc -rewrite`.

For each *.ptx in FOLDER and each requested variant (ptxas flags), compile with ptxas, read
the cubin into ptxas-mini's model and write it back (`sass-mc -rewrite`), then compare the
two files byte by byte. With --cuobjdump, also compare the names sass-mc -elf prints
(attribute names, relocation names, section types) with the ones cuobjdump -elf prints.

Prints one line per difference and a summary:
    roundtrip: identical N / total M (differ D, unreadable U, ptxas-failed P)
and exits 1 when D or U is not zero. A file ptxas rejects for a variant (for example an
extern call in whole-program mode) is counted under ptxas-failed, not in the total.

Usage (the full-corpus run):
    nice -n 10 tests/lit/cubin/roundtrip_dir.py --ptxas /usr/local/cuda/bin/ptxas \
        --sass-mc build/bin/sass-mc --arch sm_90 --variants default,c,lineinfo -j 2 DIR
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

VARIANTS = {
    "default": [],
    "c": ["-c"],
    "lineinfo": ["-lineinfo"],
    "g": ["-g"],
    "O0": ["-O0"],
}


def names(text, pattern):
    return re.findall(pattern, text, re.M)


def compare_names(cuobjdump, sass_mc, cubin):
    """Attribute/relocation/section-type names as cuobjdump and sass-mc print them."""
    ref = subprocess.run([cuobjdump, "-elf", cubin], capture_output=True, text=True)
    ours = subprocess.run([sass_mc, "-elf", cubin], capture_output=True, text=True)
    if ref.returncode != 0 or ours.returncode != 0:
        return "elf dump failed"
    for what, pat in [("attribute", r"^\tAttribute:\t(\S+)"),
                      ("relocation", r"^(0x[0-9a-f]+)\s+(\S+)\s+(R_CUDA_\w+)\s"),
                      ("section type", r"^\s+[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+"
                                       r"[0-9a-f]+\s+(\S+)\s+[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+\S+$")]:
        a, b = names(ref.stdout, pat), names(ours.stdout, pat)
        if what == "relocation":  # cuobjdump prints relocation sections in another order
            a, b = sorted(a), sorted(b)
        if a != b:
            diff = [(x, y) for x, y in zip(a, b) if x != y][:3]
            return "%s names differ (cuobjdump, sass-mc): %s%s" % (
                what, diff, "" if len(a) == len(b) else " count %d vs %d" % (len(a), len(b)))
    return None


def one(args, ptx, variant, tmp):
    base = os.path.join(tmp, os.path.basename(ptx) + "." + variant)
    cubin, back = base + ".cubin", base + ".rw.cubin"
    cmd = ["nice", "-n", "10", args.ptxas, "-arch=" + args.arch] + VARIANTS[variant] + \
        [ptx, "-o", cubin]
    if subprocess.run(cmd, capture_output=True).returncode != 0:
        return ("ptxas-failed", ptx, variant, "")
    r = subprocess.run([args.sass_mc, "-rewrite", cubin, "-o", back], capture_output=True,
                       text=True)
    if r.returncode != 0:
        return ("unreadable", ptx, variant, r.stderr.strip())
    with open(cubin, "rb") as f1, open(back, "rb") as f2:
        a, b = f1.read(), f2.read()
    if a != b:
        at = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        return ("differ", ptx, variant, "first difference at byte 0x%x" % at)
    if args.cuobjdump:
        why = compare_names(args.cuobjdump, args.sass_mc, cubin)
        if why:
            return ("differ", ptx, variant, why)
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        os.replace(cubin, os.path.join(args.keep, os.path.basename(cubin)))
    for p in (cubin, back):
        if os.path.exists(p):
            os.remove(p)
    return ("identical", ptx, variant, "")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder")
    ap.add_argument("--ptxas", required=True)
    ap.add_argument("--sass-mc", required=True)
    ap.add_argument("--cuobjdump")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--variants", default="default")
    ap.add_argument("--keep", help="move each cubin that round-trips here (fuzz seeds)")
    ap.add_argument("-j", type=int, default=2)
    args = ap.parse_args()
    variants = args.variants.split(",")
    for v in variants:
        if v not in VARIANTS:
            sys.exit("unknown variant '%s' (known: %s)" % (v, ", ".join(VARIANTS)))
    ptxs = sorted(os.path.join(args.folder, f) for f in os.listdir(args.folder)
                  if f.endswith(".ptx"))
    counts = {"identical": 0, "differ": 0, "unreadable": 0, "ptxas-failed": 0}
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=min(args.j, 2)) as ex:
        jobs = [ex.submit(one, args, p, v, tmp) for p in ptxs for v in variants]
        for j in jobs:
            status, ptx, variant, why = j.result()
            counts[status] += 1
            if status in ("differ", "unreadable"):
                print("%s: %s [%s] %s" % (status.upper(), ptx, variant, why))
    total = counts["identical"] + counts["differ"] + counts["unreadable"]
    print("roundtrip: identical %d / total %d (differ %d, unreadable %d, ptxas-failed %d)" % (
        counts["identical"], total, counts["differ"], counts["unreadable"],
        counts["ptxas-failed"]))
    return 1 if counts["differ"] or counts["unreadable"] else 0


if __name__ == "__main__":
    sys.exit(main())
