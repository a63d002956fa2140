/* exec_run.cpp - the exec-run tool: run one cubin's kernel from a test description on the
 * SASS emulator (default) or on a GPU (--gpu), then compare the output buffers with the C++
 * CPU reference named in the description.
 *
 *   exec-run --cubin K.cubin --desc T.desc [--kernel NAME] [--gpu] [--no-ref] [--dump DIR]
 *            [--stats] [--perf] [--list-opcodes]
 *   exec-run --cubin K.cubin --smoke [--kernel NAME]
 *
 * --smoke runs every kernel of the cubin (or NAME) without a description: each 8-byte
 * parameter points to a fresh zero-filled 4 MiB buffer, each other parameter is the integer 64,
 * grid 2 x block 64, 48 KiB of dynamic shared memory. It checks nothing but that the emulator runs the code to completion
 * without a trap (used to survey which opcodes real code needs).
 *
 * --perf also replays the run on the performance model (emu/perf_model.h; tests/exec/README.md
 * "Performance model") and prints one line
 *   PERF <kernel> cycles=<modelled cycles> warp_insts=<issued warp instructions> ctas=<grid>
 *        resident=<CTAs resident at once> regs=<registers per thread> static=<instructions>
 * (static: the kernel's instructions before the tail padding, the final BRA to itself and the
 * NOPs after it, counted as tests/compare/cuobjdump_model.py counts them), then
 *   PERF-WAIT <kernel> stall=<%> barrier=<%> scoreboard=<%> pipe=<%> dispatch=<%>
 * where the warps' cycles went (perf_model.h, WaitCycles), in percent of their sum
 * (emulator only; with --gpu it is an error until a GPU timing column exists).
 *
 * Exit status: 0 outputs match (or ran to completion with --no-ref / no reference),
 * 1 mismatch, 2 trap or error, 77 skipped (--gpu without a GPU; the reason is printed). */
#include "tests/exec/emu/emulator.h"
#include "tests/exec/emu/load_cubin.h"
#include "tests/exec/emu/ops.h"
#include "tests/exec/emu/perf_model.h"
#include "tests/exec/runner/gpu_runner.h"
#include "tests/exec/runner/test_desc.h"

#include "targets/target.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

using namespace ptxmini::exec;

