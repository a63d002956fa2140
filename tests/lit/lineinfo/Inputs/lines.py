"""nvdisasm --print-line-info[-ptx] output on stdin -> one line per instruction:
`<kernel> <opcode> <file basename>:<line>`, so tests can assert which line each instruction
maps to whatever order the scheduler chose."""
import os
import re
import sys

kernel, cur = None, None
for line in sys.stdin:
    m = re.match(r'\s*\.section\s+\.text\.([^,]+),', line)
    if m:
        kernel, cur = m.group(1), None
        continue
    m = re.search(r'//## File "([^"]*)", line (\d+)', line)
    if m:
        cur = f'{os.path.basename(m.group(1))}:{m.group(2)}'
        continue
    m = re.search(r'/\*[0-9a-f]{4}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)', line)
    if m and kernel:
        guard = (m.group(1) or '').strip()
        print(f'{kernel} {guard + " " if guard else ""}{m.group(2)} {cur}')
