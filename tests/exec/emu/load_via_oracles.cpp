/* load_via_oracles.cpp - KernelImage from `nvdisasm -c` text and `cuobjdump -elf` text.
 *
 * TEMPORARY (see the header): replaced by the project's decoder and cubin reader later.
 * Tool paths come from the build (PTXMINI_NVDISASM / PTXMINI_CUOBJDUMP) and can be overridden
 * with the environment variables of the same names.
 *
 * nvdisasm -c prints, per ".section .text.<kernel>", lines "[/]*0040*[/]  OPCODE operands ;" (an offset comment, then the text) and
 * labels "name:" that precede the instruction they name. cuobjdump -elf prints the section
 * table (sizes), hex dumps of constant sections ("0x%08x" words) and the decoded EIATTR
 * attributes (KPARAM_INFO, PARAM_CBANK, FRAME_SIZE, MIN_STACK_SIZE). HW: formats as printed by
 * nvdisasm/cuobjdump 13.2. */
#include "tests/exec/emu/load_via_oracles.h"

#include <algorithm>
#include <array>
#include <map>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <regex>
#include <sstream>

namespace ptxmini::exec {
namespace {

std::string tool(const char* env, const char* built) {
  const char* e = std::getenv(env);
  return e && *e ? e : built;
}

std::string quote(const std::string& s) {
  std::string r = "'";
  for (char c : s) r += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return r + "'";
}

bool run(const std::string& cmd, std::string& out, std::string& err) {
  out.clear();
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) { err = "cannot run: " + cmd; return false; }
  std::array<char, 65536> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  int rc = pclose(p);
  if (rc != 0) { err = "command failed (" + std::to_string(rc) + "): " + cmd + "\n" + out.substr(0, 2000); return false; }
  return true;
}

uint64_t num(const std::string& s) { return std::strtoull(s.c_str(), nullptr, 0); }

}  // namespace

bool list_kernels_via_oracles(const std::string& cubin, std::vector<std::string>& names, std::string& err) {
  std::string txt;
  if (!run(quote(tool("PTXMINI_NVDISASM", PTXMINI_NVDISASM)) + " -c " + quote(cubin), txt, err)) return false;
  std::istringstream in(txt);
  std::string line;
  static const std::regex other(R"(^\s*\.other\s+([^,\s]+),@"STO_CUDA_ENTRY)");
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_search(line, m, other)) names.push_back(m[1]);
  return true;
}

