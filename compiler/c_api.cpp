//===- compiler/c_api.cpp - libptxas-mini's C API over compile() -----------------------===//
///
/// \file
/// The nvPTXCompiler-shaped C API of include/ptxas_mini.h. A handle owns a copy of the PTX
/// text, the cubin of its last successful compile and the two logs. A compile parses the
/// option list with the tool's own parser (compiler/options.cpp), gives the PTX to
/// `compile` as --input-as-string text named "application ptx input" (ptxas's name for PTX
/// that does not come from a file) and routes diagnostics: errors and warnings to the error
/// log, info messages and DUMPIR text to the info log. No exception crosses the C boundary.
//===----------------------------------------------------------------------------------===//
#include "ptxas_mini.h"

#include "compiler/compiler.h"
#include "compiler/options.h"

#include <cstring>
#include <mutex>
#include <new>
#include <sstream>
#include <string>
#include <vector>

struct ptxminiCompiler {
  std::string ptx;
  std::vector<uint8_t> program;
  bool compiled = false; ///< the last compile succeeded
  std::string errorLog, infoLog;
};

namespace {
using namespace ptxmini;

/// Compiles `h->ptx` with `args`; fills the program and the logs.
ptxminiResult compileHandle(ptxminiCompiler &h, const std::vector<std::string> &args) {
  static std::mutex compileMutex; // see the header: compiles are serialised
  std::lock_guard<std::mutex> lock(compileMutex);
  std::ostringstream err, info;
  DiagEngine diag("ptxas-mini");
  diag.setStream(err);
  diag.setInfoStream(info);
  bool ok = false;
  try {
    Options opts = parseCommandLine(args, diag);
    diag.setSuppressWarnings(opts.suppressWarnings);
    diag.setWarningsAsErrors(opts.warningsAsErrors);
    if (!opts.inputs.empty() || !opts.inputStrings.empty())
      diag.fatal("Input files and --input-as-string are not accepted in the option list; the "
                 "PTX is the one given to ptxminiCreate");
    if (opts.showHelp || opts.showVersion || opts.listVersion || opts.listKnobs ||
        opts.listPhases)
      diag.fatal("--help, --version, --list-* are not accepted in the option list");
    opts.inputStrings.push_back(h.ptx);
    CompileHooks hooks;
    hooks.dumpStream = &info;
    ok = compile(opts, diag, h.program, hooks);
  } catch (const FatalError &) {
    ok = false; // reported in the error log
  }
  h.errorLog = err.str();
  h.infoLog = info.str();
  h.compiled = ok;
  if (!ok)
    h.program.clear();
  return ok ? PTXMINI_SUCCESS : PTXMINI_ERROR_COMPILATION_FAILURE;
}

ptxminiResult copyLog(const std::string &log, char *buffer) {
  if (!buffer)
    return PTXMINI_ERROR_INVALID_INPUT;
  std::memcpy(buffer, log.data(), log.size());
  buffer[log.size()] = '\0';
  return PTXMINI_SUCCESS;
}
} // namespace

extern "C" {

ptxminiResult ptxminiGetVersion(unsigned int *major, unsigned int *minor) {
  if (!major || !minor)
    return PTXMINI_ERROR_INVALID_INPUT;
  *major = kVersionMajor;
  *minor = kVersionMinor;
  return PTXMINI_SUCCESS;
}

ptxminiResult ptxminiCreate(ptxminiHandle *handle, size_t ptxCodeLen, const char *ptxCode) {
  if (!handle)
    return PTXMINI_ERROR_INVALID_HANDLE;
  *handle = nullptr;
  if (!ptxCode && ptxCodeLen)
    return PTXMINI_ERROR_INVALID_INPUT;
  try {
    auto *h = new ptxminiCompiler;
    if (ptxCodeLen)
      h->ptx.assign(ptxCode, ptxCodeLen);
    *handle = h;
    return PTXMINI_SUCCESS;
  } catch (const std::bad_alloc &) {
    return PTXMINI_ERROR_OUT_OF_MEMORY;
  } catch (...) {
    return PTXMINI_ERROR_INTERNAL;
  }
}

ptxminiResult ptxminiDestroy(ptxminiHandle *handle) {
  if (!handle || !*handle)
    return PTXMINI_ERROR_INVALID_HANDLE;
  delete *handle;
  *handle = nullptr;
  return PTXMINI_SUCCESS;
}

ptxminiResult ptxminiCompile(ptxminiHandle handle, int numOptions, const char *const *options) {
  if (!handle)
    return PTXMINI_ERROR_INVALID_HANDLE;
  if (numOptions < 0 || (numOptions > 0 && !options))
    return PTXMINI_ERROR_INVALID_INPUT;
  try {
    std::vector<std::string> args;
    for (int i = 0; i < numOptions; ++i) {
      if (!options[i])
        return PTXMINI_ERROR_INVALID_INPUT;
      args.emplace_back(options[i]);
    }
    return compileHandle(*handle, args);
  } catch (const std::bad_alloc &) {
    return PTXMINI_ERROR_OUT_OF_MEMORY;
  } catch (...) {
    return PTXMINI_ERROR_INTERNAL;
  }
}

ptxminiResult ptxminiGetCompiledProgramSize(ptxminiHandle handle, size_t *size) {
  if (!handle)
    return PTXMINI_ERROR_INVALID_HANDLE;
  if (!size)
    return PTXMINI_ERROR_INVALID_INPUT;
  if (!handle->compiled)
    return PTXMINI_ERROR_INVOCATION_INCOMPLETE;
  *size = handle->program.size();
  return PTXMINI_SUCCESS;
}

ptxminiResult ptxminiGetCompiledProgram(ptxminiHandle handle, void *buffer) {
  if (!handle)
    return PTXMINI_ERROR_INVALID_HANDLE;
  if (!buffer)
    return PTXMINI_ERROR_INVALID_INPUT;
  if (!handle->compiled)
    return PTXMINI_ERROR_INVOCATION_INCOMPLETE;
  if (!handle->program.empty())
    std::memcpy(buffer, handle->program.data(), handle->program.size());
  return PTXMINI_SUCCESS;
}

ptxminiResult ptxminiGetErrorLogSize(ptxminiHandle handle, size_t *size) {
  if (!handle)
    return PTXMINI_ERROR_INVALID_HANDLE;
  if (!size)
    return PTXMINI_ERROR_INVALID_INPUT;
  *size = handle->errorLog.size();
  return PTXMINI_SUCCESS;
}

ptxminiResult ptxminiGetErrorLog(ptxminiHandle handle, char *buffer) {
  if (!handle)
    return PTXMINI_ERROR_INVALID_HANDLE;
  return copyLog(handle->errorLog, buffer);
}

ptxminiResult ptxminiGetInfoLogSize(ptxminiHandle handle, size_t *size) {
  if (!handle)
    return PTXMINI_ERROR_INVALID_HANDLE;
  if (!size)
    return PTXMINI_ERROR_INVALID_INPUT;
  *size = handle->infoLog.size();
  return PTXMINI_SUCCESS;
}

ptxminiResult ptxminiGetInfoLog(ptxminiHandle handle, char *buffer) {
  if (!handle)
    return PTXMINI_ERROR_INVALID_HANDLE;
  return copyLog(handle->infoLog, buffer);
}

} // extern "C"
