// Phase 3 AnalyzeControlFlow must store RPO, dominators, back-edges, loops and depths in the
// Function and its Blocks, consistently with the standalone analyses.
#include "ori/analysis/dominators.h"
#include "ori/analysis/rpo.h"
#include "ori/parse.h"
#include "ori/print.h"
#include "phases/phase_manager.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace ptxmini;

namespace {

ori::Function parse(const char *text) {
  DiagEngine diag("t");
  std::ostringstream errs;
  diag.setStream(errs);
  ori::Program p;
  EXPECT_TRUE(ori::parseProgram(text, "t.ori", diag, p)) << errs.str();
  return p.functions.empty() ? ori::Function{} : std::move(p.functions[0]);
}

void runAcf(ori::Function &f) {
  Knobs k;
  PhaseContext ctx{k, 3, nullptr, &Target::sm90()};
  runAnalyzeControlFlow(f, ctx);
}

const char *kTriple = R"(func @triple {
entry:
  %p0 = ISETP.EQ.AND RZ, RZ, PT
l1:
  @%p0 BRA after
l2:
  @%p0 BRA l2_latch
l3:
  @%p0 BRA l3
l2_latch:
  @%p0 BRA l2
l1_latch:
  @%p0 BRA l1
after:
  EXIT
dead:
  BRA l3
}
)";

TEST(AnalyzeControlFlow, TripleNestFillsBlockAndFunctionFields) {
  // l1 contains l2 contains the self loop l3: depths 1, 2, 3; each header flagged; the
  // unreachable `dead` (branching into l3) gets no RPO index, no dominator and depth 0.
  ori::Function f = parse(kTriple);
  runAcf(f);
  ASSERT_TRUE(f.cfgAnalyzed);
  auto blk = [&](const char *n) -> const ori::Block & { return f.blocks[f.findBlock(n)]; };
  EXPECT_EQ(blk("entry").loopDepth, 0u);
  EXPECT_EQ(blk("l1").loopDepth, 1u);
  EXPECT_EQ(blk("l2").loopDepth, blk("l1").loopDepth + 1);
  EXPECT_EQ(blk("l3").loopDepth, blk("l2").loopDepth + 1);
  EXPECT_EQ(blk("l2_latch").loopDepth, blk("l2").loopDepth);
  EXPECT_EQ(blk("l1_latch").loopDepth, blk("l1").loopDepth);
  EXPECT_EQ(blk("after").loopDepth, 0u);
  for (const char *h : {"l1", "l2", "l3"})
    EXPECT_TRUE(blk(h).isLoopHeader) << h;
  for (const char *nh : {"entry", "l2_latch", "l1_latch", "after", "dead"})
    EXPECT_FALSE(blk(nh).isLoopHeader) << nh;
  EXPECT_EQ(blk("dead").rpoIndex, -1);
  EXPECT_EQ(blk("dead").idom, ori::kNoBlock);
  EXPECT_EQ(blk("dead").loopDepth, 0u);
  EXPECT_EQ(f.backEdges.size(), 3u);
  EXPECT_EQ(f.loops.size(), 3u);
  // The innermost loop of l3 is the one headed by l3, whose parent is headed by l2.
  const ori::Loop &inner = f.loops[blk("l3").loop];
  EXPECT_EQ(inner.header, static_cast<uint32_t>(f.findBlock("l3")));
  ASSERT_GE(inner.parent, 0);
  EXPECT_EQ(f.loops[inner.parent].header, static_cast<uint32_t>(f.findBlock("l2")));
}

TEST(AnalyzeControlFlow, AgreesWithTheStandaloneAnalyses) {
  // The stored RPO array and idoms are exactly what the analyses compute.
  ori::Function f = parse(kTriple);
  runAcf(f);
  std::vector<uint32_t> rpo = ori::computeRPO(f);
  EXPECT_EQ(f.rpo, rpo);
  ori::DomTree dt(f, rpo);
  for (uint32_t b = 0; b < f.blocks.size(); ++b)
    EXPECT_EQ(f.blocks[b].idom, dt.idom(b));
  for (size_t i = 0; i < f.rpo.size(); ++i)
    EXPECT_EQ(f.blocks[f.rpo[i]].rpoIndex, static_cast<int32_t>(i));
}

TEST(AnalyzeControlFlow, RerunAfterCfgEditRefreshesFacts) {
  // Turning the l3 self loop into straight-line code and re-running must drop that loop:
  // stale headers or depths would mislead every later loop pass.
  ori::Function f = parse(kTriple);
  runAcf(f);
  uint32_t l3 = f.findBlock("l3");
  f.blocks[l3].instrs.clear();
  f.blocks[l3].instrs.emplace_back(ori::Opcode::NOP);
  runAcf(f);
  EXPECT_FALSE(f.blocks[l3].isLoopHeader);
  EXPECT_EQ(f.blocks[l3].loopDepth, f.blocks[f.findBlock("l2")].loopDepth);
  EXPECT_EQ(f.loops.size(), 2u);
}

TEST(AnalyzeControlFlow, DumpShowsTheAnalysisAndStillParses) {
  // The printed facts are comments: the dump must parse back to the same instructions.
  ori::Function f = parse(kTriple);
  runAcf(f);
  std::string dumped = ori::toString(f);
  EXPECT_NE(dumped.find("; backedges:"), std::string::npos);
  EXPECT_NE(dumped.find("unreachable"), std::string::npos);
  ori::Function g = parse(dumped.c_str());
  EXPECT_FALSE(g.cfgAnalyzed);
  ori::Function plain = parse(kTriple);
  EXPECT_EQ(ori::toString(g), ori::toString(plain));
}

} // namespace
