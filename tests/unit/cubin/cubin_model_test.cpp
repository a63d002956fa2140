//===- tests/unit/cubin/cubin_model_test.cpp - records and sections of the cubin model -===//
///
/// \file
/// One test per attribute record format and per section kind: each says what the bytes
/// must look like (from cubin-format.md §7/§9 and the ELF64 spec) and checks the encoder,
/// the decoder, and that a decoded record re-encodes to the same bytes. Reader robustness:
/// every truncation and a sweep of single-byte corruptions of a valid cubin must end in an
/// error message or a model that writes back, never a crash.
//===----------------------------------------------------------------------------------===//
#include "encoder/cubin/byte_io.h"
#include "encoder/cubin/cubin_builder.h"
#include "encoder/cubin/cubin_model.h"

#include <gtest/gtest.h>

using namespace ptxmini::cubin;

namespace {

std::vector<uint8_t> bytes(std::initializer_list<int> l) {
  std::vector<uint8_t> v;
  for (int x : l)
    v.push_back(static_cast<uint8_t>(x));
  return v;
}

// ---- .nv.info records -------------------------------------------------------------------

// NVAL: format 1, the attribute, and a zero u16 (4 bytes, no payload).
TEST(Attributes, NValIsFourBytes) {
  Attribute a;
  a.format = Attribute::NVal;
  a.attr = 0x3e; // EXPLICIT_CLUSTER
  EXPECT_EQ(encodeAttributes({a}), bytes({0x01, 0x3e, 0x00, 0x00}));
}

// BVAL: the byte value and a pad byte after format and attribute.
TEST(Attributes, BValHoldsOneByteAndPad) {
  Attribute a;
  a.format = Attribute::BVal;
  a.attr = 0x4c; // NUM_BARRIERS
  a.value = 1;
  auto enc = encodeAttributes({a});
  EXPECT_EQ(enc, bytes({0x02, 0x4c, 0x01, 0x00}));
  std::vector<Attribute> back;
  std::string err;
  ASSERT_TRUE(decodeAttributes(enc, back, err)) << err;
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].value, 1);
}

// HVAL: a little-endian u16 (MERCURY_ISA_VERSION 1.1 is 0x0101).
TEST(Attributes, HValIsLittleEndianU16) {
  Attribute a;
  a.format = Attribute::HVal;
  a.attr = 0x5f;
  a.value = 0x0102;
  EXPECT_EQ(encodeAttributes({a}), bytes({0x03, 0x5f, 0x02, 0x01}));
}

// SVAL: u16 size then that many payload bytes; records follow each other directly.
TEST(Attributes, SValCarriesSizedPayload) {
  Attribute a;
  a.format = Attribute::SVal;
  a.attr = 0x1c; // EXIT_INSTR_OFFSETS
  put32(a.payload, 0x70);
  put32(a.payload, 0x120);
  Attribute b;
  b.format = Attribute::HVal;
  b.attr = 0x19;
  b.value = 0x18;
  auto enc = encodeAttributes({a, b});
  ASSERT_EQ(enc.size(), 4u + 8u + 4u);
  EXPECT_EQ(rd16(&enc[2]), 8);
  std::vector<Attribute> back;
  std::string err;
  ASSERT_TRUE(decodeAttributes(enc, back, err)) << err;
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].words(), 2u);
  EXPECT_EQ(back[0].u32(1), 0x120u);
  EXPECT_EQ(back[0].u32(2), 0u) << "out-of-range words read as 0, not past the payload";
  EXPECT_EQ(encodeAttributes(back), enc);
}

// A payload that claims more bytes than the section has, a cut header and an unknown
// format are errors, not reads past the end.
TEST(Attributes, MalformedRecordsAreErrors) {
  std::vector<Attribute> out;
  std::string err;
  EXPECT_FALSE(decodeAttributes(bytes({0x04, 0x17, 0x0c, 0x00, 0x00}), out, err));
  EXPECT_NE(err.find("runs past"), std::string::npos) << err;
  out.clear();
  EXPECT_FALSE(decodeAttributes(bytes({0x03, 0x1b}), out, err));
  EXPECT_NE(err.find("truncated"), std::string::npos) << err;
  out.clear();
  EXPECT_FALSE(decodeAttributes(bytes({0x07, 0x1b, 0x00, 0x00}), out, err));
  EXPECT_NE(err.find("unknown format"), std::string::npos) << err;
}

