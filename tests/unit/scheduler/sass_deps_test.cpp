// Unit tests of scheduler/sass_deps.h: which registers SASS text reads and writes, with the
// widths the sm_90 table gives (each expectation checked against nvdisasm --print-life-ranges
// on ptxas 13.0 code, see targets/sm_90/sass_ops.def).
#include "scheduler/sass_deps.h"

#include <gtest/gtest.h>

#include <set>

using namespace ptxmini;
using namespace ptxmini::sched;

namespace {

struct Sets {
  std::set<std::string> reads, writes, guards;
};

Sets roles(std::string_view text) {
  SassDeps d;
  std::string err;
  EXPECT_TRUE(analyzeSass(text, Target::sm90(), d, err)) << err;
  Sets s;
  for (const RegAccess &a : d.regs)
    for (unsigned k = 0; k < a.count; ++k) {
      std::string n = std::string(ori::pregPrefix(a.file)) + std::to_string(a.first + k);
      (a.how == Access::Write ? s.writes : a.how == Access::Guard ? s.guards : s.reads).insert(n);
    }
  return s;
}

using S = std::set<std::string>;

} // namespace

TEST(SassDeps, CarryOutsAndIns) {
  Sets a = roles("IADD3 R2, P1, P2, R8, UR4, R5");
  EXPECT_EQ(a.writes, (S{"R2", "P1", "P2"}));
  EXPECT_EQ(a.reads, (S{"R8", "UR4", "R5"}));
  Sets b = roles("IADD3.X R3, R9, UR5, RZ, P1, P2");
  EXPECT_EQ(b.writes, (S{"R3"}));
  EXPECT_EQ(b.reads, (S{"R9", "UR5", "P1", "P2"}));
  Sets c = roles("LOP3.LUT P0, RZ, R2, 0xf, RZ, 0xc0, !PT");
  EXPECT_EQ(c.writes, (S{"P0"}));
  EXPECT_EQ(c.reads, (S{"R2"}));
}

TEST(SassDeps, WideAndHighMultiplies) {
  Sets a = roles("IMAD.WIDE.U32.X R18, R13, 0x2, R18, P2");
  EXPECT_EQ(a.writes, (S{"R18", "R19"}));
  EXPECT_EQ(a.reads, (S{"R13", "R18", "R19", "P2"}));
  Sets b = roles("IMAD.HI.U32 R12, P1, R11, R17, R12");
  EXPECT_EQ(b.writes, (S{"R12", "P1"}));
  EXPECT_EQ(b.reads, (S{"R11", "R17", "R12", "R13"}));
  Sets c = roles("UIMAD.WIDE.U32 UR4, UR4, 0x200, URZ");
  EXPECT_EQ(c.writes, (S{"UR4", "UR5"}));
}

TEST(SassDeps, MemoryOperands) {
  Sets a = roles("@P0 LDG.E.128 R12, desc[UR8][R14.64+0x10]");
  EXPECT_EQ(a.writes, (S{"R12", "R13", "R14", "R15"}));
  EXPECT_EQ(a.reads, (S{"UR8", "UR9", "R14", "R15"}));
  EXPECT_EQ(a.guards, (S{"P0"}));
  Sets b = roles("STS.64 [R53+UR6], R20");
  EXPECT_EQ(b.reads, (S{"R53", "UR6", "R20", "R21"}));
  EXPECT_TRUE(b.writes.empty());
  Sets c = roles("ATOMG.E.CAS.STRONG.GPU PT, R9, [R4], R8, R9");
  EXPECT_EQ(c.writes, (S{"R9"}));
  EXPECT_EQ(c.reads, (S{"R4", "R5", "R8", "R9"}));
  Sets d = roles("LDGSTS.E.BYPASS.128 [R21], desc[UR8][R6.64]");
  EXPECT_EQ(d.reads, (S{"R21", "UR8", "UR9", "R6", "R7"}));
  Sets e = roles("LDC R7, c[0x3][R0+0x4]");
  EXPECT_EQ(e.reads, (S{"R0"}));
  EXPECT_EQ(e.writes, (S{"R7"}));
  Sets f = roles("ULDC.64 UR4, c[0x0][0x208]");
  EXPECT_EQ(f.writes, (S{"UR4", "UR5"}));
}

