// Placeholder until the cubin model lands (issue 5): says so and fails, never pretends.
#include "encoder/sass_mc_commands.h"

namespace ptxmini::sassmc {
int dumpElf(const Options &, std::ostream &, DiagEngine &diag) {
  diag.error("-elf is not implemented yet");
  return DiagEngine::kFailureExitCode;
}
int rewrite(const Options &, DiagEngine &diag) {
  diag.error("-rewrite is not implemented yet");
  return DiagEngine::kFailureExitCode;
}
} // namespace ptxmini::sassmc