// Names come from the table; every code in the table maps back to itself; codes outside it
// still print (as hex) so a new ptxas attribute is visible, not dropped.
TEST(Attributes, NamesRoundTripThroughTheTable) {
  for (int code = 0; code <= 0x60; ++code) {
    std::string n = eiattrName(static_cast<uint8_t>(code));
    ASSERT_TRUE(n.starts_with("EIATTR_")) << n;
    EXPECT_EQ(eiattrCode(n.substr(7)), code) << n;
  }
  EXPECT_EQ(eiattrName(0x7a), "EIATTR_0x7a");
  EXPECT_EQ(eicompatName(0x01), "EICOMPAT_ATTR_0x1");
  EXPECT_TRUE(relocName(200).starts_with("R_CUDA_"));
}

// ---- notes ------------------------------------------------------------------------------

// An ELF note: namesz, descsz, type, then name and descriptor each padded to 4 bytes.
TEST(Notes, NameAndDescArePaddedToFour) {
  Note n;
  std::string owner = "NVIDIA Corp";
  n.name.assign(owner.begin(), owner.end());
  n.name.push_back(0); // 12 bytes: no padding
  n.type = 1000;
  n.desc = bytes({2, 0, 0x5a, 0, 0x82, 0, 0, 0, 9}); // 9 bytes: 3 bytes of padding
  auto enc = encodeNotes({n});
  ASSERT_EQ(enc.size(), 12u + 12u + 12u);
  EXPECT_EQ(rd32(&enc[0]), 12u);
  EXPECT_EQ(rd32(&enc[4]), 9u);
  EXPECT_EQ(rd32(&enc[8]), 1000u);
  std::vector<Note> back;
  std::string err;
  ASSERT_TRUE(decodeNotes(enc, back, err)) << err;
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].desc, n.desc);
  EXPECT_EQ(encodeNotes(back), enc);
  back.clear();
  enc.resize(20);
  EXPECT_FALSE(decodeNotes(enc, back, err)) << "a cut note is an error";
}

// ---- symbol, relocation, callgraph sections ---------------------------------------------

// Elf64_Sym is 24 bytes: name, info, other, shndx, value, size.
TEST(Sections, SymbolEntryLayout) {
  Section s;
  s.kind = SectionKind::Symbols;
  Symbol y;
  y.nameOffset = 0x11;
  y.info = 0x12;
  y.other = 0x10;
  y.shndx = 0xc;
  y.value = 0;
  y.size = 0x200;
  s.symbols = {Symbol{}, y};
  auto enc = encodeSection(s);
  ASSERT_EQ(enc.size(), 48u);
  EXPECT_EQ(rd32(&enc[24]), 0x11u);
  EXPECT_EQ(enc[28], 0x12);
  EXPECT_EQ(enc[29], 0x10);
  EXPECT_EQ(rd16(&enc[30]), 0xc);
  EXPECT_EQ(rd64(&enc[40]), 0x200u);
}

// Elf64_Rela: offset, info = sym << 32 | type, addend (24 bytes); SHT_REL drops the addend.
TEST(Sections, RelocationEntryLayout) {
  Section s;
  s.kind = SectionKind::Relocations;
  s.type = elf::kShtRela;
  s.relocations = {{0x44, 2, 8, -16}};
  auto enc = encodeSection(s);
  ASSERT_EQ(enc.size(), 24u);
  EXPECT_EQ(rd64(&enc[8]), (uint64_t(8) << 32) | 2);
  EXPECT_EQ(static_cast<int64_t>(rd64(&enc[16])), -16);
  s.type = elf::kShtRel;
  EXPECT_EQ(encodeSection(s).size(), 16u);
}

// .nv.callgraph: pairs of 32-bit {caller, callee}, negative markers included.
TEST(Sections, CallgraphPairs) {
  Section s;
  s.kind = SectionKind::Callgraph;
  s.edges = {{0, -1}, {17, 3}};
  auto enc = encodeSection(s);
  ASSERT_EQ(enc.size(), 16u);
  EXPECT_EQ(rd32(&enc[4]), 0xffffffffu);
  EXPECT_EQ(rd32(&enc[8]), 17u);
}

// NOBITS sections (and the CUDA types that behave like them) have a size but no bytes.
TEST(Sections, NoBitsHaveNoBytes) {
  Section s;
  s.kind = SectionKind::NoBits;
  s.size = 0x800;
  EXPECT_TRUE(encodeSection(s).empty());
}

