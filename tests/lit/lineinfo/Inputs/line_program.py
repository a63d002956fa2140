#!/usr/bin/env python3
"""line_program.py CUBIN: the rows of the cubin's .debug_line program, one a line
(`row N ADDRESS fileF lineL`, N counted over the unit), and its extended opcodes other than
set_address/end_sequence (`ext 0xOP [ULEB operands]`)."""
import struct
import sys

data = open(sys.argv[1], 'rb').read()
shoff, = struct.unpack_from('<Q', data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
def section(i):
    name, typ, flags, addr, off, size = struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize)
    return name, off, size
_, stroff, _ = section(shstrndx)
b = None
for i in range(shnum):
    name, off, size = section(i)
    if data[stroff + name:].split(b'\0', 1)[0] == b'.debug_line':
        b = data[off:off + size]
def uleb(i):
    r = s = 0
    while True:
        c = b[i]; i += 1; r |= (c & 0x7f) << s; s += 7
        if not c & 0x80:
            return r, i
def sleb(i):
    r = s = 0
    while True:
        c = b[i]; i += 1; r |= (c & 0x7f) << s; s += 7
        if not c & 0x80:
            return (r - (1 << s) if c & 0x40 else r), i
unit_len, = struct.unpack_from('<I', b, 0)
hdr_len, = struct.unpack_from('<I', b, 6)
minlen, lbase, lrange, obase = b[10], struct.unpack_from('<b', b, 12)[0], b[13], b[14]
i, end = 10 + hdr_len, 4 + unit_len
addr, line, f, rows = 0, 1, 1, 0
def row():
    global rows
    rows += 1
    print(f'row {rows} {addr:#x} file{f} line{line}')
while i < end:
    op = b[i]; i += 1
    if op >= obase:
        a = op - obase
        addr += (a // lrange) * minlen
        line += lbase + a % lrange
        row()
    elif op == 0:
        n, i = uleb(i)
        eop, body = b[i], b[i + 1:i + n]
        i += n
        if eop == 1:
            addr, line, f = 0, 1, 1
        elif eop == 2:
            addr, = struct.unpack_from('<Q', body, 0)
        else:
            vals, j = [], 0
            while j < len(body):
                v, j = 0, j
                s = 0
                while True:
                    c = body[j]; j += 1; v |= (c & 0x7f) << s; s += 7
                    if not c & 0x80:
                        break
                vals.append(v)
            print(f'ext {eop:#x} {vals}')
    elif op == 1:
        row()
    elif op == 2:
        v, i = uleb(i); addr += v * minlen  # ptxas writes a SLEB; a positive one reads the same
    elif op == 3:
        v, i = sleb(i); line += v
    elif op == 4:
        f, i = uleb(i)
    elif op == 5:
        _, i = uleb(i)
    elif op == 9:
        addr += struct.unpack_from('<H', b, i)[0]; i += 2
