/* test_desc.h - the execution-test description format and the buffers it describes.
 *
 * A description is a small line-oriented text file ('#' starts a comment):
 *   kernel  <name>
 *   grid    <x> [<y> [<z>]]
 *   block   <x> [<y> [<z>]]
 *   dynamic_shared <bytes>
 *   buffer  <name> <type> <count> <generator...>   type: i8 u8 i16 u16 i32 u32 i64 u64 f32 f64
 *           f16 bf16 (binary16 / bfloat16 bits, generated and compared as floats)
 *           generators: zero | iota [start=S] [step=D] | const value=V
 *                     | random seed=N [lo=L] [hi=H]     (uniform; integers inclusive)
 *                       [quantum=Q]       floats: rounded to a multiple of Q
 *                       [full=1]          integers: every bit random (whole 64-bit range)
 *                       [edges=row|col]   integers: the first K*K elements are edge values
 *                                         (0, 1, -1, shift widths, type extremes; K of them),
 *                                         E[i / K] for `row`, E[i % K] for `col`, so a row
 *                                         and a col buffer meet in every pair of edge values;
 *                                         edgebits=8|16|32|64 takes another width's list
 *                     | bits seed=N [exp=LO:HI]   (raw bit patterns: edge values of the type,
 *                                 else random; exp= confines a float's exponent field)
 *   param   <type> <value>      a scalar, in kernel parameter order
 *   param   ptr <buffer>        a buffer's device address
 *   param   blob <buffer>       a by-value parameter (a struct) whose bytes are the buffer's
 *   texture <name> <buffer> <shape> <format> <width> [<height> [<depth>]] [layers=N]
 *           [coords=unnormalized|normalized] [address=clamp|border|wrap|mirror]
 *           [read=element|normalized] [filter=point|linear]
 *           a texture object over a buffer holding the texels tightly packed (x fastest, then
 *           y, then z / layer / cube face); shape buffer (linear memory, tex1Dfetch) 1d 2d 3d
 *           a1d a2d cube acube; format <channel>[x2|x4] with channel u8 s8 u16 s16 u32 s32 f32;
 *           layers: array layers (a1d/a2d) or cubemaps (acube). Defaults: unnormalized, clamp,
 *           element, point (emu/texture.h says what the emulator models)
 *   surface <name> <buffer> <shape> <format> <width> [<height> [<depth>]] [layers=N]
 *           a surface object (shapes 1d 2d 3d a1d a2d); stores land in the buffer, so it can
 *           be an output
 *   param   tex <name>          a texture or surface object's 64-bit handle
 *   output  <buffer> [tol=T|exact]  compared after the run (floats: |got-want| <= T*max(1,|want|);
 *                               exact: bit for bit, except that any NaN matches any NaN)
 *   reference <name>            the C++ CPU reference (references.cpp) that computes outputs
 *   expect_trap <text>          a negative test: the emulator must trap with <text> in the message
 * Parameters are listed in the kernel's parameter order; their sizes are checked against the
 * kernel's parameter table. */
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ptxmini::exec {

struct BufferDesc {
  std::string name, type;
  uint64_t count = 0;
  std::vector<std::string> gen;  // generator words
  std::vector<uint8_t> data;     // generated contents
};

struct TextureDesc {
  std::string name, buffer;
  bool surface = false;
  std::string shape, format;     // as written (emu/texture.h parses them)
  uint32_t width = 1, height = 1, depth = 1, layers = 1;  // layers: acube counts cubemaps
  bool normalized_coords = false, read_normalized = false, linear_filter = false;
  std::string address = "clamp";
};

struct ParamDesc {
  std::string type;   // scalar type, "ptr", "blob" or "tex"
  std::string value;  // literal or buffer name
};

struct OutputDesc {
  std::string buffer;
  double tol = 0;
};

struct TestDesc {
  std::string kernel, reference, expect_trap;
  uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  uint32_t dynamic_shared = 0;
  std::vector<BufferDesc> buffers;
  std::vector<TextureDesc> textures;
  std::vector<ParamDesc> params;
  std::vector<OutputDesc> outputs;

  BufferDesc* buffer(const std::string& n);
  const BufferDesc* buffer(const std::string& n) const;
  const TextureDesc* texture(const std::string& n) const;
};

size_t type_size(const std::string& t);  // 0 if unknown
bool parse_test_desc(const std::string& path, TestDesc& d, std::string& err);
// Fill every buffer's data from its generator.
bool generate_buffers(TestDesc& d, std::string& err);
// Encode a scalar parameter into bytes.
bool encode_scalar(const std::string& type, const std::string& value, std::vector<uint8_t>& out, std::string& err);
// Compare one output; returns the number of mismatching elements and prints up to `show` of them.
uint64_t compare_buffer(const BufferDesc& want, const std::vector<uint8_t>& got, double tol, int show,
                        std::string& report);

// CPU references: compute the expected outputs from the inputs, in place on copies of the
// buffers (keyed by name), with the scalar parameters as given in the description.
struct RefCtx {
  const TestDesc& d;
  std::map<std::string, std::vector<uint8_t>>& bufs;
  template <class T> T* buf(const std::string& n) { return reinterpret_cast<T*>(bufs.at(n).data()); }
  uint64_t count(const std::string& n) const;
  const TextureDesc& texture(const std::string& n) const;
  double scalar(size_t param_index) const;
  int64_t iscalar(size_t param_index) const;
};
using RefFn = void (*)(RefCtx&);
RefFn find_reference(const std::string& name);
std::vector<std::string> reference_names();

}  // namespace ptxmini::exec
