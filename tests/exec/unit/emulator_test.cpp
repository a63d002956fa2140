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

// ptxas's stack-overflow check at kernel entry (its -O0 code and every kernel with a frame):
// SP = c[0x28] - frame, trap when SP < SR_LMEMHIOFF. With the frame inside the thread's local
// window it must fall through to the store, not trap (it trapped on "not modelled" before).
TEST(Emulator, StackCheckAgainstLmemHiOff) {
  EmuRun r({"LDC R1, c[0x0][0x28] ;", "IADD3 R1, R1, -0x20, RZ ;", "S2R R0, SR_LMEMHIOFF ;",
            "ISETP.GE.U32.AND P0, PT, R1, R0, PT ;", "@P0 BRA 0x60 ;", "BPT.TRAP 0x1 ;",
            "STL [R1], R1 ;", "LDL R4, [R1] ;", "LDC.64 R2, c[0x0][0x210] ;",
            "STG.E desc[UR4][R2.64], R4 ;", "EXIT ;"},
           1, 1);
  ASSERT_EQ(r.trap, "");
  // The stored word is the stack pointer itself: one frame (0x20) below the top of the window.
  EXPECT_GT(r.out[0], 0u);
  EXPECT_EQ(r.out[0] % 16, 0u);
}

// A NaN float immediate keeps the bits the loader gives it ("-QNAN(0x...)"): ptxas's max.f64
// x, -DBL_MAX selects the high word 0xffefffff with "FSEL R2, R2, -QNAN, P0" (nvdisasm and
// our decoder print no payload); the select must pass 0xffefffff on, not the canonical NaN.
TEST(Emulator, NanImmediateKeepsItsBits) {
  EmuRun r({"FSEL R4, RZ, -QNAN(0xffefffff), !PT ;", "FSEL R5, RZ, -QNAN, !PT ;",
            "LDC.64 R2, c[0x0][0x210] ;", "STG.E.64 desc[UR4][R2.64], R4 ;", "EXIT ;"},
           1, 2);
  ASSERT_EQ(r.trap, "");
  EXPECT_EQ(r.out[0], 0xffefffffu);
  EXPECT_EQ(r.out[1], 0xffc00000u);  // without bits: the canonical negative quiet NaN
}

