/* load_cubin.cpp - KernelImage from the cubin model and the sm_90 decoder.
 *
 *   instructions   .text.<kernel>, each 16-byte word decoded to nvdisasm-syntax text by
 *                  enc::decodeText (branch targets print as byte addresses)
 *   parameters     EIATTR_KPARAM_INFO(_V2) records of .nv.info.<kernel> (ordinal, offset, size)
 *                  and EIATTR_PARAM_CBANK (base and size of the parameter block)
 *   control codes  bits 105..121 of each word (targets/common/volta_word.h): stall, yield,
 *                  scoreboards, wait mask, for the performance model
 *   frame, stack,  EIATTR_FRAME_SIZE / EIATTR_MIN_STACK_SIZE / EIATTR_REGCOUNT records of
 *   registers      .nv.info naming the kernel's symbol
 *   shared size    the size of .nv.shared.<kernel>
 *   const banks    .nv.constant<N>[.<kernel>] contents (NOBITS banks: zeros of their size)
 *   module data    .nv.global.init / .nv.global as global segments; the R_CUDA_64 relocations
 *                  of .rela.nv.constant<N> (the address slots of module variables) as
 *                  addresses the emulator writes into the bank once the segments are placed
 * Field layouts are the cubin reader's (encoder/cubin/eiattr.def, cubin_dump.cpp). */
#include "tests/exec/emu/load_cubin.h"

#include "encoder/cubin/cubin_model.h"
#include "encoder/isa_table.h"
#include "encoder/sass_codec.h"
#include "targets/common/volta_word.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>

