/* ops_tex.cpp - texture and surface instructions: TEX, TLD, TXQ, SULD, SUST.
 *
 * Operand syntax (HW: nvdisasm 13.2 on ptxas 13.0 sm_90 output, see
 * tests/conformance/ptx/texture.ptx):
 *   TEX.LL d2, d1, a, b, URh, 0x0, DIM[, mask]    TLD.LZ d2, d1, a, URh, 0x0, DIM[, mask]
 *   TXQ d2, d1, a, TEX_HEADER_DIMENSION, URh, 0x0, mask
 *   SULD.D.BA.DIM[.size].order[.TRAP|.IGN] d, [a], URh, 0x0
 *   SUST.D.BA.DIM[.size].order[.TRAP|.IGN] [a], data, URh, 0x0
 * a is a register vector: [array layer,] coordinates for TEX/TLD (b holds TEX's level of
 * detail), x in bytes, y, z and the array layer last for SULD/SUST. The enabled components
 * of the write mask (default 0xf) land in order in d1, d1+1, d2, d2+1. URh holds the
 * object's handle (texture.h); TEX/TLD/TXQ read a pair whose high word must be zero. What
 * is and is not modelled is listed in texture.h; everything else traps. */
#include "tests/exec/emu/ops.h"
#include "tests/exec/emu/texture.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace ptxmini::exec {

// ---- texture.h ----------------------------------------------------------------------------
uint32_t TexObject::channel_bytes() const {
  switch (channel) {
    case Channel::U8: case Channel::S8: return 1;
    case Channel::U16: case Channel::S16: return 2;
    default: return 4;
  }
}

bool parse_tex_shape(const std::string& s, TexObject::Shape& out) {
  using S = TexObject::Shape;
  static const std::pair<const char*, S> kNames[] = {
      {"buffer", S::Buffer}, {"1d", S::D1}, {"2d", S::D2}, {"3d", S::D3}, {"a1d", S::Layered1D},
      {"a2d", S::Layered2D}, {"cube", S::Cube}, {"acube", S::LayeredCube}};
  for (auto& [n, v] : kNames)
    if (s == n) { out = v; return true; }
  return false;
}

bool parse_tex_format(const std::string& s, TexObject::Channel& ch, uint32_t& channels) {
  using C = TexObject::Channel;
  static const std::pair<const char*, C> kNames[] = {{"u8", C::U8},   {"s8", C::S8},   {"u16", C::U16},
                                                     {"s16", C::S16}, {"u32", C::U32}, {"s32", C::S32},
                                                     {"f32", C::F32}};
  std::string base = s;
  channels = 1;
  if (auto x = s.find('x'); x != std::string::npos) {
    base = s.substr(0, x);
    std::string n = s.substr(x + 1);
    if (n != "1" && n != "2" && n != "4") return false;
    channels = static_cast<uint32_t>(std::stoul(n));
  }
  for (auto& [n, v] : kNames)
    if (base == n) { ch = v; return true; }
  return false;
}

bool parse_tex_address(const std::string& s, TexObject::Address& out) {
  using A = TexObject::Address;
  if (s == "wrap") out = A::Wrap;
  else if (s == "clamp") out = A::Clamp;
  else if (s == "mirror") out = A::Mirror;
  else if (s == "border") out = A::Border;
  else return false;
  return true;
}

std::array<uint32_t, 4> texel_result(const TexObject& t, const uint8_t* p) {
  using C = TexObject::Channel;
  std::array<uint32_t, 4> r = {0, 0, 0, 0};
  bool as_float = t.channel == C::F32 || t.read_normalized;
  // GUESS: a channel the format lacks reads as 0, alpha as 1 (OpenGL's convention).
  r[3] = as_float ? std::bit_cast<uint32_t>(1.0f) : 1u;
  for (uint32_t c = 0; c < t.channels; ++c) {
    const uint8_t* q = p + c * t.channel_bytes();
    int64_t iv = 0;
    switch (t.channel) {
      case C::U8: iv = q[0]; break;
      case C::S8: iv = static_cast<int8_t>(q[0]); break;
      case C::U16: { uint16_t v; std::memcpy(&v, q, 2); iv = v; break; }
      case C::S16: { int16_t v; std::memcpy(&v, q, 2); iv = v; break; }
      case C::U32: { uint32_t v; std::memcpy(&v, q, 4); iv = v; break; }
      case C::S32: { int32_t v; std::memcpy(&v, q, 4); iv = v; break; }
      case C::F32: { std::memcpy(&r[c], q, 4); continue; }
    }
    if (!t.read_normalized) {
      r[c] = static_cast<uint32_t>(iv);
      continue;
    }
    // cudaReadModeNormalizedFloat: unsigned [0, max] -> [0.0, 1.0], signed -> [-1.0, 1.0]
    // (the most negative value clamps to -1.0). GUESS: rounded to nearest from the exact
    // quotient (not observed on hardware).
    double max = t.channel == C::U8 ? 255.0 : t.channel == C::S8 ? 127.0 : t.channel == C::U16 ? 65535.0 : 32767.0;
    r[c] = std::bit_cast<uint32_t>(static_cast<float>(std::max(-1.0, static_cast<double>(iv) / max)));
  }
  return r;
}

