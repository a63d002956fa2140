//===- tests/unit/cubin/cubin_facts.h - what a compiler would know, read off a cubin ---===//
///
/// \file
/// Test support for the builder: reads a ptxas cubin's per-function facts (code bytes
/// without the tail, parameters, registers, barriers, shared memory, stack, exits, launch
/// bounds, cluster dims, extra instruction-offset attributes) into a ModuleInfo, so the
/// builder can rebuild the cubin and the test can compare it with ptxas's bytes. It only
/// reads facts a compiler has; layout, symbol order, string tables, .debug_frame,
/// program headers are left for the builder to derive. One exception, stated where used: a
/// function with a stack frame takes the code offset where its CFA rule starts from the FDE.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "encoder/cubin/cubin_builder.h"

#include <optional>
#include <string>
#include <vector>

namespace ptxmini::cubin::testing {

std::optional<ModuleInfo> factsFromCubin(const Cubin &c, std::string &error);

/// Human-readable differences between two cubins (header, each section's header and
/// contents, symbols, program headers); empty when the bytes are identical.
std::vector<std::string> diffCubins(const Cubin &expected, const std::vector<uint8_t> &expBytes,
                                    const Cubin &actual, const std::vector<uint8_t> &actBytes);

} // namespace ptxmini::cubin::testing