TEST(SassDeps, DoublesAndConversions) {
  Sets a = roles("DSETP.MAX.AND P0, P1, R4, UR4, PT");
  EXPECT_EQ(a.writes, (S{"P0", "P1"}));
  EXPECT_EQ(a.reads, (S{"R4", "R5", "UR4", "UR5"}));
  EXPECT_EQ(roles("F2I.F64.TRUNC R7, R16").reads, (S{"R16", "R17"}));
  EXPECT_EQ(roles("F2I.U64.TRUNC R10, R10").writes, (S{"R10", "R11"}));
  EXPECT_EQ(roles("I2F.F64.U32 R28, R13").writes, (S{"R28", "R29"}));
  EXPECT_EQ(roles("I2F.U64 R3, UR4").reads, (S{"UR4", "UR5"}));
  EXPECT_EQ(roles("F2F.F32.F64 R19, R6").reads, (S{"R6", "R7"}));
  EXPECT_EQ(roles("F2F.F64.F32 R4, R4").writes, (S{"R4", "R5"}));
  EXPECT_EQ(roles("FRND.F64.TRUNC R26, R36").writes, (S{"R26", "R27"}));
}

TEST(SassDeps, TensorCoresAndSpecials) {
  Sets a = roles("HMMA.16816.F32 R4, R12.reuse, R20, R4");
  EXPECT_EQ(a.writes, (S{"R4", "R5", "R6", "R7"}));
  EXPECT_EQ(a.reads, (S{"R4", "R5", "R6", "R7", "R12", "R13", "R14", "R15", "R20", "R21"}));
  EXPECT_EQ(roles("IMMA.16816.U8.U8 R12, R18.reuse.ROW, R22.COL, R12").reads,
            (S{"R12", "R13", "R14", "R15", "R18", "R19", "R22"}));
  EXPECT_EQ(roles("LDSM.16.M88.2 R26, [R46]").writes, (S{"R26", "R27"}));
  EXPECT_EQ(roles("CS2R R40, SRZ").writes, (S{"R40", "R41"}));
  Sets v = roles("VOTE.ANY R5, PT, P0");
  EXPECT_EQ(v.writes, (S{"R5"}));
  EXPECT_EQ(v.guards, (S{"P0"})); // read when the guard is (OP_PCTRL)
  Sets p = roles("P2R R41, PR, RZ, 0x8");
  EXPECT_EQ(p.reads, (S{"P3"}));
  Sets r = roles("R2P PR, R38, 0x7f");
  EXPECT_EQ(r.writes, (S{"P0", "P1", "P2", "P3", "P4", "P5", "P6"}));
  Sets sh = roles("SHFL.IDX PT, R17, R12, 0x3, 0x1f");
  EXPECT_EQ(sh.writes, (S{"R17"}));
  EXPECT_EQ(sh.reads, (S{"R12"}));
}

TEST(SassDeps, ControlFlow) {
  SassDeps d;
  std::string err;
  ASSERT_TRUE(analyzeSass("@P0 BRA 0x190", Target::sm90(), d, err));
  EXPECT_TRUE(d.guarded);
  ASSERT_EQ(d.targets.size(), 1u);
  EXPECT_EQ(d.targets[0], 0x190u);
  ASSERT_TRUE(analyzeSass("BRA.DIV UR4, 0x200", Target::sm90(), d, err));
  EXPECT_TRUE(d.conditional);
  ASSERT_TRUE(analyzeSass("DEPBAR.LE SB1, 0x2", Target::sm90(), d, err));
  EXPECT_EQ(d.depbarSb, 1);
  EXPECT_EQ(d.depbarCount, 2u);
  ASSERT_TRUE(analyzeSass("TEX.LL R6, R10, R12, R0, UR4, 0x0, 2D", Target::sm90(), d, err));
  EXPECT_TRUE(d.opaque);
}
