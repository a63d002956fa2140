#!/usr/bin/env python3
"""Compile PTX to a cubin from Python through libptxas-mini's C API (ctypes, no build step).

    python3 ptxas_mini_ctypes.py build/lib/libptxas-mini.so kernel.ptx -arch=sm_90 -v

Prints the info log (the -v report), writes kernel.cubin beside the PTX unless -o is
given to this script, and exits 1 with the error log on failure. ctest runs it on
tests/examples/saxpy.ptx and compares the cubin with the ptxas-mini tool's (--expect).
"""
import argparse
import ctypes
import sys

SUCCESS = 0


class PtxasMini:
    """The C API of compiler/include/ptxas_mini.h, one method per call."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        H = ctypes.c_void_p
        sz = ctypes.POINTER(ctypes.c_size_t)
        sig = {
            "ptxminiGetVersion": [ctypes.POINTER(ctypes.c_uint)] * 2,
            "ptxminiCreate": [ctypes.POINTER(H), ctypes.c_size_t, ctypes.c_char_p],
            "ptxminiDestroy": [ctypes.POINTER(H)],
            "ptxminiCompile": [H, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)],
            "ptxminiGetCompiledProgramSize": [H, sz],
            "ptxminiGetCompiledProgram": [H, ctypes.c_void_p],
            "ptxminiGetErrorLogSize": [H, sz],
            "ptxminiGetErrorLog": [H, ctypes.c_char_p],
            "ptxminiGetInfoLogSize": [H, sz],
            "ptxminiGetInfoLog": [H, ctypes.c_char_p],
        }
        for name, args in sig.items():
            fn = getattr(self.lib, name)
            fn.argtypes = args
            fn.restype = ctypes.c_int

    def version(self):
        major, minor = ctypes.c_uint(), ctypes.c_uint()
        assert self.lib.ptxminiGetVersion(ctypes.byref(major), ctypes.byref(minor)) == SUCCESS
        return major.value, minor.value

    def _log(self, h, which):
        n = ctypes.c_size_t()
        getattr(self.lib, f"ptxminiGet{which}LogSize")(h, ctypes.byref(n))
        buf = ctypes.create_string_buffer(n.value + 1)
        getattr(self.lib, f"ptxminiGet{which}Log")(h, buf)
        return buf.value.decode()

    def compile(self, ptx: bytes, options):
        """Returns (result code, cubin bytes or None, info log, error log)."""
        h = ctypes.c_void_p()
        assert self.lib.ptxminiCreate(ctypes.byref(h), len(ptx), ptx) == SUCCESS
        try:
            argv = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
            rc = self.lib.ptxminiCompile(h, len(options), argv)
            cubin = None
            if rc == SUCCESS:
                n = ctypes.c_size_t()
                self.lib.ptxminiGetCompiledProgramSize(h, ctypes.byref(n))
                buf = ctypes.create_string_buffer(n.value)
                self.lib.ptxminiGetCompiledProgram(h, buf)
                cubin = buf.raw
            return rc, cubin, self._log(h, "Info"), self._log(h, "Error")
        finally:
            self.lib.ptxminiDestroy(ctypes.byref(h))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library")
    ap.add_argument("ptx")
    ap.add_argument("-o", dest="output", help="cubin to write (default: <ptx>.cubin)")
    ap.add_argument("--expect", help="a cubin the result must equal byte for byte")
    args, options = ap.parse_known_args()
    lib = PtxasMini(args.library)
    print("libptxas-mini %d.%d" % lib.version())
    with open(args.ptx, "rb") as f:
        rc, cubin, info, err = lib.compile(f.read(), options)
    sys.stdout.write(info)
    sys.stderr.write(err)
    if rc != SUCCESS:
        print(f"compile failed with result {rc}", file=sys.stderr)
        return 1
    out = args.output or args.ptx.rsplit(".", 1)[0] + ".cubin"
    with open(out, "wb") as f:
        f.write(cubin)
    print(f"wrote {out} ({len(cubin)} bytes)")
    if args.expect:
        with open(args.expect, "rb") as f:
            if f.read() != cubin:
                print(f"{out} differs from {args.expect}", file=sys.stderr)
                return 1
        print(f"identical to {args.expect}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
