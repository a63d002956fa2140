/* load_via_oracles.h - build a KernelImage from a cubin by running NVIDIA's tools.
 *
 * TEMPORARY: this is the only place in tests/exec that runs the oracles (nvdisasm for the
 * instruction text, cuobjdump -elf for sections and attributes). The lead replaces it with
 * the project's own sm_90 decoder (sass-mc -disassemble) and cubin reader when they merge;
 * the emulator only sees KernelImage. */
#pragma once

#include "tests/exec/emu/kernel_image.h"

#include <string>
#include <vector>

namespace ptxmini::exec {

// Fills `out` for kernel `kernel` of `cubin`. Returns false with `err` set on failure (a tool
// missing or failing, no such kernel, or a feature the emulator cannot model such as
// relocations against device globals).
bool load_via_oracles(const std::string& cubin, const std::string& kernel, KernelImage& out, std::string& err);

// Names of the kernels (entry functions) in `cubin`.
bool list_kernels_via_oracles(const std::string& cubin, std::vector<std::string>& names, std::string& err);

}  // namespace ptxmini::exec