namespace {

using Shape = TexObject::Shape;

const TexObject& object(Exec& e, const Operand& h, TexObject::Kind kind, bool pair) {
  if (h.kind != OpndKind::UReg) e.trap("the texture/surface handle is not a uniform register");
  uint32_t lo = e.ureg(h.reg);
  if (pair) {
    uint32_t hi = h.reg == kURZ || h.reg + 1 > 62 ? 0 : e.ureg(h.reg + 1);
    // ptxas clears the pair's high word for every TEX/TLD/TXQ; what the hardware does with
    // another value is not known.
    if (hi != 0) e.trap("high word of the texture handle pair is not zero (not modelled)");
  }
  const auto& tab = e.emu.config().textures;
  auto it = tab.find(lo);
  if (it == tab.end()) e.trap("no texture or surface object with handle " + std::to_string(lo));
  if (it->second.kind != kind)
    e.trap(kind == TexObject::Kind::Texture ? "a texture instruction on a surface object"
                                            : "a surface instruction on a texture object");
  return it->second;
}

// The dimension operand of TEX/TLD: number of coordinates, array or not, cube or not.
struct TexDim {
  const char* name;
  int coords;
  bool array, cube;
};
const TexDim kTexDims[] = {{"1D", 1, false, false},      {"2D", 2, false, false},
                           {"3D", 3, false, false},      {"CUBE", 3, false, true},
                           {"ARRAY_1D", 1, true, false}, {"ARRAY_2D", 2, true, false},
                           {"ARRAY_CUBE", 3, true, true}};

const TexDim& tex_dim(Exec& e, const Operand& o) {
  if (o.kind != OpndKind::Word) e.trap("texture dimension operand expected");
  for (const TexDim& d : kTexDims)
    if (o.sreg_name == d.name) return d;
  e.trap("texture dimension " + o.sreg_name + " is not modelled");
}

// Which object shapes an instruction dimension reads (a 1D texture is sampled as 2D with
// height 1: HW: ptxas 13.0 selects TEX.LL ... 2D for tex.1d).
bool dim_fits(const TexDim& d, Shape s, bool fetch) {
  std::string n = d.name;
  if (n == "1D") return s == Shape::D1 || (fetch && s == Shape::Buffer);
  if (n == "2D") return s == Shape::D2 || s == Shape::D1;
  if (n == "3D") return s == Shape::D3;
  if (n == "CUBE") return s == Shape::Cube;
  if (n == "ARRAY_1D") return s == Shape::Layered1D;
  if (n == "ARRAY_2D") return s == Shape::Layered2D;
  return s == Shape::LayeredCube;
}

uint32_t vec_reg(const Exec& e, int lane, const Operand& a, int i) {
  if (a.kind != OpndKind::Reg) e.trap("register vector operand expected");
  if (a.reg == kRZ) return 0;
  if (a.reg + i > 254) e.trap("register vector out of range");
  return e.reg(lane, a.reg + i);
}

// Point-sampled texel index of float coordinate u along a dimension of n texels; false for
// a border-mode fetch outside the texture (CUDA Programming Guide, "Texture Fetching").
bool point_index(Exec& e, const TexObject& t, float u, uint32_t n, uint32_t& idx) {
  using A = TexObject::Address;
  if (std::isnan(u)) e.trap("NaN texture coordinate (not modelled)");
  double x = u;
  if (t.address == A::Wrap || t.address == A::Mirror) {
    if (!t.normalized_coords) e.trap("wrap/mirror addressing needs normalized coordinates (not modelled otherwise)");
    double f = std::floor(x), frac = x - f;
    if (t.address == A::Mirror && std::fmod(std::fabs(f), 2.0) == 1.0) frac = 1.0 - frac;
    x = frac * n;
  } else if (t.normalized_coords) {
    x *= n;
  }
  double fl = std::floor(x);
  if (t.address == A::Border && (fl < 0 || fl >= n)) return false;
  fl = std::min(std::max(fl, 0.0), static_cast<double>(n - 1));
  idx = static_cast<uint32_t>(fl);
  return true;
}

// Cubemap face and normalized (s, t) for direction (x, y, z): CUDA Programming Guide,
// "Cubemap Textures" (face order +x -x +y -y +z -z). ptxas divides the coordinates by their
// largest magnitude before TEX (frontend/lower/lower_tex.cpp); the emulator checks that the
// major one is +-1 so that a compiler omitting the division is caught.
void cube_face(Exec& e, float x, float y, float z, uint32_t& face, float& s, float& t) {
  if (std::isnan(x) || std::isnan(y) || std::isnan(z)) e.trap("NaN cubemap coordinate (not modelled)");
  float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z), ma, sc, tc;
  if (ax >= ay && ax >= az) {
    ma = ax; face = x >= 0 ? 0 : 1; sc = x >= 0 ? -z : z; tc = -y;
  } else if (ay >= az) {
    ma = ay; face = y >= 0 ? 2 : 3; sc = x; tc = y >= 0 ? z : -z;
  } else {
    ma = az; face = z >= 0 ? 4 : 5; sc = z >= 0 ? x : -x; tc = -y;
  }
  if (std::fabs(ma - 1.0f) > 1e-5f)
    e.trap("cubemap coordinates are not divided by their largest magnitude (ptxas does that before TEX)");
  s = (sc / ma + 1.0f) * 0.5f;
  t = (tc / ma + 1.0f) * 0.5f;
}

