//===- driver/compilation.h - one run of the compiler over its inputs ------------------===//
#pragma once

#include "driver/options.h"

#include <iosfwd>

namespace ptxmini {
/// Parses and checks every input, then (for a real sm_XX) generates code and writes the
/// cubin. Returns the exit status.
int runCompilation(const Options &opts, DiagEngine &diag);

void printVersion(std::ostream &os);
/// `--list-version`: the PTX ISA versions accepted, one a line.
void printPtxIsaVersions(std::ostream &os);
/// Every knob: name, type, default, description (from support/knobs.def).
void printKnobList(std::ostream &os);
} // namespace ptxmini
