// CFG analyses: RPO, dominators, back-edges, natural loops and their depth, on nested loops,
// irreducible flow, unreachable blocks and self loops; dominators are cross-checked against
// the textbook definition on random CFGs.
#include "test_util.h"

#include "ori/analysis/dominators.h"
#include "ori/analysis/loops.h"
#include "ori/analysis/rpo.h"
#include "ori/cfg.h"
#include "ori/validate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace ptxmini::ori;
using namespace ptxmini::ori::test;

namespace {

struct Analysis {
  Function f;
  std::vector<uint32_t> rpo;
  std::vector<int32_t> pos;
  DomTree dt;
  LoopForest lf;
  explicit Analysis(Function fn)
      : f(std::move(fn)), rpo(computeRPO(f)), pos(rpoPositions(f, rpo)), dt(f, rpo),
        lf(computeLoops(f, rpo, dt)) {
    // Every test CFG must be valid Ori, or the test would be checking nonsense.
    std::vector<std::string> errs = validateFunction(f);
    EXPECT_TRUE(errs.empty()) << errs.front();
  }
  uint32_t b(const char *name) const { return blockIndex(f, name); }
  uint32_t depth(const char *name) const { return lf.depth[b(name)]; }
};

// for (i) { for (j) { } }  with the inner loop in the middle of the outer body.
const char *kNested = R"(func @nested {
entry:
  %r0 = MOV 0x0
outer:
  %r1 = MOV 0x0
inner:
  %r1 = IADD3 %r1, 0x1, RZ
  %p0 = ISETP.LT.AND %r1, 0x8, PT
  @%p0 BRA inner
outer_latch:
  %r0 = IADD3 %r0, 0x1, RZ
  %p1 = ISETP.LT.AND %r0, 0x8, PT
  @%p1 BRA outer
exit:
  EXIT
}
)";

TEST(OriCfgAnalysis, NestedLoopsGetIncreasingDepth) {
  // The inner header sits inside the outer loop, so it is one level deeper; blocks outside
  // both loops have depth 0; the outer header dominates the inner one.
  Analysis a(parseFunction(kNested));
  EXPECT_EQ(a.depth("entry"), 0u);
  EXPECT_EQ(a.depth("outer"), 1u);
  EXPECT_EQ(a.depth("inner"), a.depth("outer") + 1);
  EXPECT_EQ(a.depth("outer_latch"), a.depth("outer"));
  EXPECT_EQ(a.depth("exit"), 0u);
  ASSERT_EQ(a.lf.loops.size(), 2u);
  const Loop &outer = a.lf.loops[0], &inner = a.lf.loops[1];
  EXPECT_EQ(outer.header, a.b("outer"));
  EXPECT_EQ(inner.header, a.b("inner"));
  EXPECT_EQ(inner.parent, 0);
  EXPECT_EQ(outer.parent, -1);
  EXPECT_TRUE(std::includes(outer.blocks.begin(), outer.blocks.end(), inner.blocks.begin(),
                            inner.blocks.end()));
  EXPECT_TRUE(a.dt.dominates(a.b("outer"), a.b("inner")));
  EXPECT_FALSE(a.dt.dominates(a.b("inner"), a.b("outer")));
  // Both back-edges are edges to dominating headers.
  std::vector<std::pair<uint32_t, uint32_t>> want = {{a.b("inner"), a.b("inner")},
                                                     {a.b("outer_latch"), a.b("outer")}};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(a.lf.backEdges, want);
  EXPECT_TRUE(a.lf.irreducibleEdges.empty());
}

