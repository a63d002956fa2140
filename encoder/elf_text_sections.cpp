//===- encoder/elf_text_sections.cpp - .text.* sections of an ELF64 (stop-gap) ----------===//
///
/// \file
/// TO BE REPLACED by the cubin reader (encoder/cubin/) at merge; see the header. Reads the
/// ELF64 little-endian header, the section header table and the section-name string table,
/// bounds-checking every offset, and returns the SHT_PROGBITS (1) sections named `.text.*`.
//===----------------------------------------------------------------------------------===//
#include "encoder/elf_text_sections.h"

#include <cstring>

namespace ptxmini::enc {

namespace {
template <typename T> bool readAt(const std::vector<uint8_t> &b, uint64_t off, T &v) {
  if (off > b.size() || b.size() - off < sizeof(T))
    return false;
  std::memcpy(&v, b.data() + off, sizeof(T)); // ELF64 little-endian, as the host
  return true;
}
} // namespace

bool findTextSections(const std::vector<uint8_t> &image, std::vector<TextSection> &out, std::string &err) {
  if (image.size() < 64 || std::memcmp(image.data(), "\x7f" "ELF", 4) != 0 || image[4] != 2 || image[5] != 1) {
    err = "not a little-endian ELF64 file";
    return false;
  }
  uint64_t shoff;
  uint16_t shentsize, shnum, shstrndx;
  if (!readAt(image, 0x28, shoff) || !readAt(image, 0x3a, shentsize) || !readAt(image, 0x3c, shnum) ||
      !readAt(image, 0x3e, shstrndx) || shentsize < 64 || shstrndx >= shnum) {
    err = "bad ELF header";
    return false;
  }
  auto hdr = [&](unsigned i, uint32_t &name, uint32_t &type, uint64_t &off, uint64_t &size) {
    uint64_t h = shoff + uint64_t(i) * shentsize;
    return readAt(image, h, name) && readAt(image, h + 4, type) && readAt(image, h + 24, off) &&
           readAt(image, h + 32, size) && off <= image.size() && size <= image.size() - off;
  };
  uint32_t sn, st;
  uint64_t strOff, strSize;
  if (!hdr(shstrndx, sn, st, strOff, strSize)) {
    err = "bad section-name table";
    return false;
  }
  for (unsigned i = 0; i < shnum; ++i) {
    uint32_t name, type;
    uint64_t off, size;
    if (!hdr(i, name, type, off, size) || name >= strSize) {
      err = "bad section header " + std::to_string(i);
      return false;
    }
    const char *s = reinterpret_cast<const char *>(image.data() + strOff + name);
    std::string n(s, strnlen(s, size_t(strSize - name)));
    if (type == 1 && n.rfind(".text.", 0) == 0)
      out.push_back({n, std::vector<uint8_t>(image.begin() + long(off), image.begin() + long(off + size))});
  }
  return true;
}

} // namespace ptxmini::enc
