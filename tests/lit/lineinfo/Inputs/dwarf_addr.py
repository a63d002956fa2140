#!/usr/bin/env python3
"""dwarf_addr.py CUBIN PTX SYMBOL: the 8-byte value the cubin's .debug_info holds where the
PTX's .debug_info section names SYMBOL (`.b64 SYMBOL`), printed as `SYMBOL 0x...`."""
import re
import struct
import sys

cubin, ptx, symbol = sys.argv[1:4]
text = open(ptx).read()
body = re.search(r'\.section\s+\.debug_info\s*\{(.*?)\n\s*\}', text, re.S).group(1)
widths = {'b8': 1, 'b16': 2, 'b32': 4, 'b64': 8}
offset, at = 0, None
for line in body.split('\n'):
    m = re.match(r'\s*\.(b8|b16|b32|b64)\s+(.*?);?\s*$', line)
    if not m:
        continue
    for v in m.group(2).rstrip(';').split(','):
        if v.strip() == symbol and at is None:
            at = offset
        offset += widths[m.group(1)]
data = open(cubin, 'rb').read()
shoff, = struct.unpack_from('<Q', data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
def section(i):
    name, typ, flags, addr, off, size = struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize)
    return name, off, size
_, stroff, _ = section(shstrndx)
for i in range(shnum):
    name, off, size = section(i)
    if data[stroff + name:].split(b'\0', 1)[0] == b'.debug_info':
        print(symbol, hex(struct.unpack_from('<Q', data, off + at)[0]))
        break