TEST(OriCfgAnalysis, RpoVisitsEntryFirstAndDominatorsBeforeDominated) {
  // RPO starts at the entry; every reachable block's immediate dominator precedes it, and
  // every edge that goes backwards in RPO is a back-edge here (reducible CFG).
  Analysis a(parseFunction(kNested));
  ASSERT_EQ(a.rpo.size(), a.f.blocks.size());
  EXPECT_EQ(a.rpo[0], 0u);
  for (uint32_t b : a.rpo) {
    if (b != 0) {
      EXPECT_LT(a.pos[a.dt.idom(b)], a.pos[b]);
    }
  }
  for (uint32_t u = 0; u < a.f.blocks.size(); ++u) {
    for (uint32_t v : a.f.blocks[u].succs) {
      if (a.pos[v] <= a.pos[u]) {
        EXPECT_TRUE(std::binary_search(a.lf.backEdges.begin(), a.lf.backEdges.end(),
                                       std::make_pair(u, v)));
      }
    }
  }
}

TEST(OriCfgAnalysis, IrreducibleCycleFormsNoLoop) {
  // Two entries (left, right) into the cycle left <-> right: neither dominates the other, so
  // the retreating edge is irreducible, no natural loop exists and the depth stays 0.
  Analysis a(parseFunction(R"(func @irr {
entry:
  %p0 = ISETP.EQ.AND RZ, RZ, PT
  @%p0 BRA right
left:
  @%p0 BRA done
right:
  @%p0 BRA left
done:
  EXIT
}
)"));
  EXPECT_TRUE(a.lf.loops.empty());
  EXPECT_TRUE(a.lf.backEdges.empty());
  ASSERT_EQ(a.lf.irreducibleEdges.size(), 1u);
  auto [src, dst] = a.lf.irreducibleEdges[0];
  EXPECT_TRUE((src == a.b("left") && dst == a.b("right")) || (src == a.b("right") && dst == a.b("left")));
  EXPECT_EQ(a.depth("left"), 0u);
  EXPECT_EQ(a.depth("right"), 0u);
  // Both halves are entered from entry directly, so entry is their immediate dominator.
  EXPECT_EQ(a.dt.idom(a.b("left")), static_cast<int32_t>(a.b("entry")));
  EXPECT_EQ(a.dt.idom(a.b("right")), static_cast<int32_t>(a.b("entry")));
}

TEST(OriCfgAnalysis, IrreducibleCycleInsideANaturalLoopKeepsTheOuterDepth) {
  // The outer loop is natural; the irreducible pair inside it gets the outer depth only.
  Analysis a(parseFunction(R"(func @irr2 {
entry:
  %p0 = ISETP.EQ.AND RZ, RZ, PT
head:
  @%p0 BRA b
a:
  @%p0 BRA latch
b:
  @%p0 BRA a
latch:
  @%p0 BRA head
done:
  EXIT
}
)"));
  ASSERT_EQ(a.lf.loops.size(), 1u);
  EXPECT_EQ(a.lf.loops[0].header, a.b("head"));
  EXPECT_EQ(a.depth("a"), 1u);
  EXPECT_EQ(a.depth("b"), 1u);
  EXPECT_EQ(a.lf.irreducibleEdges.size(), 1u);
}

TEST(OriCfgAnalysis, UnreachableBlocksAreLeftOut) {
  // `dead` follows an EXIT and nobody branches to it; it jumps into the loop, but as it is
  // unreachable it must not be counted in the loop body, the RPO, or the dominator tree.
  Analysis a(parseFunction(R"(func @unreach {
entry:
  %p0 = ISETP.EQ.AND RZ, RZ, PT
loop:
  @%p0 BRA loop
out:
  EXIT
dead:
  BRA loop
}
)"));
  uint32_t dead = a.b("dead");
  EXPECT_EQ(a.pos[dead], -1);
  EXPECT_EQ(std::count(a.rpo.begin(), a.rpo.end(), dead), 0);
  EXPECT_EQ(a.dt.idom(dead), kNoBlock);
  EXPECT_FALSE(a.dt.isReachable(dead));
  EXPECT_FALSE(a.dt.dominates(dead, a.b("loop")));
  EXPECT_EQ(a.depth("dead"), 0u);
  ASSERT_EQ(a.lf.loops.size(), 1u);
  EXPECT_EQ(a.lf.loops[0].blocks, std::vector<uint32_t>{a.b("loop")});
  // The dead edge into the loop does not disturb the loop header's dominator.
  EXPECT_EQ(a.dt.idom(a.b("loop")), static_cast<int32_t>(a.b("entry")));
}

