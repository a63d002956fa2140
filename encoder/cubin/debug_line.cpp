//===- encoder/cubin/debug_line.cpp - DWARF 2 line tables as ptxas writes them ---------===//
///
/// \file
/// HW: ptxas 13.0.88's units, read back with readelf --debug-dump=rawline and byte dumps on
/// kernels with .loc/.file (tests/lit/lineinfo):
///   header: version 2, minimum_instruction_length 1, default_is_stmt 1, line_base -5,
///     line_range 14, opcode_base 10 (standard opcode lengths 0 1 1 1 1 0 0 0 1), the include
///     directories and the files (name, directory, mtime, size), each list 0-terminated;
///   per function: DW_LNE_set_address 0 (8 bytes, relocated), DW_LNS_set_file, then one
///     row per change of line: a special opcode when the address moves and the deltas fit,
///     else DW_LNS_advance_line, DW_LNS_advance_pc, DW_LNS_copy (also for a row at the same
///     address, where a special opcode would do); at the end DW_LNS_advance_pc to the end of
///     the .text (tail NOPs included) and DW_LNE_end_sequence.
///   ptxas encodes advance_pc's unsigned operand as a *signed* LEB128 (64 is `c0 00`, 48 is
///   `30`); the bytes follow that.
//===----------------------------------------------------------------------------------===//
#include "encoder/cubin/debug_line.h"

#include "encoder/cubin/byte_io.h"

#include <algorithm>

namespace ptxmini::cubin {

namespace {

constexpr int kLineBase = -5;
constexpr int kLineRange = 14;
constexpr int kOpcodeBase = 10;
constexpr uint8_t kStdOpcodeLengths[] = {0, 1, 1, 1, 1, 0, 0, 0, 1};
enum : uint8_t { DW_LNS_copy = 1, DW_LNS_advance_pc = 2, DW_LNS_advance_line = 3,
                 DW_LNS_set_file = 4 };
enum : uint8_t { DW_LNE_end_sequence = 1, DW_LNE_set_address = 2 };
/// HW (ptxas 13.0.88): NVIDIA's extended opcode for the inlining context (debug_line.h).
constexpr uint8_t kDwLneNvInlinedContext = 0x90;

void uleb(std::vector<uint8_t> &out, uint64_t v) {
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    out.push_back(static_cast<uint8_t>(b | (v ? 0x80 : 0)));
  } while (v);
}

void sleb(std::vector<uint8_t> &out, int64_t v) {
  bool more = true;
  while (more) {
    uint8_t b = v & 0x7f;
    v >>= 7; // arithmetic shift
    more = !((v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40)));
    out.push_back(static_cast<uint8_t>(b | (more ? 0x80 : 0)));
  }
}

void cstr(std::vector<uint8_t> &out, const std::string &s) {
  out.insert(out.end(), s.begin(), s.end());
  out.push_back(0);
}

} // namespace