// Writes the components enabled in `mask` in order to d1, d1+1, d2, d2+1.
void write_components(Exec& e, int lane, const Operand& d1, const Operand& d2, uint32_t mask,
                      const std::array<uint32_t, 4>& v) {
  int k = 0;
  for (int c = 0; c < 4; ++c) {
    if (!(mask >> c & 1)) continue;
    Operand d = k < 2 ? d1 : d2;
    if (d.kind != OpndKind::Reg) e.trap("texture destination is not a register");
    if (d.reg != kRZ) {
      d.reg += k % 2;
      if (d.reg > 254) e.trap("texture destination out of range");
      e.set(lane, d, v[c]);
    }
    ++k;
  }
}

uint32_t write_mask(Exec& e, size_t i) {
  if (e.nops() <= i) return 0xf;
  if (e.op(i).kind != OpndKind::Imm || e.op(i).imm > 0xf) e.trap("bad write mask");
  return static_cast<uint32_t>(e.op(i).imm);
}

}  // namespace

// TEX.LL d2, d1, a, b, URh, 0x0, DIM[, mask] and TLD.LZ d2, d1, a, URh, 0x0, DIM[, mask].
void op_tex(Exec& e) {
  bool fetch = e.in.opcode == "TLD";
  if (e.op(0).kind == OpndKind::Pred) e.trap("a texture instruction with a predicate destination is not modelled");
  if (!e.in.has(fetch ? "LZ" : "LL"))
    e.trap(fetch ? "TLD without .LZ is not modelled" : "TEX without .LL (implicit or biased LOD) is not modelled");
  size_t k = fetch ? 3 : 4;
  const Operand &d2 = e.op(0), &d1 = e.op(1), &a = e.op(2);
  const Operand& h = e.op(k);
  if (e.op(k + 1).kind != OpndKind::Imm || e.op(k + 1).imm != 0) e.trap("a sampler index other than 0x0 is not modelled");
  const TexDim& dim = tex_dim(e, e.op(k + 2));
  uint32_t mask = write_mask(e, k + 3);
  const TexObject& t = object(e, h, TexObject::Kind::Texture, true);
  if (!dim_fits(dim, t.shape, fetch)) e.trap(std::string("dimension ") + dim.name + " does not fit the object's shape");
  if (t.linear_filter && !fetch) e.trap("linear filtering is not modelled");
  if (dim.cube && fetch) e.trap("TLD on a cubemap is not modelled");
  e.each([&](int l) {
    int c0 = dim.array ? 1 : 0;
    uint32_t layer = 0;
    if (dim.array) {
      layer = vec_reg(e, l, a, 0);
      uint32_t n = dim.cube ? t.layers / 6 : t.layers;
      if (layer >= n) e.trap("array layer " + std::to_string(layer) + " outside the texture (not modelled)");
    }
    uint32_t idx[3] = {0, 0, 0}, zl = 0;
    bool inside = true;
    if (fetch) {
      uint32_t size[3] = {t.shape == Shape::Buffer ? static_cast<uint32_t>(t.texels()) : t.width, t.height, t.depth};
      for (int i = 0; i < dim.coords; ++i) {
        int32_t v = static_cast<int32_t>(vec_reg(e, l, a, c0 + i));
        if (v < 0 || static_cast<uint32_t>(v) >= size[i]) e.trap("TLD outside the texture (not modelled)");
        idx[i] = static_cast<uint32_t>(v);
      }
      zl = dim.coords == 3 ? idx[2] : layer;
    } else if (dim.cube) {
      float c[3];
      for (int i = 0; i < 3; ++i) c[i] = std::bit_cast<float>(vec_reg(e, l, a, c0 + i));
      uint32_t face;
      float s, tt;
      cube_face(e, c[0], c[1], c[2], face, s, tt);
      // Cubemaps take normalized coordinates; a face's edge clamps.
      idx[0] = static_cast<uint32_t>(std::min(std::max(std::floor(static_cast<double>(s) * t.width), 0.0), t.width - 1.0));
      idx[1] = static_cast<uint32_t>(std::min(std::max(std::floor(static_cast<double>(tt) * t.height), 0.0), t.height - 1.0));
      zl = face + 6 * layer;
    } else {
      uint32_t size[3] = {t.width, t.height, t.depth};
      for (int i = 0; i < dim.coords; ++i)
        inside &= point_index(e, t, std::bit_cast<float>(vec_reg(e, l, a, c0 + i)), size[i], idx[i]);
      zl = dim.coords == 3 ? idx[2] : layer;
    }
    std::array<uint32_t, 4> v = {0, 0, 0, 0};  // border colour: zero
    if (inside) {
      uint64_t off = t.shape == Shape::Buffer ? uint64_t{idx[0]} * t.element_bytes() : t.offset(idx[0], idx[1], zl);
      v = texel_result(t, e.mem(l, 'g', t.addr + off, t.element_bytes()));
    }
    write_components(e, l, d1, d2, mask, v);
  });
}

