#!/usr/bin/env python3
"""Minimizer for a failing generated program (issue 15).

    reduce.py PROG.ptx PROG.desc --differ CONFIG [--same CONFIG,CONFIG...] [-o OUT.ptx]
              [--bin DIR] [--ptxas P]

CONFIG names are run.py's: ptxas-O0, ptxas-O3, mini-O0, mini-O3, mini-O3-no-<phase>.
A candidate is "interesting" when every named configuration compiles and runs on the emulator
without a trap, the --same configurations (default ptxas-O0) agree with each other, and the
--differ one disagrees with them. The reduction keeps the program interesting while it
  1. deletes lines of the body (ddmin: halves, quarters, ... down to single lines),
  2. deletes single instructions of lines holding several,
  3. drops guards (@p / @!p) and replaces register sources by 0 or 1,
and repeats until nothing more goes. What it never touches, so that no step can introduce
undefined behaviour: declarations, the prologue (everything before the `// body` marker
gen.py writes: it initializes every register the body reads), labels, bar.sync, loop
control (%l<n>, %lb<n>, %pl: a loop always terminates), and carry chains as a whole
(deleting an add.cc would leave an addc reading an unwritten carry).
Writes the reduced PTX (default: PROG.reduced.ptx) and prints its size."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402

PROTECT = re.compile(r"bar\.sync|%lb?\d|%pl\b|^\s*\$L|^\s*[{}.]|^\s*//|\bret;|\.cc\b|addc|subc|madc")


def outputs(w, cfgs, cmds, ptx_text, desc, buffers):
    ptx = os.path.join(w, "c.ptx")
    open(ptx, "w").write(ptx_text)
    res = {}
    for c in cfgs:
        st, _, outs = run.run_config(w, c, cmds[c], ptx, desc, buffers)
        if st != "ok":
            return None
        res[c] = outs
    return res


def main():
    root = os.path.dirname(os.path.dirname(HERE))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ptx")
    ap.add_argument("desc")
    ap.add_argument("--differ", required=True)
    ap.add_argument("--same", default="ptxas-O0")
    ap.add_argument("-o", "--output")
    ap.add_argument("--bin", default=os.path.join(root, "build", "bin"))
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    a = ap.parse_args()
    mini = os.path.join(a.bin, "ptxas-mini")
    run.CFG.update(mini=mini, ptxas=a.ptxas, exec_run=os.path.join(a.bin, "exec-run"),
                   sass_mc=os.path.join(a.bin, "sass-mc"), phases=run.opt_phases(mini),
                   mini_flags=[])
    cmds = dict(run.configs())
    same = a.same.split(",")
    cfgs = same + [a.differ]
    for c in cfgs:
        if c not in cmds:
            print("unknown configuration %s (known: %s)" % (c, ", ".join(cmds)))
            return 2
    desc_text = open(a.desc).read()
    buffers = [l.split()[1] for l in desc_text.splitlines() if l.startswith("output ")]
    lines = open(a.ptx).read().split("\n")
    body_at = next((i for i, l in enumerate(lines) if l.strip() == "// body"), None)
    if body_at is None:
        print("no '// body' marker: not a gen.py program")
        return 2
    tests = [0]

    with tempfile.TemporaryDirectory(prefix="fzred_") as w:
        desc = os.path.join(w, "c.desc")
        open(desc, "w").write(desc_text)

        def interesting(ls):
            tests[0] += 1
            res = outputs(w, cfgs, cmds, "\n".join(ls), desc, buffers)
            if res is None:
                return False
            ref = res[same[0]]
            return all(res[c] == ref for c in same) and res[a.differ] != ref

        if not interesting(lines):
            print("the input is not interesting (a configuration fails, or no difference)")
            return 1

        def movable(i, ls):
            return i > body_at and ls[i].strip() and not PROTECT.search(ls[i])

        # 1. ddmin over deletable lines
        changed = True
        while changed:
            changed = False
            idx = [i for i in range(len(lines)) if movable(i, lines)]
            n = 2
            while idx and n <= 2 * len(idx):
                chunk = max(1, len(idx) // n)
                progress = False
                for s in range(0, len(idx), chunk):
                    drop = set(idx[s:s + chunk])
                    cand = [l for i, l in enumerate(lines) if i not in drop]
                    if interesting(cand):
                        lines = cand
                        idx = [i for i in range(len(lines)) if movable(i, lines)]
                        progress = changed = True
                        break
                if not progress:
                    if chunk == 1:
                        break
                    n *= 2
            # 2. single instructions of multi-instruction lines, 3. guards and operands
            for i in range(len(lines)):
                if i >= len(lines) or not movable(i, lines):
                    continue
                parts = [p for p in lines[i].split(";") if p.strip()]
                if len(parts) > 1:
                    for k in range(len(parts)):
                        rest = parts[:k] + parts[k + 1:]
                        cand = lines[:i] + ["\t" + "; ".join(p.strip() for p in rest) + ";"] + lines[i + 1:]
                        if interesting(cand):
                            lines, changed = cand, True
                            break
                    continue
                l = lines[i]
                simpler = []
                g = re.match(r"(\s*)@!?%\w+\s+(.*)", l)
                if g:
                    simpler.append(g.group(1) + g.group(2))
                m = re.match(r"(\s*\S+\s+[^,]+,)(.*)", l)
                if m:
                    srcs = m.group(2)
                    for reg in sorted(set(re.findall(r"%(?:r|d|h)\d+", srcs))):
                        for v in ("0", "1"):
                            simpler.append(m.group(1) + re.sub(re.escape(reg) + r"\b", v, srcs))
                for cand_line in simpler:
                    cand = lines[:i] + [cand_line] + lines[i + 1:]
                    if interesting(cand):
                        lines, changed = cand, True
                        break

    out = a.output or re.sub(r"\.ptx$", "", a.ptx) + ".reduced.ptx"
    open(out, "w").write("\n".join(lines))
    body = [l for l in lines[body_at + 1:] if l.strip() and not l.strip().startswith(("$L", "}"))]
    print("reduced to %d body lines (%d candidates tried): %s" % (len(body), tests[0], out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
