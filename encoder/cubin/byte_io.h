//===- encoder/cubin/byte_io.h - little-endian reads and appends -----------------------===//
///
/// \file
/// Little-endian integer access for the cubin reader and writer. Reads take a pointer the
/// caller has already bounds-checked; appends grow a byte vector.
//===----------------------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ptxmini::cubin {

inline uint16_t rd16(const uint8_t *p) { return uint16_t(p[0] | (p[1] << 8)); }
inline uint32_t rd32(const uint8_t *p) { return uint32_t(rd16(p)) | (uint32_t(rd16(p + 2)) << 16); }
inline uint64_t rd64(const uint8_t *p) { return uint64_t(rd32(p)) | (uint64_t(rd32(p + 4)) << 32); }

inline void put16(std::vector<uint8_t> &v, uint16_t x) {
  v.push_back(uint8_t(x));
  v.push_back(uint8_t(x >> 8));
}
inline void put32(std::vector<uint8_t> &v, uint32_t x) {
  put16(v, uint16_t(x));
  put16(v, uint16_t(x >> 16));
}
inline void put64(std::vector<uint8_t> &v, uint64_t x) {
  put32(v, uint32_t(x));
  put32(v, uint32_t(x >> 32));
}
inline void wr16(uint8_t *p, uint16_t x) { p[0] = uint8_t(x); p[1] = uint8_t(x >> 8); }
inline void wr32(uint8_t *p, uint32_t x) { wr16(p, uint16_t(x)); wr16(p + 2, uint16_t(x >> 16)); }
inline void wr64(uint8_t *p, uint64_t x) { wr32(p, uint32_t(x)); wr32(p + 4, uint32_t(x >> 32)); }

/// Lower-case hex without prefix.
inline std::string hex(uint64_t v) {
  static const char d[] = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), d[v & 15]);
    v >>= 4;
  } while (v);
  return s;
}

} // namespace ptxmini::cubin
