/* texture.h - the emulator's texture and surface objects (what a cudaTextureObject_t /
 * cudaSurfaceObject_t handle names), and the texel arithmetic TEX/TLD/TXQ/SULD/SUST use.
 *
 * An object is a description over one global-memory allocation holding the texels tightly
 * packed (x fastest, then y, then z or the array layer / cube face). The launch carries a
 * table handle -> object (LaunchConfig::textures); a kernel receives the handle as its .u64
 * parameter and ptxas-compiled code loads its low word into a uniform register (ptxas clears
 * the high word of TEX's handle pair; the emulator traps if it is not zero).
 *
 * Modelled (semantics from the CUDA Programming Guide, "Texture Fetching" and the texture /
 * surface function appendices): point sampling; unnormalized and normalized coordinates;
 * address modes clamp, border (zero), wrap and mirror (normalized coordinates only); read
 * modes element type (integer channels sign- or zero-extended, float bits) and normalized
 * float (8/16-bit integer channels); formats of 1, 2 or 4 channels of 8/16/32-bit integers
 * or 32-bit floats; 1D (and 1D textures sampled as 2D with height 1, as ptxas emits tex.1d),
 * 2D, 3D, 1D/2D layered, cubemap (face chosen by the largest coordinate magnitude) and
 * layered cubemap; linear-memory buffers (tex1Dfetch). Level of detail: one level (no
 * mipmaps), so any LOD samples level 0. Surfaces: byte-addressed (.BA) loads and stores of
 * the object's element size, out-of-bounds .TRAP (traps) and .IGN (loads give 0, stores are
 * dropped). Not modelled (the emulator traps): linear filtering, mipmaps, TLD outside the
 * texture, array layers outside the array, NaN coordinates, surface clamp mode, surface
 * accesses whose size differs from the element size, TXQ beyond the dimensions of a 1D/2D/3D
 * texture. Channels a format lacks read as (0, 0, 0, 1) (GUESS, OpenGL's convention; no test
 * reads them). */
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace ptxmini::exec {

struct TexObject {
  enum class Kind : uint8_t { Texture, Surface };
  enum class Shape : uint8_t { Buffer, D1, D2, D3, Layered1D, Layered2D, Cube, LayeredCube };
  enum class Channel : uint8_t { U8, S8, U16, S16, U32, S32, F32 };
  enum class Address : uint8_t { Wrap, Clamp, Mirror, Border };  // CUaddress_mode order

  Kind kind = Kind::Texture;
  Shape shape = Shape::D2;
  uint64_t addr = 0;            // global address of texel (0, 0, 0) of layer 0
  uint32_t width = 1, height = 1, depth = 1;  // depth: 3D only
  uint32_t layers = 1;          // layered: layers; cube: 6; layered cube: 6 * cubes
  Channel channel = Channel::F32;
  uint32_t channels = 1;        // 1, 2 or 4
  bool normalized_coords = false;
  bool read_normalized = false; // cudaReadModeNormalizedFloat
  bool linear_filter = false;
  Address address = Address::Clamp;  // all dimensions

  uint32_t channel_bytes() const;
  uint32_t element_bytes() const { return channel_bytes() * channels; }
  uint64_t texels() const { return uint64_t{width} * height * depth * layers; }
  // Byte offset of texel (x, y, z-or-layer) from addr.
  uint64_t offset(uint32_t x, uint32_t y, uint32_t zl) const {
    return ((uint64_t{zl} * height + y) * width + x) * element_bytes();
  }
};

// Names used by test descriptions: "buffer" "1d" "2d" "3d" "a1d" "a2d" "cube" "acube";
// formats "f32", "u8x4", ...; false if unknown.
bool parse_tex_shape(const std::string& s, TexObject::Shape& out);
bool parse_tex_format(const std::string& s, TexObject::Channel& ch, uint32_t& channels);
bool parse_tex_address(const std::string& s, TexObject::Address& out);

// One texel's four result words as TEX returns them (read mode applied, missing channels
// (0, 0, 0, 1)), from the element's raw bytes.
std::array<uint32_t, 4> texel_result(const TexObject& t, const uint8_t* element);

}  // namespace ptxmini::exec
