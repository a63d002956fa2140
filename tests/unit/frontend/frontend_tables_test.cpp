//===- tests/unit/frontend/frontend_tables_test.cpp - the instruction table is sane ----===//
//
// ptx_instructions.def is data; these checks keep it well formed as rows are added.
//===----------------------------------------------------------------------------------===//
#include "frontend/ptx_instr_table.h"
#include "targets/arch.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace ptxmini;
using namespace ptxmini::frontend;

// Every row: a unique name, a signature in the documented mini-language, a minTarget that
// parseArch knows, and the arch flags only where a target is named.
TEST(FrontendTables, RowsAreWellFormed) {
  std::set<std::string> names;
  for (unsigned i = 0; i < instrCount(); ++i) {
    const InstrInfo &in = instrInfo(i);
    EXPECT_TRUE(names.insert(std::string(in.name)).second) << "duplicate row " << in.name;
    for (size_t k = 0; k < in.signature.size(); ++k) {
      char c = in.signature[k];
      EXPECT_NE(std::string("dDrepPualx?*").find(c), std::string::npos)
          << in.name << ": bad signature letter " << c;
      if (c == '?') {
        EXPECT_GT(k, 0u) << in.name;
      }
    }
    if (!in.minTarget.empty()) {
      EXPECT_TRUE(parseArch(in.minTarget).has_value()) << in.name << " " << in.minTarget;
    }
    if (in.flags & (ArchA | ArchAF)) {
      EXPECT_FALSE(in.minTarget.empty()) << in.name;
    }
    EXPECT_LE(in.minPtx, 90u) << in.name;
  }
}

// The longest matching row wins, and a `::` tail on a family word still matches.
TEST(FrontendTables, FamilyMatching) {
  size_t consumed = 0;
  auto row = matchFamily({"cp", "async", "bulk", "tensor", "2d"}, consumed);
  ASSERT_TRUE(row);
  EXPECT_EQ(instrInfo(*row).name, "cp.async.bulk.tensor");
  EXPECT_EQ(consumed, 4u);
  row = matchFamily({"cp", "async", "ca", "shared", "global"}, consumed);
  ASSERT_TRUE(row);
  EXPECT_EQ(instrInfo(*row).name, "cp.async");
  row = matchFamily({"tcgen05", "fence::before_thread_sync"}, consumed);
  ASSERT_TRUE(row);
  EXPECT_EQ(instrInfo(*row).name, "tcgen05.fence");
  EXPECT_FALSE(matchFamily({"foo", "s32"}, consumed));
}

// Modifier words: types, spaces, vectors and pattern words are known; typos are not.
TEST(FrontendTables, ModifierClassification) {
  bool known = false;
  EXPECT_EQ(classifyModifier("f16x2", known).type, ptx::ScalarType::F16X2);
  EXPECT_TRUE(known);
  EXPECT_EQ(classifyModifier("shared::cluster", known).space, ptx::StateSpace::SharedCluster);
  EXPECT_EQ(classifyModifier("v4", known).vectorWidth, 4u);
  classifyModifier("m16n8k16", known);
  EXPECT_TRUE(known);
  classifyModifier("L2::cache_hint", known);
  EXPECT_TRUE(known);
  classifyModifier("rnd", known);
  EXPECT_FALSE(known);
  classifyModifier("glbal", known);
  EXPECT_FALSE(known);
}
