/* emulator.cpp - machine state, operand access, memory, and the warp/CTA scheduler.
 * The algorithm is described in emulator.h; instruction semantics are in ops_*.cpp. */
#include "tests/exec/emu/emulator.h"

#include "tests/exec/emu/ops.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <sstream>

namespace ptxmini::exec {

// ---- global memory ------------------------------------------------------------------------
uint64_t GlobalMemory::allocate(uint64_t size) {
  uint64_t base = next_;
  segs_[base].assign(size, 0);
  // 64 KiB of unmapped guard space after each allocation, 256-byte aligned bases like cudaMalloc.
  next_ = (base + size + 0x10000 + 0xff) & ~0xffull;
  return base;
}

uint8_t* GlobalMemory::map(uint64_t addr, uint64_t n) {
  auto it = segs_.upper_bound(addr);
  if (it == segs_.begin()) return nullptr;
  --it;
  uint64_t off = addr - it->first;
  if (off + n > it->second.size() || off + n < off) return nullptr;
  return it->second.data() + off;
}

// ---- Exec helpers -------------------------------------------------------------------------
static std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

void Exec::trap(const std::string& why) const {
  throw Trap("trap at pc " + hex(in.pc) + " '" + in.text + "': " + why);
}

const Operand& Exec::op(size_t i) const {
  if (i >= in.ops.size()) trap("missing operand " + std::to_string(i));
  return in.ops[i];
}

uint32_t Exec::sreg(int lane, const Operand& o) const {
  const Thread& t = w.t[lane];
  const std::string& n = o.sreg_name;
  const uint32_t lanebit = 1u << lane;
  if (n == "SRZ") return 0;
  if (n == "SR_TID.X") return t.tid[0];
  if (n == "SR_TID.Y") return t.tid[1];
  if (n == "SR_TID.Z") return t.tid[2];
  if (n == "SR_CTAID.X") return cta.ctaid[0];
  if (n == "SR_CTAID.Y") return cta.ctaid[1];
  if (n == "SR_CTAID.Z") return cta.ctaid[2];
  if (n == "SR_LANEID") return static_cast<uint32_t>(lane);
  if (n == "SR_CgaCtaId") return 0;  // clusters of one CTA: its rank in the cluster
  if (n == "SR_SWINHI") return emu.shared_window_hi();
  if (n == "SR_EQMASK") return lanebit;
  if (n == "SR_LTMASK") return lanebit - 1;
  if (n == "SR_LEMASK") return lanebit | (lanebit - 1);
  if (n == "SR_GTMASK") return ~(lanebit | (lanebit - 1));
  if (n == "SR_GEMASK") return ~(lanebit - 1);
  if (n == "SR_CLOCKLO" || n == "SR_GLOBALTIMERLO") return static_cast<uint32_t>(emu.clock());
  if (n == "SR_CLOCKHI" || n == "SR_GLOBALTIMERHI") return static_cast<uint32_t>(emu.clock() >> 32);
  if (n == "SR_SMID" || n == "SR_VIRTUALSMID") return 0;
  if (n == "SR_WARPID") return w.id;
  // GUESS: %warpid is SR_VIRTID bits 8..14 and %nwarpid SR_VIRTCFG bits 8..15 (ptxas 13.0
  // extracts those fields); the values are this emulator's: the warp's index in its CTA,
  // and 64 warps per SM.
  if (n == "SR_VIRTID") return w.id << 8;
  if (n == "SR_VIRTCFG") return 64u << 8;
  if (n.rfind("SR_PM", 0) == 0) return 0;  // performance counters: nothing counted here
  if (n == "SR_SMEMSZ") return 228u * 1024;  // GUESS: sm_90's shared memory per SM
  // The lowest local-window address the stack may grow down to. ptxas (-O0 and wherever a
  // kernel has a stack frame) checks "SP >= SR_LMEMHIOFF, else BPT.TRAP" after moving R1 down
  // (seen in ptxas 13.0's code). This emulator's local window of a thread starts at 0 and its
  // stack pointer starts at the top (c[0x0][0x28]), so the bound is 0; GUESS for the exact
  // meaning of the register on hardware. An access below the window still traps as out of
  // bounds.
  if (n == "SR_LMEMHIOFF") return 0;
  trap("special register " + n + " is not modelled");
}

uint32_t Exec::cbank32(int lane, const Operand& o, uint32_t extra) const {
  uint64_t off = o.imm + extra;
  if (o.cbank_reg >= 0) off += o.cbank_ureg ? ureg(o.cbank_reg) : reg(lane, o.cbank_reg);
  // The offset field is a signed 16-bit byte offset into a 64 KiB bank: ptxas 13.0 writes
  // c[0x0][0x8200] as c[0x0][-0x7e00] (a kernel parameter past 32 KiB), so addresses wrap.
  off &= 0xffff;
  const auto* b = emu.bank(o.bank);
  if (!b) trap("constant bank " + std::to_string(o.bank) + " is not present");
  if (off % 4 || off + 4 > b->size()) trap("constant bank read out of bounds: c[" + hex(o.bank) + "][" + hex(off) + "]");
  uint32_t v;
  std::memcpy(&v, b->data() + off, 4);
  return v;
}

uint32_t Exec::u32(int lane, const Operand& o) const {
  uint32_t v = 0;
  switch (o.kind) {
    case OpndKind::Reg: v = reg(lane, o.reg); break;
    case OpndKind::UReg: v = ureg(o.reg); break;
    case OpndKind::Imm: v = static_cast<uint32_t>(o.imm); break;
    case OpndKind::FImm: {
      float f = static_cast<float>(o.fimm);
      std::memcpy(&v, &f, 4);
      if (o.has_fbits) v = o.fbits;
      break;
    }
    case OpndKind::CBank: v = cbank32(lane, o); break;
    case OpndKind::SReg: v = sreg(lane, o); break;
    default: trap("operand is not a 32-bit value");
  }
  return o.bnot ? ~v : v;
}

uint32_t Exec::i32(int lane, const Operand& o) const {
  uint32_t v = u32(lane, o);
  return o.neg ? 0u - v : v;
}

uint64_t Exec::u64(int lane, const Operand& o) const {
  uint64_t v = 0;
  switch (o.kind) {
    case OpndKind::Reg:
      v = o.reg == kRZ ? 0 : (uint64_t{reg(lane, o.reg + 1 > 254 ? kRZ : o.reg + 1)} << 32 | reg(lane, o.reg));
      break;
    case OpndKind::UReg:
      v = o.reg == kURZ ? 0 : (uint64_t{ureg(o.reg + 1 > 62 ? kURZ : o.reg + 1)} << 32 | ureg(o.reg));
      break;
    case OpndKind::Imm: v = o.imm; break;
    case OpndKind::FImm:
      std::memcpy(&v, &o.fimm, 8);
      if (o.has_fbits) v = uint64_t{o.fbits} << 32;
      break;
    case OpndKind::CBank: v = uint64_t{cbank32(lane, o, 4)} << 32 | cbank32(lane, o); break;
    case OpndKind::SReg: v = sreg(lane, o); break;
    default: trap("operand is not a 64-bit value");
  }
  if (o.bnot) v = ~v;
  if (o.neg) v = 0 - v;
  return v;
}

float Exec::f32(int lane, const Operand& o) const {
  float f;
  if (o.kind == OpndKind::FImm) {
    f = static_cast<float>(o.fimm);
    if (o.has_fbits) std::memcpy(&f, &o.fbits, 4);
  } else {
    Operand raw = o;
    raw.bnot = false;
    uint32_t v = u32(lane, raw);
    std::memcpy(&f, &v, 4);
  }
  if (o.abs) f = std::fabs(f);
  if (o.neg) f = -f;
  return f;
}

double Exec::f64(int lane, const Operand& o) const {
  double d;
  if (o.kind == OpndKind::FImm) {
    d = o.fimm;
    if (o.has_fbits) {
      uint64_t v = uint64_t{o.fbits} << 32;
      std::memcpy(&d, &v, 8);
    }
  } else if (o.kind == OpndKind::Imm) {
    trap("integer immediate on a double operation is not modelled");
  } else {
    Operand raw = o;
    raw.neg = raw.bnot = false;
    uint64_t v = u64(lane, raw);
    std::memcpy(&d, &v, 8);
  }
  if (o.abs) d = std::fabs(d);
  if (o.neg) d = -d;
  return d;
}

bool Exec::pred(int lane, const Operand& o) const {
  bool v;
  if (o.kind == OpndKind::Pred) v = o.reg == kPT ? true : (w.t[lane].P >> o.reg & 1);
  else if (o.kind == OpndKind::UPred) v = o.reg == kPT ? true : (w.UP >> o.reg & 1);
  else trap("operand is not a predicate");
  return o.lnot ? !v : v;
}

void Exec::set(int lane, const Operand& d, uint32_t v) {
  if (d.kind == OpndKind::Reg) {
    if (d.reg != kRZ) w.t[lane].R[d.reg] = v;
  } else if (d.kind == OpndKind::UReg) {
    if (d.reg != kURZ) w.UR[d.reg] = v;
  } else {
    trap("destination is not a register");
  }
}

void Exec::setn(int lane, const Operand& d, int n, const uint32_t* v) {
  if ((d.kind == OpndKind::Reg && d.reg == kRZ) || (d.kind == OpndKind::UReg && d.reg == kURZ)) return;
  int limit = d.kind == OpndKind::Reg ? 255 : 63;
  if (d.reg % n && n > 1) trap("misaligned register tuple");
  if (d.reg + n > limit) trap("register tuple out of range");
  for (int i = 0; i < n; ++i) {
    Operand r = d;
    r.reg = d.reg + i;
    set(lane, r, v[i]);
  }
}

void Exec::set64(int lane, const Operand& d, uint64_t v) {
  uint32_t p[2] = {static_cast<uint32_t>(v), static_cast<uint32_t>(v >> 32)};
  setn(lane, d, 2, p);
}

void Exec::setp(int lane, const Operand& d, bool v) {
  if (d.kind == OpndKind::Pred) {
    if (d.reg == kPT) return;
    auto& P = w.t[lane].P;
    P = static_cast<uint8_t>(v ? P | (1u << d.reg) : P & ~(1u << d.reg));
  } else if (d.kind == OpndKind::UPred) {
    if (d.reg == kPT) return;
    w.UP = static_cast<uint8_t>(v ? w.UP | (1u << d.reg) : w.UP & ~(1u << d.reg));
  } else {
    trap("destination is not a predicate");
  }
}

uint64_t Exec::address(int lane, const Operand& m, bool wide) const {
  if (m.kind != OpndKind::Mem) trap("operand is not a memory reference");
  uint64_t a = 0;
  if (m.mem_base >= 0) {
    Operand b;
    b.kind = m.mem_base_ureg ? OpndKind::UReg : OpndKind::Reg;
    b.reg = m.mem_base;
    a = wide ? u64(lane, b) : u32(lane, b);
  }
  if (m.mem_ureg >= 0) a += ureg(m.mem_ureg);
  a += m.imm;
  return wide ? a : (a & 0xffffffffull);
}

char Exec::flat_space(uint64_t addr) const {
  uint32_t hi = static_cast<uint32_t>(addr >> 32);
  return hi == emu.shared_window_hi() ? 's' : hi == emu.local_window_hi() ? 'l' : 'g';
}

uint8_t* Exec::mem(int lane, char space, uint64_t addr, uint32_t n) {
  if (n > 1 && addr % n) trap("misaligned " + std::to_string(n) + "-byte access at " + hex(addr));
  if (space == 'f') {
    uint32_t hi = static_cast<uint32_t>(addr >> 32);
    if (hi == emu.shared_window_hi()) { space = 's'; addr &= 0xffffffffull; }
    else if (hi == emu.local_window_hi()) { space = 'l'; addr &= 0xffffffffull; }
    else space = 'g';
  }
  if (space == 'g') {
    uint8_t* p = emu.global().map(addr, n);
    if (!p) trap("global access out of bounds: " + std::to_string(n) + " bytes at " + hex(addr));
    return p;
  }
  if (space == 's') {
    // HW: shared addresses are (SR_CgaCtaId << 24) + offset (observed: ULEA UR4, UR5, 0x400, 0x18).
    if (addr >> 24) trap("shared access outside this CTA's window: " + hex(addr));
    if (addr + n > cta.shared.size()) trap("shared access out of bounds: " + std::to_string(n) + " bytes at " + hex(addr));
    return cta.shared.data() + addr;
  }
  if (space == 'l') {
    auto& L = w.t[lane].local;
    if (addr + n > L.size()) trap("local access out of bounds: " + std::to_string(n) + " bytes at " + hex(addr));
    return L.data() + addr;
  }
  trap("bad memory space");
}

// ---- emulator -----------------------------------------------------------------------------
Emulator::Emulator(const KernelImage& k, GlobalMemory& g) : k_(k), g_(g) {
  const char* tr = std::getenv("PTXMINI_EMU_TRACE");
  trace_ = tr && *tr == '1';
  // Module data: each global segment gets its own allocation, and the address slots that
  // name it are filled in (what the CUDA driver does when it loads the module).
  banks_ = k.cbanks;
  std::vector<uint64_t> segAddr;
  for (const KernelImage::GlobalSegment& s : k.globals) {
    uint64_t a = g_.allocate(std::max<uint64_t>(s.bytes.size(), 1));
    std::copy(s.bytes.begin(), s.bytes.end(), g_.bytes(a).begin());
    segAddr.push_back(a);
  }
  for (const KernelImage::BankAddress& r : k.bank_addresses) {
    auto& b = banks_[r.bank];
    if (r.segment >= segAddr.size() || r.offset + 8u > b.size())
      throw Trap("module address slot outside constant bank " + std::to_string(r.bank));
    uint64_t v = segAddr[r.segment] + r.value;
    std::memcpy(b.data() + r.offset, &v, 8);
  }
  for (const KernelImage::SegmentAddress& r : k.segment_addresses) {
    if (r.segment >= segAddr.size() || r.target >= segAddr.size() ||
        r.offset + 8u > k.globals[r.segment].bytes.size())
      throw Trap("module address initialiser outside the global data");
    uint64_t v = segAddr[r.target] + r.value;
    std::memcpy(g_.bytes(segAddr[r.segment]).data() + r.offset, &v, 8);
  }
  code_.resize(k.insts.size());
  handler_.assign(k.insts.size(), -1);
  parse_err_.resize(k.insts.size());
  for (size_t i = 0; i < k.insts.size(); ++i) {
    if (k.insts[i].empty()) continue;
    std::string err;
    if (!parse_sass(k.insts[i], static_cast<uint32_t>(i * 16), k.labels, code_[i], err)) {
      parse_err_[i] = "unparsable instruction: " + err;
      code_[i].text = k.insts[i];
      code_[i].pc = static_cast<uint32_t>(i * 16);
      continue;
    }
    int h = find_op(code_[i].opcode);
    if (h < 0) { parse_err_[i] = "opcode " + code_[i].opcode + " is not modelled"; continue; }
    std::string bad;
    if (!mods_known(op_table()[h], code_[i], bad)) {
      parse_err_[i] = "modifier ." + bad + " of " + code_[i].opcode + " is not modelled";
      continue;
    }
    handler_[i] = h;
  }
}

const std::vector<uint8_t>* Emulator::bank(int b) const {
  if (b == 0) return &bank0_;
  auto it = banks_.find(b);
  return it == banks_.end() ? nullptr : &it->second;
}

void Emulator::build_bank0() {
  size_t size = std::max<size_t>(k_.param_base + std::max<size_t>(k_.param_size, cfg_.params.size()), 0x210);
  auto it = k_.cbanks.find(0);
  if (it != k_.cbanks.end()) size = std::max(size, it->second.size());
  bank0_.assign((size + 3) & ~size_t{3}, 0);
  if (it != k_.cbanks.end()) std::memcpy(bank0_.data(), it->second.data(), it->second.size());
  auto put = [&](uint32_t off, uint32_t v) { std::memcpy(bank0_.data() + off, &v, 4); };
  // HW: observed with nvdisasm 13.2 on ptxas 13.0 output of a kernel reading %ntid/%nctaid:
  // ntid.x/y/z at c[0x0][0x0/0x4/0x8], nctaid.x/y/z at c[0x0][0xc/0x10/0x14]; every kernel
  // starts with "LDC R1, c[0x0][0x28]" (the stack pointer); ULDC.64 c[0x0][0x208] is the
  // global memory descriptor (value unused here); parameters at 0x210 (EIATTR_PARAM_CBANK).
  put(0x0, cfg_.block.x);
  put(0x4, cfg_.block.y);
  put(0x8, cfg_.block.z);
  put(0xc, cfg_.grid.x);
  put(0x10, cfg_.grid.y);
  put(0x14, cfg_.grid.z);
  put(0x28, static_cast<uint32_t>((k_.frame_size + cfg_.stack_size + 15) & ~15u));
  // HW: a generic pointer to a local variable is built as R1 + (c[0x0][0x24]:c[0x0][0x20])
  // ("ULDC UR6, c[0x0][0x20]; IADD3 R0, P0, R1, UR6, RZ; ... IADD3.X R3, RZ, c[0x0][0x24]"), so
  // the pair holds the generic address of the local window; ours is local_window_hi() << 32.
  put(0x20, 0);
  put(0x24, local_window_hi());
  // HW: ptxas 13.0 reads %dynamic_smem_size at c[0x0][0x2c], %cluster_nctaid at 0x144..0x14c,
  // %nclusterid at 0x15c..0x164, %cluster_nctarank at 0x188, %is_explicit_cluster as
  // c[0x0][0x140] == 1, and %clusterid as %ctaid times the float at 0x150..0x158 (truncated),
  // so that is the reciprocal of the cluster's size. GUESS: the values a launch without
  // clusters gets: clusters of one CTA, not explicit.
  put(0x2c, cfg_.dynamic_shared);
  const uint32_t one = 0x3f800000u;  // 1.0f
  for (int d = 0; d < 3; ++d) {
    put(0x144 + 4 * d, 1);
    put(0x150 + 4 * d, one);
  }
  put(0x15c, cfg_.grid.x);
  put(0x160, cfg_.grid.y);
  put(0x164, cfg_.grid.z);
  put(0x188, 1);
  put(0x140, 0);
  std::memcpy(bank0_.data() + k_.param_base, cfg_.params.data(), cfg_.params.size());
  // HW: ptxas 13.0 takes the generic address of the parameter block from c[0x0][0x198]
  // (`cvta.param` of a __grid_constant__ parameter or a TMA descriptor: LDC.64 R, c[0x0][0x198]
  // plus the parameter's offset). GUESS: where the driver keeps that copy is not visible; here
  // it is a global allocation holding the launch's parameter block.
  if (!cfg_.params.empty()) {
    uint64_t pa = g_.allocate(cfg_.params.size());
    std::memcpy(g_.map(pa, cfg_.params.size()), cfg_.params.data(), cfg_.params.size());
    put(0x198, static_cast<uint32_t>(pa));
    put(0x19c, static_cast<uint32_t>(pa >> 32));
  }
}

void Emulator::launch(const LaunchConfig& cfg) {
  cfg_ = cfg;
  stats_ = ExecStats{};
  trace_perf_ = PerfTrace{};
  bar_events_.clear();
  build_bank0();
  uint64_t nthreads = uint64_t{cfg.block.x} * cfg.block.y * cfg.block.z;
  if (nthreads == 0 || nthreads > 1024) throw Trap("invalid block size " + std::to_string(nthreads));
  if (cfg.grid.x == 0 || cfg.grid.y == 0 || cfg.grid.z == 0) throw Trap("invalid grid size");
  uint32_t linear = 0;
  if (cfg.perf) {
    trace_perf_.num_ctas = cfg.grid.x * cfg.grid.y * cfg.grid.z;
    trace_perf_.warps_per_cta = static_cast<uint32_t>((nthreads + 31) / 32);
  }
  for (uint32_t cz = 0; cz < cfg.grid.z; ++cz)
    for (uint32_t cy = 0; cy < cfg.grid.y; ++cy)
      for (uint32_t cx = 0; cx < cfg.grid.x; ++cx) {
        Cta cta;
        cta.ctaid[0] = cx; cta.ctaid[1] = cy; cta.ctaid[2] = cz;
        cta.linear = linear++;
        // Reserved 1 KiB at the bottom of the window is part of .nv.shared.<kernel>'s size;
        // dynamic shared memory follows the static part.  GUESS: 16-byte alignment of the start.
        size_t stat = std::max<size_t>(k_.shared_size, 0x400);
        cta.shared.assign(((stat + 15) & ~size_t{15}) + cfg.dynamic_shared, 0);
        uint32_t local = (k_.frame_size + cfg.stack_size + 15) & ~15u;
        for (uint64_t i = 0; i < nthreads; ++i) {
          if (i % 32 == 0) {
            cta.warps.push_back(std::make_unique<Warp>());
            cta.warps.back()->id = static_cast<uint32_t>(i / 32);
          }
          Warp& w = *cta.warps.back();
          int lane = static_cast<int>(i % 32);
          w.exists |= 1u << lane;
          Thread& t = w.t[lane];
          t.tid[0] = static_cast<uint32_t>(i % cfg.block.x);
          t.tid[1] = static_cast<uint32_t>(i / cfg.block.x % cfg.block.y);
          t.tid[2] = static_cast<uint32_t>(i / cfg.block.x / cfg.block.y);
          t.local.assign(local, 0);
        }
        for (auto& w : cta.warps)
          for (int l = 0; l < 32; ++l) if (!(w->exists >> l & 1)) w->t[l].state = Thread::Exited;
        if (cfg.perf)
          for (auto& w : cta.warps) {
            trace_perf_.warps.emplace_back();
            trace_perf_.warps.back().cta = cta.linear;
            trace_perf_.warps.back().warp = w->id;
          }
        run_cta(cta);
      }
}

bool Emulator::release_waits(Warp& w) {
  bool any = false;
  for (int l = 0; l < 32; ++l) {
    Thread& t = w.t[l];
    if (t.state != Thread::AtBsync && t.state != Thread::AtWarpSync) continue;
    // BSYNC waits on the barrier register's current value: threads that BREAK out after this
    // thread arrived are no longer waited for.
    uint32_t m = (t.state == Thread::AtBsync ? t.B[t.wait_bar] : t.wait_mask) & w.exists;
    bool ok = true;
    for (int u = 0; u < 32 && ok; ++u) {
      if (!(m >> u & 1)) continue;
      const Thread& o = w.t[u];
      ok = o.state == Thread::Exited || (o.state == t.state && o.pc == t.pc);
    }
    if (!ok) continue;
    uint32_t pc = t.pc;
    auto st = t.state;
    for (int u = 0; u < 32; ++u)
      if ((m >> u & 1 || u == l) && w.t[u].state == st && w.t[u].pc == pc) w.t[u].state = Thread::Ready;
    any = true;
  }
  return any;
}

bool Emulator::release_barriers(Cta& cta) {
  uint32_t live = 0;
  for (auto& w : cta.warps)
    for (auto& t : w->t) live += t.state != Thread::Exited;
  bool any = false;
  for (int id = 0; id < 16; ++id) {
    NamedBarrier& b = cta.bars[id];
    if (b.arrived == 0) continue;
    uint32_t expected = b.expected ? b.expected : live;
    if (b.arrived < expected) continue;
    for (auto& w : cta.warps)
      for (auto& t : w->t)
        if (t.state == Thread::AtBar && t.wait_bar == id) {
          t.state = Thread::Ready;
          if (t.bar_op) {
            t.bar_result = b.popc;
            t.bar_pred = t.bar_op == 2 ? b.popc == b.reds : b.popc != 0;
          }
        }
    b = NamedBarrier{};
    ++cta.bar_gen[id];
    any = true;
  }
  return any;
}

bool Emulator::step_warp(Cta& cta, Warp& w) {
  uint32_t minpc = UINT32_MAX;
  for (int pass = 0; pass < 2 && minpc == UINT32_MAX; ++pass) {
    if (pass == 1 && !release_waits(w)) return false;
    for (int l = 0; l < 32; ++l)
      if (w.t[l].state == Thread::Ready) minpc = std::min(minpc, w.t[l].pc);
  }
  if (minpc == UINT32_MAX) return false;
  uint32_t group = 0;
  for (int l = 0; l < 32; ++l)
    if (w.t[l].state == Thread::Ready && w.t[l].pc == minpc) group |= 1u << l;
  size_t idx = minpc / 16;
  if (minpc % 16 || idx >= code_.size() || k_.insts[idx].empty())
    throw Trap("trap at pc 0x" + [&] { std::ostringstream s; s << std::hex << minpc; return s.str(); }() +
               ": execution left the kernel's code");
  const SassInst& in = code_[idx];
  if (handler_[idx] < 0) {
    std::ostringstream s;
    s << "trap at pc 0x" << std::hex << minpc << " '" << in.text << "': " << parse_err_[idx];
    throw Trap(s.str());
  }
  if (++stats_.warp_insts > cfg_.max_warp_steps) throw Trap("step limit reached (kernel does not terminate?)");
  stats_.per_opcode[in.opcode]++;
  PerfTrace::WarpTrace* wt = nullptr;
  if (cfg_.perf) {
    wt = &trace_perf_.warps[static_cast<size_t>(cta.linear) * trace_perf_.warps_per_cta + w.id];
    wt->slots.push_back(static_cast<uint32_t>(idx));
  }
  uint32_t active = 0;
  for (int l = 0; l < 32; ++l) {
    if (!(group >> l & 1)) continue;
    bool g = in.guard == kPT ? true : in.guard_uniform ? (w.UP >> in.guard & 1) : (w.t[l].P >> in.guard & 1);
    if (in.guard_not) g = !g;
    if (g) active |= 1u << l;
    else w.t[l].pc += 16;
  }
  if (!active) return true;
  stats_.thread_insts += static_cast<uint64_t>(__builtin_popcount(active));
  if (trace_)
    std::fprintf(stderr, "cta(%u,%u,%u) w%u %04x mask %08x %s\n", cta.ctaid[0], cta.ctaid[1], cta.ctaid[2], w.id, minpc,
                 active, in.text.c_str());
  const OpRow& row = op_table()[handler_[idx]];
  if (!(row.flags & kWarpWide) && !in.ops.empty() &&
      (in.ops[0].kind == OpndKind::UReg || in.ops[0].kind == OpndKind::UPred))
    active &= ~active + 1;  // uniform datapath: once per warp, for the lowest active lane
  Exec e{*this, cta, w, in, active, {}};
  for (int l = 0; l < 32; ++l) e.next_pc[l] = minpc + 16;
  std::array<uint32_t, 16> arrived{};
  const bool bar = wt && in.opcode == "BAR";
  if (bar)
    for (int b = 0; b < 16; ++b) arrived[b] = cta.bars[b].arrived;
  row.fn(e);
  if (bar)
    for (uint32_t b = 0; b < 16; ++b) {
      if (cta.bars[b].arrived == arrived[b]) continue;
      // The arrival belongs to the barrier's next completion (release_barriers counts them).
      auto [it, fresh] = bar_events_.try_emplace({cta.linear, b, cta.bar_gen[b]}, trace_perf_.num_events);
      if (fresh) ++trace_perf_.num_events;
      wt->arrivals.push_back({static_cast<uint32_t>(wt->slots.size() - 1), it->second, !in.has("ARV")});
    }
  for (int l = 0; l < 32; ++l)
    if (group >> l & 1 && w.t[l].pc == minpc) w.t[l].pc = (active >> l & 1) ? e.next_pc[l] : minpc + 16;
  return true;
}

void Emulator::run_cta(Cta& cta) {
  constexpr int kSlice = 64;  // warp-level instructions per warp before switching warps
  for (;;) {
    bool progress = false;
    for (auto& w : cta.warps)
      for (int s = 0; s < kSlice; ++s) {
        if (!step_warp(cta, *w)) break;
        progress = true;
      }
    bool all_exited = true;
    for (auto& w : cta.warps)
      for (int l = 0; l < 32; ++l)
        if (w->t[l].state != Thread::Exited) all_exited = false;
    if (all_exited) return;
    if (release_barriers(cta)) continue;
    if (!progress) {
      std::ostringstream s;
      s << "deadlock in CTA (" << cta.ctaid[0] << "," << cta.ctaid[1] << "," << cta.ctaid[2] << "): threads wait at";
      for (auto& w : cta.warps)
        for (int l = 0; l < 32; ++l)
          if (w->t[l].state != Thread::Exited) s << " w" << w->id << "l" << l << "@0x" << std::hex << w->t[l].pc << std::dec;
      throw Trap(s.str());
    }
  }
}

}  // namespace ptxmini::exec