// MUFU.RCP64H with an immediate: the immediate is the high word of a double (0.5 is
// 0x3fe00000), so the result is the high word of 1/0.5 = 2.0 (0x40000000); read as the f32
// 0.5 (0x3f000000) it gave the high word of 1/2^-15 instead.
TEST(Emulator, Rcp64hImmediateIsADoubleHighWord) {
  EmuRun r({"MUFU.RCP64H R4, 0.5 ;", "LDC.64 R2, c[0x0][0x210] ;", "STG.E desc[UR4][R2.64], R4 ;", "EXIT ;"},
           1, 1);
  ASSERT_EQ(r.trap, "");
  EXPECT_EQ(r.out[0], 0x40000000u);
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

// Float->int conversion follows PTX cvt rules: NaN converts to 0, out-of-range values saturate
// (PTX ISA, cvt: "saturate to the destination range; NaN results in 0").
TEST(Emulator, F2ISaturatesAndNaNIsZero) {
  EmuRun r({"MOV R4, 0x7fc00000 ;",           // NaN
            "F2I.TRUNC.NTZ R5, R4 ;",
            "MOV R6, 0x4f32d05e ;",           // 3.0e9f
            "F2I.TRUNC.NTZ R7, R6 ;",
            "F2I.U32.TRUNC.NTZ R8, -R6 ;",    // -3e9 to unsigned
            "LDC.64 R2, c[0x0][0x210] ;", "STG.E desc[UR4][R2.64], R5 ;", "STG.E desc[UR4][R2.64+0x4], R7 ;",
            "STG.E desc[UR4][R2.64+0x8], R8 ;", "EXIT ;"},
           1, 3);
  ASSERT_EQ(r.trap, "");
  EXPECT_EQ(r.out[0], 0u);
  EXPECT_EQ(r.out[1], 0x7fffffffu);
  EXPECT_EQ(r.out[2], 0u);
}

// FMNMX returns the non-NaN operand (IEEE 754-2008 minNum/maxNum, as PTX min/max.f32 define).
TEST(Emulator, FmnmxIgnoresOneNaN) {
  EmuRun r({"MOV R4, 0x7fc00000 ;", "MOV R5, 0x40400000 ;",  // NaN, 3.0f
            "FMNMX R6, R4, R5, PT ;", "FMNMX R7, R5, R4, !PT ;", "LDC.64 R2, c[0x0][0x210] ;",
            "STG.E desc[UR4][R2.64], R6 ;", "STG.E desc[UR4][R2.64+0x4], R7 ;", "EXIT ;"},
           1, 2);
  ASSERT_EQ(r.trap, "");
  EXPECT_EQ(r.out[0], 0x40400000u);
  EXPECT_EQ(r.out[1], 0x40400000u);
}

// Directed rounding: 1 + 2^-30 is not representable; RP rounds up to the next float after 1.0,
// RZ/RM truncate to 1.0 (IEEE 754 rounding-direction attributes).
TEST(Emulator, DirectedRoundingModes) {
  EmuRun r({"MOV R4, 0x3f800000 ;", "MOV R5, 0x30800000 ;",  // 1.0f, 2^-30
            "FADD.RP R6, R4, R5 ;", "FADD.RZ R7, R4, R5 ;", "FADD.RM R8, R4, -R5 ;", "LDC.64 R2, c[0x0][0x210] ;",
            "STG.E desc[UR4][R2.64], R6 ;", "STG.E desc[UR4][R2.64+0x4], R7 ;", "STG.E desc[UR4][R2.64+0x8], R8 ;",
            "EXIT ;"},
           1, 3);
  ASSERT_EQ(r.trap, "");
  EXPECT_EQ(r.out[0], 0x3f800001u);  // nextafter(1.0f, 2.0f)
  EXPECT_EQ(r.out[1], 0x3f800000u);
  EXPECT_EQ(r.out[2], 0x3f7fffffu);  // 1 - 2^-30 rounded down: the float just below 1.0
}

// Threads that wait for each other forever (lane 1 at the CTA barrier, lane 0 at a BSYNC whose
// barrier includes lane 1) are reported as a deadlock trap, not a hang.
TEST(Emulator, DeadlockTraps) {
  EmuRun r({"S2R R0, SR_TID.X ;", "BSSY B0, 0x50 ;", "ISETP.NE.AND P0, PT, R0, RZ, PT ;",
            "@P0 BAR.SYNC.DEFER_BLOCKING 0x0 ;", "BSYNC B0 ;", "EXIT ;"},
           2, 1);
  EXPECT_NE(r.trap.find("deadlock"), std::string::npos) << r.trap;
}

// BRA.DIV reads a uniform mask but decides for the whole issuing group: a converged warp falls
// through in every lane (it was once executed for the lowest lane only, like a uniform-datapath
// instruction, which sent lane 0 alone down the divergent path). Lanes 0-15 then arrive alone
// at a second BRA.DIV (lanes 16-31 wait at a higher PC) and all of them take it.
TEST(Emulator, BraDivDecidesForTheGroup) {
  EmuRun r({"S2R R0, SR_TID.X ;",                           // 0x00
            "UMOV UR4, 0xffffffff ;",                       // 0x10
            "LDC.64 R2, c[0x0][0x210] ;",                   // 0x20
            "IMAD.WIDE.U32 R2, R0, 0x4, R2 ;",              // 0x30
            "MOV R5, 0x1 ;",                                // 0x40
            "BRA.DIV UR4, 0x70 ;",                          // 0x50  converged: not taken
            "IADD3 R5, R5, 0x10, RZ ;",                     // 0x60  every lane: R5 = 0x11
            "ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;",      // 0x70
            "@P0 BRA 0xc0 ;",                               // 0x80  lanes 16-31 jump ahead
            "BRA.DIV UR4, 0xb0 ;",                          // 0x90  lanes 0-15 alone: taken
            "IADD3 R5, R5, 0x100, RZ ;",                    // 0xa0  (skipped)
            "IADD3 R5, R5, 0x1000, RZ ;",                   // 0xb0  lanes 0-15
            "STG.E desc[UR4][R2.64], R5 ;",                 // 0xc0
            "EXIT ;"},
           32, 32);
  ASSERT_EQ(r.trap, "");
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(r.out[i], i < 16 ? 0x1011u : 0x11u) << i;
}

// The divergent fallback of a shuffle: lanes 0-15 reach WARPSYNC.COLLECTIVE first and wait;
// lanes 16-31 take a detour, reach it later, and only then does the whole warp run the SHFL
// together, so every lane reads its partner's final value (R5 = 10 t + 1 below 16, 10 t + 2
// above; a lane that did not wait would read its partner's stale 10 t).
TEST(Emulator, WarpsyncCollectiveGathersTheMask) {
  EmuRun r({"S2R R0, SR_TID.X ;",                           // 0x00
            "UMOV UR4, 0xffffffff ;",                       // 0x10
            "IMAD R5, R0, 0xa, RZ ;",                       // 0x20
            "ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;",      // 0x30
            "@P0 BRA 0x110 ;",                              // 0x40  upper half: detour
            "IADD3 R5, R5, 0x1, RZ ;",                      // 0x50  lower half
            "BRA.DIV UR4, 0x90 ;",                          // 0x60
            "SHFL.BFLY PT, R6, R5, 0x10, 0x1f ;",           // 0x70  converged path (unused)
            "BRA 0xd0 ;",                                   // 0x80
            "MOV R8, 0xffffffff ;",                         // 0x90
            "WARPSYNC.COLLECTIVE R8, 0xd0 ;",               // 0xa0
            "SHFL.BFLY PT, R6, R5, 0x10, 0x1f ;",           // 0xb0
            "ENDCOLLECTIVE ;",                              // 0xc0
            "LDC.64 R2, c[0x0][0x210] ;",                   // 0xd0
            "IMAD.WIDE.U32 R2, R0, 0x4, R2 ;",              // 0xe0
            "STG.E desc[UR4][R2.64], R6 ;",                 // 0xf0
            "EXIT ;",                                       // 0x100
            "IADD3 R5, R5, 0x2, RZ ;",                      // 0x110 upper half
            "BRA 0x60 ;"},                                  // 0x120
           32, 32);
  ASSERT_EQ(r.trap, "");
  for (uint32_t i = 0; i < 32; ++i) {
    uint32_t p = i ^ 16;
    EXPECT_EQ(r.out[i], 10 * p + (p < 16 ? 1u : 2u)) << i;
  }
}

// VIMNMX3: signed min (PT) and max (!PT) of three, and the unsigned forms, on -5, 7, 3.
TEST(Emulator, Vimnmx3MinMaxOfThree) {
  EmuRun r({"MOV R4, 0xfffffffb ;", "MOV R5, 0x7 ;", "MOV R6, 0x3 ;",
            "VIMNMX3 R7, R4, R5, R6, PT ;", "VIMNMX3 R8, R5, R6, R4, !PT ;",
            "VIMNMX3.U32 R9, R6, R4, R5, PT ;", "VIMNMX3.U32 R10, R5, R6, R4, !PT ;",
            "LDC.64 R2, c[0x0][0x210] ;", "STG.E desc[UR4][R2.64], R7 ;", "STG.E desc[UR4][R2.64+0x4], R8 ;",
            "STG.E desc[UR4][R2.64+0x8], R9 ;", "STG.E desc[UR4][R2.64+0xc], R10 ;", "EXIT ;"},
           1, 4);
  ASSERT_EQ(r.trap, "");
  EXPECT_EQ(r.out[0], 0xfffffffbu);  // min(-5, 7, 3)
  EXPECT_EQ(r.out[1], 7u);           // max
  EXPECT_EQ(r.out[2], 3u);           // unsigned min: -5 is 0xfffffffb
  EXPECT_EQ(r.out[3], 0xfffffffbu);  // unsigned max
}

// HFMA2.MMA with the immediate pair in b's place is a x (b_hi, b_lo) + c: R4 = (lo 2.0, hi
// 3.0), R7 = (lo 0.5, hi 0.25). With b = (1, 1) the result is a + c = (2.5, 3.25); with
// b = (2, -1) (high half first) it is (lo 2*2+0.5, hi 3*-1+0.25) = (4.5, -2.75). The c-pair form
// "HFMA2.MMA d, -RZ, RZ, 0, 1" gives (lo 1.0, hi 0).
TEST(Emulator, Hfma2ImmediatePairPositions) {
  EmuRun r({"MOV R4, 0x42004000 ;", "MOV R7, 0x34003800 ;", "HFMA2.MMA R8, R4, 1, 1, R7 ;",
            "HFMA2.MMA R9, R4, -1, 2, R7 ;", "HFMA2.MMA R10, -RZ, RZ, 0, 1 ;", "LDC.64 R2, c[0x0][0x210] ;",
            "STG.E desc[UR4][R2.64], R8 ;", "STG.E desc[UR4][R2.64+0x4], R9 ;", "STG.E desc[UR4][R2.64+0x8], R10 ;",
            "EXIT ;"},
           1, 3);
  ASSERT_EQ(r.trap, "");
  EXPECT_EQ(r.out[0], 0x42804100u);  // (lo 2.5 = 0x4100, hi 3.25 = 0x4280)
  EXPECT_EQ(r.out[1], 0xc1804480u);  // (lo 4.5 = 0x4480, hi -2.75 = 0xc180)
  EXPECT_EQ(r.out[2], 0x00003c00u);  // (lo 1.0, hi 0)
}

// ATOMS.CAST.SPIN in ptxas's retry loop for a float atomicAdd on shared memory: 64 threads add
// their tid; only a lane whose expected value is still current stores (d = 1), the others
// reload and retry, so the word ends at 0 + 1 + ... + 63 = 2016 exactly.
TEST(Emulator, AtomsCastSpinLoop) {
  EmuRun r({"S2R R0, SR_TID.X ;",                           // 0x00
            "MOV R4, 0x400 ;",                              // 0x10
            "STS [R4], RZ ;",                               // 0x20
            "BAR.SYNC.DEFER_BLOCKING 0x0 ;",                // 0x30
            "I2FP.F32.U32 R5, R0 ;",                        // 0x40
            "LDS R6, [R4] ;",                               // 0x50
            "FADD R7, R5, R6 ;",                            // 0x60
            "ATOMS.CAST.SPIN R7, [R4], R6, R7 ;",           // 0x70
            "ISETP.EQ.U32.AND P0, PT, R7, 0x1, PT ;",       // 0x80
            "@!P0 BRA 0x50 ;",                              // 0x90
            "BAR.SYNC.DEFER_BLOCKING 0x0 ;",                // 0xa0
            "LDS R8, [R4] ;",                               // 0xb0
            "LDC.64 R2, c[0x0][0x210] ;",                   // 0xc0
            "IMAD.WIDE.U32 R2, R0, 0x4, R2 ;",              // 0xd0
            "STG.E desc[UR4][R2.64], R8 ;",                 // 0xe0
            "EXIT ;"},
           64, 64);
  ASSERT_EQ(r.trap, "");
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(r.out[i], 0x44fc0000u) << i;  // 2016.0f
}

// HGMMA with A from registers (all ones, f16) and B from a descriptor of zeros (start 0, LBO =
// SBO = 0, no swizzle: B[n][k] is the half at shared byte (n % 8) * 16 + (k % 8) * 2). Every
// lane stores 0x40003c00 (1.0, 2.0) over the first 128 bytes, so B[n][k] = 1 + k % 2 and each
// D element of warp 0 (rows 0-15) is 8 * 1 + 8 * 2 = 24; the accumulator starts from RZ.
TEST(Emulator, WarpgroupMmaSumsK) {
  EmuRun r({"S2R R0, SR_TID.X ;", "IMAD.SHL.U32 R1, R0, 0x4, RZ ;", "MOV R2, 0x40003c00 ;",
            "STS [R1], R2 ;", "MOV R28, 0x3c003c00 ;", "MOV R29, 0x3c003c00 ;", "MOV R30, 0x3c003c00 ;",
            "MOV R31, 0x3c003c00 ;", "WARPGROUP.ARRIVE ;",
            "HGMMA.64x8x16.F32 R24, R28, gdesc[UR4], RZ, !UPT, gsb0 ;", "WARPGROUP.DEPBAR.LE gsb0, 0x0 ;",
            "LDC.64 R2, c[0x0][0x210] ;", "IMAD.WIDE.U32 R2, R0, 0x10, R2 ;",
            "STG.E.128 desc[UR4][R2.64], R24 ;", "EXIT ;"},
           32, 128);
  ASSERT_EQ(r.trap, "");
  for (uint32_t i = 0; i < 128; ++i) EXPECT_EQ(r.out[i], 0x41c00000u) << i;  // 24.0f
}

// A descriptor whose base offset (bits 49-51) is not zero is not modelled: a trap, not a guess.
TEST(Emulator, WarpgroupMmaBaseOffsetTraps) {
  EmuRun r({"MOV R28, RZ ;", "MOV R29, RZ ;", "MOV R30, RZ ;", "MOV R31, RZ ;", "UMOV UR7, 0x20000 ;",
            "HGMMA.64x8x16.F32 R24, R28, gdesc[UR4], RZ, !UPT, gsb0 ;", "EXIT ;"},
           32, 4);
  EXPECT_NE(r.trap.find("base offset"), std::string::npos) << r.trap;
}
