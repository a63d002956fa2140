//===- tests/unit/frontend/frontend_ast_test.cpp - PTX text -> typed AST ---------------===//
//
// What the AST must hold for lowering (issue 6) to consume it: structured modifiers,
// operand variants, register ranges, params, flattened initializers, directives.
//===----------------------------------------------------------------------------------===//
#include "test_util.h"

using namespace ptxmini;
using namespace ptxmini::ptx;
using ptxmini::testing::kernel;
using ptxmini::testing::parse;

namespace {

const Instruction &nthInstr(const Function &f, size_t n) {
  for (const Statement &s : f.body.statements)
    if (s.is<Instruction>() && n-- == 0)
      return s.as<Instruction>();
  throw std::runtime_error("no such instruction");
}

} // namespace

// The module header and a function's signature are decoded into fields, not strings.
TEST(FrontendAst, ModuleHeaderAndSignature) {
  auto r = parse(".version 8.3\n.target sm_90\n.address_size 64\n"
                 ".visible .entry k(.param .u64 .ptr .global .align 16 k_p0, .param .u32 n)\n"
                 ".maxntid 128, 1, 1\n.minnctapersm 2\n{\n ret;\n}\n"
                 ".visible .func (.param .b32 r) f(.param .align 8 .b8 s[16])\n{\n ret;\n}\n");
  ASSERT_TRUE(r.module) << r.diags;
  const Module &m = *r.module;
  EXPECT_EQ(m.version(), 83u);
  ASSERT_TRUE(m.target.has_value());
  EXPECT_EQ(m.target->name(), "sm_90");
  EXPECT_EQ(m.addressSize, 64u);
  ASSERT_EQ(m.functions.size(), 2u);
  const Function &k = m.functions[0];
  EXPECT_TRUE(k.isEntry);
  EXPECT_EQ(k.linkage, Linkage::Visible);
  ASSERT_EQ(k.params.size(), 2u);
  EXPECT_EQ(k.params[0].type, ScalarType::U64);
  EXPECT_TRUE(k.params[0].isPtr);
  EXPECT_EQ(k.params[0].ptrSpace, StateSpace::Global);
  EXPECT_EQ(k.params[0].ptrAlign, 16u);
  ASSERT_NE(k.attr("maxntid"), nullptr);
  EXPECT_EQ(k.attr("maxntid")->values, (std::vector<uint64_t>{128, 1, 1}));
  EXPECT_EQ(k.attr("minnctapersm")->values, (std::vector<uint64_t>{2}));
  const Function &f = m.functions[1];
  EXPECT_FALSE(f.isEntry);
  ASSERT_EQ(f.returns.size(), 1u);
  EXPECT_EQ(f.returns[0].name, "r");
  ASSERT_EQ(f.params.size(), 1u);
  EXPECT_EQ(f.params[0].align, 8u);
  EXPECT_EQ(f.params[0].dims, (std::vector<uint64_t>{16}));
  EXPECT_EQ(f.params[0].sizeInBytes(), 16u);
}