std::vector<uint8_t> encodeLineUnit(const std::vector<std::string> &dirs,
                                    const std::vector<LineFile> &files,
                                    const std::vector<LineSequence> &sequences,
                                    std::vector<size_t> &addressOffsets,
                                    unsigned headerPadding) {
  std::vector<uint8_t> header;
  header.push_back(1);                                  // minimum_instruction_length
  header.push_back(1);                                  // default_is_stmt
  header.push_back(static_cast<uint8_t>(kLineBase));
  header.push_back(kLineRange);
  header.push_back(kOpcodeBase);
  header.insert(header.end(), std::begin(kStdOpcodeLengths), std::end(kStdOpcodeLengths));
  for (const std::string &d : dirs)
    cstr(header, d);
  header.push_back(0);
  for (const LineFile &f : files) {
    cstr(header, f.name);
    uleb(header, f.dir);
    uleb(header, f.mtime);
    uleb(header, f.size);
  }
  header.push_back(0);
  header.insert(header.end(), headerPadding, 0);

  std::vector<uint8_t> prog;
  std::vector<size_t> progAddr;
  uint32_t rowCount = 0; // rows emitted so far in the unit (0x90 names rows by number)
  struct CallSite {
    uint32_t file, line, column, row;
  };
  std::vector<CallSite> chain; // call sites of the current inlining context, outermost first
  uint32_t contextName = 0;
  for (const LineSequence &s : sequences) {
    prog.push_back(0);
    prog.push_back(9);
    prog.push_back(DW_LNE_set_address);
    progAddr.push_back(prog.size());
    put64(prog, 0);
    uint64_t addr = 0;
    int64_t line = 1;
    chain.clear(); // GUESS: a sequence starts outside any inlining context
    contextName = 0;
    uint32_t file = s.rows.empty() ? 0 : s.rows.front().file;
    if (!s.rows.empty()) {
      prog.push_back(DW_LNS_set_file);
      uleb(prog, file);
    }
    // One row: file change, then a special opcode or advance_line/advance_pc/copy.
    auto emitRow = [&](uint32_t rowFile, uint32_t rowLine, uint64_t rowOffset) {
      if (rowFile != file) {
        prog.push_back(DW_LNS_set_file);
        uleb(prog, rowFile);
        file = rowFile;
      }
      int64_t dl = static_cast<int64_t>(rowLine) - line;
      uint64_t da = rowOffset - addr;
      int64_t special = (dl - kLineBase) + kLineRange * static_cast<int64_t>(da) + kOpcodeBase;
      if (da > 0 && dl >= kLineBase && dl < kLineBase + kLineRange && special <= 255) {
        prog.push_back(static_cast<uint8_t>(special));
      } else {
        if (dl) {
          prog.push_back(DW_LNS_advance_line);
          sleb(prog, dl);
        }
        if (da) {
          prog.push_back(DW_LNS_advance_pc);
          sleb(prog, static_cast<int64_t>(da));
        }
        prog.push_back(DW_LNS_copy);
      }
      line = rowLine;
      addr = rowOffset;
      ++rowCount;
    };
    auto setContext = [&](uint32_t row, uint32_t name) {
      prog.push_back(0);
      std::vector<uint8_t> ops;
      uleb(ops, row);
      uleb(ops, name);
      uleb(prog, 1 + ops.size());
      prog.push_back(kDwLneNvInlinedContext);
      prog.insert(prog.end(), ops.begin(), ops.end());
    };
    for (const LineRow &r : s.rows) {
      if (!r.inlined) {
        if (!chain.empty()) {
          chain.clear();
          contextName = 0;
          setContext(0, 0);
        }
      } else {
        const CallSite *top = chain.empty() ? nullptr : &chain.back();
        bool same = top && top->file == r.atFile && top->line == r.atLine &&
                    top->column == r.atColumn && contextName == r.functionName;
        if (!same) {
          auto in = std::find_if(chain.begin(), chain.end(), [&](const CallSite &c) {
            return c.file == r.atFile && c.line == r.atLine && c.column == r.atColumn;
          });
          if (in != chain.end()) {
            chain.erase(in + 1, chain.end()); // back in an enclosing context
          } else {
            emitRow(r.atFile, r.atLine, r.offset); // the call site, at this address
            chain.push_back(CallSite{r.atFile, r.atLine, r.atColumn, rowCount});
          }
          contextName = r.functionName;
          setContext(chain.back().row, r.functionName);
        }
      }
      emitRow(r.file, r.line, r.offset);
    }
    if (s.end > addr) {
      prog.push_back(DW_LNS_advance_pc);
      sleb(prog, static_cast<int64_t>(s.end - addr));
    }
    prog.insert(prog.end(), {0, 1, DW_LNE_end_sequence});
  }

  std::vector<uint8_t> out;
  // unit_length counts everything after itself: version (2), header_length (4), header, program.
  put32(out, static_cast<uint32_t>(2 + 4 + header.size() + prog.size()));
  put16(out, 2);
  put32(out, static_cast<uint32_t>(header.size()));
  out.insert(out.end(), header.begin(), header.end());
  size_t progStart = out.size();
  out.insert(out.end(), prog.begin(), prog.end());
  addressOffsets.clear();
  for (size_t a : progAddr)
    addressOffsets.push_back(progStart + a);
  return out;
}

} // namespace ptxmini::cubin
