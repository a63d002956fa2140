//===- encoder/cubin/cubin_builder.cpp - the cubin ptxas 13.0 writes for sm_90 --------===//
///
/// \file
/// buildCubin() assembles the model in four passes:
///  1. the section list, in ptxas's order: string tables, symtab, .debug_frame, notes,
///     .nv.info, .nv.compat, .nv.info.<fn>, .nv.callgraph, .rela.text.<fn>, .rela.debug_frame,
///     .text.<fn>, the shared/NOBITS group, .nv.constant0.<fn>;
///  2. the symbol table, in ptxas's order (section symbols of the first function, the
///     reserved-shared-memory symbols, the other functions, .debug_frame/.nv.callgraph, the
///     function symbols, then the .nv.constant0 section symbols: the last local follows the
///     globals, so sh_info is the symbol count);
///  3. contents that refer to indices: .nv.info records, .debug_frame and its relocations,
///     notes, .nv.compat, string tables (names are added in the order ptxas creates them,
///     including names of sections it never emits);
///  4. layout (computeLayout) and, for executables, program headers.
/// Functions are emitted in reverse PTX definition order ("processing order"), as ptxas does.
///
/// Every rule here is HW: observed on ptxas 13.0 (V13.0.88) cubins for sm_90 with
/// sass-mc -elf and cuobjdump -elf 13.2, unless it says GUESS. The rules are tested by
/// rebuilding ptxas cubins from their own facts (tests/unit/cubin/cubin_rebuild_tool.cpp)
/// and comparing the bytes.
//===----------------------------------------------------------------------------------===//
#include "encoder/cubin/cubin_builder.h"
#include "encoder/cubin/byte_io.h"
#include "targets/cubin_facts.h"

#include <algorithm>
#include <map>

