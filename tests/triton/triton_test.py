#!/usr/bin/env python3
"""ctest `triton.tutorials`: Triton's compile path with ptxas-mini in ptxas's place.

    triton_test.py --ptxas-mini BIN --cuobjdump BIN [--ptxas BIN] [--triton-path DIR] --workdir DIR

Generates the PTX of the tutorial-shaped kernels of gen_triton_ptx.py with Triton (installed
from PyPI; no GPU needed) and lets Triton's own cubin stage compile each with ptxas-mini, the
way TRITON_PTXAS_BLACKWELL_PATH=ptxas-mini does for a user: Triton reads `ptxas-mini
--version`, picks the PTX ISA version from it, and runs its command line
(`-lineinfo -v --regAllocOptLevel=2 --gpu-name=sm_90a k.ptx -o k.ptx.o`). Every cubin must open
in cuobjdump (-elf -sass) and name the kernel (the .entry of its PTX). A kernel ptxas-mini refuses passes only when the
first error names an sm_90a asynchronous instruction (wgmma, mbarrier, bulk copies, tensor
maps: the Hopper issue owns them); any other refusal fails the test. With --ptxas, the same
PTX must also compile with NVIDIA's ptxas (so the input is valid), and ptxas-mini's cubin must
match ptxas's on ptx_compare.py's must-match items (with --nvdisasm / --sass-mc: nvdisasm
accepts it, the hazard checker passes).

Exit 77 (ctest SKIP, never a pass) when triton cannot be imported or cuobjdump is missing.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.join(HERE, "..", "compare", "ptx_compare.py")
# The sm_90a asynchronous machinery (another issue): refusals naming it are expected today.
HOPPER = re.compile(r"'(wgmma|mbarrier|cp\.async\.bulk|tensormap|fence\.proxy|setmaxnreg|"
                    r"cp\.reduce\.async\.bulk|elect|mapa|barrier\.cluster|multimem)[.']")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas-mini", required=True)
    ap.add_argument("--cuobjdump")
    ap.add_argument("--ptxas")
    ap.add_argument("--nvdisasm", help="with --ptxas: nvdisasm must accept each cubin")
    ap.add_argument("--sass-mc", help="with --ptxas: its hazard checker (-strict) must pass")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--triton-path", default="/opt/ptxas-mini-oracles/triton",
                    help="a pip --target folder holding triton (added to PYTHONPATH)")
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()

    env = dict(os.environ)
    if args.triton_path and os.path.isdir(args.triton_path):
        env["PYTHONPATH"] = os.pathsep.join(p for p in [args.triton_path,
                                                        env.get("PYTHONPATH")] if p)
    probe = subprocess.run([args.python, "-c", "import triton; print(triton.__version__)"],
                           env=env, capture_output=True, text=True)
    if probe.returncode != 0:
        print("SKIPPED: triton is not importable (.ci/install-deps.sh installs it into "
              "/opt/ptxas-mini-oracles/triton)")
        return 77
    if not args.cuobjdump or not os.path.exists(args.cuobjdump):
        print("SKIPPED: cuobjdump not found")
        return 77
    print(f"triton {probe.stdout.strip()}")

    os.makedirs(args.workdir, exist_ok=True)
    # A fresh cache every run: Triton keys its cache on ptxas's --version text, not on the
    # binary, so a kept cache hands back cubins of an earlier ptxas-mini build.
    cache = os.path.join(args.workdir, "cache")
    shutil.rmtree(cache, ignore_errors=True)
    env["TRITON_CACHE_DIR"] = cache
    gen = subprocess.run([args.python, os.path.join(HERE, "gen_triton_ptx.py"), args.workdir,
                          "--compile", "--ptxas", args.ptxas_mini],
                         env=env, capture_output=True, text=True)
    results = {}
    for line in gen.stdout.splitlines():
        m = re.match(r"(\w+)\.ptx( \w+\.cubin)?$", line)
        if m:
            results[m.group(1)] = ("compiled", "")
            continue
        m = re.match(r"(\w+): FAILED (.*)$", line)
        if m:
            results[m.group(1)] = ("refused", m.group(2))
    if not results:
        print(gen.stdout + gen.stderr)
        print("FAIL: the generator produced no kernel")
        return 1

    bad = 0
    compiled = hopper = 0
    for name, (state, why) in sorted(results.items()):
        ptx = os.path.join(args.workdir, name + ".ptx")
        if args.ptxas and os.path.exists(ptx):
            ref = subprocess.run([args.ptxas, "-lineinfo", "-v", "--regAllocOptLevel=2",
                                  "--gpu-name=sm_90a", ptx, "-o",
                                  os.path.join(args.workdir, name + ".ptxas.cubin")],
                                 capture_output=True, text=True)
            if ref.returncode != 0:
                print(f"FAIL {name}: NVIDIA's ptxas refuses the generated PTX: "
                      f"{ref.stderr.strip().splitlines()[:1]}")
                bad += 1
                continue
        if state == "compiled":
            with open(ptx) as f:
                entry = re.search(r"\.visible \.entry (\w+)", f.read()).group(1)
            dump = subprocess.run([args.cuobjdump, "-elf", "-sass",
                                   os.path.join(args.workdir, name + ".cubin")],
                                  capture_output=True, text=True)
            if dump.returncode != 0 or dump.stderr.strip() or \
                    f"Function : {entry}" not in dump.stdout:
                print(f"FAIL {name}: cuobjdump: {dump.stderr.strip()[:200]}")
                bad += 1
                continue
            n = len(re.findall(r"^\s+/\*[0-9a-f]{4}\*/", dump.stdout, flags=re.M))
            if args.ptxas:
                # ptxas's cubin of the same PTX and command line against Triton's: the
                # must-match items of tests/compare/ptx_compare.py (KPARAM_INFO, section set,
                # e_flags, ...), nvdisasm and the hazard checker when given.
                cmd = [args.python, COMPARE, "--cubins",
                       os.path.join(args.workdir, name + ".ptxas.cubin"),
                       os.path.join(args.workdir, name + ".cubin"),
                       "--cuobjdump", args.cuobjdump]
                if args.nvdisasm:
                    cmd += ["--nvdisasm", args.nvdisasm]
                if args.sass_mc:
                    cmd += ["--hazards", args.sass_mc]
                cmp = subprocess.run(cmd, capture_output=True, text=True)
                if cmp.returncode != 0:
                    print(f"FAIL {name}: differs from ptxas on a must-match item:\n"
                          f"{cmp.stdout.strip()[-1500:]}{cmp.stderr.strip()[-500:]}")
                    bad += 1
                    continue
            print(f"ok   {name}: compiled by ptxas-mini through Triton, {n} SASS slots in cuobjdump"
                  + (", matches ptxas on the must-match items" if args.ptxas else ""))
            compiled += 1
        elif HOPPER.search(why):
            print(f"ok   {name}: refused, sm_90a async (Hopper issue): {why}")
            hopper += 1
        else:
            print(f"FAIL {name}: {why}")
            bad += 1
    print(f"{compiled} of {len(results)} kernels compiled through Triton with ptxas-mini; "
          f"{hopper} refused for sm_90a async instructions; {bad} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
