/* tex_references.cpp - C++ CPU references of the texture and surface execution tests
 * (kernels/tex_*.ptx, surf_rw.ptx, tex_cuda.cu). Written from the CUDA Programming Guide's
 * definitions (appendix "Texture Fetching": point sampling tex(x) = T[floor(x)], the address
 * modes, normalized coordinates x * N; "Cubemap Textures": the face table; surface functions:
 * x in bytes), independently of the emulator's texture model (emu/ops_tex.cpp). Texels are
 * laid out as the test descriptions say: x fastest, then y, then z / layer / cube face. */
#include "tests/exec/runner/test_desc.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace ptxmini::exec {
namespace {

int clampi(double v, int n) { return static_cast<int>(std::min(std::max(std::floor(v), 0.0), n - 1.0)); }

// Wrap and mirror of a normalized coordinate, as a texel index of n.
int wrap_index(float u, int n) {
  double f = static_cast<double>(u) - std::floor(static_cast<double>(u));
  return std::min(static_cast<int>(std::floor(f * n)), n - 1);
}
int mirror_index(float u, int n) {
  double fl = std::floor(static_cast<double>(u));
  double f = static_cast<double>(u) - fl;
  if (static_cast<int64_t>(fl) % 2 != 0) f = 1.0 - f;
  return std::min(static_cast<int>(std::floor(f * n)), n - 1);
}

void ref_tex_sample(RefCtx& c) {
  const int W = 16, H = 8, n = static_cast<int>(c.count("cx"));
  const float* cx = c.buf<float>("cx");
  const float* cy = c.buf<float>("cy");
  const float* imgf = c.buf<float>("imgf");
  const uint8_t* imgu = c.buf<uint8_t>("imgu");
  for (int i = 0; i < n; ++i) {
    int x = clampi(cx[i], W), y = clampi(cy[i], H);
    for (int k = 0; k < 4; ++k) {
      c.buf<float>("outf")[4 * i + k] = imgf[(y * W + x) * 4 + k];
      c.buf<uint32_t>("outu")[4 * i + k] = imgu[(y * W + x) * 4 + k];
    }
    float u = cx[i] * (1.0f / 16), v = cy[i] * (1.0f / 8);
    int wx = wrap_index(u, W), wy = wrap_index(v, H), mx = mirror_index(u, W), my = mirror_index(v, H);
    for (int k = 0; k < 4; ++k) {
      c.buf<float>("outw")[4 * i + k] = imgu[(wy * W + wx) * 4 + k] / 255.0f;
      c.buf<float>("outm")[4 * i + k] = imgu[(my * W + mx) * 4 + k] / 255.0f;
    }
  }
}

void ref_tex_fetch(RefCtx& c) {
  const int n = static_cast<int>(c.count("ix"));
  const int32_t* ix = c.buf<int32_t>("ix");
  const int32_t* iy = c.buf<int32_t>("iy");
  const int32_t* iz = c.buf<int32_t>("iz");
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 4; ++k) c.buf<float>("outb")[4 * i + k] = c.buf<float>("bufb")[4 * ix[i] + k];
    for (int k = 0; k < 2; ++k) c.buf<int32_t>("outs")[2 * i + k] = c.buf<int16_t>("bufs")[2 * ix[i] + k];
    c.buf<float>("out2")[i] = c.buf<float>("img2")[iy[i] * 12 + iz[i]];            // (x = iz, y = iy)
    for (int k = 0; k < 4; ++k)                                                     // layer iz, (iy, iz)
      c.buf<uint32_t>("outa")[4 * i + k] = c.buf<uint8_t>("imga")[((iz[i] * 4 + iz[i]) * 6 + iy[i]) * 4 + k];
    for (int k = 0; k < 4; ++k)                                                     // (iz, iz, iy)
      c.buf<uint32_t>("out3")[4 * i + k] = c.buf<uint16_t>("img3")[((iy[i] * 3 + iz[i]) * 4 + iz[i]) * 4 + k];
  }
}