namespace {
// Instructions before the tail padding (the last BRA to itself and the NOPs after it).
size_t static_instructions(const KernelImage& img, const std::vector<SassInst>& code) {
  size_t n = std::min(img.insts.size(), code.size());
  while (n > 0 && (img.insts[n - 1].empty() || code[n - 1].opcode == "NOP")) --n;
  if (n > 0 && code[n - 1].opcode == "BRA")
    for (const Operand& o : code[n - 1].ops)
      if ((o.kind == OpndKind::Target || o.kind == OpndKind::Imm) && o.imm == (n - 1) * 16) {
        --n;
        break;
      }
  size_t count = 0;
  for (size_t i = 0; i < n; ++i) count += !img.insts[i].empty();
  return count;
}

int usage() {
  std::cerr << "usage: exec-run --cubin K.cubin --desc T.desc [--kernel NAME] [--gpu] [--no-ref] [--dump DIR] "
               "[--stats] [--perf] | --list-opcodes\n";
  return 2;
}
int run_smoke(const std::string& cubin, const std::string& only) {
  std::vector<std::string> names;
  std::string err;
  if (!list_kernels(cubin, names, err)) {
    std::cerr << "exec-run: " << err << "\n";
    return 2;
  }
  int bad = 0;
  for (const auto& name : names) {
    if (!only.empty() && name != only) continue;
    KernelImage img;
    if (!load_cubin(cubin, name, img, err)) {
      std::cout << "SMOKE " << name << ": LOAD-ERROR " << err << "\n";
      ++bad;
      continue;
    }
    GlobalMemory gm;
    LaunchConfig cfg;
    cfg.grid = {2, 1, 1};
    cfg.block = {64, 1, 1};
    cfg.dynamic_shared = 48 * 1024;
    cfg.max_warp_steps = 20000000;
    uint32_t psize = img.param_size;
    for (auto& p : img.params) psize = std::max(psize, p.offset + p.size);
    cfg.params.assign(psize, 0);
    for (auto& p : img.params) {
      if (p.size == 8) {
        uint64_t a = gm.allocate(4u << 20);
        std::memcpy(cfg.params.data() + p.offset, &a, 8);
      } else if (p.size == 4) {
        uint32_t v = 64;
        std::memcpy(cfg.params.data() + p.offset, &v, 4);
      }
    }
    Emulator emu(img, gm);
    try {
      emu.launch(cfg);
      std::cout << "SMOKE " << name << ": RAN " << emu.stats().warp_insts << " warp-level instructions\n";
    } catch (const Trap& t) {
      std::cout << "SMOKE " << name << ": TRAP " << t.what() << "\n";
      ++bad;
    }
  }
  return bad ? 1 : 0;
}

// The emulator's object for a description's texture/surface line over the buffer at `addr`.
bool make_texture(const TextureDesc& t, const BufferDesc& b, uint64_t addr, TexObject& o, std::string& err) {
  using S = TexObject::Shape;
  o.kind = t.surface ? TexObject::Kind::Surface : TexObject::Kind::Texture;
  o.addr = addr;
  if (!parse_tex_shape(t.shape, o.shape)) { err = "texture " + t.name + ": unknown shape " + t.shape; return false; }
  if (!parse_tex_format(t.format, o.channel, o.channels)) { err = "texture " + t.name + ": unknown format " + t.format; return false; }
  if (!parse_tex_address(t.address, o.address)) { err = "texture " + t.name + ": unknown address mode " + t.address; return false; }
  o.width = t.width;
  o.height = t.height;
  o.depth = t.depth;
  o.layers = o.shape == S::Cube ? 6 : o.shape == S::LayeredCube ? 6 * t.layers : t.layers;
  o.normalized_coords = t.normalized_coords;
  o.read_normalized = t.read_normalized;
  o.linear_filter = t.linear_filter;
  bool ok = true;
  switch (o.shape) {
    case S::Buffer: case S::D1: case S::Layered1D: ok = t.height == 1 && t.depth == 1; break;
    case S::D2: case S::Layered2D: ok = t.depth == 1; break;
    case S::Cube: case S::LayeredCube: ok = t.width == t.height && t.depth == 1; break;
    case S::D3: break;
  }
  bool layered = o.shape == S::Layered1D || o.shape == S::Layered2D || o.shape == S::LayeredCube;
  ok &= layered || t.layers == 1;
  ok &= !t.surface || (o.shape != S::Buffer && o.shape != S::Cube && o.shape != S::LayeredCube);
  if (!ok) { err = "texture " + t.name + ": dimensions or layers do not fit shape " + t.shape; return false; }
  if (o.texels() * o.element_bytes() != b.data.size()) {
    err = "texture " + t.name + ": buffer " + b.name + " has " + std::to_string(b.data.size()) + " bytes, the texels " +
          std::to_string(o.texels() * o.element_bytes());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string cubin, desc, kernel, dump;
  bool gpu = false, noref = false, stats = false, smoke = false, perf = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--cubin") cubin = next();
    else if (a == "--desc") desc = next();
    else if (a == "--kernel") kernel = next();
    else if (a == "--dump") dump = next();
    else if (a == "--gpu") gpu = true;
    else if (a == "--no-ref") noref = true;
    else if (a == "--stats") stats = true;
    else if (a == "--perf") perf = true;
    else if (a == "--smoke") smoke = true;
    else if (a == "--list-opcodes") {
      for (size_t k = 0; k < op_table_size(); ++k) std::cout << op_table()[k].name << "\n";
      return 0;
    } else return usage();
  }
  if (smoke && !cubin.empty()) return run_smoke(cubin, kernel);
  if (cubin.empty() || desc.empty()) return usage();
  if (perf && gpu) {
    std::cerr << "exec-run: --perf models the emulator's run; it has no GPU timing yet\n";
    return 2;
  }
  try {
  TestDesc d;
  std::string err;
  if (!parse_test_desc(desc, d, err) || !generate_buffers(d, err)) {
    std::cerr << "exec-run: " << err << "\n";
    return 2;
  }
  if (!kernel.empty()) d.kernel = kernel;

  std::map<std::string, std::vector<uint8_t>> got;
  if (gpu && !d.expect_trap.empty()) {
    std::cout << "SKIPPED: '" << desc << "' is a negative test of the emulator's traps; a GPU does not trap there\n";
    return 77;
  }
  if (gpu) {
    GpuStatus st = run_on_gpu(cubin, d, got, err);
    if (st == GpuStatus::NoGpu) {
      std::cout << "SKIPPED (GPU run not possible): " << err << "\n";
      return 77;
    }
    if (st != GpuStatus::Ok) {
      std::cerr << "exec-run: GPU run failed: " << err << "\n";
      return 2;
    }
    std::cout << "ran on the GPU\n";
  } else {
    KernelImage img;
    if (!load_cubin(cubin, d.kernel, img, err)) {
      std::cerr << "exec-run: " << err << "\n";
      return 2;
    }
    GlobalMemory gm;
    std::map<std::string, uint64_t> addr;
    for (auto& b : d.buffers) {
      uint64_t a = gm.allocate(std::max<uint64_t>(b.data.size(), 1));
      std::memcpy(gm.bytes(a).data(), b.data.data(), b.data.size());
      addr[b.name] = a;
    }
    LaunchConfig cfg;
    cfg.perf = perf;
    // Texture and surface objects: handles 1, 2, ... in description order.
    std::map<std::string, uint64_t> handle;
    for (size_t i = 0; i < d.textures.size(); ++i) {
      const TextureDesc& t = d.textures[i];
      TexObject o;
      if (!make_texture(t, *d.buffer(t.buffer), addr[t.buffer], o, err)) {
        std::cerr << "exec-run: " << err << "\n";
        return 2;
      }
      handle[t.name] = i + 1;
      cfg.textures[static_cast<uint32_t>(i + 1)] = o;
    }
    cfg.grid = {d.grid[0], d.grid[1], d.grid[2]};
    cfg.block = {d.block[0], d.block[1], d.block[2]};
    cfg.dynamic_shared = d.dynamic_shared;
    if (img.params.size() != d.params.size()) {
      std::cerr << "exec-run: kernel " << d.kernel << " has " << img.params.size() << " parameters, the description "
                << d.params.size() << "\n";
      return 2;
    }
    uint32_t psize = img.param_size;
    for (auto& p : img.params) psize = std::max(psize, p.offset + p.size);
    cfg.params.assign(psize, 0);
    for (size_t i = 0; i < d.params.size(); ++i) {
      std::vector<uint8_t> bytes;
      if (d.params[i].type == "ptr") {
        bytes.resize(8);
        std::memcpy(bytes.data(), &addr[d.params[i].value], 8);
      } else if (d.params[i].type == "tex") {
        bytes.resize(8);
        std::memcpy(bytes.data(), &handle[d.params[i].value], 8);
      } else if (d.params[i].type == "blob") {
        const BufferDesc* b = d.buffer(d.params[i].value);
        if (!b) {
          std::cerr << "exec-run: parameter " << i << ": no buffer " << d.params[i].value << "\n";
          return 2;
        }
        bytes = b->data;
      } else if (!encode_scalar(d.params[i].type, d.params[i].value, bytes, err)) {
        std::cerr << "exec-run: " << err << "\n";
        return 2;
      }
      if (bytes.size() != img.params[i].size) {
        std::cerr << "exec-run: parameter " << i << " is " << img.params[i].size << " bytes in the kernel, "
                  << bytes.size() << " in the description\n";
        return 2;
      }
      std::memcpy(cfg.params.data() + img.params[i].offset, bytes.data(), bytes.size());
    }
    Emulator emu(img, gm);
    try {
      emu.launch(cfg);
    } catch (const Trap& t) {
      std::cout << "TRAP: " << t.what() << "\n";
      std::cout << "dynamic instructions before the trap: " << emu.stats().warp_insts << " warp-level\n";
      if (!d.expect_trap.empty()) {
        bool ok = std::string(t.what()).find(d.expect_trap) != std::string::npos;
        std::cout << (ok ? "EXPECTED TRAP: the message contains '" : "WRONG TRAP: expected '") << d.expect_trap << "'\n";
        return ok ? 0 : 1;
      }
      return 2;
    }
    if (!d.expect_trap.empty()) {
      std::cout << "MISSING TRAP: expected a trap containing '" << d.expect_trap << "'\n";
      return 1;
    }
    for (auto& b : d.buffers) {
      auto& v = gm.bytes(addr[b.name]);
      got[b.name].assign(v.begin(), v.begin() + static_cast<long>(b.data.size()));
    }
    const ExecStats& s = emu.stats();
    std::cout << "emulated " << d.kernel << ": dynamic instructions " << s.warp_insts << " warp-level, " << s.thread_insts
              << " thread-level\n";
    if (stats)
      for (auto& [op, n] : s.per_opcode) std::cout << "  " << op << " " << n << "\n";
    if (perf) {
      PerfResult pr = model_performance(img, emu.code(), emu.perf_trace(), cfg, ptxmini::Target::sm90());
      if (!pr.ok) {
        std::cerr << "exec-run: performance model: " << pr.error << "\n";
        return 2;
      }
      std::cout << "PERF " << d.kernel << " cycles=" << pr.cycles << " warp_insts=" << pr.warp_insts
                << " ctas=" << pr.ctas << " resident=" << pr.resident_ctas << " regs=" << pr.regs
                << " static=" << static_instructions(img, emu.code()) << "\n";
      const WaitCycles& wc = pr.wait;
      auto pct = [&](uint64_t v) {
        char b[32];
        std::snprintf(b, sizeof b, "%.1f", wc.total() ? 100.0 * static_cast<double>(v) / static_cast<double>(wc.total()) : 0.0);
        return std::string(b);
      };
      std::cout << "PERF-WAIT " << d.kernel << " stall=" << pct(wc.stall) << " barrier=" << pct(wc.barrier)
                << " scoreboard=" << pct(wc.scoreboard) << " pipe=" << pct(wc.pipe) << " dispatch=" << pct(wc.dispatch)
                << "\n";
    }
  }
  if (!dump.empty())
    for (auto& o : d.outputs) {
      std::ofstream f(dump + "/" + o.buffer + ".bin", std::ios::binary);
      f.write(reinterpret_cast<const char*>(got[o.buffer].data()), static_cast<std::streamsize>(got[o.buffer].size()));
    }
  if (noref || d.reference.empty()) {
    std::cout << "NO REFERENCE: ran to completion without a trap; outputs not checked\n";
    return 0;
  }
  RefFn ref = find_reference(d.reference);
  if (!ref) {
    std::cerr << "exec-run: unknown reference " << d.reference << "\n";
    return 2;
  }
  std::map<std::string, std::vector<uint8_t>> want;
  for (auto& b : d.buffers) want[b.name] = b.data;
  RefCtx ctx{d, want};
  try {
    ref(ctx);
  } catch (const std::exception& ex) {
    std::cerr << "exec-run: reference " << d.reference << " failed on this description: " << ex.what() << "\n";
    return 2;
  }
  uint64_t bad = 0;
  std::string report;
  for (auto& o : d.outputs) {
    BufferDesc w = *d.buffer(o.buffer);
    w.data = want[o.buffer];
    bad += compare_buffer(w, got[o.buffer], o.tol, 8, report);
  }
  if (bad) {
    std::cout << "MISMATCH: " << bad << " elements differ from the CPU reference\n" << report;
    return 1;
  }
  std::cout << "MATCH: all outputs equal the CPU reference\n";
  return 0;
  } catch (const std::exception& ex) {
    std::cerr << "exec-run: " << ex.what() << "\n";
    return 2;
  }
}
