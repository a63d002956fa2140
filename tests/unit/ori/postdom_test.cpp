// Post-dominators (ori/analysis/postdominators.h): the immediate post-dominator of the arms of
// an if is the join, a loop's exit post-dominates its body, blocks left out (blocks that only
// exit) turn their predecessors into sinks, and the tree agrees with the definition of
// post-dominance on random CFGs with several exits and infinite loops.
#include "test_util.h"

#include "ori/analysis/postdominators.h"
#include "ori/cfg.h"

#include <gtest/gtest.h>

#include <random>

using namespace ptxmini::ori;
using namespace ptxmini::ori::test;

namespace {

const char *kIfLoop = R"(func @f {
entry:
  %r0 = S2R SR_TID.X
  %p0 = ISETP.GE.AND %r0, 0x8, PT
  @%p0 BRA join
then:
  %r0 = IADD3 %r0, 0x1, RZ
join:
  %p1 = ISETP.EQ.AND %r0, 0x3, PT
  @%p1 BRA out
head:
  %r0 = IADD3 %r0, 0x1, RZ
  %p2 = ISETP.LT.AND %r0, 0x10, PT
  @%p2 BRA head
tail:
  %r0 = IADD3 %r0, 0x2, RZ
out:
  EXIT
}
)";

TEST(OriPostDominators, JoinsOfIfsAndLoops) {
  Function f = parseFunction(kIfLoop);
  buildCFG(f);
  PostDomTree pdt(f);
  auto b = [&](const char *n) { return static_cast<int32_t>(blockIndex(f, n)); };
  EXPECT_EQ(pdt.ipdom(b("entry")), b("join"));
  EXPECT_EQ(pdt.ipdom(b("then")), b("join"));
  EXPECT_EQ(pdt.ipdom(b("join")), b("out"));
  EXPECT_EQ(pdt.ipdom(b("head")), b("tail"));
  EXPECT_EQ(pdt.ipdom(b("out")), kNoBlock); // the virtual exit
  EXPECT_TRUE(pdt.postDominates(b("out"), b("entry")));
  EXPECT_FALSE(pdt.postDominates(b("tail"), b("join")));
}

TEST(OriPostDominators, IgnoredExitBlocksMakeSinks) {
  // Without `out`, `join`'s branch has one side left: join's successor head is its ipdom,
  // and tail (whose only successor is out) becomes a sink.
  Function f = parseFunction(kIfLoop);
  buildCFG(f);
  std::vector<bool> ignored(f.blocks.size(), false);
  ignored[blockIndex(f, "out")] = true;
  PostDomTree pdt(f, ignored);
  auto b = [&](const char *n) { return static_cast<int32_t>(blockIndex(f, n)); };
  EXPECT_EQ(pdt.ipdom(b("join")), b("head"));
  EXPECT_EQ(pdt.ipdom(b("tail")), kNoBlock);
  EXPECT_TRUE(pdt.hasInfo(b("tail")));
  EXPECT_FALSE(pdt.hasInfo(b("out")));
}

// a post-dominates b iff b reaches a sink and cannot reach one once a is removed.
bool brutePostDominates(const Function &f, uint32_t a, uint32_t b) {
  auto reachesSink = [&](uint32_t from, int32_t removed) {
    std::vector<bool> seen(f.blocks.size(), false);
    std::vector<uint32_t> work{from};
    seen[from] = true;
    while (!work.empty()) {
      uint32_t x = work.back();
      work.pop_back();
      if (f.blocks[x].succs.empty())
        return true;
      for (uint32_t s : f.blocks[x].succs)
        if (static_cast<int32_t>(s) != removed && !seen[s]) {
          seen[s] = true;
          work.push_back(s);
        }
    }
    return false;
  };
  if (!reachesSink(b, -1))
    return false;
  return a == b || !reachesSink(b, static_cast<int32_t>(a));
}

TEST(OriPostDominators, MatchTheDefinitionOnRandomCfgs) {
  std::mt19937 rng(11);
  for (int iter = 0; iter < 300; ++iter) {
    Function f;
    f.name = "rand";
    unsigned n = 2 + rng() % 10;
    f.blocks.resize(n);
    for (unsigned i = 0; i < n; ++i) {
      f.blocks[i].name = "b" + std::to_string(i);
      if (rng() % 4 == 0) {
        f.blocks[i].instrs.push_back(Instr(Opcode::EXIT));
        continue;
      }
      Instr br(Opcode::BRA);
      br.addUse(Operand::block(rng() % n));
      if (rng() % 2 && i + 1 < n)
        br.guard = Operand::fixed(RegClass::P), br.guard.mods = OM_NOT; // conditional
      f.blocks[i].instrs.push_back(br);
    }
    buildCFG(f);
    PostDomTree pdt(f);
    for (uint32_t x = 0; x < n; ++x)
      for (uint32_t y = 0; y < n; ++y)
        ASSERT_EQ(pdt.postDominates(x, y), brutePostDominates(f, x, y))
            << "iter " << iter << ": " << x << " pdom " << y;
  }
}

} // namespace
