/* load_cubin.h - build a KernelImage from a cubin with the project's own cubin reader
 * (encoder/cubin) and sm_90 decoder (encoder/sass_codec): no NVIDIA tool runs, so the
 * emulator works wherever ptxas-mini builds, and every emulated instruction has gone
 * through ptxas-mini's decode tables. */
#pragma once

#include "tests/exec/emu/kernel_image.h"

#include <string>
#include <vector>

namespace ptxmini::exec {

// Fills `out` for kernel `kernel` of `cubin`. Returns false with `err` set on failure (an
// unreadable cubin, no such kernel, a word the decoder does not know, or a feature the
// emulator cannot model such as relocations against device globals).
bool load_cubin(const std::string& cubin, const std::string& kernel, KernelImage& out, std::string& err);

// Names of the kernels (entry functions) in `cubin`, in symbol-table order.
bool list_kernels(const std::string& cubin, std::vector<std::string>& names, std::string& err);

}  // namespace ptxmini::exec
