#!/usr/bin/env python3
"""Writes the PTX Triton generates for kernels shaped like its public tutorials.

    gen_triton_ptx.py OUT_DIR [--ptxas PTXAS] [--compile] [--only k1,k2]

No GPU is needed: each kernel is compiled through triton.compile for GPUTarget("cuda", 90, 32)
(sm_90a PTX, as Triton emits for an H100) and only the "ptx" stage is kept. The kernels are
written here, in the shape of the tutorials (vector add, fused softmax, matmul in several tile
configurations, low-memory dropout, layer norm forward and backward, fused attention forward,
fp8 matmul, a libdevice call); they are not copies of the tutorial code.

Triton asks the ptxas it would run for its release to choose the PTX ISA version
(`ptxas --version`, "release X.Y"); --ptxas names that ptxas (default: ptxas-mini is fine, or
/usr/local/cuda/bin/ptxas). The cubin stage is skipped, so no ptxas is run on the PTX here.

With --compile, Triton's own cubin stage runs too: Triton calls PTXAS (--ptxas) with its own
command line (`-lineinfo -v --regAllocOptLevel=2 --gpu-name=sm_90a k.ptx -o k.ptx.o`), exactly
as with TRITON_PTXAS_BLACKWELL_PATH set by a user, and the cubin is written as <name>.cubin.

Prints one line per kernel: `<name>.ptx` written (and `<name>.cubin` with --compile), or
`<name>: FAILED <why>` (exit status 1 if any failed; with --compile the first error line of
ptxas's log follows). Exit status 77 when triton cannot be imported (the test then reports
SKIPPED).
"""
import argparse
import contextlib
import io
import os
import re
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--ptxas", help="ptxas whose --version picks the PTX ISA version")
    ap.add_argument("--only", help="comma-separated kernel names")
    ap.add_argument("--compile", action="store_true",
                    help="let Triton run --ptxas on the PTX (its cubin stage) and keep the cubin")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    # Settings read when triton is imported: a private cache, the ptxas asked for --version.
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cache-"))
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    if args.ptxas:
        # sm_90 and later use the "ptxas-blackwell" tool slot (triton/backends/nvidia/compiler.py).
        os.environ["TRITON_PTXAS_BLACKWELL_PATH"] = os.path.abspath(args.ptxas)
        os.environ["TRITON_PTXAS_PATH"] = os.path.abspath(args.ptxas)
    try:
        import triton
        import triton.language as tl
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource
        from triton import knobs
    except Exception as e:  # noqa: BLE001 -- any import failure means "no triton here"
        print(f"triton is not importable: {e}", file=sys.stderr)
        return 77

    # ---------------------------------------------------------------- kernels
    @triton.jit
    def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        start = tl.program_id(axis=0) * BLOCK
        offs = start + tl.arange(0, BLOCK)
        inside = offs < n
        a = tl.load(x_ptr + offs, mask=inside)
        b = tl.load(y_ptr + offs, mask=inside)
        tl.store(out_ptr + offs, a + b, mask=inside)

    @triton.jit
    def softmax_rows(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols,
                     BLOCK: tl.constexpr, STAGES: tl.constexpr):
        first = tl.program_id(0)
        step = tl.num_programs(0)
        for row in tl.range(first, n_rows, step, num_stages=STAGES):
            cols = tl.arange(0, BLOCK)
            vals = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols, other=-float("inf"))
            shifted = vals - tl.max(vals, axis=0)
            e = tl.exp(shifted)
            tl.store(out_ptr + row * out_stride + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)

    @triton.jit
    def matmul(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr,
               RELU: tl.constexpr):
        pid = tl.program_id(0)
        tiles_m = tl.cdiv(M, BM)
        tiles_n = tl.cdiv(N, BN)
        per_group = GROUP * tiles_n
        group = pid // per_group
        first_m = group * GROUP
        rows_in_group = min(tiles_m - first_m, GROUP)
        tm = first_m + ((pid % per_group) % rows_in_group)
        tn = (pid % per_group) // rows_in_group
        rm = (tm * BM + tl.arange(0, BM)) % M
        rn = (tn * BN + tl.arange(0, BN)) % N
        rk = tl.arange(0, BK)
        pa = a_ptr + rm[:, None] * sam + rk[None, :] * sak
        pb = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            a = tl.load(pa, mask=rk[None, :] < K - k * BK, other=0.0)
            b = tl.load(pb, mask=rk[:, None] < K - k * BK, other=0.0)
            acc = tl.dot(a, b, acc)
            pa += BK * sak
            pb += BK * sbk
        if RELU:
            acc = tl.where(acc >= 0, acc, 0.01 * acc)
        c = acc.to(c_ptr.dtype.element_ty)
        cm = tm * BM + tl.arange(0, BM)
        cn = tn * BN + tl.arange(0, BN)
        tl.store(c_ptr + cm[:, None] * scm + cn[None, :] * scn, c,
                 mask=(cm[:, None] < M) & (cn[None, :] < N))

    @triton.jit
    def seeded_dropout(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        inside = offs < n
        x = tl.load(x_ptr + offs, mask=inside)
        keep = tl.rand(seed, offs) > p
        tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=inside)

    @triton.jit
    def layer_norm_fwd(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, n_cols, eps,
                       BLOCK: tl.constexpr):
        row = tl.program_id(0)
        x_ptr += row * stride
        y_ptr += row * stride
        total = tl.zeros([BLOCK], dtype=tl.float32)
        for off in range(0, n_cols, BLOCK):
            c = off + tl.arange(0, BLOCK)
            total += tl.load(x_ptr + c, mask=c < n_cols, other=0.).to(tl.float32)
        mean = tl.sum(total, axis=0) / n_cols
        sq = tl.zeros([BLOCK], dtype=tl.float32)
        for off in range(0, n_cols, BLOCK):
            c = off + tl.arange(0, BLOCK)
            v = tl.load(x_ptr + c, mask=c < n_cols, other=0.).to(tl.float32)
            v = tl.where(c < n_cols, v - mean, 0.)
            sq += v * v
        rstd = 1 / tl.sqrt(tl.sum(sq, axis=0) / n_cols + eps)
        tl.store(mean_ptr + row, mean)
        tl.store(rstd_ptr + row, rstd)
        for off in range(0, n_cols, BLOCK):
            c = off + tl.arange(0, BLOCK)
            m = c < n_cols
            w = tl.load(w_ptr + c, mask=m)
            b = tl.load(b_ptr + c, mask=m)
            v = tl.load(x_ptr + c, mask=m, other=0.).to(tl.float32)
            tl.store(y_ptr + c, ((v - mean) * rstd) * w + b, mask=m)

    @triton.jit
    def layer_norm_bwd_dx(dx_ptr, dy_ptr, dw_ptr, db_ptr, x_ptr, w_ptr, mean_ptr, rstd_ptr,
                          lock_ptr, stride, n_cols, GROUPS: tl.constexpr, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        c = tl.arange(0, BLOCK)
        m = c < n_cols
        x_ptr += row * stride
        dy_ptr += row * stride
        dx_ptr += row * stride
        slot = row % GROUPS
        lock_ptr += slot
        count_ptr = lock_ptr + GROUPS
        dw_ptr = dw_ptr + slot * n_cols + c
        db_ptr = db_ptr + slot * n_cols + c
        x = tl.load(x_ptr + c, mask=m, other=0).to(tl.float32)
        dy = tl.load(dy_ptr + c, mask=m, other=0).to(tl.float32)
        w = tl.load(w_ptr + c, mask=m).to(tl.float32)
        mean = tl.load(mean_ptr + row)
        rstd = tl.load(rstd_ptr + row)
        xhat = tl.where(m, (x - mean) * rstd, 0.)
        wdy = tl.where(m, w * dy, 0.)
        c1 = tl.sum(xhat * wdy, axis=0) / n_cols
        c2 = tl.sum(wdy, axis=0) / n_cols
        tl.store(dx_ptr + c, (wdy - (xhat * c1 + c2)) * rstd, mask=m)
        pdw = (dy * xhat).to(w.dtype)
        pdb = dy.to(w.dtype)
        while tl.atomic_cas(lock_ptr, 0, 1) == 1:
            pass
        seen = tl.load(count_ptr)
        if seen == 0:
            tl.atomic_xchg(count_ptr, 1)
        else:
            pdw += tl.load(dw_ptr, mask=m)
            pdb += tl.load(db_ptr, mask=m)
        tl.store(dw_ptr, pdw, mask=m)
        tl.store(db_ptr, pdb, mask=m)
        tl.debug_barrier()
        tl.atomic_xchg(lock_ptr, 0)

    @triton.jit
    def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale, n_ctx,
                      sqm, skn, svn, som, HEAD: tl.constexpr, BM: tl.constexpr,
                      BN: tl.constexpr):
        start_m = tl.program_id(0)
        offs_m = start_m * BM + tl.arange(0, BM)
        offs_n = tl.arange(0, BN)
        offs_d = tl.arange(0, HEAD)
        q = tl.load(q_ptr + offs_m[:, None] * sqm + offs_d[None, :])
        m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
        l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
        acc = tl.zeros([BM, HEAD], dtype=tl.float32)
        scale = sm_scale * 1.44269504
        for start_n in range(0, n_ctx, BN):
            kt = tl.load(k_ptr + (start_n + offs_n)[None, :] * skn + offs_d[:, None])
            qk = tl.dot(q, kt) * scale
            m_new = tl.maximum(m_i, tl.max(qk, 1))
            p = tl.math.exp2(qk - m_new[:, None])
            alpha = tl.math.exp2(m_i - m_new)
            l_i = l_i * alpha + tl.sum(p, 1)
            acc = acc * alpha[:, None]
            v = tl.load(v_ptr + (start_n + offs_n)[:, None] * svn + offs_d[None, :])
            acc = tl.dot(p.to(v.dtype), v, acc)
            m_i = m_new
        acc = acc / l_i[:, None]
        tl.store(o_ptr + offs_m[:, None] * som + offs_d[None, :], acc.to(o_ptr.dtype.element_ty))

    @triton.jit
    def asin_libdevice(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m)
        tl.store(y_ptr + offs, tl.extra.cuda.libdevice.asin(x), mask=m)

    mm_sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32",
              "K": "i32", "sam": "i32", "sak": "i32", "sbk": "i32", "sbn": "i32", "scm": "i32",
              "scn": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr",
              "GROUP": "constexpr", "RELU": "constexpr"}

    def mm(bm, bn, bk, stages, warps, elem="fp16", relu=False):
        sig = dict(mm_sig)
        if elem != "fp16":
            sig.update({"a_ptr": "*" + elem, "b_ptr": "*" + elem})
        return (matmul, sig, {"BM": bm, "BN": bn, "BK": bk, "GROUP": 8, "RELU": relu},
                {"num_warps": warps, "num_stages": stages})

    kernels = {
        "vector_add": (vector_add, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32",
                                    "n": "i32", "BLOCK": "constexpr"}, {"BLOCK": 1024}, {}),
        "softmax": (softmax_rows, {"out_ptr": "*fp32", "in_ptr": "*fp32", "in_stride": "i32",
                                   "out_stride": "i32", "n_rows": "i32", "n_cols": "i32",
                                   "BLOCK": "constexpr", "STAGES": "constexpr"},
                    {"BLOCK": 1024, "STAGES": 4}, {"num_warps": 8}),
        "softmax_small": (softmax_rows, {"out_ptr": "*fp32", "in_ptr": "*fp32",
                                         "in_stride": "i32", "out_stride": "i32",
                                         "n_rows": "i32", "n_cols": "i32",
                                         "BLOCK": "constexpr", "STAGES": "constexpr"},
                          {"BLOCK": 128, "STAGES": 2}, {"num_warps": 4}),
        "matmul_128x256x64_s3_w8": mm(128, 256, 64, 3, 8),
        "matmul_64x64x32_s4_w4": mm(64, 64, 32, 4, 4),
        "matmul_128x128x32_s4_w4_relu": mm(128, 128, 32, 4, 4, relu=True),
        "matmul_32x32x32_s2_w2": mm(32, 32, 32, 2, 2),
        "matmul_16x16x16_s1_w1": mm(16, 16, 16, 1, 1),
        "matmul_fp8_128x128x64_s3_w8": mm(128, 128, 64, 3, 8, elem="fp8e4nv"),
        "dropout": (seeded_dropout, {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
                                     "p": "fp32", "seed": "i32", "BLOCK": "constexpr"},
                    {"BLOCK": 1024}, {}),
        "layer_norm_fwd": (layer_norm_fwd, {"x_ptr": "*fp16", "y_ptr": "*fp16", "w_ptr": "*fp16",
                                            "b_ptr": "*fp16", "mean_ptr": "*fp32",
                                            "rstd_ptr": "*fp32", "stride": "i32",
                                            "n_cols": "i32", "eps": "fp32",
                                            "BLOCK": "constexpr"}, {"BLOCK": 1024},
                           {"num_warps": 8}),
        "layer_norm_bwd_dx": (layer_norm_bwd_dx,
                              {"dx_ptr": "*fp16", "dy_ptr": "*fp16", "dw_ptr": "*fp16",
                               "db_ptr": "*fp16", "x_ptr": "*fp16", "w_ptr": "*fp16",
                               "mean_ptr": "*fp32", "rstd_ptr": "*fp32", "lock_ptr": "*i32",
                               "stride": "i32", "n_cols": "i32", "GROUPS": "constexpr",
                               "BLOCK": "constexpr"}, {"GROUPS": 64, "BLOCK": 1024},
                              {"num_warps": 8}),
        "attention_fwd_64x64_d64": (attention_fwd,
                                    {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16",
                                     "o_ptr": "*fp16", "sm_scale": "fp32", "n_ctx": "i32",
                                     "sqm": "i32", "skn": "i32", "svn": "i32", "som": "i32",
                                     "HEAD": "constexpr", "BM": "constexpr",
                                     "BN": "constexpr"}, {"HEAD": 64, "BM": 64, "BN": 64},
                                    {"num_warps": 4, "num_stages": 3}),
        "asin_libdevice": (asin_libdevice, {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32",
                                            "BLOCK": "constexpr"}, {"BLOCK": 1024}, {}),
    }
    only = set(args.only.split(",")) if args.only else None
    target = GPUTarget("cuda", 90, 32)

    # The cubin stage is wrapped: it records the PTX it is handed, then (--compile) runs
    # Triton's own make_cubin, i.e. ptxas with Triton's command line; else no ptxas runs here.
    captured = []

    def wrap_cubin(backend=None, stages=None, options=None, language=None, capability=None):
        if stages is None:  # asked for the cache key
            return ("compile-ptx" if args.compile else "keep-ptx"), "1"
        make_cubin = stages["cubin"]

        def cubin_stage(src, metadata):
            captured.append(src)
            return make_cubin(src, metadata) if args.compile else b""
        stages["cubin"] = cubin_stage
    knobs.runtime.add_stages_inspection_hook = wrap_cubin

    failed = 0
    for name, (fn, sig, consts, opts) in kernels.items():
        if only and name not in only:
            continue
        captured.clear()
        kernel, error = None, None
        try:
            # Triton prints the whole PTX to stdout when ptxas fails; the error says enough.
            with contextlib.redirect_stdout(io.StringIO()):
                kernel = triton.compile(ASTSource(fn, sig, constexprs=consts), target=target,
                                        options=opts)
        except Exception as e:  # noqa: BLE001 -- reported per kernel
            error = e
        if captured:
            with open(os.path.join(args.out, name + ".ptx"), "w") as f:
                f.write(captured[-1])
        if error is None and args.compile:
            with open(os.path.join(args.out, name + ".cubin"), "wb") as f:
                f.write(kernel.asm["cubin"])
        if error is None or (captured and not args.compile):
            print(f"{name}.ptx" + (f" {name}.cubin" if args.compile else ""))
            continue
        failed += 1
        text = str(error)
        # PTXASError carries ptxas's log: its first error line says what stopped it.
        first = next((l for l in text.splitlines() if re.search(r"(error|fatal)\s+:", l)),
                     (text.splitlines() or [""])[0])
        print(f"{name}: FAILED {type(error).__name__}: {first.strip()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