bool load_via_oracles(const std::string& cubin, const std::string& kernel, KernelImage& out, std::string& err) {
  out = KernelImage{};
  out.name = kernel;
  // ---- instructions -----------------------------------------------------------------------
  std::string txt;
  if (!run(quote(tool("PTXMINI_NVDISASM", PTXMINI_NVDISASM)) + " -c " + quote(cubin), txt, err)) return false;
  {
    std::istringstream in(txt);
    std::string line, section;
    bool mine = false, found = false;
    std::vector<std::string> pending;
    static const std::regex sec(R"(^\s*\.section\s+([^,\s]+))");
    static const std::regex ins(R"(^\s*/\*([0-9a-fA-F]+)\*/\s*(.*?)\s*(/\*[^*]*\*/)?\s*$)");
    static const std::regex lab(R"(^\s*([.$A-Za-z_][^:\s]*):\s*$)");
    std::smatch m;
    uint32_t last = 0;
    while (std::getline(in, line)) {
      if (std::regex_search(line, m, sec)) {
        if (mine) for (auto& p : pending) out.labels.push_back({p, last + 16});
        pending.clear();
        section = m[1];
        mine = section == ".text." + kernel;
        found = found || mine;
        continue;
      }
      if (!mine) continue;
      if (std::regex_match(line, m, ins)) {
        uint32_t off = static_cast<uint32_t>(std::stoul(m[1], nullptr, 16));
        std::string text = m[2];
        if (off % 16) { err = "misaligned instruction offset in: " + line; return false; }
        if (out.insts.size() <= off / 16) out.insts.resize(off / 16 + 1);
        out.insts[off / 16] = text;
        for (auto& p : pending) out.labels.push_back({p, off});
        pending.clear();
        last = off;
      } else if (std::regex_match(line, m, lab)) {
        pending.push_back(m[1]);
      }
    }
    if (mine) for (auto& p : pending) out.labels.push_back({p, last + 16});
    if (!found) { err = "kernel '" + kernel + "' not found in " + cubin; return false; }
  }
  // ---- sections and attributes ------------------------------------------------------------
  if (!run(quote(tool("PTXMINI_CUOBJDUMP", PTXMINI_CUOBJDUMP)) + " -elf " + quote(cubin), txt, err)) return false;
  std::istringstream in(txt);
  std::string line;
  static const std::regex secrow(R"(^\s*[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+[0-9a-f]+\s+[0-9a-f]+\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+(\S+)\s*$)");
  static const std::regex cbank(R"(^\.nv\.constant(\d+)(\.(.*))?$)");
  static const std::regex kparam(R"(Ordinal\s*:\s*(0x[0-9a-f]+)\s+Offset\s*:\s*(0x[0-9a-f]+)\s+Size\s*:\s*(0x[0-9a-f]+))");
  static const std::regex fnval(R"(function:\s*(\S+)\(0x[0-9a-f]+\)\s+(frame size|min stack size):\s*(0x[0-9a-f]+))");
  std::map<std::string, uint64_t> sizes;
  std::string block, attr;  // current dump block (section name) and attribute
  std::map<int, std::vector<uint8_t>> banks;
  int bank_now = -1;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, secrow)) { sizes[m[2]] = std::stoull(m[1], nullptr, 16); continue; }
    if (!line.empty() && line[0] == '.') {
      block = line.substr(0, line.find_first_of(" \t"));
      bank_now = -1;
      std::smatch c;
      if (std::regex_match(block, c, cbank)) {
        std::string owner = c[3];
        if (owner.empty() || owner == kernel) { bank_now = std::stoi(c[1]); banks[bank_now].clear(); }
      }
      continue;
    }
    if (bank_now >= 0 && line.rfind("0x", 0) == 0) {
      std::istringstream ws(line);
      std::string w;
      while (ws >> w) {
        uint32_t v = static_cast<uint32_t>(num(w));
        for (int i = 0; i < 4; ++i) banks[bank_now].push_back(static_cast<uint8_t>(v >> (8 * i)));
      }
      continue;
    }
    if (auto at = line.find("Attribute:"); at != std::string::npos) {
      std::istringstream as(line.substr(at + 10));
      as >> attr;
      continue;
    }
    if (block == ".nv.info" && std::regex_search(line, m, fnval) && m[1] == kernel) {
      if (m[2] == "frame size") out.frame_size = static_cast<uint32_t>(num(m[3]));
      else out.min_stack_size = static_cast<uint32_t>(num(m[3]));
    }
    if (block == ".nv.info." + kernel) {
      if (attr == "EIATTR_KPARAM_INFO" && std::regex_search(line, m, kparam)) {
        out.params.push_back({static_cast<uint32_t>(num(m[1])), static_cast<uint32_t>(num(m[2])), static_cast<uint32_t>(num(m[3]))});
      } else if (attr == "EIATTR_PARAM_CBANK" && line.find("Value:") != std::string::npos) {
        std::istringstream vs(line.substr(line.find("Value:") + 6));
        std::string a, b;
        vs >> a >> b;
        uint64_t v = num(b);
        out.param_base = static_cast<uint32_t>(v & 0xffff);
        out.param_size = static_cast<uint32_t>(v >> 16);
      }
    }
  }
  for (auto& [b, bytes] : banks) {
    std::string name = ".nv.constant" + std::to_string(b);
    auto it = sizes.find(name + "." + kernel);
    if (it == sizes.end()) it = sizes.find(name);
    if (it != sizes.end() && bytes.size() > it->second) bytes.resize(it->second);
    out.cbanks[b] = bytes;
  }
  // Banks that are NOBITS-like or printed without data still have a size.
  for (auto& [name, size] : sizes) {
    std::smatch c;
    if (std::regex_match(name, c, cbank) && (c[3].str().empty() || c[3] == kernel)) {
      auto& v = out.cbanks[std::stoi(c[1])];
      if (v.size() < size) v.resize(size, 0);
    }
  }
  if (auto it = sizes.find(".nv.shared." + kernel); it != sizes.end()) out.shared_size = static_cast<uint32_t>(it->second);
  if (auto it = sizes.find(".rela.text." + kernel); it != sizes.end() && it->second > 0) {
    err = "kernel '" + kernel + "' has relocations (device globals / function pointers): not modelled";
    return false;
  }
  if (sizes.count(".rel.text." + kernel) && sizes[".rel.text." + kernel] > 0) {
    err = "kernel '" + kernel + "' has relocations: not modelled";
    return false;
  }
  std::sort(out.params.begin(), out.params.end(), [](const KernelParam& a, const KernelParam& b) { return a.ordinal < b.ordinal; });
  return true;
}

}  // namespace ptxmini::exec
