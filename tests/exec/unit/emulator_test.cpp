// Unit tests of the emulator on hand-written SASS text: each checks one behaviour against a
// value computed independently in the test.
#include "tests/exec/emu/emulator.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace ptxmini::exec;

namespace {
// Runs `code` (one instruction per 16 bytes) with one buffer pointer parameter at 0x210.
struct EmuRun {
  KernelImage k;
  GlobalMemory g;
  uint64_t buf = 0;
  ExecStats stats;
  std::string trap;
  std::vector<uint32_t> out;
  EmuRun(std::vector<std::string> code, uint32_t threads, uint32_t nwords) {
    k.name = "t";
    k.insts = std::move(code);
    k.params = {{0, 0, 8}};
    k.param_size = 8;
    k.shared_size = 0x800;  // includes the 1 KiB reserved window bottom
    buf = g.allocate(nwords * 4);
    LaunchConfig c;
    c.block.x = threads;
    c.params.resize(8);
    std::memcpy(c.params.data(), &buf, 8);
    Emulator e(k, g);
    try {
      e.launch(c);
    } catch (const Trap& t) {
      trap = t.what();
    }
    stats = e.stats();
    out.resize(nwords);
    std::memcpy(out.data(), g.bytes(buf).data(), nwords * 4);
  }
};
}  // namespace

// out[tid] = tid * 3 + 7 via IMAD and a wide address computation.
TEST(Emulator, StraightLine) {
  EmuRun r({"S2R R0, SR_TID.X ;", "LDC.64 R2, c[0x0][0x210] ;", "IMAD R4, R0, 0x3, 0x7 ;",
         "IMAD.WIDE.U32 R2, R0, 0x4, R2 ;", "STG.E desc[UR4][R2.64], R4 ;", "EXIT ;"},
        40, 40);
  ASSERT_EQ(r.trap, "");
  for (uint32_t i = 0; i < 40; ++i) EXPECT_EQ(r.out[i], i * 3 + 7);
  // 2 warps x 6 instructions, all lanes active.
  EXPECT_EQ(r.stats.warp_insts, 12u);
  EXPECT_EQ(r.stats.thread_insts, 40u * 6);
}

// Divergent loop: thread t iterates t times; BSSY/BSYNC reconverge before a warp-wide vote.
TEST(Emulator, DivergentLoopReconverges) {
  EmuRun r({"S2R R0, SR_TID.X ;",                      // 0x00
         "MOV R4, RZ ;",                             // 0x10
         "BSSY B0, 0x70 ;",                          // 0x20
         "ISETP.GE.AND P0, PT, R4, R0, PT ;",        // 0x30
         "@P0 BRA 0x60 ;",                           // 0x40
         "IADD3 R4, R4, 0x1, RZ ;",                  // 0x50 (falls into the check again below)
         "BSYNC B0 ;",                               // 0x60  -- loop exit joins here
         "VOTE.ANY R5, PT, PT ;",                    // 0x70
         "LDC.64 R2, c[0x0][0x210] ;",
         "IMAD.WIDE.U32 R2, R0, 0x4, R2 ;",
         "IADD3 R5, R5, R4, RZ ;",
         "STG.E desc[UR4][R2.64], R5 ;",
         "EXIT ;"},
        8, 8);
  // The loop above only does one step (no back edge); the point is the join: after BSYNC all
  // 8 lanes vote together, so the ballot is 0xff for every thread.
  ASSERT_EQ(r.trap, "");
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(r.out[i], 0xffu + (i > 0 ? 1u : 0u));
}

// Out-of-bounds global store traps with the PC and the instruction text.
TEST(Emulator, OutOfBoundsTraps) {
  EmuRun r({"LDC.64 R2, c[0x0][0x210] ;", "STG.E desc[UR4][R2.64+0x40], RZ ;", "EXIT ;"}, 1, 4);
  EXPECT_NE(r.trap.find("pc 0x10"), std::string::npos) << r.trap;
  EXPECT_NE(r.trap.find("STG.E"), std::string::npos) << r.trap;
}

// An opcode with no table row and an unknown modifier both trap, they are not guessed.
TEST(Emulator, UnmodelledTraps) {
  EmuRun a({"FOO R1, R2 ;", "EXIT ;"}, 1, 1);
  EXPECT_NE(a.trap.find("not modelled"), std::string::npos) << a.trap;
  EmuRun b({"IADD3.BOGUS R1, R2, R3, RZ ;", "EXIT ;"}, 1, 1);
  EXPECT_NE(b.trap.find("BOGUS"), std::string::npos) << b.trap;
}

// Shared memory + BAR.SYNC across two warps: each thread reads its mirror's value.
TEST(Emulator, BarrierAcrossWarps) {
  EmuRun r({"S2R R0, SR_TID.X ;", "SHF.L.U32 R1, R0, 0x2, RZ ;", "IADD3 R5, R0, 0x64, RZ ;",
         "STS [R1+0x400], R5 ;", "BAR.SYNC.DEFER_BLOCKING 0x0 ;", "IADD3 R6, -R0, 0x3f, RZ ;",
         "SHF.L.U32 R6, R6, 0x2, RZ ;", "LDS R7, [R6+0x400] ;", "LDC.64 R2, c[0x0][0x210] ;",
         "IMAD.WIDE.U32 R2, R0, 0x4, R2 ;", "STG.E desc[UR4][R2.64], R7 ;", "EXIT ;"},
        64, 64);
  ASSERT_EQ(r.trap, "");
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(r.out[i], (63 - i) + 100);
}
