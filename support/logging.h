//===- support/logging.h - developer logging through spdlog ----------------------------===//
///
/// \file
/// Developer-facing trace output (not user diagnostics: those go through DiagEngine). Quiet by
/// default; `ptxas-mini --log-level=debug` or PTXAS_MINI_LOG=debug turns it on. Logs go to
/// stderr so they never mix with output files.
//===----------------------------------------------------------------------------------===//
#pragma once

#include <spdlog/spdlog.h>

#include <string_view>

namespace ptxmini {
/// Sets up the "ptxas-mini" stderr logger; level from `level` or else $PTXAS_MINI_LOG.
/// Returns false when the level name is not one spdlog knows.
bool initLogging(std::string_view level = {});
} // namespace ptxmini