// An instruction is its family opcode plus typed modifiers; operands are variants.
TEST(FrontendAst, InstructionModifiersAndOperands) {
  auto r = parse(kernel("  @!%p1 ld.global.nc.v2.f32 {%f1, %f2}, [%rd1+8];\n"
                        "  cvt.rn.f32.s32 %f3, %r1;\n"
                        "  setp.lt.s32 %p2, %r2, -5;\n"
                        "  mov.b32 %f4, 0f3F800000;\n"
                        "  cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                        " [%r1], [%rd2, {%r2, %r3}], [%r4];\n"));
  ASSERT_TRUE(r.module) << r.diags;
  const Function &k = r.module->functions[0];
  const Instruction &ld = nthInstr(k, 0);
  EXPECT_EQ(ld.opcode, "ld");
  EXPECT_EQ(ld.space(), StateSpace::Global);
  EXPECT_EQ(ld.vectorWidth(), 2u);
  EXPECT_EQ(ld.type(), ScalarType::F32);
  EXPECT_TRUE(ld.has("nc"));
  EXPECT_EQ(ld.fullOpcode(), "ld.global.nc.v2.f32");
  ASSERT_TRUE(ld.guard.has_value());
  EXPECT_EQ(ld.guard->predicate, "%p1");
  EXPECT_TRUE(ld.guard->negated);
  ASSERT_EQ(ld.operands.size(), 2u);
  ASSERT_TRUE(ld.operands[0].is<VectorOperand>());
  EXPECT_EQ(ld.operands[0].as<VectorOperand>().elems.size(), 2u);
  ASSERT_TRUE(ld.operands[1].is<AddressOperand>());
  const AddressOperand &a = ld.operands[1].as<AddressOperand>();
  EXPECT_EQ(a.baseKind, AddressOperand::BaseKind::Register);
  EXPECT_EQ(a.base, "%rd1");
  EXPECT_EQ(a.offset, 8);

  const Instruction &cvt = nthInstr(k, 1);
  EXPECT_EQ(cvt.types(), (std::vector<ScalarType>{ScalarType::F32, ScalarType::S32}));
  EXPECT_TRUE(cvt.has("rn"));

  const Instruction &setp = nthInstr(k, 2);
  ASSERT_TRUE(setp.operands[2].is<ImmOperand>());
  EXPECT_EQ(setp.operands[2].as<ImmOperand>().value, -5);

  const Instruction &mov = nthInstr(k, 3);
  ASSERT_TRUE(mov.operands[1].is<FloatOperand>());
  EXPECT_EQ(mov.operands[1].as<FloatOperand>().bits, 0x3F800000u);
  EXPECT_FLOAT_EQ(static_cast<float>(mov.operands[1].as<FloatOperand>().value), 1.0f);

  // The longest table row wins: cp.async.bulk.tensor, not cp.async.
  const Instruction &tma = nthInstr(k, 4);
  EXPECT_EQ(tma.opcode, "cp.async.bulk.tensor");
  EXPECT_EQ(tma.space(), StateSpace::SharedCluster);
  EXPECT_TRUE(tma.has("mbarrier::complete_tx::bytes"));
  ASSERT_TRUE(tma.operands[1].is<AddressOperand>());
  EXPECT_EQ(tma.operands[1].as<AddressOperand>().extra.size(), 1u);
}

// Names resolve to what they denote: registers stay registers, a variable or label used as
// an operand becomes a SymbolOperand of that kind.
TEST(FrontendAst, OperandResolution) {
  auto r = parse(".version 8.0\n.target sm_90\n.address_size 64\n"
                 ".global .align 4 .u32 g[4] = {1, 2, 3, 4};\n"
                 ".entry k()\n{\n .reg .b64 %rd<2>;\n .reg .b32 r;\n"
                 " mov.u64 %rd1, g;\n ld.global.u32 r, [g+4];\n bra $L;\n$L:\n ret;\n}\n");
  ASSERT_TRUE(r.module) << r.diags;
  const Function &k = r.module->functions[0];
  const Instruction &mov = nthInstr(k, 0);
  ASSERT_TRUE(mov.operands[1].is<SymbolOperand>());
  EXPECT_EQ(mov.operands[1].as<SymbolOperand>().kind, SymbolOperand::Kind::Variable);
  const Instruction &ld = nthInstr(k, 1);
  ASSERT_TRUE(ld.operands[0].is<RegOperand>()) << "a register named without % is a register";
  const AddressOperand &a = ld.operands[1].as<AddressOperand>();
  EXPECT_EQ(a.baseKind, AddressOperand::BaseKind::Symbol);
  EXPECT_EQ(a.offset, 4);
  const Instruction &bra = nthInstr(k, 2);
  EXPECT_EQ(bra.operands[0].as<SymbolOperand>().kind, SymbolOperand::Kind::Label);
  // initializer flattened in order
  const VarDecl &g = r.module->globals[0];
  ASSERT_EQ(g.init.size(), 4u);
  EXPECT_EQ(g.init[3].intValue, 4);
  EXPECT_EQ(g.sizeInBytes(), 16u);
}

// `%r<100>` stays one declaration; %r99 resolves, %r100 does not.
TEST(FrontendAst, RegisterRanges) {
  auto ok = parse(kernel(" .reg .b32 %q<100>;\n mov.b32 %q99, 1;"));
  ASSERT_TRUE(ok.module) << ok.diags;
  size_t decls = 0;
  for (const Statement &s : ok.module->functions[0].body.statements)
    if (s.is<VarDecl>() && s.as<VarDecl>().name == "%q") {
      ++decls;
      EXPECT_EQ(s.as<VarDecl>().rangeCount, 100u);
    }
  EXPECT_EQ(decls, 1u);
  auto bad = parse(kernel(" .reg .b32 %q<100>;\n mov.b32 %q100, 1;"));
  EXPECT_FALSE(bad.module);
  EXPECT_NE(bad.diags.find("Unknown symbol '%q100'"), std::string::npos) << bad.diags;
}

// Directives in a body and nested scopes survive as statements.
TEST(FrontendAst, DirectivesAndScopes) {
  auto r = parse(".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"a.cu\"\n"
                 ".func f(.param .b32 x)\n{\n ret;\n}\n"
                 ".entry k()\n{\n .loc 1 7 3\n .pragma \"nounroll\";\n"
                 " { .reg .b32 t; mov.b32 t, 1; }\n"
                 " proto: .callprototype _ (.param .b32 _);\n ret;\n}\n");
  ASSERT_TRUE(r.module) << r.diags;
  ASSERT_EQ(r.module->files.size(), 1u);
  EXPECT_EQ(r.module->files[0].path, "a.cu");
  const Block &b = r.module->functions[1].body;
  int locs = 0, pragmas = 0, blocks = 0, protos = 0;
  for (const Statement &s : b.statements) {
    if (s.is<Block>())
      ++blocks;
    if (!s.is<Directive>())
      continue;
    const Directive &d = s.as<Directive>();
    if (d.kind == Directive::Kind::Loc) {
      ++locs;
      EXPECT_EQ(d.locLine, 7u);
    }
    if (d.kind == Directive::Kind::Pragma) {
      ++pragmas;
      EXPECT_EQ(d.args, (std::vector<std::string>{"nounroll"}));
    }
    if (d.kind == Directive::Kind::CallPrototype) {
      ++protos;
      EXPECT_EQ(d.label, "proto");
      EXPECT_EQ(d.protoParams.size(), 1u);
    }
  }
  EXPECT_EQ(locs, 1);
  EXPECT_EQ(pragmas, 1);
  EXPECT_EQ(blocks, 1);
  EXPECT_EQ(protos, 1);
}

// Chunked parsing must not change what is parsed: a module far larger than one chunk
// (64 KiB) with an initializer table parses into the same number of functions and keeps
// line numbers right in late chunks.
TEST(FrontendAst, LargeModuleAcrossChunks) {
  std::string text = ".version 8.0\n.target sm_90\n.address_size 64\n";
  text += ".global .align 1 .b8 tab[20000] = {";
  for (int i = 0; i < 20000; ++i)
    text += (i ? ", " : "") + std::to_string(i % 256);
  text += "};\n";
  unsigned line = 5;
  for (int f = 0; f < 400; ++f) {
    text += ".func f" + std::to_string(f) + "()\n{\n .reg .b32 %r<3>;\n add.s32 %r1, %r2, " +
            std::to_string(f) + ";\n ret;\n}\n";
    line += 6;
  }
  // an error on the last line of the last function
  text += ".entry k()\n{\n bogus.op;\n}\n";
  auto r = parse(text);
  EXPECT_FALSE(r.module);
  EXPECT_NE(r.diags.find("t.ptx, line " + std::to_string(line + 2) +
                         "; error   : Not a name of any known instruction: 'bogus'"),
            std::string::npos)
      << r.diags;
  text.resize(text.rfind(".entry"));
  auto ok = parse(text);
  ASSERT_TRUE(ok.module) << ok.diags;
  EXPECT_EQ(ok.module->functions.size(), 400u);
  EXPECT_EQ(ok.module->globals[0].init.size(), 20000u);
  EXPECT_EQ(ok.module->globals[0].init[19999].intValue, 19999 % 256);
}