// Cubemap face and texel for direction (x, y, z) on W x W faces (CUDA Programming Guide,
// "Cubemap Textures": faces +x -x +y -y +z -z, (s, t) = ((sc / |ma| + 1) / 2, (tc / |ma| + 1) / 2)).
int cube_texel(float x, float y, float z, int W) {
  float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  int face;
  float ma, sc, tc;
  if (ax >= ay && ax >= az) { face = x >= 0 ? 0 : 1; ma = ax; sc = x >= 0 ? -z : z; tc = -y; }
  else if (ay >= az) { face = y >= 0 ? 2 : 3; ma = ay; sc = x; tc = y >= 0 ? z : -z; }
  else { face = z >= 0 ? 4 : 5; ma = az; sc = z >= 0 ? x : -x; tc = -y; }
  int s = clampi((sc / ma + 1.0) / 2 * W, W), t = clampi((tc / ma + 1.0) / 2 * W, W);
  return (face * W + t) * W + s;
}

void ref_tex_shapes(RefCtx& c) {
  const int n = static_cast<int>(c.count("bufb"));
  const float *b = c.buf<float>("bufb"), *cc = c.buf<float>("bufc"), *x1 = c.buf<float>("bufx1");
  const float *x3 = c.buf<float>("bufx3"), *y3 = c.buf<float>("bufy3"), *z3 = c.buf<float>("bufz3");
  const int32_t* iz = c.buf<int32_t>("bufiz");
  for (int i = 0; i < n; ++i) {
    // 1D, border: outside [0, 16) the border colour 0.
    double fx = std::floor(x1[i]);
    c.buf<float>("out1")[i] = fx < 0 || fx >= 16 ? 0.0f : c.buf<float>("img1")[static_cast<int>(fx)];
    int x = clampi(x3[i], 4), y = clampi(y3[i], 4), z = clampi(z3[i], 4);
    for (int k = 0; k < 4; ++k) c.buf<float>("out3")[4 * i + k] = c.buf<float>("img3")[((z * 4 + y) * 4 + x) * 4 + k];
    int xa = clampi(x3[i], 8), ya = clampi(y3[i], 4);
    for (int k = 0; k < 2; ++k) c.buf<float>("outa1")[2 * i + k] = c.buf<float>("imga1")[(iz[i] * 8 + xa) * 2 + k];
    for (int k = 0; k < 4; ++k)
      c.buf<float>("outa2")[4 * i + k] = c.buf<float>("imga2")[((iz[i] * 4 + ya) * 8 + xa) * 4 + k];
    const float a = 2.5f;
    const float dirs[6][3] = {{a, b[i], cc[i]}, {-a, b[i], cc[i]}, {b[i], a, cc[i]},
                              {b[i], -a, cc[i]}, {b[i], cc[i], a}, {b[i], cc[i], -a}};
    for (int k = 0; k < 6; ++k)
      c.buf<float>("outc")[6 * i + k] = c.buf<float>("imgc")[cube_texel(dirs[k][0], dirs[k][1], dirs[k][2], 4)];
    const float adirs[2][3] = {{a, b[i], cc[i]}, {b[i], cc[i], -a}};
    for (int k = 0; k < 2; ++k)
      c.buf<float>("outac")[2 * i + k] =
          c.buf<float>("imgac")[iz[i] * 6 * 16 + cube_texel(adirs[k][0], adirs[k][1], adirs[k][2], 4)];
    // tex.level on a texture with one level: level 0 whatever the LOD.
    c.buf<float>("outl")[i] = c.buf<float>("imgl")[clampi(y3[i], 8) * 8 + clampi(x3[i], 8)];
  }
}