// ---- the builder ------------------------------------------------------------------------

// Instruction words from cubin-format.md §10 (saxpy): "@P0 EXIT" and "EXIT".
void pushInsn(std::vector<uint8_t> &code, uint64_t lo, uint64_t hi) {
  put64(code, lo);
  put64(code, hi);
}
FunctionInfo kernel(std::string name, unsigned nInsn) {
  FunctionInfo f;
  f.name = std::move(name);
  for (unsigned i = 0; i + 1 < nInsn; ++i)
    pushInsn(f.code, 0x0000000000007918ull, 0x000fc00000000000ull); // NOP
  pushInsn(f.code, 0x000000000000794dull, 0x000fea0003800000ull);   // EXIT
  f.exitOffsets = {(nInsn - 1) * 16};
  f.params = {{0, 4, 0}, {8, 8, 0}};
  f.paramBytes = 16;
  f.regCount = 10;
  return f;
}
std::optional<Cubin> roundTrip(const ModuleInfo &m) {
  std::string err;
  auto c = buildCubin(m, err);
  EXPECT_TRUE(c) << err;
  if (!c)
    return std::nullopt;
  auto b = writeCubin(*c, err);
  EXPECT_TRUE(b) << err;
  if (!b)
    return std::nullopt;
  auto back = readCubin(*b, err);
  EXPECT_TRUE(back) << err;
  if (back) { // the builder's output reads back and writes back byte-identically
    auto again = writeCubin(*back, err);
    EXPECT_TRUE(again && *again == *b);
  }
  return back;
}

// The tail: one BRA-to-self, then NOPs to a 128-byte boundary at least 128 bytes past it.
TEST(Builder, TextTailRule) {
  for (unsigned n : {1u, 7u, 8u, 9u, 20u}) {
    std::vector<uint8_t> code(n * 16, 0x11);
    auto t = textWithTail(code);
    EXPECT_EQ(t.size() % 128, 0u);
    size_t nops = (t.size() - code.size()) / 16 - 1;
    EXPECT_GE(nops, 8u) << n;
    EXPECT_LE(nops, 15u) << n;
    auto cs = codeSizeOfText(t);
    ASSERT_TRUE(cs);
    EXPECT_EQ(*cs, code.size()) << "codeSizeOfText inverts textWithTail";
  }
}

// Two kernels: reverse definition order, GLOBAL FUNC symbols after the section symbols, the
// last local (constant bank symbols) after them so sh_info counts every symbol, parameters
// described in reverse ordinal order, PARAM_CBANK naming the kernel's constant bank.
TEST(Builder, ExecutableStructure) {
  ModuleInfo m;
  m.functions = {kernel("first", 3), kernel("second", 9)};
  m.functions[1].numBarriers = 1;
  m.functions[1].maxntid = std::array<uint32_t, 3>{256, 1, 1};
  auto c = roundTrip(m);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->type, elf::kEtExec);
  EXPECT_EQ((c->flags >> 8) & 0xff, 90u);
  EXPECT_TRUE(c->layoutCanonical);
  const Section *t1 = c->find(".text.first"), *t2 = c->find(".text.second");
  ASSERT_TRUE(t1 && t2);
  EXPECT_LT(t2 - c->sections.data(), t1 - c->sections.data()) << "processing order is reversed";
  EXPECT_EQ(t1->align, 128u);
  const Section *sym = c->symtab();
  ASSERT_TRUE(sym);
  EXPECT_EQ(sym->info, sym->symbols.size());
  const Section *k0 = c->find(".nv.constant0.first");
  ASSERT_TRUE(k0);
  EXPECT_EQ(k0->size, 0x210u + 16u);
  const Section *info = c->find(".nv.info.second");
  ASSERT_TRUE(info);
  std::vector<uint8_t> order;
  uint32_t firstOrdinal = 99, cbankSym = 0;
  bool barriers = false, maxThreads = false;
  for (const Attribute &a : info->attributes) {
    order.push_back(a.attr);
    if (a.attr == 0x17 && firstOrdinal == 99)
      firstOrdinal = a.u32(1) & 0xffff;
    if (a.attr == 0x0a) {
      cbankSym = a.u32(0);
      EXPECT_EQ(a.u32(1), 0x210u | 16u << 16);
    }
    barriers |= a.attr == 0x4c && a.value == 1;
    maxThreads |= a.attr == 0x05 && a.u32(0) == 256;
  }
  EXPECT_EQ(firstOrdinal, 1u) << "KPARAM_INFO comes last ordinal first";
  EXPECT_TRUE(barriers && maxThreads);
  ASSERT_LT(cbankSym, sym->symbols.size());
  EXPECT_EQ(c->sections[sym->symbols[cbankSym].shndx].name, ".nv.constant0.second");
  EXPECT_EQ(order.front(), 0x37);
  EXPECT_EQ(order.back(), 0x36);
  ASSERT_EQ(c->programHeaders.size(), 5u);
  EXPECT_EQ(c->programHeaders[2].flags, elf::kPfR | elf::kPfX);
  EXPECT_EQ(c->programHeaders[2].offset, t2->offset) << "code segment starts at the first text";
}

