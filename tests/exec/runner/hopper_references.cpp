/* hopper_references.cpp - C++ CPU references of the sm_90a asynchronous-machinery execution
 * tests (kernels/mbarrier_*.ptx, ...): what the kernels compute, written from the PTX ISA's
 * description of the instructions, independently of the emulator's model of them. */
#include "tests/exec/runner/test_desc.h"

#include <cstdint>

namespace ptxmini::exec {
namespace {

// mbarrier_pc: consumer j of CTA b folds the 4 rounds of its slot (j % 32): acc = acc * 3 + v.
// info[b] = {pending arrivals after init(5) (state before arrive 2): 5, after the second
// arrive's state: 3, test_wait before completion: 0, after the fifth arrival: 1}.
void ref_mbarrier_pc(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("in");
  uint32_t* out = c.buf<uint32_t>("out");
  uint32_t* info = c.buf<uint32_t>("info");
  for (uint32_t b = 0; b < c.d.grid[0]; ++b) {
    for (uint32_t j = 0; j < 96; ++j) {
      uint32_t acc = 0;
      for (uint32_t r = 0; r < 4; ++r) acc = acc * 3 + in[(b * 4 + r) * 32 + j % 32];
      out[b * 96 + j] = acc;
    }
    info[b * 4 + 0] = 5;
    info[b * 4 + 1] = 3;
    info[b * 4 + 2] = 0;
    info[b * 4 + 3] = 1;
  }
}

// setmaxnreg_ws: out[b * 256 + j] = in[b * 256 + j] * 5 + in[b * 256 + 255 - j].
void ref_setmaxnreg_ws(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("in");
  uint32_t* out = c.buf<uint32_t>("out");
  for (uint32_t b = 0; b < c.d.grid[0]; ++b)
    for (uint32_t j = 0; j < 256; ++j)
      out[b * 256 + j] = in[b * 256 + j] * 5 + in[b * 256 + 255 - j];
}

// cvta_param: out[t] = blob[t % 4] + t + 3 * blob[3].
void ref_cvta_param(RefCtx& c) {
  const uint32_t* blob = c.buf<uint32_t>("blob");
  uint32_t* out = c.buf<uint32_t>("out");
  for (uint32_t t = 0; t < 64; ++t) out[t] = blob[t % 4] + t + 3 * blob[3];
}

// cvta_roundtrip: .const table entry t % 4 (11, 22, 33, 44) and parameter word t % 4.
void ref_cvta_roundtrip(RefCtx& c) {
  const uint32_t* blob = c.buf<uint32_t>("blob");
  uint32_t* out = c.buf<uint32_t>("out");
  for (uint32_t t = 0; t < 64; ++t) {
    out[2 * t] = 11 * (t % 4 + 1);
    out[2 * t + 1] = blob[t % 4];
  }
}

// bulk_copy: out = in + 1 and out2 = in2 (each CTA its slice: 256 and 128 words).
void ref_bulk_copy(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("in");
  const uint32_t* in2 = c.buf<uint32_t>("in2");
  uint32_t* out = c.buf<uint32_t>("out");
  uint32_t* out2 = c.buf<uint32_t>("out2");
  for (uint32_t i = 0; i < 256 * c.d.grid[0]; ++i) out[i] = in[i] + 1;
  for (uint32_t i = 0; i < 128 * c.d.grid[0]; ++i) out2[i] = in2[i];
}

// cp_async_mbarrier: out[t] = in[63 - t] * 2 + in[64 + 63 - t].
void ref_cp_async_mbarrier(RefCtx& c) {
  const uint32_t* in = c.buf<uint32_t>("in");
  uint32_t* out = c.buf<uint32_t>("out");
  for (uint32_t t = 0; t < 64; ++t) out[t] = in[63 - t] * 2 + in[64 + 63 - t];
}

}  // namespace

struct CorpusRef {
  const char* name;
  RefFn fn;
};
extern const CorpusRef kHopperRefs[];
const CorpusRef kHopperRefs[] = {
    {"mbarrier_pc", ref_mbarrier_pc},
    {"setmaxnreg_ws", ref_setmaxnreg_ws},
    {"cvta_param", ref_cvta_param},
    {"cvta_roundtrip", ref_cvta_roundtrip},
    {"bulk_copy", ref_bulk_copy},
    {"cp_async_mbarrier", ref_cp_async_mbarrier},
    {nullptr, nullptr},
};

}  // namespace ptxmini::exec