void ref_surf_rw(RefCtx& c) {
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 8; ++x) {
      int e = y * 8 + x;
      for (int k = 0; k < 4; ++k)  // bytes reversed, to (x, 3 - y)
        c.buf<uint8_t>("bdu8")[((3 - y) * 8 + x) * 4 + k] = c.buf<uint8_t>("bsu8")[e * 4 + 3 - k];
      uint8_t v8 = c.buf<uint8_t>("bsb")[e];
      c.buf<uint8_t>("bdb")[y * 8 + 7 - x] = v8;
      for (int k = 0; k < 4; ++k) c.buf<float>("bd1")[e * 4 + k] = c.buf<float>("bs1")[e * 4 + 3 - k];
      c.buf<uint8_t>("bd3")[((x >> 2) * 4 + y) * 4 + (x & 3)] = v8;
      c.buf<float>("bda2")[((x >> 2) * 4 + y) * 4 + (x & 3)] = c.buf<float>("bs1")[e * 4];
      c.buf<uint32_t>("bda1")[y * 8 + x] = static_cast<uint32_t>(e);
      for (int k = 0; k < 2; ++k) {
        c.buf<uint32_t>("bd64")[((3 - y) * 8 + x) * 2 + k] = c.buf<uint32_t>("bs64")[e * 2 + k];
        c.buf<uint32_t>("be64")[e * 2 + k] = c.buf<uint32_t>("bs64")[e * 2 + 1 - k];
        c.buf<uint16_t>("bd16")[e * 2 + k] = c.buf<uint16_t>("bs16")[e * 2 + 1 - k];
      }
      c.buf<uint32_t>("bdz")[e] = x < 4 ? c.buf<uint32_t>("bsz")[e + 4] : 0;
      if (x < 4) c.buf<uint32_t>("bdz2")[e + 4] = static_cast<uint32_t>(e);
    }
}

void ref_tex_cuda(RefCtx& c) {
  const int W = 16, H = 8;
  const float* img = c.buf<float>("img");
  const float* lin = c.buf<float>("lin");
  uint8_t* pix = c.buf<uint8_t>("pix");
  float* out = c.buf<float>("out");
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      float u = (x + 0.5f) / W * 2.0f - 0.5f, v = (y + 0.5f) / H;
      const float* a = img + (wrap_index(v, H) * W + wrap_index(u, W)) * 4;
      const float* b = lin + (y * W + x) * 4;
      float* o = out + (y * W + x) * 4;
      o[0] = a[0] + b[0];
      o[1] = a[1] - b[1];
      o[2] = a[2];
      o[3] = b[3];
      std::reverse(pix + (y * W + x) * 4, pix + (y * W + x) * 4 + 4);
    }
}

// Handles chosen per thread (kernels/tex_select.ptx): point sampling at texel centres and
// integer texel fetches of one of two 16 x 8 f32x4 textures, surface words of one of two
// 16 x 8 u32 surfaces, a guarded store into a third, and the dimensions of one of two
// textures.
void ref_tex_select(RefCtx& c) {
  const int W = 16, n = static_cast<int>(c.count("sel"));
  const int32_t *sel = c.buf<int32_t>("sel"), *ix = c.buf<int32_t>("ix"), *iy = c.buf<int32_t>("iy");
  for (int i = 0; i < n; ++i) {
    int e = iy[i] * W + ix[i];
    const float* t1 = c.buf<float>(sel[i] & 1 ? "imgb" : "imga") + 4 * e;
    const float* t2 = c.buf<float>(sel[i] & 2 ? "imgb" : "imga") + 4 * e;
    for (int k = 0; k < 4; ++k) {
      c.buf<float>("outf")[4 * i + k] = t1[k];
      c.buf<float>("outg")[4 * i + k] = t2[k];
    }
    c.buf<float>("outp")[i] = i % 3 != 0 ? t1[0] : -1.0f;
    c.buf<uint32_t>("outs")[i] = c.buf<uint32_t>(sel[i] & 1 ? "sfb" : "sfa")[e];
    if (sel[i] == 3) c.buf<uint32_t>("sfw")[i] = static_cast<uint32_t>(i);
    c.buf<uint32_t>("outq")[2 * i] = sel[i] & 1 ? 8 : 16;      // tc is 8 x 16, ta 16 x 8
    c.buf<uint32_t>("outq")[2 * i + 1] = sel[i] & 1 ? 16 : 8;
  }
}

}  // namespace

struct CorpusRef {
  const char* name;
  RefFn fn;
};
extern const CorpusRef kTextureRefs[] = {
    {"tex_sample", ref_tex_sample},
    {"tex_fetch", ref_tex_fetch},
    {"tex_shapes", ref_tex_shapes},
    {"surf_rw", ref_surf_rw},
    {"tex_cuda", ref_tex_cuda},
    {"tex_select", ref_tex_select},
    {nullptr, nullptr},
};

}  // namespace ptxmini::exec