// -c: ET_REL, CUDA_CONSTANT_B0 type for the parameter bank, no program headers, the UDT/UFT
// weak symbols, three relocations per FDE.
TEST(Builder, RelocatableStructure) {
  ModuleInfo m;
  m.relocatable = true;
  m.functions = {kernel("k", 4)};
  auto c = roundTrip(m);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->type, elf::kEtRel);
  EXPECT_TRUE(c->programHeaders.empty());
  ASSERT_TRUE(c->find(".nv.constant0.k"));
  EXPECT_EQ(c->find(".nv.constant0.k")->type, elf::kShtCudaConstantB0);
  EXPECT_FALSE(c->find(".nv.shared.reserved.0"));
  bool udt = false;
  for (const Symbol &y : c->symtab()->symbols)
    udt |= y.name == "__UDT_END" && y.bind() == elf::kStbWeak;
  EXPECT_TRUE(udt);
  ASSERT_TRUE(c->find(".rela.debug_frame"));
  EXPECT_EQ(c->find(".rela.debug_frame")->relocations.size(), 3u);
}

// Shared memory: .nv.shared.<fn> is 1 KB of reserve plus the user bytes, NOBITS.
TEST(Builder, SharedMemorySection) {
  ModuleInfo m;
  m.functions = {kernel("k", 2)};
  m.functions[0].usesShared = true;
  m.functions[0].referencesShared = true;
  m.functions[0].sharedBytes = 1024;
  auto c = roundTrip(m);
  ASSERT_TRUE(c);
  const Section *sh = c->find(".nv.shared.k");
  ASSERT_TRUE(sh);
  EXPECT_EQ(sh->size, 0x400u + 1024u);
  EXPECT_EQ(sh->kind, SectionKind::NoBits);
  EXPECT_TRUE(c->find(".rela.text.k")) << "kernels referencing shared memory get a .rela.text";
}

// A parameter block larger than 0x1100 bytes is described with KPARAM_INFO_V2 records (the
// size a whole word), one at 0x1100 still with KPARAM_INFO (HW: ptxas 13.0, see the builder).
TEST(Builder, LargeParameterBlockUsesKParamInfoV2) {
  for (uint32_t bytes : {0x1100u, 0x1104u}) {
    ModuleInfo m;
    m.functions = {kernel("k", 2)};
    m.functions[0].params = {{0, bytes - 8, 0}, {bytes - 8, 8, 0}};
    m.functions[0].paramBytes = bytes;
    auto c = roundTrip(m);
    ASSERT_TRUE(c);
    const Section *info = c->find(".nv.info.k");
    ASSERT_TRUE(info);
    unsigned v1 = 0, v2 = 0;
    for (const Attribute &a : info->attributes) {
      if (a.attr == 0x17)
        ++v1;
      if (a.attr == 0x45) {
        ++v2;
        ASSERT_EQ(a.payload.size(), 12u);
        uint32_t ord = a.u32(1) & 0xffff;
        EXPECT_EQ(a.u32(2), ord == 0 ? bytes - 8 : 8u) << "V2: the size as a whole word";
      }
    }
    EXPECT_EQ(v1, bytes > 0x1100 ? 0u : 2u);
    EXPECT_EQ(v2, bytes > 0x1100 ? 2u : 0u);
  }
}