TEST(OriCfgAnalysis, SelfLoopIsALoopOfOneBlock) {
  // A block branching to itself is its own header and latch.
  Analysis a(parseFunction(R"(func @self {
entry:
  %p0 = ISETP.EQ.AND RZ, RZ, PT
spin:
  @%p0 BRA spin
done:
  EXIT
}
)"));
  ASSERT_EQ(a.lf.loops.size(), 1u);
  EXPECT_EQ(a.lf.loops[0].header, a.b("spin"));
  EXPECT_EQ(a.lf.loops[0].latches, (llvm::SmallVector<uint32_t, 2>{a.b("spin")}));
  EXPECT_EQ(a.depth("spin"), 1u);
  EXPECT_EQ(a.depth("done"), 0u);
}

TEST(OriCfgAnalysis, TwoBackEdgesToOneHeaderMakeOneLoop) {
  // A `continue` gives the header a second latch; that is still one loop, not two nested.
  Analysis a(parseFunction(R"(func @cont {
entry:
  %p0 = ISETP.EQ.AND RZ, RZ, PT
head:
  @%p0 BRA head2
cont:
  @%p0 BRA head
head2:
  @%p0 BRA head
done:
  EXIT
}
)"));
  ASSERT_EQ(a.lf.loops.size(), 1u);
  EXPECT_EQ(a.lf.loops[0].latches.size(), 2u);
  EXPECT_EQ(a.depth("cont"), 1u);
  EXPECT_EQ(a.depth("head2"), 1u);
}

// Brute force: a dominates b iff b is unreachable from the entry once a is removed.
bool bruteDominates(const Function &f, uint32_t a, uint32_t b) {
  if (a == 0)
    return true;
  std::vector<bool> seen(f.blocks.size(), false);
  std::vector<uint32_t> work{0};
  seen[0] = true;
  while (!work.empty()) {
    uint32_t x = work.back();
    work.pop_back();
    if (x == b)
      return false;
    for (uint32_t s : f.blocks[x].succs)
      if (s != a && !seen[s]) {
        seen[s] = true;
        work.push_back(s);
      }
  }
  return true;
}

TEST(OriCfgAnalysis, DominatorsMatchTheDefinitionOnRandomCfgs) {
  // Cooper-Harvey-Kennedy must agree with the definition of dominance everywhere, and every
  // natural loop's header must dominate all of its blocks.
  std::mt19937 rng(7);
  for (int iter = 0; iter < 300; ++iter) {
    Function f;
    f.name = "rand";
    unsigned n = 2 + rng() % 10;
    f.blocks.resize(n);
    for (unsigned i = 0; i < n; ++i) {
      f.blocks[i].name = "b" + std::to_string(i);
      Instr br(Opcode::BRA);
      br.addUse(Operand::block(rng() % n));
      if (rng() % 2)
        br.guard = Operand::fixed(RegClass::P), br.guard.mods = OM_NOT; // conditional
      if (i + 1 == n && br.isGuarded())
        br.guard = Operand{};
      f.blocks[i].instrs.push_back(br);
    }
    buildCFG(f);
    Analysis a(std::move(f));
    for (uint32_t x = 0; x < n; ++x) {
      if (!a.dt.isReachable(x))
        continue;
      for (uint32_t y = 0; y < n; ++y) {
        if (a.dt.isReachable(y)) {
          ASSERT_EQ(a.dt.dominates(x, y), bruteDominates(a.f, x, y)) << "iter " << iter << " " << x << " dom " << y;
        }
      }
    }
    for (const Loop &l : a.lf.loops)
      for (uint32_t blk : l.blocks)
        ASSERT_TRUE(a.dt.dominates(l.header, blk));
  }
}

} // namespace