namespace ptxmini::cubin {

namespace {

// HW: the NOP words ptxas puts after the BRA-to-self that follows the last instruction on
// sm_80..sm_90 (cubin-format.md §10, checked on every .text of the round-trip inputs by the
// rebuild tool); the BRA-to-self word is per SM (targets/cubin_facts.h).
constexpr uint64_t kNopLo = 0x0000000000007918ull, kNopHi = 0x000fc00000000000ull;

// HW: constants of the sm_90 cubin.
constexpr uint32_t kCudaApiVersion = 0x82;   // CUDA_API_VERSION, cuinfo toolkit (13.0)
// The SM-dependent constants (parameter base, shared reserve, MERCURY_ISA_VERSION, ...):
// targets/cubin_facts.h.
constexpr uint32_t kKParamFlags = 0x1f000;   // KPARAM_INFO low bits: cbank 0x1f
constexpr uint32_t kKParamInfoV1Limit = 0x1100; // larger parameter blocks: KPARAM_INFO_V2
constexpr uint32_t kSwWar = 8;
constexpr uint64_t kTextAlign = 128;
const char *const kToolName = "ptxas";
const char *const kToolVersion = "Cuda compilation tools, release 13.0, V13.0.88";
const char *const kToolBranch = "Build cuda_13.0.r13.0/compiler.36424714_0";
// HW: e_flags = debug mode << 24 | SM << 8 | 0x04 on sm_75..sm_90a (cubin-format.md §4).
constexpr uint32_t kEFlagsLow = 0x04;
// HW: e_flags bits 24-31 hold the section index of .note.nv.cuinfo: 0x06 in a plain cubin,
// 0x09 with -lineinfo's three line sections, 0x0b with -g's five, and one more per DWARF
// section the PTX brings (0x0e for nvcc -G's .debug_abbrev/.debug_info/.debug_macinfo, 0x0d
// for Triton's two). Observed on ptxas 13.0.88 in all these cases; cuobjdump calls a cubin
// whose byte disagrees with its sections "Invalid ELF".

// HW: the order ptxas writes .nv.info.<fn> records in: a total order consistent with every
// pair of attributes seen together in the per-function sections of the round-trip corpus
// (no pair was ever seen in both orders). Attributes not listed go just before
// EXIT_INSTR_OFFSETS. GUESS: ANNOTATIONS' place (from cubin-format.md, not in the corpus).
constexpr uint8_t kInfoOrder[] = {
    0x37, // CUDA_API_VERSION
    0x35, // SW2861232_WAR (sm_80/86/89)
    0x17, // KPARAM_INFO (reverse ordinal)
    0x3e, // EXPLICIT_CLUSTER
    0x3d, // CTA_PER_CLUSTER
    0x3f, // MAX_CLUSTER_RANK
    0x45, // KPARAM_INFO_V2
    0x50, // SPARSE_MMA_MASK
    0x1b, // MAXREG_COUNT
    0x4c, // NUM_BARRIERS
    0x0f, // EXTERNS
    0x5f, // MERCURY_ISA_VERSION
    0x55, // ANNOTATIONS
    0x44, // UNUSED_LOAD_BYTE_OFFSET
    0x31, // INT_WARP_WIDE_INSTR_OFFSETS
    0x29, // COOP_GROUP_MASK_REGIDS
    0x28, // COOP_GROUP_INSTR_OFFSETS
    0x39, // MBARRIER_INSTR_OFFSETS
    0x38, // NUM_MBARRIERS
    0x46, // SYSCALL_OFFSETS
    0x1c, // EXIT_INSTR_OFFSETS
    0x05, // MAX_THREADS
    0x10, // REQNTID
    0x34, // INDIRECT_BRANCH_TARGETS
    0x1e, // CRS_STACK_SIZE
    0x19, // CBANK_PARAM_SIZE
    0x0a, // PARAM_CBANK
    0x36, // SW_WAR
    0x15, // BINDLESS_TEXTURE_BANK (HW: kernels naming a texref/surfref)
    0x16, // BINDLESS_SURFACE_BANK
};
size_t infoRank(uint8_t attr) {
  for (size_t i = 0; i < std::size(kInfoOrder); ++i)
    if (kInfoOrder[i] == attr)
      return i * 2;
  for (size_t i = 0; i < std::size(kInfoOrder); ++i)
    if (kInfoOrder[i] == 0x1c)
      return i * 2 - 1;
  return 0;
}

Attribute sval(uint8_t attr, std::initializer_list<uint32_t> words) {
  Attribute a;
  a.format = Attribute::SVal;
  a.attr = attr;
  for (uint32_t w : words)
    put32(a.payload, w);
  return a;
}
Attribute hval(uint8_t attr, uint16_t v, uint8_t format = Attribute::HVal) {
  Attribute a;
  a.format = format;
  a.attr = attr;
  a.value = v;
  return a;
}

/// The two string tables, filled in ptxas's creation order.
struct Strings {
  std::vector<uint8_t> sh{0}, st{0};
  std::map<std::string, uint32_t> shOff, stOff;
  static uint32_t add(std::vector<uint8_t> &t, std::map<std::string, uint32_t> &m,
                      const std::string &s) {
    if (auto it = m.find(s); it != m.end())
      return it->second;
    uint32_t off = static_cast<uint32_t>(t.size());
    t.insert(t.end(), s.begin(), s.end());
    t.push_back(0);
    m[s] = off;
    return off;
  }
  void both(const std::string &s) {
    add(sh, shOff, s);
    add(st, stOff, s);
  }
  void symOnly(const std::string &s) { add(st, stOff, s); }
  /// Zero bytes after a name in both tables (HW: ptxas renames .nv.constant.pic-style
  /// names in place to shorter ones and zeroes the rest).
  void padBoth(size_t n) {
    sh.insert(sh.end(), n, 0);
    st.insert(st.end(), n, 0);
  }
  /// A name whose bytes ptxas zeroes (shared variables): n+1 zero bytes.
  uint32_t zeroed(size_t n) {
    uint32_t off = static_cast<uint32_t>(st.size());
    st.insert(st.end(), n + 1, 0);
    return off;
  }
};

struct DebugFrame {
  std::vector<uint8_t> bytes;
  struct Fde {
    size_t offset;     ///< of the FDE in .debug_frame
    size_t cieOffset;
    size_t fn;         ///< processing-order index
    int64_t locAddend; ///< local functions: their offset in the caller's text
    int64_t cieAddend = 0; ///< relocatable output: the CIE pointer's relocation addend
  };
  std::vector<Fde> fdes;
  struct CieAddr {
    size_t offset; ///< of the DW_OP_addr operand
    size_t fn;
  };
  std::vector<CieAddr> cieAddrs;
};

void uleb(std::vector<uint8_t> &v, uint64_t x) {
  do {
    uint8_t b = x & 0x7f;
    x >>= 7;
    v.push_back(b | (x ? 0x80 : 0));
  } while (x);
}

// HW: the CIE ptxas writes for every function without a return address register:
// 64-bit DWARF, version 3, code align 4, data align -4, RA register 0xffffffff, initial
// instructions "def_cfa R1+0, same_value R255, same_value R1" with register numbers in
// ptxas's 4-byte ULEB form (0x81 0x80 0x80 0x28 is R1), padded with DW_CFA_nop to 8.
constexpr uint8_t kCieBody[] = {0x03, 0x00, 0x04, 0x7c, 0xff, 0xff, 0xff, 0xff, 0x0f,
                                0x0c, 0x81, 0x80, 0x80, 0x28, 0x00, 0x08, 0xff, 0x81,
                                0x80, 0x28, 0x08, 0x81, 0x80, 0x80, 0x28};
constexpr uint8_t kDefCfaR1[] = {0x0c, 0x81, 0x80, 0x80, 0x28};

// HW: CUDA's DWARF register numbers are 4-byte ULEBs: register class 0x28 in bits 21+ (so
// R1 is 0x81 0x80 0x80 0x28); 0x100 in that class is the return-address pseudo register.
void regUleb(std::vector<uint8_t> &v, uint32_t reg) {
  uint32_t x = 0x28u << 21 | reg;
  v.push_back(uint8_t(0x80 | (x & 0x7f)));
  v.push_back(uint8_t(0x80 | ((x >> 7) & 0x7f)));
  v.push_back(uint8_t(0x80 | ((x >> 14) & 0x7f)));
  v.push_back(uint8_t(x >> 21));
}
constexpr uint32_t kRaPseudoReg = 0x100;
constexpr uint32_t kDeviceFnRa = 20; // HW: R20:R21 hold the return address of ABI calls

void padTo8(std::vector<uint8_t> &v, size_t start) {
  while ((v.size() - start) % 8)
    v.push_back(0); // DW_CFA_nop
}

/// One CIE + FDE per function. FDE instructions (HW): the CFA rule (def_cfa R1 + frame
/// size) starts at `cfaStart` (default: 16 bytes after the first EXIT); a bare
/// advance_loc4 marks the last EXIT. The two are emitted in address order, each as
/// DW_CFA_advance_loc4 by (delta / code align 4).
void appendFrame(DebugFrame &df, const FunctionInfo &f, size_t fnIndex, uint64_t textSize,
                 bool rel) {
  auto &b = df.bytes;
  size_t cie = b.size();
  put32(b, 0xffffffff);
  put64(b, 0); // length, patched
  put64(b, ~0ull);
  if (f.isKernel) {
    b.insert(b.end(), std::begin(kCieBody), std::end(kCieBody));
  } else {
    // HW: an ABI device function (relocatable output): RA register R20, and R20/R21 (the
    // 64-bit return address) keep their values, after the kernel CIE's rules.
    b.insert(b.end(), {0x03, 0x00, 0x04, 0x7c});
    regUleb(b, kDeviceFnRa);
    b.insert(b.end(), std::begin(kDefCfaR1), std::end(kDefCfaR1));
    b.push_back(0x00);
    for (uint32_t r : {255u, 1u, kDeviceFnRa, kDeviceFnRa + 1}) {
      b.push_back(0x08);
      regUleb(b, r);
    }
  }
  padTo8(b, cie);
  wr64(b.data() + cie + 4, b.size() - cie - 12);

  size_t fde = b.size();
  put32(b, 0xffffffff);
  put64(b, 0);
  // CIE pointer: the CIE's offset; relocatable output leaves 0 for the relocation.
  put64(b, rel ? 0 : cie);
  put64(b, 0);   // initial_location: relocation
  put64(b, textSize);
  uint32_t firstExit = f.exitOffsets.empty() ? 0 : f.exitOffsets.front();
  uint32_t lastExit = f.cfaEnd ? *f.cfaEnd : f.exitOffsets.empty() ? 0 : f.exitOffsets.back();
  uint32_t cfa = f.cfaStart ? *f.cfaStart : firstExit + 16;
  auto advance = [&](uint32_t delta) {
    if (delta == 0)
      return; // HW: no advance by zero (a function whose rule starts at offset 0)
    b.push_back(0x04);
    put32(b, delta / 4);
  };
  auto defCfa = [&] {
    b.insert(b.end(), std::begin(kDefCfaR1), std::end(kDefCfaR1));
    uleb(b, f.frameSize);
  };
  if (lastExit <= cfa) {
    advance(lastExit);
    advance(cfa - lastExit);
    defCfa();
  } else {
    advance(cfa);
    defCfa();
    advance(lastExit - cfa);
  }
  padTo8(b, fde);
  wr64(b.data() + fde + 4, b.size() - fde - 12);
  df.fdes.push_back({fde, cie, fnIndex, 0});
}

/// A whole-program callee inside its caller's text (HW: the layout of ptxas's callee CIE):
/// RA = the pseudo register, initial rules def_cfa R1+0, same_value R255/R1/R<ra>, and
/// val_expression(RA) = DW_OP_addr <caller, relocated> + DW_OP_bregx R<ra> 0 + DW_OP_plus.
/// Its FDE spans the callee and carries the compiler's CFA program.
void appendCalleeFrame(DebugFrame &df, const LocalFunction &lf, size_t fnIndex, bool rel) {
  auto &b = df.bytes;
  size_t cie = b.size();
  put32(b, 0xffffffff);
  put64(b, 0);
  put64(b, ~0ull);
  b.insert(b.end(), {0x03, 0x00, 0x04, 0x7c});
  regUleb(b, kRaPseudoReg);
  b.insert(b.end(), std::begin(kDefCfaR1), std::end(kDefCfaR1));
  b.push_back(0x00);
  b.push_back(0x08);
  regUleb(b, 255);
  b.push_back(0x08);
  regUleb(b, 1);
  b.push_back(0x08);
  regUleb(b, lf.raRegister);
  b.push_back(0x16); // DW_CFA_val_expression
  regUleb(b, kRaPseudoReg);
  b.push_back(0x10); // expression length
  b.push_back(0x03); // DW_OP_addr
  df.cieAddrs.push_back({b.size(), fnIndex});
  put64(b, 0);
  b.push_back(0x92); // DW_OP_bregx
  regUleb(b, lf.raRegister);
  b.push_back(0x00);
  b.push_back(0x22); // DW_OP_plus
  padTo8(b, cie);
  wr64(b.data() + cie + 4, b.size() - cie - 12);

  size_t fde = b.size();
  put32(b, 0xffffffff);
  put64(b, 0);
  put64(b, rel ? 0 : cie);
  // HW (executables): initial_location holds the callee's offset as well as the relocation
  // addend. GUESS: the same in relocatable output.
  put64(b, lf.offset);
  put64(b, lf.size);
  b.insert(b.end(), lf.cfaProgram.begin(), lf.cfaProgram.end());
  padTo8(b, fde);
  wr64(b.data() + fde + 4, b.size() - fde - 12);
  df.fdes.push_back({fde, cie, fnIndex, static_cast<int64_t>(lf.offset)});
}

} // namespace

std::vector<uint8_t> textWithTail(const std::vector<uint8_t> &code, unsigned sm) {
  const targets::CubinFacts &cf = targets::cubinFactsFor(sm);
  std::vector<uint8_t> t = code;
  put64(t, cf.braSelfLo);
  put64(t, cf.braSelfHi);
  // HW: size = align_up(end of the BRA-to-self + 128, 128): 8 to 15 NOPs.
  uint64_t size = (t.size() + kTextAlign + kTextAlign - 1) / kTextAlign * kTextAlign;
  while (t.size() < size) {
    put64(t, kNopLo);
    put64(t, kNopHi);
  }
  return t;
}

std::optional<size_t> codeSizeOfText(std::span<const uint8_t> text, unsigned sm) {
  const targets::CubinFacts &cf = targets::cubinFactsFor(sm);
  if (text.size() % 16)
    return std::nullopt;
  size_t n = text.size();
  while (n >= 16 && rd64(&text[n - 16]) == kNopLo && rd64(&text[n - 8]) == kNopHi)
    n -= 16;
  if (n < 16 || rd64(&text[n - 16]) != cf.braSelfLo || rd64(&text[n - 8]) != cf.braSelfHi)
    return std::nullopt;
  return n - 16;
}

std::optional<Cubin> buildCubin(const ModuleInfo &m, std::string &error) {
  const bool rel = m.relocatable;
  const targets::CubinFacts &cf = targets::cubinFactsFor(m.sm);
  // Processing order: reverse of definition.
  std::vector<const FunctionInfo *> fns;
  for (auto it = m.functions.rbegin(); it != m.functions.rend(); ++it)
    fns.push_back(&*it);
  for (const FunctionInfo *f : fns) {
    for (const ParamInfo &p : f->params)
      if (uint64_t(p.offset) + p.size > f->paramBytes) {
        error = "function '" + f->name + "': a parameter lies outside the parameter block";
        return std::nullopt;
      }
    for (uint32_t e : f->exitOffsets)
      if (e >= f->code.size() || e % 16) {
        error = "function '" + f->name + "': exit offset 0x" + hex(e) + " is not an instruction";
        return std::nullopt;
      }
    if (f->code.size() % 16) {
      error = "function '" + f->name + "': code is not a whole number of instructions";
      return std::nullopt;
    }
    if (!f->isKernel && !rel) {
      error = "function '" + f->name +
              "': a device function gets its own section only in relocatable output";
      return std::nullopt;
    }
  }
  for (const FunctionInfo *f : fns)
    for (const std::string &x : f->externs)
      if (std::none_of(m.externs.begin(), m.externs.end(),
                       [&](const ExternFunction &e) { return e.name == x; })) {
        error = "function '" + f->name + "' calls '" + x + "', which is not an extern function";
        return std::nullopt;
      }
  if (rel && !m.externs.empty()) {
    error = "extern function calls in relocatable output are not modelled yet";
    return std::nullopt;
  }
  // e_flags announcing .debug_line / .nv_debug_* sections the builder does not write would
  // make cuobjdump reject the file ("Invalid ELF").
  const bool full = m.debug == ModuleInfo::Debug::Full;
  if ((m.debug != ModuleInfo::Debug::None) != m.lineInfo.has_value()) {
    error = "line information needs both a debug mode and the line tables";
    return std::nullopt;
  }
  if (!full && (!m.debugSections.empty() || !m.regSass.empty() || !m.regType.empty())) {
    error = "DWARF sections are written only with Debug::Full (-g)";
    return std::nullopt;
  }
  if (full && rel) {
    error = "-g in relocatable output is not modelled yet";
    return std::nullopt;
  }
  if (m.lineInfo && rel) {
    error = "line tables in relocatable output are not modelled yet";
    return std::nullopt;
  }
  const bool lines = m.lineInfo.has_value();
  // HW: .debug_line has relocations (and sequences) only when some function has rows.
  bool anySourceRows = false;
  for (const FunctionInfo *f : fns)
    anySourceRows |= !f->sourceLines.empty();
  // HW: a module without functions (ptxas 13.0 -arch=sm_90 on a PTX file with no kernel, or
  // whose device functions are all unreferenced) is an executable with the module sections,
  // the reserved shared section and no .rela.debug_frame (byte-compared with ptxas's output).
  // Its module variables are laid out as with functions: the variable symbols and
  // .nv.constant4 right after the reserved shared-memory symbols, .nv.global after the
  // reserved shared section (HW: ptxas 13.0.88 on the ggml-cuda and simpleCUFFT_callback
  // corpus files, read with readelf -S -s -r).
  if (fns.empty() && rel) {
    error = "a module without functions and -c is not modelled yet";
    return std::nullopt;
  }
  for (const FunctionInfo *f : fns)
    if (!f->texRefs.empty() && (rel || !f->isKernel)) {
      error = "texture references outside a kernel or in relocatable output are not modelled";
      return std::nullopt;
    }
  auto hasRelText = [&](const FunctionInfo &f) {
    // HW: a kernel addressing shared memory gets an (empty) .rela.text on sm_90, none on
    // sm_80/86/89 (no reserved shared memory there: targets/cubin_facts.h).
    return (f.referencesShared && cf.reservedSharedSection) || f.hasCalls ||
           !f.relocations.empty();
  };

  // ---- pass 1: sections --------------------------------------------------------------
  Cubin c;
  c.type = rel ? elf::kEtRel : elf::kEtExec;
  c.phentsize = rel ? 0 : elf::kPhdrSize; // HW: 0 in relocatable cubins (no program headers)
  auto addSection = [&](std::string name, uint32_t type, uint64_t flags, uint64_t align,
                        SectionKind kind) {
    Section s;
    s.name = std::move(name);
    s.type = type;
    s.flags = flags;
    s.align = align;
    s.kind = kind;
    c.sections.push_back(std::move(s));
    return c.sections.size() - 1;
  };
  addSection("", elf::kShtNull, 0, 0, SectionKind::Null);
  size_t sShstr = addSection(".shstrtab", elf::kShtStrtab, 0, 1, SectionKind::Bytes);
  size_t sStr = addSection(".strtab", elf::kShtStrtab, 0, 1, SectionKind::Bytes);
  size_t sSym = addSection(".symtab", elf::kShtSymtab, 0, 8, SectionKind::Symbols);
  size_t sDebug = addSection(".debug_frame", elf::kShtProgbits, 0, 1, SectionKind::Bytes);
  // HW: the line-table sections follow .debug_frame (ptxas 13.0 -lineinfo, .loc in the PTX).
  size_t sLine = lines ? addSection(".debug_line", elf::kShtProgbits, 0, 1, SectionKind::Bytes) : 0;
  const bool str = lines && !m.lineInfo->debugStr.empty();
  const bool strAfterLine = str && m.lineInfo->strAfterLine;
  size_t sStrLine =
      strAfterLine ? addSection(".debug_str", elf::kShtProgbits, 0, 1, SectionKind::Bytes) : 0;
  size_t sLineSass =
      lines ? addSection(".nv_debug_line_sass", elf::kShtProgbits, 0, 1, SectionKind::Bytes) : 0;
  size_t sPtxTxt =
      lines ? addSection(".nv_debug_ptx_txt", elf::kShtProgbits, 0, 1, SectionKind::Bytes) : 0;
  if (str && !strAfterLine)
    sStrLine = addSection(".debug_str", elf::kShtProgbits, 0, 1, SectionKind::Bytes);
  // HW: ptxas 13.0.88 -g: the register maps follow the line sections, then the PTX's own
  // DWARF sections in PTX order (.debug_abbrev, .debug_info, .debug_macinfo, ...).
  size_t sRegSass = full ? addSection(".nv_debug_info_reg_sass", elf::kShtProgbits, 0, 1,
                                      SectionKind::Bytes)
                         : 0;
  size_t sRegType = full ? addSection(".nv_debug_info_reg_type", elf::kShtProgbits, 0, 1,
                                      SectionKind::Bytes)
                         : 0;
  std::vector<size_t> sDwarf;
  for (const DebugSection &d : m.debugSections)
    sDwarf.push_back(addSection(d.name, elf::kShtProgbits, 0, 1, SectionKind::Bytes));
  size_t sTk = addSection(".note.nv.tkinfo", elf::kShtNote, 0x2000000, 4, SectionKind::Notes);
  // HW: the info-link flag (0x40) only where the note links to .nv.compat.
  size_t sCu = addSection(".note.nv.cuinfo", elf::kShtNote,
                          cf.compatSection ? 0x1000040 : 0x1000000, 4, SectionKind::Notes);
  c.flags = static_cast<uint32_t>(sCu) << 24 | (m.sm & 0xff) << 8 | kEFlagsLow;
  size_t sInfo = addSection(".nv.info", elf::kShtCudaInfo, 0, 4, SectionKind::Attributes);
  size_t sCompat = cf.compatSection ? addSection(".nv.compat", elf::kShtCudaCompat, 0, 4,
                                                 SectionKind::Attributes)
                                    : 0;
  std::vector<size_t> sFnInfo, sRelText(fns.size(), 0), sText, sShared(fns.size(), 0),
      sConst0(fns.size(), 0);
  for (const FunctionInfo *f : fns)
    sFnInfo.push_back(addSection(".nv.info." + f->name, elf::kShtCudaInfo, elf::kShfInfoLink, 4,
                                 SectionKind::Attributes));
  // HW (ptxas 13.0.88): a module with a texture query (TXQ) has no .nv.callgraph.
  size_t sCall = m.noCallgraph ? 0
                               : addSection(".nv.callgraph", elf::kShtCudaCallgraph, 0, 4,
                                            SectionKind::Callgraph);
  // HW: sm_80/86/89 cubins carry .nv.rel.action right after .nv.callgraph (type
  // CUDA_RELOCINFO 0x7000000b, entsize 8, align 8; the same 16 bytes in every one seen).
  size_t sRelAction = cf.relActionSection && !rel
                          ? addSection(".nv.rel.action", 0x7000000b, 0, 8, SectionKind::Bytes)
                          : 0;
  if (sRelAction) {
    c.sections[sRelAction].entsize = 8;
    c.sections[sRelAction].data.assign(std::begin(targets::kRelActionBytes),
                                       std::end(targets::kRelActionBytes));
  }
  for (size_t i = 0; i < fns.size(); ++i)
    if (hasRelText(*fns[i]))
      sRelText[i] = addSection(".rela.text." + fns[i]->name, elf::kShtRela, elf::kShfInfoLink,
                               8, SectionKind::Relocations);
  // Module data: slots, constant bank 3, initialised and zeroed globals.
  struct VarPlace {
    size_t section = 0;
    uint64_t offset = 0;
  };
  std::vector<VarPlace> varPlace(m.globals.size());
  bool anySlot = false, anyConst = false, anyInit = false, anyBss = false;
  uint64_t constAlign = 1, initAlign = 1, bssAlign = 1;
  for (const GlobalVar &g : m.globals) {
    if (rel && g.addressSlot) {
      error = "variable '" + g.name + "': relocatable code addresses variables through code "
              "relocations, not .nv.constant4 slots";
      return std::nullopt;
    }
    anySlot |= g.addressSlot;
    if (g.space == GlobalVar::Space::Const) {
      anyConst = true;
      constAlign = std::max<uint64_t>(constAlign, g.align);
    } else if (!g.init.empty()) {
      anyInit = true;
      initAlign = std::max<uint64_t>(initAlign, g.align);
    } else {
      anyBss = true;
      bssAlign = std::max<uint64_t>(bssAlign, g.align);
    }
  }
  if (!m.externs.empty()) {
    bool explicitSlots = std::all_of(m.globals.begin(), m.globals.end(), [](const GlobalVar &g) {
      return !g.addressSlot || g.slot;
    });
    if (!explicitSlots) {
      error = "with extern functions every variable's address slot must be given";
      return std::nullopt;
    }
    anySlot = true;
  }
  // HW: REL (.rel.nv.constant4) on sm_80/86/89, as .rel.debug_frame (targets/cubin_facts.h).
  size_t sRelC4 = !anySlot ? 0
                  : cf.debugFrameRela
                      ? addSection(".rela.nv.constant4", elf::kShtRela, elf::kShfInfoLink, 8,
                                   SectionKind::Relocations)
                      : addSection(".rel.nv.constant4", elf::kShtRel, elf::kShfInfoLink, 8,
                                   SectionKind::Relocations);
  // HW: ptxas 13.0 places .rela.nv.global.init (variables initialised with addresses) after
  // .rela.nv.constant4.
  bool anyAddressInit = false;
  for (const GlobalVar &g : m.globals)
    anyAddressInit |= !g.addressInits.empty();
  if (anyAddressInit && rel) {
    error = "variables initialised with addresses in relocatable output are not modelled yet";
    return std::nullopt;
  }
  size_t sRelInit = anyAddressInit ? addSection(".rela.nv.global.init", elf::kShtRela,
                                                elf::kShfInfoLink, 8, SectionKind::Relocations)
                                   : 0;
  // HW: .rela.debug_line and .rela.nv_debug_line_sass come just before .rela.debug_frame.
  // GUESS: with .rela.text / .rela.nv.constant4 present too (not observed together).
  size_t sRelLine = lines && anySourceRows && !fns.empty()
                        ? addSection(".rela.debug_line", elf::kShtRela, elf::kShfInfoLink, 8,
                                     SectionKind::Relocations)
                        : 0;
  size_t sRelLineSass = lines && !fns.empty()
                            ? addSection(".rela.nv_debug_line_sass", elf::kShtRela,
                                         elf::kShfInfoLink, 8, SectionKind::Relocations)
                            : 0;
  // HW: ptxas -g puts .rela.debug_info between the line tables' and .debug_frame's.
  std::vector<size_t> sRelDwarf(m.debugSections.size(), 0);
  for (size_t d = 0; d < m.debugSections.size(); ++d)
    if (!m.debugSections[d].relocs.empty())
      sRelDwarf[d] = addSection(".rela" + m.debugSections[d].name, elf::kShtRela,
                                elf::kShfInfoLink, 8, SectionKind::Relocations);
  // Texture and surface references (PTX texref mode): the kernel's constant bank 0 holds
  // their header-index slots, so it gets relocations, and the bank comes before the code.
  // HW (ptxas 13.0.88, two kernels naming texrefs): the first kernel's (processing order)
  // .rela.nv.constant0.<k> before .rela.debug_frame, the others' after it; their
  // .nv.constant0.<k> sections before the .text sections. GUESS: with a kernel naming none
  // in the module too (its .nv.constant0 stays last), and the place among the other module
  // data sections.
  std::vector<size_t> sRelConst0(fns.size(), 0);
  if (!fns.empty() && fns[0]->isKernel && !fns[0]->texRefs.empty())
    sRelConst0[0] = addSection(".rela.nv.constant0." + fns[0]->name, elf::kShtRela,
                               elf::kShfInfoLink, 8, SectionKind::Relocations);
  size_t sRelDebug = fns.empty()           ? 0
                     : cf.debugFrameRela ? addSection(".rela.debug_frame", elf::kShtRela,
                                                      elf::kShfInfoLink, 8,
                                                      SectionKind::Relocations)
                                         : addSection(".rel.debug_frame", elf::kShtRel,
                                                      elf::kShfInfoLink, 8,
                                                      SectionKind::Relocations);
  for (size_t i = 1; i < fns.size(); ++i)
    if (fns[i]->isKernel && !fns[i]->texRefs.empty())
      sRelConst0[i] = addSection(".rela.nv.constant0." + fns[i]->name, elf::kShtRela,
                                 elf::kShfInfoLink, 8, SectionKind::Relocations);
  size_t sC4 = anySlot ? addSection(".nv.constant4", elf::kShtProgbits, elf::kShfAlloc, 8,
                                    SectionKind::Bytes)
                       : 0;
  // HW: relocatable output gives the data sections CUDA types (CUDA_CONSTANT_B3,
  // CUDA_GLOBAL_INIT, CUDA_GLOBAL).
  size_t sC3 = anyConst ? addSection(".nv.constant3",
                                     rel ? elf::kShtCudaConstantB0 + 3 : elf::kShtProgbits,
                                     elf::kShfAlloc, constAlign, SectionKind::Bytes)
                        : 0;
  // Indirect-call tables: HW: ptxas 13.0 puts .nv.constant2.<k> after .nv.constant4, before
  // the code (flags AI, alignment 4, info = the kernel's .text). GUESS: the empty
  // .rela.nv.constant2.<k> sections ptxas also writes are left out.
  std::vector<size_t> sTable(fns.size(), 0);
  bool anyTable = false;
  for (size_t i = 0; i < fns.size(); ++i)
    if (!fns[i]->functionTable.empty()) {
      if (rel) {
        error = "indirect-call tables in relocatable output are not modelled yet";
        return std::nullopt;
      }
      sTable[i] = addSection(".nv.constant2." + fns[i]->name, elf::kShtProgbits,
                             elf::kShfAlloc | elf::kShfInfoLink, 4, SectionKind::Bytes);
      anyTable = true;
    }
  for (size_t i = 0; i < fns.size(); ++i)
    if (sRelConst0[i])
      sConst0[i] = addSection(".nv.constant0." + fns[i]->name, elf::kShtProgbits,
                              elf::kShfAlloc | elf::kShfInfoLink, 4, SectionKind::Bytes);
  for (const FunctionInfo *f : fns)
    sText.push_back(addSection(".text." + f->name, elf::kShtProgbits,
                               elf::kShfAlloc | elf::kShfExec, kTextAlign, SectionKind::Bytes));
  size_t sInit = anyInit ? addSection(".nv.global.init",
                                     rel ? elf::kShtCudaGlobalInit : elf::kShtProgbits,
                                     elf::kShfWrite | elf::kShfAlloc, initAlign, SectionKind::Bytes)
                        : 0;
  // NOBITS group in creation order: the first function's shared section, the reserved
  // shared section (executables), .nv.global, then the other functions' shared sections.
  const uint32_t sharedType = rel ? elf::kShtCudaShared : elf::kShtNobits;
  size_t sReserved = 0, sBss = 0;
  for (size_t i = 0; i < fns.size(); ++i) {
    if (fns[i]->usesShared && fns[i]->isKernel)
      sShared[i] = addSection(".nv.shared." + fns[i]->name, sharedType,
                              elf::kShfWrite | elf::kShfAlloc | elf::kShfInfoLink,
                              fns[i]->sharedAlign, SectionKind::NoBits);
    // HW: ptxas 13.0.88 writes no reserved shared section in debug cubins (-g, or PTX
    // with `.target ..., debug`).
    if (i == 0 && !rel && !full && cf.reservedSharedSection)
      sReserved = addSection(".nv.shared.reserved.0", elf::kShtNobits,
                             elf::kShfWrite | elf::kShfAlloc, 1, SectionKind::NoBits);
    if (i == 0 && anyBss)
      sBss = addSection(".nv.global", rel ? elf::kShtCudaGlobal : elf::kShtNobits,
                        elf::kShfWrite | elf::kShfAlloc, bssAlign, SectionKind::NoBits);
  }
  if (fns.empty()) {
    if (cf.reservedSharedSection)
      sReserved = addSection(".nv.shared.reserved.0", elf::kShtNobits,
                             elf::kShfWrite | elf::kShfAlloc, 1, SectionKind::NoBits);
    if (anyBss)
      sBss = addSection(".nv.global", elf::kShtNobits, elf::kShfWrite | elf::kShfAlloc, bssAlign,
                        SectionKind::NoBits);
  }
  {
    std::map<size_t, uint64_t> ends; // section -> bytes placed so far
    for (size_t k = 0; k < m.globals.size(); ++k) {
      const GlobalVar &g = m.globals[k];
      size_t sec = g.space == GlobalVar::Space::Const ? sC3 : !g.init.empty() ? sInit : sBss;
      uint64_t &end = ends[sec];
      uint64_t a = std::max<uint32_t>(g.align, 1);
      if (g.offset) {
        varPlace[k] = {sec, *g.offset};
        end = std::max(end, *g.offset + g.size);
      } else {
        end = (end + a - 1) / a * a;
        varPlace[k] = {sec, end};
        end += g.size;
      }
      if (g.init.size() > g.size) {
        error = "variable '" + g.name + "': initialiser larger than the variable";
        return std::nullopt;
      }
    }
  }
  for (size_t i = 0; i < fns.size(); ++i)
    if (fns[i]->isKernel && !sConst0[i])
      sConst0[i] = addSection(".nv.constant0." + fns[i]->name,
                              rel ? elf::kShtCudaConstantB0 : elf::kShtProgbits,
                              elf::kShfAlloc | elf::kShfInfoLink, 4, SectionKind::Bytes);

  // ---- pass 2: names and symbols -----------------------------------------------------
  Strings names;
  for (const char *n : {".shstrtab", ".strtab", ".symtab", ".symtab_shndx", ".note.nv.tkinfo",
                        ".note.nv.cuinfo", ".nv.info", ".nv.compat"})
    names.both(n);
  std::vector<Symbol> syms(1);
  auto sectionSym = [&](size_t sec) {
    Symbol y;
    y.info = elf::kSttSection;
    y.shndx = static_cast<uint16_t>(sec);
    y.name = c.sections[sec].name;
    syms.push_back(y);
    return syms.size() - 1;
  };
  auto plainSym = [&](std::string name, uint8_t info, uint8_t other, size_t shndx,
                      uint64_t value, uint64_t size) {
    Symbol y;
    y.name = std::move(name);
    y.info = info;
    y.other = other;
    y.shndx = static_cast<uint16_t>(shndx);
    y.value = value;
    y.size = size;
    syms.push_back(y);
    return syms.size() - 1;
  };
  sectionSym(sTk);
  sectionSym(sCu);
  // The reserved shared-memory symbols of an executable: after the first function's text
  // section, or straight after the notes when there is no function.
  auto reservedSyms = [&] {
    if (!cf.reservedSharedSection)
      return; // HW: no reserved shared memory, nor its symbols, on sm_80/86/89
    names.symOnly(".nv.reservedSmem.offset0");
    plainSym(".nv.reservedSmem.offset0", elf::kStbWeak << 4 | elf::kSttObject, 0, 0, 0, 4);
    if (!sReserved)
      return; // debug cubins: the symbol without the section (see above)
    names.both(".nv.shared.reserved.0");
    names.symOnly("__nv_reservedSMEM_offset_0_alias");
    // HW: st_other 0xa0 on the alias.
    plainSym("__nv_reservedSMEM_offset_0_alias", elf::kStbWeak << 4 | elf::kSttNotype, 0xa0,
             sReserved, 0, 0);
  };
  std::vector<size_t> fnSym(fns.size()), const0Sym(fns.size(), 0);
  // HW: a kernel whose constant bank has relocations (texrefs) gets its section symbol
  // after its .text's (after the reserved shared-memory symbols for the first function).
  auto earlyConst0Sym = [&](size_t i) {
    if (!sRelConst0[i])
      return;
    names.both(c.sections[sConst0[i]].name);
    const0Sym[i] = sectionSym(sConst0[i]);
  };
  std::vector<std::vector<uint8_t>> texts;
  for (const FunctionInfo *f : fns)
    texts.push_back(textWithTail(f->code, m.sm));
  std::vector<size_t> localFnSyms, varSym(m.globals.size(), 0);
  std::map<std::string, size_t> externSym;
  std::vector<std::vector<size_t>> localSymsOf(fns.size());
  bool sharedVarSeen = false, c4Done = false;
  // Module variables, in declaration order: the section's name and symbol on first use
  // (.nv.constant3 followed by 4 zero bytes), the variable (LOCAL OBJECT), and after the
  // first variable with an address slot, .nv.constant4 (followed by 3 zero bytes).
  auto moduleVarSyms = [&] {
    std::vector<bool> seen(c.sections.size(), false);
    for (size_t k = 0; k < m.globals.size(); ++k) {
      const GlobalVar &g = m.globals[k];
      size_t sec = varPlace[k].section;
      if (!seen[sec]) {
        seen[sec] = true;
        names.both(c.sections[sec].name);
        if (sec == sC3)
          names.padBoth(4);
        sectionSym(sec);
      }
      names.symOnly(g.name);
      // HW: executables: LOCAL OBJECT; relocatable: LOCAL type 13 (STT_LOPROC) with
      // st_other 0x20 (.global) or 0x80 (.const).
      if (rel)
        varSym[k] = plainSym(g.name, elf::kStbLocal << 4 | 13,
                             g.space == GlobalVar::Space::Const ? 0x80 : 0x20, sec,
                             varPlace[k].offset, g.size);
      else
        varSym[k] = plainSym(g.name, elf::kStbLocal << 4 | elf::kSttObject, 0, sec,
                             varPlace[k].offset, g.size);
      if (g.addressSlot && !c4Done) {
        c4Done = true;
        names.both(".nv.constant4");
        names.padBoth(3);
        sectionSym(sC4);
      }
    }
  };
  if (fns.empty()) {
    reservedSyms();
    moduleVarSyms();
  }
  for (size_t i = 0; i < fns.size(); ++i) {
    const FunctionInfo &f = *fns[i];
    // HW: a non-.visible device function (relocatable output) is a LOCAL FUNC created
    // before its section; its .nv.info name follows the first-function block.
    const bool localFn = !f.isKernel && !f.visible;
    if (localFn) {
      names.symOnly(f.name);
      fnSym[i] = plainSym(f.name, elf::kStbLocal << 4 | elf::kSttFunc, 0, sText[i], 0,
                          texts[i].size());
      names.both(".text." + f.name);
    } else {
      names.both(".text." + f.name);
      names.both(".nv.info." + f.name);
      if (f.isKernel)
        names.both(".nv.shared." + f.name);
    }
    sectionSym(sText[i]);
    if (i != 0)
      earlyConst0Sym(i);
    if (sShared[i] && f.sharedBytes)
      sectionSym(sShared[i]);
    if (sTable[i]) {
      names.both(c.sections[sTable[i]].name);
      sectionSym(sTable[i]);
    }
    // HW: the first function (processing order) calling an extern function creates the
    // .nv.constant4 section symbol before the module variables (after the reserved
    // shared-memory symbols when it is the first function), as if the slots of a function's
    // externs were made when it is compiled and the variables' slots after the first one.
    auto externSlots = [&] {
      if (!f.externs.empty() && !c4Done) {
        c4Done = true;
        names.both(".nv.constant4");
        names.padBoth(3);
        sectionSym(sC4);
      }
    };
    if (i != 0)
      externSlots();
    if (i == 0) {
      if (rel) {
        // HW: relocatable cubins declare these eight WEAK OBJECT (size 8) symbols.
        for (const char *u : {"__UDT_OFFSET", "__UFT_OFFSET", "__UFT_CANONICAL",
                              "__UDT_CANONICAL", "__UFT", "__UDT", "__UFT_END", "__UDT_END"}) {
          names.symOnly(u);
          plainSym(u, elf::kStbWeak << 4 | elf::kSttObject, 0, 0, 0, 8);
        }
        names.symOnly(".nv.reservedSmem.offset0");
        plainSym(".nv.reservedSmem.offset0", elf::kStbWeak << 4 | elf::kSttObject, 0, 0, 0, 4);
      } else {
        reservedSyms();
      }
      earlyConst0Sym(0);
      externSlots();
      moduleVarSyms();
    }
    if (localFn)
      names.both(".nv.info." + f.name);
    if (f.usesShared && !sharedVarSeen) {
      // HW: the first function (processing order) using shared memory (static or extern)
      // adds an unnamed LOCAL NOTYPE symbol with st_other 1 whose 20-byte name is zeroed in
      // .strtab (21 zero bytes, whatever the variable's name); ptxas writes it once per
      // module, in executables and relocatable output alike. Its st_name is 0.
      Symbol y;
      y.other = 1;
      names.zeroed(20);
      syms.push_back(y);
      sharedVarSeen = true;
    }
    if (rel)
      for (const FunctionInfo::SharedVar &v : f.sharedVars) {
        names.symOnly(v.name);
        plainSym(v.name, elf::kStbLocal << 4 | 13, 0x40, sShared[i], v.align, v.size);
      }
    for (const LocalFunction &lf : f.localFunctions) {
      names.symOnly(lf.name);
      localSymsOf[i].push_back(plainSym(lf.name, uint8_t(lf.binding << 4 | elf::kSttFunc), 0,
                                        sText[i], lf.offset, lf.size));
    }
    // HW: a function calling an extern function names its code relocation sections too,
    // though an executable has none for it.
    if (hasRelText(f) || !f.externs.empty()) {
      // HW: relocatable functions with calls name .rela first; otherwise .rel first.
      if (rel && f.hasCalls) {
        names.both(".rela.text." + f.name);
        names.both(".rel.text." + f.name);
      } else {
        names.both(".rel.text." + f.name);
        names.both(".rela.text." + f.name);
      }
    }
  }
  names.both(".debug_frame");
  if (lines) {
    // HW: each line section's name, then its .rel and .rela names (GUESS: the order against
    // the .nv.constant4 names, not observed together).
    for (const char *n : {".debug_line", ".nv_debug_line_sass"}) {
      names.both(n);
      if (strAfterLine && n == std::string_view(".debug_line")) {
        names.both(".debug_str");
        names.both(std::string(".rela") + n);
        names.both(std::string(".rel") + n);
        continue;
      }
      names.both(std::string(".rel") + n);
      names.both(std::string(".rela") + n);
    }
    names.both(".nv_debug_ptx_txt");
    if (str && !strAfterLine)
      names.both(".debug_str");
  }
  if (full) {
    // GUESS: the -g sections' names after the line sections' (ptxas's order not compared).
    names.both(".nv_debug_info_reg_sass");
    names.both(".nv_debug_info_reg_type");
    for (size_t d = 0; d < m.debugSections.size(); ++d) {
      names.both(m.debugSections[d].name);
      if (sRelDwarf[d]) {
        names.both(".rel" + m.debugSections[d].name);
        names.both(".rela" + m.debugSections[d].name);
      }
    }
  }
  if (anySlot) {
    // HW: the slot relocations are named .rela.nv.constant.pic in .strtab but renamed in
    // place to .rela.nv.constant4 (3 zero bytes left) in .shstrtab.
    names.both(".rel.nv.constant.pic");
    Strings::add(names.sh, names.shOff, ".rela.nv.constant4");
    names.sh.insert(names.sh.end(), 3, 0);
    if (!cf.debugFrameRela) // GUESS: where sm_80's REL name goes (names are not compared)
      Strings::add(names.sh, names.shOff, ".rel.nv.constant4");
    names.symOnly(".rela.nv.constant.pic");
  }
  if (sRelInit) {
    names.both(".rel.nv.global.init");
    names.both(".rela.nv.global.init");
  }
  // GUESS: where ptxas names the constant-bank relocation sections (not compared).
  for (size_t i = 0; i < fns.size(); ++i)
    if (sRelConst0[i]) {
      names.both(".rel.nv.constant0." + fns[i]->name);
      names.both(".rela.nv.constant0." + fns[i]->name);
    }
  if (sRelDebug) {
    names.both(".rel.debug_frame");
    names.both(".rela.debug_frame");
  }
  names.both(".nv.callgraph");
  names.both(".nv.prototype");
  if (sRelAction)
    names.both(".nv.rel.action");
  size_t debugSym = fns.empty() ? 0 : sectionSym(sDebug);
  if (lines) {
    // HW: section symbols for the three line sections between .debug_frame's and
    // .nv.callgraph's.
    sectionSym(sLine);
    if (strAfterLine)
      sectionSym(sStrLine);
    sectionSym(sLineSass);
    sectionSym(sPtxTxt);
    if (str && !strAfterLine)
      sectionSym(sStrLine);
  }
  if (full) {
    // HW: ptxas -g: section symbols for the register maps and the DWARF sections next.
    sectionSym(sRegSass);
    sectionSym(sRegType);
    for (size_t d : sDwarf)
      sectionSym(d);
  }
  if (sCall)
    sectionSym(sCall);

  bool texRefsDone = false;
  std::map<std::string, size_t> texRefSym;
  for (size_t i = 0; i < fns.size(); ++i) {
    if (!fns[i]->isKernel && !fns[i]->visible)
      continue; // already a LOCAL FUNC
    names.symOnly(fns[i]->name);
    // HW: kernels are GLOBAL FUNC with st_other 0x10 (STO_CUDA_ENTRY); device functions
    // in relocatable output GLOBAL FUNC with st_other 0.
    fnSym[i] = plainSym(fns[i]->name, elf::kStbGlobal << 4 | elf::kSttFunc,
                        fns[i]->isKernel ? 0x10 : 0, sText[i], 0, texts[i].size());
    // HW: an extern function's symbol (GLOBAL FUNC, undefined) follows the symbol of the
    // first function (processing order) that calls it.
    for (const std::string &x : fns[i]->externs)
      if (!externSym.count(x)) {
        names.symOnly(x);
        externSym[x] = plainSym(x, elf::kStbGlobal << 4 | elf::kSttFunc, 0, 0, 0, 0);
      }
    // HW: the texture and surface references of every kernel (processing order, each in
    // order of first use) follow the first kernel's symbol: undefined GLOBAL symbols of
    // type 10 (texture) or 12 (surface).
    if (!texRefsDone) {
      texRefsDone = true;
      for (const FunctionInfo *g : fns)
        for (const FunctionInfo::TexRefSlot &t : g->texRefs)
          if (!texRefSym.count(t.name)) {
            names.symOnly(t.name);
            texRefSym[t.name] = plainSym(t.name, elf::kStbGlobal << 4 | (t.surface ? 12 : 10),
                                         0, 0, 0, 0);
          }
    }
  }
  for (size_t i = 0; i < fns.size(); ++i)
    if (sConst0[i] && !const0Sym[i]) {
      names.both(c.sections[sConst0[i]].name);
      const0Sym[i] = sectionSym(sConst0[i]);
    }
  for (Symbol &y : syms)
    if (!y.name.empty())
      y.nameOffset = names.stOff.at(y.name);

  // ---- pass 3: contents --------------------------------------------------------------
  for (Section &s : c.sections)
    if (s.kind != SectionKind::Null)
      s.nameOffset = names.shOff.at(s.name);
  c.sections[sShstr].data = names.sh;
  c.sections[sStr].data = names.st;
  Section &symtab = c.sections[sSym];
  symtab.symbols = syms;
  symtab.link = static_cast<uint32_t>(sStr);
  symtab.info = static_cast<uint32_t>(syms.size());
  // HW: with texture references (undefined GLOBAL symbols last) ptxas 13.0.88 gives the
  // index after the last LOCAL symbol, as ELF defines sh_info; everywhere else the last
  // symbol is LOCAL (a .nv.constant0 section symbol) and the two agree. GUESS: relocatable
  // output keeps the count.
  if (texRefsDone && !texRefSym.empty())
    for (size_t k = syms.size(); k-- > 0;)
      if (syms[k].info >> 4 == elf::kStbLocal) {
        symtab.info = static_cast<uint32_t>(k + 1);
        break;
      }
  symtab.entsize = elf::kSymSize;

  // .text, .nv.shared, .nv.constant0
  for (size_t i = 0; i < fns.size(); ++i) {
    Section &t = c.sections[sText[i]];
    t.data = texts[i];
    t.link = static_cast<uint32_t>(sSym);
    t.info = static_cast<uint32_t>(fnSym[i]);
    if (cf.regsInTextInfo)
      t.info |= fns[i]->regCount << 24;
    if (sShared[i]) {
      Section &sh = c.sections[sShared[i]];
      // HW: the 1 KB reserve is added in executables only.
      sh.size = (rel ? 0 : cf.sharedReserve) + fns[i]->sharedBytes;
      sh.info = static_cast<uint32_t>(sText[i]);
    }
    if (sConst0[i]) {
      Section &k = c.sections[sConst0[i]];
      uint64_t size = cf.paramBase + fns[i]->paramBytes;
      for (const FunctionInfo::TexRefSlot &t : fns[i]->texRefs)
        size = std::max<uint64_t>(size, t.offset + 4);
      k.data.assign(size, 0);
      k.info = static_cast<uint32_t>(sText[i]);
    }
    if (sRelConst0[i]) {
      // HW: R_CUDA_TEX_HEADER_INDEX (6) / R_CUDA_SURF_HEADER_INDEX (52) on each slot, listed
      // last slot first.
      Section &r = c.sections[sRelConst0[i]];
      r.link = static_cast<uint32_t>(sSym);
      r.info = static_cast<uint32_t>(sConst0[i]);
      r.entsize = elf::kRelaSize;
      std::vector<FunctionInfo::TexRefSlot> slots = fns[i]->texRefs;
      std::sort(slots.begin(), slots.end(),
                [](const auto &a, const auto &b) { return a.offset > b.offset; });
      for (const FunctionInfo::TexRefSlot &t : slots) {
        if (t.offset < cf.paramBase + fns[i]->paramBytes || t.offset % 4) {
          error = "texture reference '" + t.name + "': slot 0x" + hex(t.offset) +
                  " overlaps the parameters or is misaligned";
          return std::nullopt;
        }
        r.relocations.push_back({t.offset, t.surface ? 52u : 6u,
                                 static_cast<uint32_t>(texRefSym.at(t.name)), 0});
      }
    }
    if (sTable[i]) {
      Section &k = c.sections[sTable[i]];
      for (uint64_t v : fns[i]->functionTable)
        for (unsigned b = 0; b < 8; ++b)
          k.data.push_back(static_cast<uint8_t>(v >> (8 * b)));
      k.info = static_cast<uint32_t>(sText[i]);
    }
  }

  // Module data contents.
  {
    std::vector<size_t> slotVars;
    for (size_t k = 0; k < m.globals.size(); ++k) {
      const GlobalVar &g = m.globals[k];
      Section &sec = c.sections[varPlace[k].section];
      uint64_t end = varPlace[k].offset + g.size;
      if (sec.kind == SectionKind::NoBits) {
        sec.size = std::max(sec.size, end);
      } else {
        if (sec.data.size() < end)
          sec.data.resize(end, 0);
        std::copy(g.init.begin(), g.init.end(), sec.data.begin() + varPlace[k].offset);
      }
      if (g.addressSlot)
        slotVars.push_back(k);
    }
    if (sC4) {
      // HW: one zero 8-byte slot per variable (in declaration order unless the compiler
      // says otherwise) and per extern function, each filled by an R_CUDA_64 against the
      // variable or function; the relocations are listed last slot first.
      std::vector<std::pair<uint64_t, size_t>> slots; // offset, symbol
      for (size_t j = 0; j < slotVars.size(); ++j) {
        const GlobalVar &g = m.globals[slotVars[j]];
        slots.push_back({g.slot ? *g.slot : 8 * j, varSym[slotVars[j]]});
      }
      for (const ExternFunction &x : m.externs) {
        auto it = externSym.find(x.name);
        if (it == externSym.end()) {
          error = "extern function '" + x.name + "' is called by no function";
          return std::nullopt;
        }
        slots.push_back({x.slot, it->second});
      }
      std::sort(slots.begin(), slots.end());
      for (size_t j = 0; j < slots.size(); ++j)
        if (slots[j].first % 8 || (j && slots[j].first == slots[j - 1].first)) {
          error = "address slot 0x" + hex(slots[j].first) + " is misaligned or given twice";
          return std::nullopt;
        }
      c.sections[sC4].data.assign(slots.empty() ? 0 : slots.back().first + 8, 0);
      Section &r = c.sections[sRelC4];
      r.link = static_cast<uint32_t>(sSym);
      r.info = static_cast<uint32_t>(sC4);
      r.entsize = cf.debugFrameRela ? elf::kRelaSize : elf::kRelSize;
      for (size_t j = slots.size(); j-- > 0;)
        r.relocations.push_back({slots[j].first, 2, static_cast<uint32_t>(slots[j].second), 0});
    }
    if (sRelInit) {
      // HW: R_CUDA_G64 (4) against the variable addressed, addend the offset; listed last
      // first (ptxas 13.0: `tab[4] = {gx, f, generic(gx)+4, g}` -> gx+4 at 0x10, gx+0 at 0).
      Section &r = c.sections[sRelInit];
      r.link = static_cast<uint32_t>(sSym);
      r.info = static_cast<uint32_t>(sInit);
      r.entsize = elf::kRelaSize;
      std::vector<Relocation> all;
      for (size_t k = 0; k < m.globals.size(); ++k)
        for (const GlobalVar::AddressInit &a : m.globals[k].addressInits) {
          size_t target = m.globals.size();
          for (size_t t = 0; t < m.globals.size(); ++t)
            if (m.globals[t].name == a.symbol)
              target = t;
          if (target == m.globals.size() || varPlace[k].section != sInit ||
              a.offset + 8 > m.globals[k].size) {
            error = "variable '" + m.globals[k].name + "': address of '" + a.symbol +
                    "' cannot be relocated";
            return std::nullopt;
          }
          all.push_back({varPlace[k].offset + a.offset, 4, static_cast<uint32_t>(varSym[target]),
                         a.addend});
        }
      std::sort(all.begin(), all.end(),
                [](const Relocation &x, const Relocation &y) { return x.offset > y.offset; });
      r.relocations = std::move(all);
    }
  }

  // .nv.info: per function in definition order REGCOUNT, [MAX_STACK_SIZE], FRAME_SIZE
  // (local functions' FRAME_SIZE before their caller's); then MIN_STACK_SIZE per kernel in
  // processing order (executables).
  {
    auto &a = c.sections[sInfo].attributes;
    for (size_t k = fns.size(); k-- > 0;) {
      const FunctionInfo &f = *fns[k];
      uint32_t y = static_cast<uint32_t>(fnSym[k]);
      a.push_back(sval(0x2f, {y, f.regCount}));
      if (rel)
        a.push_back(sval(0x23, {y, f.minStackSize}));
      // HW (ptxas 13.0.88, modules with a TXQ, one and two kernels): REGCOUNT,
      // MAX_STACK_SIZE, MIN_STACK_SIZE, FRAME_SIZE per function. GUESS: MAX_STACK_SIZE
      // carries the MIN_STACK_SIZE figure (both 0 in every probe); device functions.
      if (m.noCallgraph && !rel) {
        a.push_back(sval(0x23, {y, f.minStackSize}));
        if (f.isKernel)
          a.push_back(sval(0x12, {y, f.minStackSize}));
      }
      // HW: callees' FRAME_SIZE last callee first.
      for (size_t j = f.localFunctions.size(); j-- > 0;)
        a.push_back(sval(0x11, {static_cast<uint32_t>(localSymsOf[k][j]),
                                f.localFunctions[j].frameSize}));
      a.push_back(sval(0x11, {y, f.frameSize}));
    }
    if (fns.empty())
      a.push_back(hval(0x5f, cf.mercuryIsaVersion)); // HW: the only record without functions
    if (!rel && !m.noCallgraph)
      for (size_t k = 0; k < fns.size(); ++k)
        if (fns[k]->isKernel)
          a.push_back(sval(0x12, {static_cast<uint32_t>(fnSym[k]), fns[k]->minStackSize}));
    c.sections[sInfo].link = static_cast<uint32_t>(sSym);
  }
  // .nv.info.<fn>
  for (size_t i = 0; i < fns.size(); ++i) {
    const FunctionInfo &f = *fns[i];
    std::vector<Attribute> a;
    a.push_back(sval(0x37, {kCudaApiVersion}));
    if (f.isKernel) {
      // HW: ptxas 13.0 describes every parameter with KPARAM_INFO_V2 (0x45: the size as a
      // whole word, no cbank/alignment bits) once the parameter block is larger than 0x1100
      // bytes (0x1100: KPARAM_INFO, 0x1104: V2; probed with one .b8 array parameter).
      bool v2 = f.paramBytes > kKParamInfoV1Limit;
      for (size_t p = f.params.size(); p-- > 0;) {
        const ParamInfo &pi = f.params[p];
        if (v2)
          a.push_back(sval(0x45, {0, static_cast<uint32_t>(p) | pi.offset << 16, pi.size}));
        else
          a.push_back(sval(0x17, {0, static_cast<uint32_t>(p) | pi.offset << 16,
                                  pi.size << 18 | kKParamFlags | (pi.pointeeSpace & 0xf) << 8 |
                                      (pi.logAlign & 0xff)}));
      }
      if (f.explicitCluster)
        a.push_back(hval(0x3e, 0, Attribute::NVal));
      if (f.clusterDims)
        a.push_back(sval(0x3d, {(*f.clusterDims)[0], (*f.clusterDims)[1], (*f.clusterDims)[2]}));
      if (f.maxClusterRank)
        a.push_back(sval(0x3f, {*f.maxClusterRank}));
    }
    if (cf.sparseMmaMask)
      a.push_back(hval(0x50, 0));
    if (f.isKernel)
      a.push_back(hval(0x1b, static_cast<uint16_t>(f.maxReg)));
    if (f.numBarriers)
      a.push_back(hval(0x4c, static_cast<uint16_t>(f.numBarriers), Attribute::BVal));
    if (!f.externs.empty()) {
      Attribute x = sval(0x0f, {});
      for (const std::string &n : f.externs)
        put32(x.payload, static_cast<uint32_t>(externSym.at(n)));
      a.push_back(x);
    }
    a.push_back(hval(0x5f, cf.mercuryIsaVersion));
    if (!f.syscallOffsets.empty()) {
      Attribute x = sval(0x46, {});
      for (uint32_t o : f.syscallOffsets)
        put32(x.payload, o);
      a.push_back(x);
    }
    if (f.isKernel && !f.exitOffsets.empty()) {
      Attribute e = sval(0x1c, {});
      for (uint32_t x : f.exitOffsets)
        put32(e.payload, x);
      a.push_back(e);
    }
    if (f.maxntid)
      a.push_back(sval(0x05, {(*f.maxntid)[0], (*f.maxntid)[1], (*f.maxntid)[2]}));
    if (f.reqntid)
      a.push_back(sval(0x10, {(*f.reqntid)[0], (*f.reqntid)[1], (*f.reqntid)[2]}));
    if (f.crsStackSize)
      a.push_back(sval(0x1e, {*f.crsStackSize}));
    if (f.isKernel && f.paramBytes) {
      a.push_back(hval(0x19, static_cast<uint16_t>(f.paramBytes)));
      a.push_back(sval(0x0a, {static_cast<uint32_t>(const0Sym[i]), cf.paramBase | f.paramBytes << 16}));
    }
    if (cf.swWar)
      a.push_back(sval(0x36, {kSwWar}));
    if (cf.sw2861232War)
      a.push_back(hval(0x35, 0, Attribute::NVal));
    if (!f.texRefs.empty()) {
      // HW: both records, value 0, in every kernel naming a texref or surfref.
      a.push_back(hval(0x15, 0, Attribute::BVal));
      a.push_back(hval(0x16, 0, Attribute::BVal));
    }
    for (const Attribute &x : f.extraAttributes)
      a.push_back(x);
    std::stable_sort(a.begin(), a.end(), [](const Attribute &x, const Attribute &y) {
      return infoRank(x.attr) < infoRank(y.attr);
    });
    Section &s = c.sections[sFnInfo[i]];
    s.attributes = std::move(a);
    s.link = static_cast<uint32_t>(sSym);
    s.info = static_cast<uint32_t>(sText[i]);
  }
  // .nv.compat. HW: this record order and these values on every sm_90/sm_90a cubin.
  if (sCompat) {
    auto &a = c.sections[sCompat].attributes;
    a.push_back(hval(0x09, m.archSpecific ? 1 : 0, Attribute::BVal));
    a.push_back(hval(0x02, m.isaClass, Attribute::BVal));
    a.push_back(hval(0x05, 5, Attribute::BVal));
    a.push_back(hval(0x07, cf.mercuryIsaVersion));
    a.push_back(hval(0x03, m.usesTensormap ? 1 : 0, Attribute::BVal));
    a.push_back(hval(0x06, 1, Attribute::BVal));
    a.push_back(sval(0x0b, {0, 0}));
  }
  // .nv.callgraph. HW: (0,-1) first, (0,-2),(0,-3),(0,-4) last; in relocatable output the
  // call edges {caller, callee} in between: callers in processing order, callees in code
  // order, one edge per callee, read off the CALL relocations (R_CUDA_ABS55_16_34).
  // GUESS: the order of several callees of one caller (only one per caller seen).
  if (sCall) {
    Section &s = c.sections[sCall];
    s.edges = {{0, -1}};
    // HW (executables): an edge from each function to each extern function it calls,
    // functions in processing order, externs in declaration order.
    for (size_t i = 0; i < fns.size(); ++i)
      for (const std::string &x : fns[i]->externs)
        s.edges.emplace_back(static_cast<int32_t>(fnSym[i]),
                             static_cast<int32_t>(externSym.at(x)));
    for (size_t i = 0; i < fns.size(); ++i) {
      std::vector<CodeReloc> calls;
      for (const CodeReloc &r : fns[i]->relocations)
        if (r.type == 75)
          calls.push_back(r);
      std::stable_sort(calls.begin(), calls.end(),
                       [](const CodeReloc &a, const CodeReloc &b) { return a.offset < b.offset; });
      std::vector<std::string> done;
      for (const CodeReloc &r : calls) {
        if (std::find(done.begin(), done.end(), r.symbol) != done.end())
          continue;
        done.push_back(r.symbol);
        auto it = std::find_if(syms.begin(), syms.end(),
                               [&](const Symbol &y) { return y.name == r.symbol; });
        if (it != syms.end())
          s.edges.emplace_back(static_cast<int32_t>(fnSym[i]),
                               static_cast<int32_t>(it - syms.begin()));
      }
    }
    for (int32_t k : {-2, -3, -4})
      s.edges.emplace_back(0, k);
    s.link = static_cast<uint32_t>(sSym);
    s.entsize = 8;
  }
  // .rela.text.<fn>: code relocations (relocatable output); empty in executables.
  for (size_t i = 0; i < fns.size(); ++i) {
    if (!sRelText[i])
      continue;
    Section &s = c.sections[sRelText[i]];
    s.link = static_cast<uint32_t>(sSym);
    s.info = static_cast<uint32_t>(sText[i]);
    s.entsize = elf::kRelaSize;
    for (const CodeReloc &r : fns[i]->relocations) {
      auto it = std::find_if(syms.begin(), syms.end(),
                             [&](const Symbol &y) { return y.name == r.symbol; });
      if (it == syms.end()) {
        error = "relocation against unknown symbol '" + r.symbol + "'";
        return std::nullopt;
      }
      s.relocations.push_back({r.offset, r.type, static_cast<uint32_t>(it - syms.begin()),
                               r.addend});
    }
  }
  // .debug_frame + .rela.debug_frame (last FDE first).
  DebugFrame df;
  {
    for (size_t i = 0; i < fns.size(); ++i) {
      // HW: the function's own FDE ends where its first callee starts.
      uint64_t range = texts[i].size();
      for (const LocalFunction &lf : fns[i]->localFunctions)
        range = std::min<uint64_t>(range, lf.offset);
      appendFrame(df, *fns[i], i, range, rel);
      for (const LocalFunction &lf : fns[i]->localFunctions)
        appendCalleeFrame(df, lf, i, rel);
    }
    c.sections[sDebug].data = df.bytes;
  }
  if (sRelDebug) {
    Section &r = c.sections[sRelDebug];
    r.link = static_cast<uint32_t>(sSym);
    r.info = static_cast<uint32_t>(sDebug);
    r.entsize = cf.debugFrameRela ? elf::kRelaSize : elf::kRelSize;
    // HW: the CIE pointer addend in relocatable output counts each earlier CIE+FDE block
    // rounded up to 16 bytes (0x68-byte blocks give 0, 0x70, 0xe0; 0x70-byte ones 0x70).
    {
      int64_t sum = 0;
      for (size_t k = 0; k < df.fdes.size(); ++k) {
        df.fdes[k].cieAddend = sum;
        size_t end = k + 1 < df.fdes.size() ? df.fdes[k + 1].cieOffset : df.bytes.size();
        sum += static_cast<int64_t>((end - df.fdes[k].cieOffset + 15) / 16 * 16);
      }
    }
    // HW: function by function, last first: its FDEs (callees' first, last first), then its
    // callee CIEs' DW_OP_addr operands (last first) against the function.
    for (size_t fi = fns.size(); fi-- > 0;) {
      uint32_t y = static_cast<uint32_t>(fnSym[fi]);
      for (auto it = df.fdes.rbegin(); it != df.fdes.rend(); ++it) {
        if (it->fn != fi)
          continue;
        if (rel) {
          // HW: relocatable: the CIE pointer (against .debug_frame), initial_location, and
          // R_CUDA_UNUSED_CLEAR64 on address_range.
          r.relocations.push_back({it->offset + 0x1c, 73, y, 0});
          r.relocations.push_back({it->offset + 0x14, 2, y, 0});
          r.relocations.push_back({it->offset + 0x0c, 2, static_cast<uint32_t>(debugSym),
                                   it->cieAddend});
        } else {
          r.relocations.push_back({it->offset + 0x14, 2, y, it->locAddend});
        }
      }
      for (auto it = df.cieAddrs.rbegin(); it != df.cieAddrs.rend(); ++it)
        if (it->fn == fi)
          r.relocations.push_back({it->offset, 2, y, 0});
    }
  }
  // Line tables: one unit each, one sequence per function (processing order) over its
  // whole .text, the set_address operands relocated (R_CUDA_64) against the function.
  if (lines) {
    std::vector<LineSequence> src, ptx;
    for (size_t i = 0; i < fns.size(); ++i) {
      if (!fns[i]->sourceLines.empty())
        src.push_back(LineSequence{fns[i]->sourceLines, texts[i].size()});
      ptx.push_back(LineSequence{fns[i]->ptxLines, texts[i].size()});
    }
    std::vector<size_t> srcAddr, ptxAddr;
    c.sections[sLine].data = encodeLineUnit(m.lineInfo->dirs, m.lineInfo->files, src, srcAddr,
                                            m.lineInfo->headerPadding);
    c.sections[sLineSass].data = encodeLineUnit({}, {}, ptx, ptxAddr);
    c.sections[sPtxTxt].data = m.lineInfo->ptxText;
    if (str)
      c.sections[sStrLine].data = m.lineInfo->debugStr;
    auto relocate = [&](size_t relSec, size_t target, const std::vector<size_t> &addrs,
                        bool onlyWithRows) {
      if (!relSec)
        return;
      Section &r = c.sections[relSec];
      r.link = static_cast<uint32_t>(sSym);
      r.info = static_cast<uint32_t>(target);
      r.entsize = elf::kRelaSize;
      size_t k = 0;
      for (size_t i = 0; i < fns.size(); ++i) {
        if (onlyWithRows && fns[i]->sourceLines.empty())
          continue;
        r.relocations.push_back({addrs[k++], 2, static_cast<uint32_t>(fnSym[i]), 0});
      }
    };
    relocate(sRelLine, sLine, srcAddr, true);
    relocate(sRelLineSass, sLineSass, ptxAddr, false);
  }
  // -g: the register maps, and the PTX's DWARF sections with their code relocations.
  if (full) {
    c.sections[sRegSass].data = m.regSass;
    c.sections[sRegType].data = m.regType;
    for (size_t d = 0; d < m.debugSections.size(); ++d) {
      const DebugSection &ds = m.debugSections[d];
      c.sections[sDwarf[d]].data = ds.bytes;
      if (!sRelDwarf[d])
        continue;
      Section &r = c.sections[sRelDwarf[d]];
      r.link = static_cast<uint32_t>(sSym);
      r.info = static_cast<uint32_t>(sDwarf[d]);
      r.entsize = elf::kRelaSize;
      // HW: ptxas lists them last first, as it does .rela.debug_frame's.
      for (auto rit = ds.relocs.rbegin(); rit != ds.relocs.rend(); ++rit) {
        const DebugSection::Reloc &x = *rit;
        if (!x.variable.empty()) {
          auto v = std::find_if(m.globals.begin(), m.globals.end(),
                                [&](const GlobalVar &g) { return g.name == x.variable; });
          if (v == m.globals.end()) {
            error = ds.name + " refers to unknown variable '" + x.variable + "'";
            return std::nullopt;
          }
          // HW (ptxas 13.0.88 -g, nvcc -G's `.b64 counter` in .debug_info): type 2 against
          // a .global variable, 4 against a .const one. A 32-bit reference: GUESS, type 1.
          uint32_t type = !x.wide ? 1u : v->space == GlobalVar::Space::Const ? 4u : 2u;
          r.relocations.push_back({x.offset, type,
                                   static_cast<uint32_t>(varSym[v - m.globals.begin()]),
                                   static_cast<int64_t>(x.addend)});
          continue;
        }
        auto it = std::find_if(fns.begin(), fns.end(),
                               [&](const FunctionInfo *f) { return f->name == x.function; });
        if (it == fns.end()) {
          error = ds.name + " refers to the code of unknown function '" + x.function + "'";
          return std::nullopt;
        }
        // HW: R_CUDA_64 (2) as ptxas -g writes for `.b64 $L__func_begin0`; R_CUDA_32 (1)
        // for a 32-bit code address is a GUESS (not seen in ptxas's output).
        r.relocations.push_back({x.offset, x.wide ? 2u : 1u,
                                 static_cast<uint32_t>(fnSym[it - fns.begin()]),
                                 static_cast<int64_t>(x.addend)});
      }
    }
  }
  // Notes. HW: owner "NVIDIA Corp"; cuinfo {u16 2, u16 PTX target SM, u32 toolkit};
  // tkinfo {u32 2, offsets of obj name, tool name, version, branch, options} + strings.
  {
    const std::string owner = "NVIDIA Corp";
    Note tk;
    tk.name.assign(owner.begin(), owner.end());
    tk.name.push_back(0);
    tk.type = 2000;
    std::vector<uint8_t> pool;
    std::vector<uint32_t> offs;
    for (const std::string &s : {std::string(), std::string(kToolName), std::string(kToolVersion),
                                 std::string(kToolBranch), m.toolOptions}) {
      offs.push_back(static_cast<uint32_t>(pool.size()));
      pool.insert(pool.end(), s.begin(), s.end());
      pool.push_back(0);
    }
    put32(tk.desc, 2);
    for (uint32_t o : offs)
      put32(tk.desc, o);
    tk.desc.insert(tk.desc.end(), pool.begin(), pool.end());
    tk.desc.resize((tk.desc.size() + 3) & ~size_t(3), 0); // HW: descsz includes the padding
    c.sections[sTk].notes.push_back(tk);
    Note cu;
    cu.name = tk.name;
    cu.type = 1000;
    put16(cu.desc, 2);
    put16(cu.desc, static_cast<uint16_t>(m.ptxTargetSm));
    put32(cu.desc, kCudaApiVersion);
    Section &cs = c.sections[sCu];
    cs.notes.push_back(cu);
    // HW: link = .note.nv.tkinfo, info = 8 on every cubin seen. GUESS: info is the index
    // of .nv.compat.
    cs.link = static_cast<uint32_t>(sTk);
    cs.info = static_cast<uint32_t>(sCompat); // 0 without one (HW: sm_80's cuinfo)
  }

  // Sizes.
  for (Section &s : c.sections)
    if (s.kind != SectionKind::NoBits && s.kind != SectionKind::Null)
      s.size = encodeSection(s).size();
  c.shstrndx = static_cast<uint16_t>(sShstr);

  // ---- pass 4: layout and program headers ----------------------------------------------
  if (!rel) {
    // HW: PHDR and a LOAD over the table; LOAD R E over the code; LOAD RW over the shared
    // and global data (file size = initialised bytes); LOAD R over the constant banks.
    // HW: without functions only PHDR, its LOAD, the LOAD R over the constant banks when
    // there is module data, and the LOAD RW over the shared reserve and the globals.
    c.programHeaders.resize((fns.empty() ? 3 : 5) + (sC4 || sC3 || anyTable ? 1 : 0));
  }
  computeLayout(c);
  if (!rel) {
    auto span = [&](auto pred, uint32_t flags) {
      ProgramHeader p;
      p.type = elf::kPtLoad;
      p.flags = flags;
      p.align = 8;
      bool first = true;
      uint64_t end = 0;
      for (const Section &s : c.sections) {
        if (!pred(s))
          continue;
        if (first)
          p.offset = s.offset;
        first = false;
        bool bits = s.kind != SectionKind::NoBits;
        if (bits)
          end = s.offset + s.size;
        p.memsz += s.size;
      }
      p.filesz = end > p.offset ? end - p.offset : 0;
      if (p.filesz > p.memsz)
        p.memsz = p.filesz;
      return p;
    };
    ProgramHeader ph;
    ph.type = elf::kPtPhdr;
    ph.flags = elf::kPfR;
    ph.offset = c.phoff;
    ph.filesz = ph.memsz = c.programHeaders.size() * elf::kPhdrSize;
    ph.align = 8;
    c.programHeaders[0] = ph;
    c.programHeaders[1] = ph;
    c.programHeaders[1].type = elf::kPtLoad;
    size_t n = 2;
    if (sC4 || sC3 || anyTable)
      c.programHeaders[n++] = span(
          [](const Section &s) {
            return s.name == ".nv.constant4" || s.name == ".nv.constant3" ||
                   s.name.starts_with(".nv.constant2.");
          },
          elf::kPfR);
    if (!fns.empty())
      c.programHeaders[n++] = span(
          [](const Section &s) { return s.name.starts_with(".text."); }, elf::kPfR | elf::kPfX);
    c.programHeaders[n++] = span(
        [](const Section &s) {
          return s.kind == SectionKind::NoBits || s.name == ".nv.global.init";
        },
        elf::kPfR | elf::kPfW);
    if (!fns.empty())
      c.programHeaders[n++] = span(
          [](const Section &s) { return s.name.starts_with(".nv.constant0."); }, elf::kPfR);
  }
  c.layoutCanonical = true;
  return c;
}

} // namespace ptxmini::cubin