// Module data: initialised .global data in .nv.global.init, zeroed in .nv.global (NOBITS),
// .const in .nv.constant3; each variable a LOCAL OBJECT at its aligned offset; one 8-byte
// .nv.constant4 slot per address-taken variable, filled by an R_CUDA_64 against it; the
// data segments: a read-only LOAD over the constant banks, a RW LOAD whose file size is the
// initialised bytes only.
TEST(Builder, ModuleVariables) {
  ModuleInfo m;
  m.functions = {kernel("k", 2)};
  GlobalVar a{"a", GlobalVar::Space::Global, 6, 4, {1, 2, 3}, true, {}, {}, {}};
  GlobalVar b{"b", GlobalVar::Space::Global, 64, 8, {}, true, {}, {}, {}};
  GlobalVar c{"c", GlobalVar::Space::Const, 8, 4, {9, 9, 9, 9, 9, 9, 9, 9}, false, {}, {}, {}};
  GlobalVar d{"d", GlobalVar::Space::Global, 4, 4, {7}, false, {}, {}, {}};
  m.globals = {a, b, c, d};
  auto cu = roundTrip(m);
  ASSERT_TRUE(cu);
  const Section *init = cu->find(".nv.global.init"), *bss = cu->find(".nv.global"),
                *c3 = cu->find(".nv.constant3"), *c4 = cu->find(".nv.constant4");
  ASSERT_TRUE(init && bss && c3 && c4);
  EXPECT_EQ(init->size, 12u) << "a (6 bytes) then d at the next multiple of 4";
  EXPECT_EQ(init->data[8], 7);
  EXPECT_EQ(bss->kind, SectionKind::NoBits);
  EXPECT_EQ(bss->size, 64u);
  EXPECT_EQ(c3->data, c.init);
  EXPECT_EQ(c4->size, 16u) << "two address slots";
  const Section *rel = cu->find(".rela.nv.constant4");
  ASSERT_TRUE(rel);
  ASSERT_EQ(rel->relocations.size(), 2u);
  const auto &syms = cu->symtab()->symbols;
  for (const Relocation &r : rel->relocations) {
    ASSERT_LT(r.sym, syms.size());
    EXPECT_EQ(syms[r.sym].name, r.offset == 0 ? "a" : "b") << "slots in declaration order";
  }
  for (const Symbol &y : syms) {
    if (y.name == "d") {
      EXPECT_EQ(y.value, 8u);
    }
  }
  ASSERT_EQ(cu->programHeaders.size(), 6u);
  const ProgramHeader &rw = cu->programHeaders[4];
  EXPECT_EQ(rw.flags, elf::kPfR | elf::kPfW);
  EXPECT_EQ(rw.filesz, init->size);
  EXPECT_EQ(rw.memsz, init->size + bss->size);
}

// A whole-program callee: its own CIE (return-address rule) and FDE relocated against the
// caller at the callee's offset; the caller's FDE stops where the callee starts.
TEST(Builder, WholeProgramCallee) {
  ModuleInfo m;
  m.functions = {kernel("k", 4)};
  LocalFunction lf;
  lf.name = "$k$helper";
  lf.offset = 0x40;
  lf.size = 0x20;
  lf.raRegister = 4;
  m.functions[0].hasCalls = true;
  m.functions[0].code.resize(0x60, 0);
  m.functions[0].localFunctions = {lf};
  auto cu = roundTrip(m);
  ASSERT_TRUE(cu);
  const Section *rel = cu->find(".rela.debug_frame");
  ASSERT_TRUE(rel);
  bool calleeLoc = false;
  for (const Relocation &r : rel->relocations)
    calleeLoc |= r.addend == 0x40;
  EXPECT_TRUE(calleeLoc);
  const Section *df = cu->find(".debug_frame");
  ASSERT_TRUE(df);
  EXPECT_EQ(rd64(&df->data[0x30 + 0x1c]), 0x40u) << "kernel FDE range ends at the callee";
  bool weakOrLocal = false;
  for (const Symbol &y : cu->symtab()->symbols)
    weakOrLocal |= y.name == "$k$helper" && y.type() == elf::kSttFunc && y.value == 0x40;
  EXPECT_TRUE(weakOrLocal);
}

