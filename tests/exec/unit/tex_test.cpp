// Unit tests of the emulator's texture and surface instructions on hand-written SASS (the
// syntax nvdisasm 13.2 prints for ptxas 13.0's TEX/TLD/TXQ/SULD/SUST), checking values
// computed in the test and the traps that mark what is not modelled.
#include "tests/exec/emu/emulator.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>

using namespace ptxmini::exec;

namespace {

// One thread; parameter 0 (c[0x0][0x210]) is an output buffer of `nwords` words, parameter 1
// (c[0x0][0x218]) the handle 1 of `tex`, whose texels `texels` are copied to global memory.
struct TexRun {
  KernelImage k;
  GlobalMemory g;
  std::string trap;
  std::vector<uint32_t> out, texmem;
  TexRun(std::vector<std::string> code, TexObject tex, const std::vector<uint32_t>& texels, uint32_t nwords = 8) {
    k.name = "t";
    k.insts = std::move(code);
    k.params = {{0, 0, 8}, {1, 8, 8}};
    k.param_size = 16;
    k.shared_size = 0x400;
    uint64_t buf = g.allocate(nwords * 4);
    tex.addr = g.allocate(texels.size() * 4);
    std::memcpy(g.bytes(tex.addr).data(), texels.data(), texels.size() * 4);
    LaunchConfig c;
    c.textures[1] = tex;
    uint64_t handle = 1;
    c.params.resize(16);
    std::memcpy(c.params.data(), &buf, 8);
    std::memcpy(c.params.data() + 8, &handle, 8);
    Emulator e(k, g);
    try {
      e.launch(c);
    } catch (const Trap& t) {
      trap = t.what();
    }
    out.resize(nwords);
    std::memcpy(out.data(), g.bytes(buf).data(), nwords * 4);
    texmem.resize(texels.size());
    std::memcpy(texmem.data(), g.bytes(tex.addr).data(), texels.size() * 4);
  }
};

uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }

TexObject tex2d(uint32_t w, uint32_t h) {
  TexObject t;
  t.shape = TexObject::Shape::D2;
  t.width = w;
  t.height = h;
  t.channel = TexObject::Channel::U32;
  return t;
}

// Stores R8..R11 to out[0..3] after `body`.
std::vector<std::string> storeQuad(std::vector<std::string> body) {
  body.insert(body.begin(), {"LDC.64 R2, c[0x0][0x210] ;", "ULDC UR4, c[0x0][0x218] ;", "UMOV UR5, URZ ;"});
  for (const char* s : {"STG.E desc[UR6][R2.64], R8 ;", "STG.E desc[UR6][R2.64+0x4], R9 ;",
                        "STG.E desc[UR6][R2.64+0x8], R10 ;", "STG.E desc[UR6][R2.64+0xc], R11 ;", "EXIT ;"})
    body.push_back(s);
  return body;
}

}  // namespace

TEST(TextureParse, WordOperands) {
  SassInst in;
  std::string err;
  ASSERT_TRUE(parse_sass("TEX.LL R6, R4, R4, R6, UR4, 0x0, ARRAY_2D, 0x3 ;", 0, {}, in, err)) << err;
  ASSERT_EQ(in.ops.size(), 8u);
  EXPECT_EQ(in.ops[6].kind, OpndKind::Word);
  EXPECT_EQ(in.ops[6].sreg_name, "ARRAY_2D");
  EXPECT_EQ(in.ops[7].kind, OpndKind::Imm);
  ASSERT_TRUE(parse_sass("TLD.LZ R6, R4, R4, UR4, 0x0, 2D ;", 0, {}, in, err)) << err;
  EXPECT_EQ(in.ops[5].kind, OpndKind::Word);
  EXPECT_EQ(in.ops[5].sreg_name, "2D");
  ASSERT_TRUE(parse_sass("TXQ RZ, R5, R5, TEX_HEADER_DIMENSION, UR4, 0x0, 0x1 ;", 0, {}, in, err)) << err;
  EXPECT_EQ(in.ops[3].sreg_name, "TEX_HEADER_DIMENSION");
  ASSERT_TRUE(parse_sass("SUST.D.BA.2D_ARRAY.128.STRONG.SM.TRAP [R8], R4, UR4, 0x0 ;", 0, {}, in, err)) << err;
  EXPECT_EQ(in.ops[0].kind, OpndKind::Mem);
  EXPECT_EQ(in.ops[0].mem_base, 8);
  // Registers and numbers are not words; a register-shaped bad register stays an error.
  ASSERT_TRUE(parse_sass("MOV R1, R2 ;", 0, {}, in, err));
  EXPECT_EQ(in.ops[1].kind, OpndKind::Reg);
  EXPECT_FALSE(parse_sass("MOV R1, UR77 ;", 0, {}, in, err));
  EXPECT_FALSE(parse_sass("MOV R1, lower ;", 0, {}, in, err));
  ASSERT_TRUE(parse_sass("DEPBAR.LE SB5, 0x4 ;", 0, {}, in, err)) << err;
  EXPECT_EQ(in.ops[0].kind, OpndKind::Word);
}

