//===- driver/output_file.h - write an output file whole or not at all ------------------===//
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace ptxmini {
/// Writes `bytes` to a temporary file beside `path` and renames it over `path`, so a failure
/// (or a crash) never leaves a half-written output. Returns false and sets `err` on failure.
bool writeFileAtomically(const std::string &path, std::span<const uint8_t> bytes,
                         std::string &err);
/// Whether `path` could be created/overwritten (checked before work is done, so the user hears
/// about an unwritable output before a long compile, and nothing is left behind).
bool canWriteFile(const std::string &path);
} // namespace ptxmini