// Inconsistent descriptions are refused with a reason.
TEST(Builder, RejectsInconsistentFacts) {
  ModuleInfo m;
  m.functions = {kernel("k", 2)};
  m.functions[0].params.push_back({16, 8, 0}); // past paramBytes
  std::string err;
  EXPECT_FALSE(buildCubin(m, err));
  EXPECT_NE(err.find("outside the parameter block"), std::string::npos) << err;
  m.functions[0] = kernel("k", 2);
  m.functions[0].exitOffsets = {0x100};
  EXPECT_FALSE(buildCubin(m, err));
  // Relocatable output without any function is not modelled yet: refused, not guessed.
  m.functions.clear();
  m.relocatable = true;
  EXPECT_FALSE(buildCubin(m, err));
  EXPECT_NE(err.find("without functions"), std::string::npos) << err;
}

// Module variables without any function (ggml-cuda's lookup tables compiled on their own):
// the data sections and the address slots, no code, .nv.global after the reserved shared
// section, and a LOAD R over the constant banks besides the three headers of an empty module
// (HW: ptxas 13.0.88, byte-identical on the corpus files).
TEST(Builder, ModuleDataWithoutFunctions) {
  ModuleInfo m;
  GlobalVar init;
  init.name = "table";
  init.size = 8;
  init.align = 8;
  init.init = {1, 2, 3, 4, 5, 6, 7, 8};
  init.addressSlot = true;
  GlobalVar bss = init;
  bss.name = "counter";
  bss.size = 4;
  bss.align = 4;
  bss.init.clear();
  m.globals = {init, bss};
  std::string err;
  auto c = buildCubin(m, err);
  ASSERT_TRUE(c) << err;
  EXPECT_TRUE(c->find(".nv.global.init"));
  EXPECT_TRUE(c->find(".nv.constant4"));
  EXPECT_TRUE(c->find(".rela.nv.constant4"));
  EXPECT_FALSE(c->find(".rela.debug_frame"));
  const Section *bssSec = c->find(".nv.global"), *reserved = c->find(".nv.shared.reserved.0");
  ASSERT_TRUE(bssSec && reserved);
  EXPECT_GT(bssSec, reserved); // sections are stored in file order
  EXPECT_EQ(c->programHeaders.size(), 4u);
}

// A module with no function and no data is what ptxas writes for a PTX file of directives
// only: an executable with the reserved shared section and no .rela.debug_frame.
TEST(Builder, EmptyModuleIsAnExecutableWithModuleSectionsOnly) {
  ModuleInfo m;
  std::string err;
  auto c = buildCubin(m, err);
  ASSERT_TRUE(c) << err;
  EXPECT_TRUE(c->find(".nv.shared.reserved.0"));
  EXPECT_FALSE(c->find(".rela.debug_frame"));
  EXPECT_EQ(c->programHeaders.size(), 3u);
}

// ---- reader robustness ------------------------------------------------------------------

std::vector<uint8_t> sampleCubin() {
  ModuleInfo m;
  m.functions = {kernel("a", 3), kernel("b", 5)};
  m.functions[1].usesShared = true;
  m.functions[1].sharedBytes = 64;
  std::string err;
  auto c = buildCubin(m, err);
  return *writeCubin(*c, err);
}

// Every prefix of a valid cubin is rejected with a message (the tables sit at the end).
TEST(Reader, EveryTruncationIsAnError) {
  auto full = sampleCubin();
  for (size_t n = 0; n < full.size(); ++n) {
    std::string err;
    auto c = readCubin(std::span<const uint8_t>(full.data(), n), err);
    ASSERT_FALSE(c) << "prefix " << n << " read as a cubin";
    ASSERT_FALSE(err.empty());
  }
}

// Changing any single byte (three values each) gives an error or a model that writes back
// to exactly the corrupted input; either way no crash.
TEST(Reader, SingleByteCorruptionsNeverCrash) {
  auto full = sampleCubin();
  size_t accepted = 0, rejected = 0;
  for (size_t i = 0; i < full.size(); ++i) {
    for (uint8_t v : {uint8_t(0), uint8_t(0xff), uint8_t(full[i] ^ 0x80)}) {
      auto b = full;
      b[i] = v;
      std::string err;
      auto c = readCubin(b, err);
      if (!c) {
        ++rejected;
        continue;
      }
      ++accepted;
      auto w = writeCubin(*c, err);
      ASSERT_TRUE(w) << "byte " << i << ": " << err;
      ASSERT_EQ(*w, b) << "byte " << i << " value " << int(v);
    }
  }
  EXPECT_GT(accepted, 0u);
  EXPECT_GT(rejected, 0u);
}

} // namespace
