//===- driver/output_file.cpp - write an output file whole or not at all ----------------===//
#include "driver/output_file.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace ptxmini {

bool canWriteFile(const std::string &path) {
  namespace fs = std::filesystem;
  fs::path p(path);
  fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (fs::is_directory(p, ec))
    return false;
  if (!fs::is_directory(dir, ec))
    return false;
  return ::access(dir.c_str(), W_OK) == 0 &&
         (!fs::exists(p, ec) || ::access(p.c_str(), W_OK) == 0);
}

bool writeFileAtomically(const std::string &path, std::span<const uint8_t> bytes,
                         std::string &err) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      err = "Output file '" + path + "' could not be opened";
      return false;
    }
    out.write(reinterpret_cast<const char *>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      out.close();
      std::remove(tmp.c_str());
      err = "Output file '" + path + "' could not be written";
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    err = "Output file '" + path + "' could not be opened";
    return false;
  }
  return true;
}

} // namespace ptxmini
