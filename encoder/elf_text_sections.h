//===- encoder/elf_text_sections.h - code sections of a cubin (stop-gap) ----------------===//
///
/// \file
/// TO BE REPLACED at merge by the cubin reader in encoder/cubin/ (another helper's work): the
/// lead wires `sass-mc -disassemble file.cubin` to it. Until then this finds the SHT_PROGBITS
/// sections named `.text.*` of an ELF64 image by walking the section headers, nothing more.
//===----------------------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptxmini::enc {

struct TextSection {
  std::string name;          ///< ".text.kernel"
  std::vector<uint8_t> code; ///< the instruction bytes
};

/// The code sections of `image`; false (with `err`) when it is not a well-formed ELF64.
bool findTextSections(const std::vector<uint8_t> &image, std::vector<TextSection> &out, std::string &err);

} // namespace ptxmini::enc