// Point sampling with clamp: (x, y) = (5.5, -3.0) on a 4 x 2 texture is texel (3, 0); the
// write mask 0x5 puts x and z into d1, d1+1.
TEST(Texture, TexClampAndMask) {
  std::vector<uint32_t> texels;
  for (uint32_t i = 0; i < 8; ++i) texels.push_back(100 + i);
  TexObject t = tex2d(4, 2);
  t.channel = TexObject::Channel::U32;
  t.channels = 1;
  TexRun r(storeQuad({"MOV R4, 0x40b00000 ;", "MOV R5, 0xc0400000 ;", "MOV R6, 0xc2000000 ;",
                      "MOV R8, 0x7 ;", "MOV R9, 0x7 ;", "MOV R10, 0x7 ;", "MOV R11, 0x7 ;",
                      "TEX.LL RZ, R8, R4, R6, UR4, 0x0, 2D, 0x5 ;"}),
           t, texels);
  ASSERT_EQ(r.trap, "");
  EXPECT_EQ(r.out[0], 103u);  // x
  EXPECT_EQ(r.out[1], 0u);    // z of a one-channel format
  EXPECT_EQ(r.out[2], 7u);    // not written
}

TEST(Texture, TldFetchAndBounds) {
  std::vector<uint32_t> texels;
  for (uint32_t i = 0; i < 8; ++i) texels.push_back(i * i);
  TexObject t = tex2d(4, 2);
  TexRun r(storeQuad({"MOV R4, 0x1 ;", "MOV R5, 0x1 ;", "TLD.LZ R10, R8, R4, UR4, 0x0, 2D ;"}), t, texels);
  ASSERT_EQ(r.trap, "");
  EXPECT_EQ(r.out[0], 25u);  // texel (1, 1)
  EXPECT_EQ(r.out[3], 1u);   // w of a one-channel format
  TexRun bad(storeQuad({"MOV R4, 0x4 ;", "MOV R5, 0x1 ;", "TLD.LZ R10, R8, R4, UR4, 0x0, 2D ;"}), t, texels);
  EXPECT_NE(bad.trap.find("TLD outside the texture"), std::string::npos) << bad.trap;
}

// What is not modelled traps instead of guessing.
TEST(Texture, Traps) {
  std::vector<uint32_t> texels(8, 0);
  TexObject lin = tex2d(4, 2);
  lin.linear_filter = true;
  TexRun a(storeQuad({"MOV R4, RZ ;", "MOV R5, RZ ;", "TEX.LL R10, R8, R4, R6, UR4, 0x0, 2D ;"}), lin, texels);
  EXPECT_NE(a.trap.find("linear filtering is not modelled"), std::string::npos) << a.trap;
  // the high word of the handle pair must be zero (ptxas always clears it)
  TexRun b(storeQuad({"UMOV UR5, 0x1 ;", "TEX.LL R10, R8, R4, R6, UR4, 0x0, 2D ;"}), tex2d(4, 2), texels);
  EXPECT_NE(b.trap.find("high word of the texture handle pair"), std::string::npos) << b.trap;
  // cube coordinates must have been divided by their largest magnitude
  TexObject cube = tex2d(2, 2);
  cube.shape = TexObject::Shape::Cube;
  cube.layers = 6;
  std::vector<uint32_t> faces(24, 0);
  TexRun c(storeQuad({"MOV R4, 0x40000000 ;", "MOV R5, RZ ;", "MOV R6, RZ ;", "TEX.LL R10, R8, R4, R7, UR4, 0x0, CUBE ;"}),
           cube, faces);
  EXPECT_NE(c.trap.find("not divided by their largest magnitude"), std::string::npos) << c.trap;
  // a dimension the object does not have
  TexRun d(storeQuad({"TEX.LL R10, R8, R4, R6, UR4, 0x0, 3D ;"}), tex2d(4, 2), texels);
  EXPECT_NE(d.trap.find("does not fit the object's shape"), std::string::npos) << d.trap;
}