namespace ptxmini::exec {
namespace {

constexpr uint8_t kParamCbank = 0x0a, kFrameSize = 0x11, kMinStackSize = 0x12, kKParamInfo = 0x17,
                  kRegCount = 0x2f;
// HW: ptxas 13.0 writes EIATTR_KPARAM_INFO_V2 (0x45) instead of KPARAM_INFO when the parameter
// block does not fit KPARAM_INFO's 14-bit size field (a 32000-byte __grid_constant__ struct in
// cuda-samples' LargeKernelParameter: "00000000 0100007d 08000000" for the 8-byte pointer at
// 0x7d00, "00000000 00000000 007d0000" for the struct, which cuobjdump 13.2 prints as Size
// 0x8 / 0x7d00). GUESS: the size is word 2's low 16 bits (cuobjdump also prints a pointee
// logAlignment and a space, zero in every observed record).
constexpr uint8_t kKParamInfoV2 = 0x45;
constexpr uint32_t kShtProgbits = 1, kShtNobits = 8;
constexpr uint8_t kStoCudaEntry = 0x10; // st_other of a kernel symbol (cubin-format.md 6)
constexpr uint8_t kSttFunc = 2;
constexpr uint32_t kRCuda64 = 2; // R_CUDA_64 (encoder/cubin/rcuda.def)
constexpr uint32_t kRCudaG64 = 4; // R_CUDA_G64

std::optional<cubin::Cubin> read(const std::string& path, std::string& err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err = "cannot open " + path;
    return std::nullopt;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto c = cubin::readCubin(bytes, err);
  if (!c) err = path + ": " + err;
  return c;
}

const cubin::Section* find(const cubin::Cubin& c, const std::string& name) {
  for (const cubin::Section& s : c.sections)
    if (s.name == name) return &s;
  return nullptr;
}

const std::vector<cubin::Symbol>* symbols(const cubin::Cubin& c) {
  for (const cubin::Section& s : c.sections)
    if (!s.symbols.empty()) return &s.symbols;
  return nullptr;
}

}  // namespace

bool list_kernels(const std::string& path, std::vector<std::string>& names, std::string& err) {
  auto c = read(path, err);
  if (!c) return false;
  if (const auto* syms = symbols(*c))
    for (const cubin::Symbol& s : *syms)
      if ((s.info & 0xf) == kSttFunc && (s.other & kStoCudaEntry)) names.push_back(s.name);
  return true;
}

bool load_cubin(const std::string& path, const std::string& kernel, KernelImage& out, std::string& err) {
  out = KernelImage{};
  out.name = kernel;
  auto c = read(path, err);
  if (!c) return false;
  // ---- instructions -----------------------------------------------------------------------
  const cubin::Section* text = find(*c, ".text." + kernel);
  if (!text || text->type != kShtProgbits) {
    err = "kernel '" + kernel + "' not found in " + path;
    return false;
  }
  if (text->data.size() % 16) {
    err = ".text." + kernel + " is not a whole number of instruction words";
    return false;
  }
  // The words decode through the cubin's own SM's tables (e_flags bits 8..15); the
  // semantics below are sm_90's (tests/exec/README.md says which sm_80 spellings map).
  const unsigned sm = (c->flags >> 8) & 0xff;
  const enc::Isa* isa = enc::Isa::forSm(sm);
  if (!isa) {
    err = "no decode tables for sm_" + std::to_string(sm);
    return false;
  }
  for (size_t off = 0; off < text->data.size(); off += 16) {
    enc::Word128 w;
    std::memcpy(&w.lo, text->data.data() + off, 8);
    std::memcpy(&w.hi, text->data.data() + off + 8, 8);
    auto t = enc::decodeText(*isa, w, off);
    if (!t) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "0x%016llx 0x%016llx", static_cast<unsigned long long>(w.lo),
                    static_cast<unsigned long long>(w.hi));
      err = "undecodable word at .text." + kernel + "+" + std::to_string(off) + ": " + buf;
      return false;
    }
    // A float immediate that is a NaN prints as +QNAN/-QNAN (as nvdisasm prints it) without
    // its payload, which a select passes on (ptxas's max.f64 x, -DBL_MAX selects the high
    // word 0xffefffff with FSEL ..., -QNAN). The 32-bit immediate of the ALU forms that print
    // one float is bits 32..63 (targets/sm_90/sm90_forms.def: F@32 / D@32); give the parser
    // those bits. Half-precision pairs (H@32/H@48) print two and are left as they are.
    if (size_t q = t->find("QNAN"); q != std::string::npos && t->find("QNAN", q + 4) == std::string::npos) {
      uint32_t imm = static_cast<uint32_t>(w.lo >> 32);
      float f;
      std::memcpy(&f, &imm, 4);
      if (std::isnan(f)) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "(0x%08x)", imm);
        t->insert(q + 4, buf);
      }
    }
    out.insts.push_back(*t);
    const volta::Control c = volta::readControl(w);
    out.ctrl.push_back({static_cast<uint8_t>(c.stall), !c.yieldBit, static_cast<uint8_t>(c.writeSb),
                        static_cast<uint8_t>(c.readSb), static_cast<uint8_t>(c.waitMask)});
  }
  // ---- relocations: not modelled -------------------------------------------------------------
  for (const char* prefix : {".rela.text.", ".rel.text."})
    if (const cubin::Section* r = find(*c, prefix + kernel); r && !r->relocations.empty()) {
      err = "kernel '" + kernel + "' has relocations (device globals / function pointers): not modelled";
      return false;
    }
  // ---- attributes --------------------------------------------------------------------------
  uint32_t symIndex = UINT32_MAX;
  if (const auto* syms = symbols(*c))
    for (uint32_t i = 0; i < syms->size(); ++i)
      if ((*syms)[i].name == kernel && ((*syms)[i].info & 0xf) == kSttFunc) symIndex = i;
  if (const cubin::Section* info = find(*c, ".nv.info"))
    for (const cubin::Attribute& a : info->attributes) {
      if (a.payload.size() != 8 || a.u32(0) != symIndex) continue;
      if (a.attr == kFrameSize) out.frame_size = a.u32(1);
      if (a.attr == kMinStackSize) out.min_stack_size = a.u32(1);
      if (a.attr == kRegCount) out.num_regs = a.u32(1);
    }
  if (const cubin::Section* info = find(*c, ".nv.info." + kernel))
    for (const cubin::Attribute& a : info->attributes) {
      if (a.attr == kKParamInfo && a.payload.size() == 12) {
        // Ordinal in the low half of word 1, offset in the high half, size in word 2 >> 18.
        out.params.push_back({a.u32(1) & 0xffff, a.u32(1) >> 16, a.u32(2) >> 18});
      } else if (a.attr == kKParamInfoV2 && a.payload.size() == 12) {
        out.params.push_back({a.u32(1) & 0xffff, a.u32(1) >> 16, a.u32(2) & 0xffff});
      } else if (a.attr == kParamCbank && a.payload.size() == 8) {
        out.param_base = a.u32(1) & 0xffff;
        out.param_size = a.u32(1) >> 16;
      }
    }
  std::sort(out.params.begin(), out.params.end(),
            [](const KernelParam& x, const KernelParam& y) { return x.ordinal < y.ordinal; });
  // ---- shared memory and constant banks ---------------------------------------------------
  if (const cubin::Section* sh = find(*c, ".nv.shared." + kernel)) out.shared_size = static_cast<uint32_t>(sh->size);
  for (const cubin::Section& s : c->sections) {
    const std::string prefix = ".nv.constant";
    if (s.name.rfind(prefix, 0) != 0) continue;
    std::string rest = s.name.substr(prefix.size());
    size_t dot = rest.find('.');
    std::string bankText = rest.substr(0, dot), owner = dot == std::string::npos ? "" : rest.substr(dot + 1);
    if (bankText.empty() || !std::all_of(bankText.begin(), bankText.end(), ::isdigit)) continue;
    if (!owner.empty() && owner != kernel) continue;
    std::vector<uint8_t> bytes = s.type == kShtNobits ? std::vector<uint8_t>() : s.data;
    bytes.resize(s.size, 0);
    out.cbanks[std::stoi(bankText)] = std::move(bytes);
  }
  // ---- module data ----------------------------------------------------------------------------
  std::map<size_t, size_t> segmentOf; // section index -> globals[] index
  for (size_t i = 0; i < c->sections.size(); ++i) {
    const cubin::Section& s = c->sections[i];
    if (s.name != ".nv.global.init" && s.name != ".nv.global") continue;
    KernelImage::GlobalSegment g;
    g.section = s.name;
    g.bytes = s.type == kShtNobits ? std::vector<uint8_t>() : s.data;
    g.bytes.resize(s.size, 0);
    segmentOf[i] = out.globals.size();
    out.globals.push_back(std::move(g));
  }
  const auto* syms = symbols(*c);
  for (const cubin::Section& r : c->sections) {
    if (r.name == ".rela.nv.global.init") {
      // R_CUDA_G64: the generic address of a variable (HW: ptxas 13.0 for `generic(v)+k` and
      // plain `v` in a 64-bit .global initializer).
      size_t self = SIZE_MAX;
      for (size_t i = 0; i < c->sections.size(); ++i)
        if (c->sections[i].name == ".nv.global.init") self = i;
      for (const cubin::Relocation& x : r.relocations) {
        const cubin::Symbol* y = syms && x.sym < syms->size() ? &(*syms)[x.sym] : nullptr;
        auto seg = y ? segmentOf.find(y->shndx) : segmentOf.end();
        if (x.type != kRCudaG64 || seg == segmentOf.end() || !segmentOf.count(self)) {
          err = r.name + ": relocation of type " + std::to_string(x.type) + " not modelled";
          return false;
        }
        out.segment_addresses.push_back({segmentOf[self], x.offset, seg->second,
                                         y->value + static_cast<uint64_t>(x.addend)});
      }
      continue;
    }
    const std::string prefix = ".rela.nv.constant";
    if (r.name.rfind(prefix, 0) != 0 || r.relocations.empty()) continue;
    std::string bankText = r.name.substr(prefix.size());
    if (bankText.empty() || !std::all_of(bankText.begin(), bankText.end(), ::isdigit)) continue;
    for (const cubin::Relocation& x : r.relocations) {
      const cubin::Symbol* y = syms && x.sym < syms->size() ? &(*syms)[x.sym] : nullptr;
      auto seg = y ? segmentOf.find(y->shndx) : segmentOf.end();
      // An external function's address (__assertfail, vprintf: an undefined symbol) stays 0 in
      // its slot; a kernel that really calls it stops at the CALL.ABS to address 0.
      if (x.type == kRCuda64 && y && y->shndx == 0) continue;
      if (x.type != kRCuda64 || seg == segmentOf.end()) {
        err = r.name + ": relocation of type " + std::to_string(x.type) +
              " against a symbol outside the global data is not modelled";
        return false;
      }
      out.bank_addresses.push_back({std::stoi(bankText), static_cast<uint32_t>(x.offset), seg->second,
                                    y->value + static_cast<uint64_t>(x.addend)});
    }
  }
  return true;
}

}  // namespace ptxmini::exec
