// Phase 96 InsertReconvergence on random CFGs (loops, multiple exits, irreducible flow,
// divergent and uniform branches, warp-synchronous markers): the result is valid Ori with a
// consistent CFG; every barrier has one BSSY and one BSYNC; the BSSY's block dominates the
// BSYNC's, every path from the BSSY reaches the BSYNC unless it ends in a block that only
// exits, and BSSY names the block right after its BSYNC; no full-mask marker is left.
#include "ori/analysis/dominators.h"
#include "ori/analysis/postdominators.h"
#include "ori/analysis/rpo.h"
#include "ori/cfg.h"
#include "ori/parse.h"
#include "ori/print.h"
#include "ori/validate.h"
#include "phases/phase_manager.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <sstream>

using namespace ptxmini;

namespace {

ori::Function parse(const std::string &text) {
  DiagEngine diag("t");
  std::ostringstream errs;
  diag.setStream(errs);
  ori::Program p;
  EXPECT_TRUE(ori::parseProgram(text, "t.ori", diag, p)) << errs.str() << text;
  return p.functions.empty() ? ori::Function{} : std::move(p.functions[0]);
}

std::string randomFunction(std::mt19937 &rng) {
  unsigned n = 3 + rng() % 10;
  std::ostringstream os;
  os << "func @r {\nb0:\n  %r0 = S2R SR_TID.X\n  %r1 = LDC c[0x0][0x210]\n";
  for (unsigned i = 0; i < n; ++i) {
    if (i)
      os << "b" << i << ":\n";
    os << "  %r0 = IADD3 %r0, 0x1, RZ\n";
    if (rng() % 6 == 0)
      os << "  WARPSYNC 0xffffffff\n  %p9, %r2 = SHFL.BFLY %r0, 0x1, 0x1f\n";
    unsigned kind = rng() % 6;
    if (i + 1 == n || kind == 0) {
      os << "  EXIT\n";
    } else if (kind <= 2) {
      // divergent (thread id) or uniform (constant bank) condition
      os << "  %p" << i % 8 << " = ISETP.LT.AND " << (kind == 1 ? "%r0" : "%r1") << ", 0x"
         << std::hex << rng() % 64 << std::dec << ", PT\n";
      os << "  @%p" << i % 8 << " BRA b" << rng() % n << "\n";
    } else if (kind == 3) {
      os << "  BRA b" << rng() % n << "\n";
    } // else fall through
  }
  os << "}\n";
  return os.str();
}

TEST(InsertReconvergence, RandomCfgsStayConsistent) {
  std::mt19937 rng(5);
  Knobs k;
  PhaseContext ctx{k, 3, nullptr, &Target::sm90()};
  unsigned withRegions = 0;
  for (int iter = 0; iter < 600; ++iter) {
    std::string text = randomFunction(rng);
    ori::Function f = parse(text);
    runInsertReconvergence(f, ctx);
    std::vector<std::string> errs = ori::validateFunction(f);
    ASSERT_TRUE(errs.empty()) << errs.front() << "\n" << text;
    std::map<uint32_t, std::pair<int32_t, int32_t>> bar; // barrier -> (BSSY block, BSYNC block)
    std::map<uint32_t, uint32_t> target;
    for (uint32_t b = 0; b < f.blocks.size(); ++b)
      for (const ori::Instr &in : f.blocks[b].instrs) {
        ASSERT_FALSE(in.op == ori::Opcode::WARPSYNC && !in.uses().empty()) << text;
        if (in.op == ori::Opcode::BSSY) {
          auto [it, fresh] = bar.try_emplace(in.defs()[0].reg, std::make_pair(b, -1));
          ASSERT_TRUE(fresh || it->second.first < 0) << "two BSSYs for one barrier\n" << text;
          it->second.first = static_cast<int32_t>(b);
          target[in.defs()[0].reg] = in.uses()[0].reg;
        } else if (in.op == ori::Opcode::BSYNC) {
          auto [it, fresh] = bar.try_emplace(in.uses()[0].reg, std::make_pair(-1, b));
          ASSERT_TRUE(fresh || it->second.second < 0) << "two BSYNCs for one barrier\n" << text;
          it->second.second = static_cast<int32_t>(b);
          ASSERT_EQ(f.blocks[b].instrs.size(), 1u) << "BSYNC shares its block\n" << text;
        }
      }
    if (!bar.empty())
      ++withRegions;
    std::vector<uint32_t> rpo = ori::computeRPO(f);
    ori::DomTree dt(f, rpo);
    std::vector<bool> exitOnly(f.blocks.size());
    for (uint32_t b = 0; b < f.blocks.size(); ++b)
      exitOnly[b] = !f.blocks[b].instrs.empty() && f.blocks[b].instrs[0].op == ori::Opcode::EXIT &&
                    !f.blocks[b].instrs[0].isGuarded();
    ori::PostDomTree pdt(f, exitOnly);
    for (auto &[reg, blocks] : bar) {
      ASSERT_GE(blocks.first, 0) << text;
      ASSERT_GE(blocks.second, 0) << text;
      uint32_t s = static_cast<uint32_t>(blocks.first), y = static_cast<uint32_t>(blocks.second);
      EXPECT_TRUE(dt.dominates(s, y)) << text;
      EXPECT_TRUE(pdt.postDominates(y, s)) << text;
      EXPECT_EQ(target[reg], y + 1) << "BSSY names the block after its BSYNC\n" << text;
    }
  }
  EXPECT_GT(withRegions, 40u); // the generator does make divergent regions
}

} // namespace
