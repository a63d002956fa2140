//===- encoder/sass_mc_isa.cpp - sass-mc -assemble and -disassemble ---------------------===//
///
/// \file
/// -assemble: each input line is one instruction in nvdisasm's syntax. Accepted around it:
/// an address comment `/*0040*/` (the instruction's pc, for branch targets; otherwise pcs
/// count up from 0 by 16), a control annotation `[B------:R-:W-:Y:S04]` before or after the
/// instruction, a trailing ';', `/* ... */` and `//` comments. Lines that are empty, labels
/// (`name:`) or directives (`.text...`) are skipped. Output: each word as cuobjdump prints it.
/// Without an annotation the control block is [B------:R-:W-:-:S00] (no waits, no
/// scoreboards, yield bit 1, no stall).
///
/// -disassemble: a cubin's `.text.*` sections, or with -raw hex words (two per instruction,
/// low then high; `/* 0x... */` comments as cuobjdump/nvdisasm print them are understood, and
/// a `/*0040*/` address sets the pc). Output per word: address, control annotation, text in
/// nvdisasm syntax and the two hex words — a line -assemble reads back.
//===----------------------------------------------------------------------------------===//
#include "encoder/elf_text_sections.h"
#include "encoder/sass_codec.h"
#include "encoder/sass_mc_commands.h"
#include "targets/arch.h"

#include <cctype>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace ptxmini::sassmc {

namespace {

const enc::Isa *isaFor(const Options &opts, DiagEngine &diag) {
  auto arch = parseArch(opts.arch);
  if (!arch) {
    diag.error("unknown architecture '" + opts.arch + "'");
    return nullptr;
  }
  const enc::Isa *isa = enc::Isa::forSm(arch->sm);
  if (!isa)
    diag.error("no encoding tables for " + arch->name());
  return isa;
}

bool readInput(const Options &opts, std::string &data, DiagEngine &diag) {
  if (opts.input == "-") {
    data.assign(std::istreambuf_iterator<char>(std::cin), {});
    return true;
  }
  std::ifstream in(opts.input, std::ios::binary);
  if (!in) {
    diag.error("cannot open input file '" + opts.input + "'");
    return false;
  }
  data.assign(std::istreambuf_iterator<char>(in), {});
  return true;
}

std::string hex16(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", (unsigned long long)v);
  return buf;
}

std::string addrComment(uint64_t pc) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "/*%04llx*/", (unsigned long long)pc);
  return buf;
}

/// A leading `/*hex*/` address comment: its value, and removes it from `line`.
bool takeAddress(std::string &line, uint64_t &pc) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line.compare(i, 2, "/*") != 0)
    return false;
  size_t e = line.find("*/", i + 2);
  if (e == std::string::npos)
    return false;
  std::string body = line.substr(i + 2, e - i - 2);
  if (body.empty() || body.size() > 16)
    return false;
  for (char c : body)
    if (!std::isxdigit(static_cast<unsigned char>(c)))
      return false;
  pc = std::stoull(body, nullptr, 16);
  line.erase(0, e + 2);
  return true;
}

/// Finds and removes a `[B......:R.:W.:.:S..]` annotation.
bool takeControl(std::string &line, volta::Control &c, bool &found, std::string &err) {
  found = false;
  for (size_t p = line.find("[B"); p != std::string::npos; p = line.find("[B", p + 1)) {
    if (p + 21 <= line.size() && line[p + 8] == ':' && line[p + 9] == 'R') {
      if (!enc::parseControl(std::string_view(line).substr(p, 21), c)) {
        err = "malformed control annotation '" + line.substr(p, 21) + "'";
        return false;
      }
      line.erase(p, 21);
      found = true;
      return true;
    }
  }
  return true;
}

void stripComments(std::string &line) {
  for (size_t p = line.find("/*"); p != std::string::npos; p = line.find("/*")) {
    size_t e = line.find("*/", p + 2);
    line.erase(p, e == std::string::npos ? std::string::npos : e + 2 - p);
  }
  size_t sl = line.find("//");
  if (sl != std::string::npos)
    line.erase(sl);
}

} // namespace

int assemble(const Options &opts, std::ostream &out, DiagEngine &diag) {
  const enc::Isa *isa = isaFor(opts, diag);
  std::string data;
  if (!isa || !readInput(opts, data, diag))
    return DiagEngine::kFailureExitCode;
  std::istringstream in(data);
  std::string line;
  uint32_t lineNo = 0;
  uint64_t pc = 0;
  unsigned errors = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    SourceLoc loc{opts.input, lineNo, 0};
    uint64_t addr = pc;
    takeAddress(line, addr);
    volta::Control ctrl;
    ctrl.stall = 0;
    bool hasCtrl;
    std::string err;
    if (!takeControl(line, ctrl, hasCtrl, err)) {
      diag.error(loc, err);
      ++errors;
      continue;
    }
    stripComments(line);
    size_t semi = line.find(';');
    if (semi != std::string::npos) {
      if (line.find_first_not_of(" \t\r", semi + 1) != std::string::npos) {
        diag.error(loc, "unexpected text after ';': '" + line.substr(semi + 1) + "'");
        ++errors;
        continue;
      }
      line.erase(semi);
    }
    std::string text = enc::canonicalSpacing(line);
    if (text.empty() || text[0] == '.' || text.back() == ':')
      continue;
    enc::Word128 w;
    if (!enc::encodeText(*isa, text, addr, w, err)) {
      diag.error(loc, err);
      ++errors;
      pc = addr + 16;
      continue;
    }
    volta::writeControl(w, ctrl);
    std::string head = "        " + addrComment(addr) + "                   " + text + " ;";
    if (head.size() < 86)
      head.resize(86, ' ');
    out << head << " /* " << hex16(w.lo) << " */\n"
        << std::string(86, ' ') << " /* " << hex16(w.hi) << " */\n";
    pc = addr + 16;
  }
  return errors ? DiagEngine::kFailureExitCode : 0;
}

