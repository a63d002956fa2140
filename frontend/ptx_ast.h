// Placeholder until the PTX frontend lands (issue 3) with the real typed AST.
#pragma once
namespace ptxmini::ptx {
struct Module {};
} // namespace ptxmini::ptx