// -z direction: face 5, s = (-x / |z| + 1) / 2, t = (-y / |z| + 1) / 2. (x, y, z) =
// (0.5, -0.5, -1) on 2 x 2 faces gives s = 0.25, t = 0.75: texel (0, 1) of face 5.
TEST(Texture, CubeFace) {
  std::vector<uint32_t> faces;
  for (uint32_t i = 0; i < 24; ++i) faces.push_back(i);
  TexObject cube = tex2d(2, 2);
  cube.shape = TexObject::Shape::Cube;
  cube.layers = 6;
  TexRun r(storeQuad({"MOV R4, 0x3f000000 ;", "MOV R5, 0xbf000000 ;", "MOV R6, 0xbf800000 ;",
                      "TEX.LL R10, R8, R4, R7, UR4, 0x0, CUBE ;"}),
           cube, faces);
  ASSERT_EQ(r.trap, "");
  EXPECT_EQ(r.out[0], 5u * 4 + 1 * 2 + 0);
}

TEST(Texture, NormalizedReadAndWrap) {
  // u8x4 texels read as normalized floats, normalized coordinates wrapping: u = 1.3 on 4 texels
  // is texel floor(0.3 * 4) = 1.
  std::vector<uint32_t> texels = {0x00000000, 0xff80ff01, 0, 0};
  TexObject t = tex2d(4, 1);
  t.channel = TexObject::Channel::U8;
  t.channels = 4;
  t.read_normalized = true;
  t.normalized_coords = true;
  t.address = TexObject::Address::Wrap;
  TexRun r(storeQuad({"MOV R4, 0x3fa66666 ;", "MOV R5, RZ ;", "TEX.LL R10, R8, R4, R6, UR4, 0x0, 2D ;"}), t, texels);
  ASSERT_EQ(r.trap, "");
  EXPECT_EQ(r.out[0], fbits(1.0f / 255.0f));
  EXPECT_EQ(r.out[1], fbits(1.0f));
  EXPECT_EQ(r.out[2], fbits(128.0f / 255.0f));
  EXPECT_EQ(r.out[3], fbits(1.0f));
}

TEST(Surface, StoreLoadAndBounds) {
  std::vector<uint32_t> texels(8, 0);
  TexObject s = tex2d(4, 2);
  s.kind = TexObject::Kind::Surface;
  // x is in bytes: byte 12 of row 1 is element (3, 1) = word 7.
  TexRun r(storeQuad({"MOV R4, 0xc ;", "MOV R5, 0x1 ;", "MOV R6, 0x1234 ;",
                      "SUST.D.BA.2D.STRONG.SM.TRAP [R4], R6, UR4, 0x0 ;",
                      "SULD.D.BA.2D.STRONG.SM.TRAP R8, [R4], UR4, 0x0 ;",
                      "MOV R4, 0x10 ;",
                      "SULD.D.BA.2D.STRONG.SM.IGN R9, [R4], UR4, 0x0 ;"}),
           s, texels);
  ASSERT_EQ(r.trap, "");
  EXPECT_EQ(r.texmem[7], 0x1234u);
  EXPECT_EQ(r.out[0], 0x1234u);
  EXPECT_EQ(r.out[1], 0u);  // .IGN outside: zero
  TexRun t(storeQuad({"MOV R4, 0x10 ;", "MOV R5, 0x1 ;", "SUST.D.BA.2D.STRONG.SM.TRAP [R4], R6, UR4, 0x0 ;"}), s, texels);
  EXPECT_NE(t.trap.find("surface access out of bounds (.TRAP)"), std::string::npos) << t.trap;
  TexRun u(storeQuad({"MOV R4, 0x2 ;", "MOV R5, 0x1 ;", "SUST.D.BA.2D.STRONG.SM.TRAP [R4], R6, UR4, 0x0 ;"}), s, texels);
  EXPECT_NE(u.trap.find("not a multiple of the access size"), std::string::npos) << u.trap;
  TexRun v(storeQuad({"MOV R4, RZ ;", "MOV R5, RZ ;", "SUST.D.BA.2D.U8.STRONG.SM.TRAP [R4], R6, UR4, 0x0 ;"}), s, texels);
  EXPECT_NE(v.trap.find("is not modelled"), std::string::npos) << v.trap;
}