// TXQ d2, d1, a, TEX_HEADER_DIMENSION, URh, 0x0, mask: width / height / depth at LOD a (0).
void op_txq(Exec& e) {
  const Operand &d2 = e.op(0), &d1 = e.op(1), &a = e.op(2), &q = e.op(3);
  if (q.kind != OpndKind::Word || q.sreg_name != "TEX_HEADER_DIMENSION") e.trap("TXQ query not modelled");
  if (e.op(5).kind != OpndKind::Imm || e.op(5).imm != 0) e.trap("a sampler index other than 0x0 is not modelled");
  uint32_t mask = write_mask(e, 6);
  const TexObject& t = object(e, e.op(4), TexObject::Kind::Texture, true);
  int dims = t.shape == Shape::Buffer || t.shape == Shape::D1 ? 1 : t.shape == Shape::D2 ? 2 : t.shape == Shape::D3 ? 3 : 0;
  if (!dims) e.trap("TXQ on a layered or cubemap texture is not modelled");
  if (mask >> dims) e.trap("TXQ of a dimension the texture does not have is not modelled");
  e.each([&](int l) {
    if (vec_reg(e, l, a, 0) != 0) e.trap("TXQ of a level other than 0 is not modelled");
    std::array<uint32_t, 4> v = {t.shape == Shape::Buffer ? static_cast<uint32_t>(t.texels()) : t.width, t.height,
                                 t.depth, 0};
    write_components(e, l, d1, d2, mask, v);
  });
}

