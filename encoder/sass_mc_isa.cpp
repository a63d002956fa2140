// Placeholder until the encoder lands (issue 4): says so and fails, never pretends.
#include "encoder/sass_mc_commands.h"

namespace ptxmini::sassmc {
int assemble(const Options &, std::ostream &, DiagEngine &diag) {
  diag.error("-assemble is not implemented yet");
  return DiagEngine::kFailureExitCode;
}
int disassemble(const Options &, std::ostream &, DiagEngine &diag) {
  diag.error("-disassemble is not implemented yet");
  return DiagEngine::kFailureExitCode;
}
} // namespace ptxmini::sassmc