namespace {

struct RawWord {
  uint64_t pc;
  enc::Word128 w;
  uint32_t line;
};

bool parseRawWords(const std::string &data, const std::string &file, std::vector<RawWord> &words,
                   DiagEngine &diag) {
  std::istringstream in(data);
  std::string line;
  uint32_t lineNo = 0;
  uint64_t pc = 0;
  bool haveLow = false;
  RawWord cur{};
  while (std::getline(in, line)) {
    ++lineNo;
    if (size_t sl = line.find("//"); sl != std::string::npos)
      line.erase(sl);
    uint64_t addr;
    if (takeAddress(line, addr) && !haveLow)
      pc = addr;
    // Only the /* 0x... */ comments when there are some (nvdisasm/cuobjdump -hex output),
    // else every 0x token of the line.
    std::vector<std::string> toks;
    bool commented = line.find("/* 0x") != std::string::npos;
    size_t p = 0;
    while ((p = line.find("0x", p)) != std::string::npos) {
      size_t e = p + 2;
      while (e < line.size() && std::isxdigit(static_cast<unsigned char>(line[e])))
        ++e;
      bool inComment = p >= 3 && line.compare(p - 3, 3, "/* ") == 0;
      if ((!commented || inComment) && e > p + 2)
        toks.push_back(line.substr(p + 2, e - p - 2));
      p = e;
    }
    for (const auto &t : toks) {
      if (t.size() > 16) {
        diag.error(SourceLoc{file, lineNo, 0}, "hex word wider than 64 bits: 0x" + t);
        return false;
      }
      uint64_t v = std::stoull(t, nullptr, 16);
      if (!haveLow) {
        cur = RawWord{pc, {v, 0}, lineNo};
        haveLow = true;
      } else {
        cur.w.hi = v;
        words.push_back(cur);
        haveLow = false;
        pc += 16;
      }
    }
  }
  if (haveLow) {
    diag.error(SourceLoc{file, cur.line, 0}, "odd number of 64-bit words: the last instruction has no high word");
    return false;
  }
  return true;
}

void printWords(const enc::Isa &isa, const std::vector<RawWord> &words, const Options &opts,
                std::ostream &out, DiagEngine &diag, unsigned &errors) {
  for (const auto &rw : words) {
    auto text = enc::decodeText(isa, rw.w, rw.pc);
    std::string ctrl = enc::formatControl(volta::readControl(rw.w));
    std::string body;
    if (text) {
      body = *text + " ;";
    } else {
      body = "?? ;";
      ++errors;
      diag.error("cannot decode the word at " + addrComment(rw.pc) + ": " + hex16(rw.w.lo) + " " +
                 hex16(rw.w.hi) + " (opcode " + hex16(rw.w.get(volta::kOpcode)).substr(15) + ")");
    }
    std::string head = "        " + addrComment(rw.pc) + " " + ctrl + "  " + body;
    if (opts.printHex) {
      if (head.size() < 96)
        head.resize(96, ' ');
      head += " /* " + hex16(rw.w.lo) + " */ /* " + hex16(rw.w.hi) + " */";
    }
    out << head << "\n";
  }
}

} // namespace

int disassemble(const Options &opts, std::ostream &out, DiagEngine &diag) {
  const enc::Isa *isa = isaFor(opts, diag);
  std::string data;
  if (!isa || !readInput(opts, data, diag))
    return DiagEngine::kFailureExitCode;
  unsigned errors = 0;
  if (opts.rawWords) {
    std::vector<RawWord> words;
    if (!parseRawWords(data, opts.input, words, diag))
      return DiagEngine::kFailureExitCode;
    printWords(*isa, words, opts, out, diag, errors);
    return errors ? DiagEngine::kFailureExitCode : 0;
  }
  std::vector<uint8_t> image(data.begin(), data.end());
  std::vector<enc::TextSection> secs;
  std::string err;
  if (!enc::findTextSections(image, secs, err)) {
    diag.error(opts.input + ": " + err);
    return DiagEngine::kFailureExitCode;
  }
  for (const auto &s : secs) {
    out << s.name << ":\n";
    if (s.code.size() % 16 != 0) {
      diag.error(s.name + ": size is not a multiple of 16 bytes");
      ++errors;
      continue;
    }
    std::vector<RawWord> words;
    for (size_t i = 0; i < s.code.size(); i += 16) {
      RawWord rw{i, {}, 0};
      std::memcpy(&rw.w.lo, s.code.data() + i, 8);
      std::memcpy(&rw.w.hi, s.code.data() + i + 8, 8);
      words.push_back(rw);
    }
    printWords(*isa, words, opts, out, diag, errors);
  }
  return errors ? DiagEngine::kFailureExitCode : 0;
}

} // namespace ptxmini::sassmc
