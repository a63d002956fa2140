// Helpers shared by the Ori unit tests: parse text, expecting success or a diagnostic.
#pragma once

#include "ori/ori.h"

#include <string>

namespace ptxmini::ori::test {

/// Parses `text`; on failure the test fails with the diagnostics printed.
Program parseOrDie(const std::string &text);
/// Parses `text`, expecting failure; returns the diagnostics printed.
std::string parseError(const std::string &text);
/// The first function of `text`.
Function parseFunction(const std::string &text);
/// Block index by label (test fails when missing).
uint32_t blockIndex(const Function &f, const std::string &name);

} // namespace ptxmini::ori::test
