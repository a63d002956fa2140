//===- support/logging.cpp - developer logging through spdlog --------------------------===//
#include "support/logging.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <cstdlib>
#include <string>

namespace ptxmini {

bool initLogging(std::string_view level) {
  std::string name(level);
  if (name.empty())
    if (const char *env = std::getenv("PTXAS_MINI_LOG"))
      name = env;
  auto lvl = spdlog::level::off;
  bool ok = true;
  if (!name.empty()) {
    lvl = spdlog::level::from_str(name);
    // from_str answers `off` for unknown names; only "off" itself is a legal way to say that.
    ok = lvl != spdlog::level::off || name == "off";
  }
  auto logger = spdlog::get("ptxas-mini");
  if (!logger)
    logger = spdlog::stderr_color_st("ptxas-mini");
  logger->set_level(lvl);
  logger->set_pattern("[%n %l] %v");
  spdlog::set_default_logger(logger);
  return ok;
}

} // namespace ptxmini