// SULD / SUST with byte addressing (.BA).
namespace {
void surface_access(Exec& e, bool store) {
  size_t k = 0;
  if (!store && e.op(0).kind == OpndKind::Pred) {
    if (e.op(0).reg != kPT) e.trap("SULD with a predicate destination is not modelled");
    ++k;
  }
  const Operand& val = store ? e.op(1) : e.op(k);
  const Operand& m = store ? e.op(0) : e.op(k + 1);
  const Operand& h = store ? e.op(2) : e.op(k + 2);
  const Operand& imm = store ? e.op(3) : e.op(k + 3);
  if (m.kind != OpndKind::Mem || m.mem_base < 0 || m.mem_base_ureg || m.mem_ureg >= 0 || m.imm != 0)
    e.trap("surface coordinates must be a register vector [Ra]");
  if (imm.kind != OpndKind::Imm || imm.imm != 0) e.trap("a surface index other than 0x0 is not modelled");
  if (!e.in.has("D") || !e.in.has("BA")) e.trap("only .D.BA (byte-addressed data) surface access is modelled");
  bool trap_oob = e.in.has("TRAP"), ign = e.in.has("IGN");
  if (!trap_oob && !ign) e.trap("the surface clamp mode is not modelled");
  std::string dim = e.in.pick({"1D", "2D", "3D", "1D_ARRAY", "2D_ARRAY", "1D_BUFFER"});
  bool sx = false;
  uint32_t n = 4;
  if (e.in.has("U8")) n = 1;
  else if (e.in.has("S8")) { n = 1; sx = true; }
  else if (e.in.has("U16")) n = 2;
  else if (e.in.has("S16")) { n = 2; sx = true; }
  else if (e.in.has("64")) n = 8;
  else if (e.in.has("128")) n = 16;
  const TexObject& t = object(e, h, TexObject::Kind::Surface, false);
  bool fits = (dim == "1D" && t.shape == Shape::D1) || (dim == "2D" && t.shape == Shape::D2) ||
              (dim == "3D" && t.shape == Shape::D3) || (dim == "1D_ARRAY" && t.shape == Shape::Layered1D) ||
              (dim == "2D_ARRAY" && (t.shape == Shape::Layered2D || t.shape == Shape::Cube || t.shape == Shape::LayeredCube));
  if (!fits) e.trap("surface dimension " + dim + " does not fit the object's shape");
  if (n != t.element_bytes())
    e.trap("a surface access of " + std::to_string(n) + " bytes on " + std::to_string(t.element_bytes()) +
           "-byte elements is not modelled");
  int ncoords = dim == "1D" ? 1 : dim == "2D" || dim == "1D_ARRAY" ? 2 : 3;
  bool layered = dim == "1D_ARRAY" || dim == "2D_ARRAY";
  Operand a;
  a.kind = OpndKind::Reg;
  a.reg = m.mem_base;
  int nregs = static_cast<int>(std::max<uint32_t>(1, n / 4));
  e.each([&](int l) {
    uint32_t c[3] = {0, 0, 0};
    for (int i = 0; i < ncoords; ++i) c[i] = vec_reg(e, l, a, i);
    uint32_t bx = c[0];
    if (bx % n) e.trap("surface x coordinate " + std::to_string(bx) + " is not a multiple of the access size");
    uint32_t x = bx / n, y = ncoords > 1 && !(dim == "1D_ARRAY") ? c[1] : 0;
    uint32_t zl = layered ? c[ncoords - 1] : ncoords == 3 ? c[2] : 0;
    uint32_t zmax = layered ? t.layers : t.depth;
    bool inside = x < t.width && y < t.height && zl < zmax;
    if (!inside && trap_oob) e.trap("surface access out of bounds (.TRAP)");
    uint32_t v[4] = {0, 0, 0, 0};
    if (store) {
      if (!inside) return;  // .IGN: dropped
      for (int i = 0; i < nregs; ++i) v[i] = vec_reg(e, l, val, i);
      std::memcpy(e.mem(l, 'g', t.addr + t.offset(x, y, zl), n), v, n);
    } else {
      if (inside) std::memcpy(v, e.mem(l, 'g', t.addr + t.offset(x, y, zl), n), n);
      if (sx && n == 1) v[0] = static_cast<uint32_t>(static_cast<int8_t>(v[0]));
      if (sx && n == 2) v[0] = static_cast<uint32_t>(static_cast<int16_t>(v[0]));
      e.setn(l, val, nregs, v);
    }
  });
}
}  // namespace

void op_suld(Exec& e) { surface_access(e, false); }
void op_sust(Exec& e) { surface_access(e, true); }

}  // namespace ptxmini::exec
