//===- encoder/cubin/section_rules.h - per-section-type facts --------------------------===//
///
/// \file
/// Which section types take file space and how the model holds each type's contents, and
/// the names cuobjdump prints for the CUDA section types. One table, used by the reader,
/// the layout and the dump.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "encoder/cubin/cubin_model.h"

namespace ptxmini::cubin {

struct SectionTypeRow {
  uint32_t type;
  const char *name; ///< as `cuobjdump -elf` 13.2 prints it
  bool fileSpace;   ///< false: like NOBITS, an offset but no bytes
  SectionKind kind; ///< how the model holds the contents
};

// HW: names printed by cuobjdump -elf 13.2 for sections of ptxas 13.0 cubins; fileSpace
// observed from the offsets (the next section starts at the same offset).
inline constexpr SectionTypeRow kSectionTypes[] = {
    {elf::kShtNull, "NULL", false, SectionKind::Null},
    {elf::kShtProgbits, "PROGBITS", true, SectionKind::Bytes},
    {elf::kShtSymtab, "SYMTAB", true, SectionKind::Symbols},
    {elf::kShtStrtab, "STRTAB", true, SectionKind::Bytes},
    {elf::kShtRela, "RELA", true, SectionKind::Relocations},
    {elf::kShtNote, "NOTE", true, SectionKind::Notes},
    {elf::kShtNobits, "NOBITS", false, SectionKind::NoBits},
    {elf::kShtRel, "REL", true, SectionKind::Relocations},
    {elf::kShtCudaInfo, "CUDA_INFO", true, SectionKind::Attributes},
    {elf::kShtCudaCallgraph, "CUDA_CALLGRAPH", true, SectionKind::Callgraph},
    {elf::kShtCudaPrototype, "CUDA_PROTOTYPE", true, SectionKind::Bytes},
    {elf::kShtCudaGlobal, "CUDA_GLOBAL", false, SectionKind::NoBits},
    {elf::kShtCudaGlobalInit, "CUDA_GLOBAL_INIT", true, SectionKind::Bytes},
    {elf::kShtCudaShared, "CUDA_SHARED", false, SectionKind::NoBits},
    {elf::kShtCudaConstantB0 + 0, "CUDA_CONSTANT_B0", true, SectionKind::Bytes},
    {elf::kShtCudaConstantB0 + 2, "CUDA_CONSTANT_B2", true, SectionKind::Bytes},
    {elf::kShtCudaConstantB0 + 3, "CUDA_CONSTANT_B3", true, SectionKind::Bytes},
    {elf::kShtCudaConstantB0 + 4, "CUDA_CONSTANT_B4", true, SectionKind::Bytes},
    {elf::kShtCudaCompat, "CUDA_COMPAT_INFO", true, SectionKind::Attributes},
};

inline const SectionTypeRow *sectionTypeRow(uint32_t type) {
  for (const auto &r : kSectionTypes)
    if (r.type == type)
      return &r;
  return nullptr;
}
/// Unknown types are assumed to hold bytes in the file.
inline bool occupiesFile(uint32_t type) {
  const SectionTypeRow *r = sectionTypeRow(type);
  return r ? r->fileSpace : true;
}

} // namespace ptxmini::cubin
