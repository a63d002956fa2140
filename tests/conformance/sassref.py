"""Reference SASS words for the conformance harness and the encoding probes.

Compiles PTX with NVIDIA's ptxas, takes the code of every `.text.*` section of the cubin
(a few lines of ELF64 section-header walking; this is test tooling, not the product's cubin
reader), and asks nvdisasm for the text of every 128-bit word in raw mode (`-b SM90`), so
branch targets print as addresses. Everything here runs the oracles; nothing is copied.
"""
import os
import re
import struct
import subprocess
import tempfile

ORACLE_DIRS = ["/usr/local/cuda/bin", "/opt/ptxas-mini-oracles/nvidia/cu13/bin"]


def find_tool(name):
    for d in ORACLE_DIRS:
        p = os.path.join(d, name)
        if os.path.exists(p):
            return p
    return name


def text_sections(data):
    """[(name, bytes)] of the SHT_PROGBITS sections named .text.* of an ELF64 image."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError("not an ELF64 file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    hdrs = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    stroff = hdrs[shstrndx][4]
    out = []
    for name, typ, _flags, _addr, off, size in hdrs:
        end = data.index(b"\0", stroff + name)
        n = data[stroff + name:end].decode()
        if typ == 1 and n.startswith(".text."):
            out.append((n, data[off:off + size]))
    return out


LINE_RE = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s*(.*?)\s*;?\s*/\*\s*(0x[0-9a-f]{16})\s*\*/\s*$")
HI_RE = re.compile(r"^\s*/\*\s*(0x[0-9a-f]{16})\s*\*/\s*$")


def disasm_raw(code, arch="SM90", nvdisasm=None):
    """[(addr, text, lo, hi)] for a raw code blob, as nvdisasm prints it (text without ';')."""
    nvdisasm = nvdisasm or find_tool("nvdisasm")
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        f.write(code)
        path = f.name
    try:
        r = subprocess.run([nvdisasm, "-b", arch, "-hex", path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    return parse_nvdisasm(r.stdout)


def parse_nvdisasm(out):
    res = []
    pending = None
    for line in out.splitlines():
        m = LINE_RE.match(line)
        if m:
            text = m.group(2).strip()
            if text.endswith(";"):
                text = text[:-1].rstrip()
            pending = (int(m.group(1), 16), text, int(m.group(3), 16))
            continue
        m = HI_RE.match(line)
        if m and pending:
            res.append((pending[0], pending[1], pending[2], int(m.group(1), 16)))
            pending = None
    return res


def compile_ptx(ptx, arch, ptxas=None, workdir=None):
    """The cubin bytes ptxas makes of `ptx`, or None (with the error) when it refuses."""
    ptxas = ptxas or find_tool("ptxas")
    with tempfile.TemporaryDirectory(dir=workdir) as d:
        out = os.path.join(d, "a.cubin")
        r = subprocess.run([ptxas, "-arch=" + arch, ptx, "-o", out], capture_output=True, text=True)
        if r.returncode != 0:
            return None, r.stderr
        return open(out, "rb").read(), ""


def sm_flag(arch):
    """-arch=sm_90a -> SM90a (nvdisasm's -b spelling)."""
    return "SM" + arch[3:]
