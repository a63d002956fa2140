//===- driver/compilation.cpp - one run of the compiler over its inputs ----------------===//
///
/// \file
/// The pipeline as the driver sees it:
///   1. every input file: read, parse, check (frontend/); errors are collected per file and
///      the run stops after the front end if any were reported ("Ptx assembly aborted due to
///      errors", as ptxas);
///   2. -arch=compute_XX stops here and writes nothing, as ptxas does;
///   3. code generation for sm_XX: lowering to Ori (frontend/lower), the phase table
///      (control-flow analysis, register allocation, control codes), encoding through the
///      sm_90 tables, and the cubin builder; the cubin is written atomically at the end.
///      What the lowering does not cover yet is an error naming the PTX instruction.
//===----------------------------------------------------------------------------------===//
#include "driver/compilation.h"

#include "frontend/frontend.h"
#include "phases/phase_manager.h"
#include "frontend/ptx_ast.h"
#include "driver/output_file.h"
#include "encoder/cubin/cubin_builder.h"
#include "encoder/emit_function.h"
#include "frontend/lower.h"
#include "targets/target.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include "support/knobs.h"

#include <spdlog/spdlog.h>

#include <iomanip>
#include <iostream>
#include <memory>

namespace ptxmini {

void printVersion(std::ostream &os) {
  os << "ptxas-mini: an open PTX optimizing assembler\n"
     << "Version 0.1.0 (modelled on ptxas 13.0.88; PTX ISA up to 9.0)\n";
}

void printKnobList(std::ostream &os) {
  os << std::left << std::setw(28) << "knob" << std::setw(13) << "type" << std::setw(12)
     << "default"
     << "description\n";
  for (const KnobInfo &k : allKnobs()) {
    std::string def = k.defaultValue.empty() ? "\"\"" : std::string(k.defaultValue);
    os << std::setw(28) << k.name << std::setw(13) << knobTypeName(k.type) << std::setw(12)
       << def << k.description << '\n';
  }
}

namespace {

/// The `-v` report for one function, in ptxas's format (cubin-format.md section 3).
/// Named CTA barriers a function uses: the highest immediate barrier id + 1, or all 16 once
/// a barrier id is a register. HW: ptxas 13.0 -v "used N barriers" and EIATTR_NUM_BARRIERS
/// for bar.sync 0 (1), bar.sync 3 (4), bar.arrive 5 (6), bar.red 2 (3), bar.sync %r (16).
uint32_t namedBarrierCount(const ori::Function &f) {
  uint32_t n = 0;
  for (const ori::Block &b : f.blocks)
    for (const ori::Instr &in : b.instrs) {
      if (in.op != ori::Opcode::BAR || in.uses().empty())
        continue;
      const ori::Operand &id = in.uses()[0];
      n = std::max<uint32_t>(n, id.kind == ori::OperandKind::Imm
                                    ? static_cast<uint32_t>(id.imm & 0xf) + 1
                                    : 16);
    }
  return n;
}

void reportFunction(const Options &opts, const frontend::LoweredFunction &lf,
                    const enc::EmittedFunction &ef, double ms, DiagEngine &diag) {
  diag.info("Compiling entry function '" + lf.fn.name + "' for '" + opts.arch.name() + "'");
  diag.info("Function properties for " + lf.fn.name);
  diag.stream() << "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";
  diag.info("Used " + std::to_string(ef.regCount) + " registers, used " +
            std::to_string(namedBarrierCount(lf.fn)) + " barriers");
  char buf[64];
  std::snprintf(buf, sizeof buf, "Compile time = %.3f ms", ms);
  diag.info(buf);
}

/// HW: ptxas 13.0 writes EICOMPAT_ATTR_ISA_CLASS 2 instead of 1 in .nv.compat for a module
/// with a texture or surface instruction (observed with cuobjdump 13.2 -elf on tex, tld,
/// suld, sust and txq modules).
constexpr ori::Opcode kTextureOpcodes[] = {ori::Opcode::TEX, ori::Opcode::TLD, ori::Opcode::TXQ,
                                           ori::Opcode::SULD, ori::Opcode::SUST};
bool usesTexturesOrSurfaces(const ori::Function &f) {
  for (const ori::Block &b : f.blocks)
    for (const ori::Instr &in : b.instrs)
      if (std::find(std::begin(kTextureOpcodes), std::end(kTextureOpcodes), in.op) !=
          std::end(kTextureOpcodes))
        return true;
  return false;
}

/// Lowering, the phase table, encoding and the cubin, for every function of every module.
int generateCode(const Options &opts, const Target &target,
                 const std::vector<std::unique_ptr<ptx::Module>> &modules, PhaseManager &phases,
                 DiagEngine &diag) {
  cubin::ModuleInfo mi;
  mi.sm = opts.arch.sm;
  mi.archSpecific = opts.arch.suffix == 'a';
  mi.toolOptions = "-arch " + opts.arch.name() + " ";
  std::vector<frontend::LoweredFunction> lowered;
  frontend::LoweredModuleData moduleData;
  for (const auto &m : modules) {
    if (m->target)
      mi.ptxTargetSm = m->target->sm;
    frontend::lowerModule(*m, target, lowered, diag, moduleData);
  }
  for (const frontend::LoweredVariable &v : moduleData.variables) {
    cubin::GlobalVar g;
    g.name = v.name;
    g.space = v.isConst ? cubin::GlobalVar::Space::Const : cubin::GlobalVar::Space::Global;
    g.size = v.size;
    g.align = v.align;
    g.init = v.init;
    if (!v.isConst && v.hasInit && g.init.empty())
      g.init.assign(1, 0); // an initialised variable (.nv.global.init) all of zeros
    g.offset = v.offset;
    g.addressSlot = v.addressSlot;
    mi.globals.push_back(std::move(g));
  }
  if (diag.hasErrors())
    diag.fatal("Ptx assembly aborted due to errors");
  if (opts.verbose)
    diag.info("0 bytes gmem");
  for (frontend::LoweredFunction &lf : lowered) {
    if (!opts.entries.empty() &&
        std::find(opts.entries.begin(), opts.entries.end(), lf.fn.name) == opts.entries.end())
      continue;
    auto start = std::chrono::steady_clock::now();
    phases.run(lf.fn);
    if (diag.hasErrors())
      diag.fatal("Ptx assembly aborted due to errors");
    enc::EmittedFunction ef;
    if (!enc::emitFunction(lf.fn, opts.arch.sm, ef, diag))
      diag.fatal("Ptx assembly aborted due to errors");
    cubin::FunctionInfo fi;
    fi.name = lf.fn.name;
    fi.isKernel = lf.isKernel;
    fi.code = ef.code;
    for (const frontend::LoweredParam &p : lf.params)
      fi.params.push_back(cubin::ParamInfo{p.offset, p.size, 0});
    fi.paramBytes = lf.paramBytes;
    fi.regCount = ef.regCount;
    fi.numBarriers = namedBarrierCount(lf.fn);
    fi.exitOffsets = ef.exitOffsets;
    fi.maxntid = lf.maxntid;
    fi.reqntid = lf.reqntid;
    fi.sharedBytes = lf.sharedBytes;
    fi.sharedAlign = lf.sharedAlign;
    fi.usesShared = lf.usesShared;
    fi.referencesShared = lf.referencesShared;
    if (lf.maxReg)
      fi.maxReg = *lf.maxReg;
    if (lf.reqnctapercluster)
      fi.clusterDims = *lf.reqnctapercluster;
    if (usesTexturesOrSurfaces(lf.fn))
      mi.isaClass = std::max<uint8_t>(mi.isaClass, 2);
    mi.functions.push_back(std::move(fi));
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                          start)
                    .count();
    if (opts.verbose)
      reportFunction(opts, lf, ef, ms, diag);
  }
  std::string err;
  auto model = cubin::buildCubin(mi, err);
  if (!model)
    diag.fatal("Internal error building the cubin: " + err);
  auto bytes = cubin::writeCubin(*model, err);
  if (!bytes)
    diag.fatal("Internal error writing the cubin: " + err);
  if (!writeFileAtomically(opts.output, *bytes, err))
    diag.fatal(err);
  return 0;
}

} // namespace

int runCompilation(const Options &opts, DiagEngine &diag) {
  // Knobs that name phases are checked before any work, so a typo is reported at once.
  const Target *target = Target::get(opts.arch); // null for compute_XX (checked below)
  PhaseManager phases(opts.knobs, opts.optLevel, &std::cout, &diag, target);
  if (!phases.ok())
    throw FatalError{"invalid phase name in knobs"}; // the manager has reported it
  frontend::FrontendOptions feOpts;
  feOpts.arch = opts.arch.name();
  std::vector<std::unique_ptr<ptx::Module>> modules;
  for (const std::string &input : opts.inputs) {
    spdlog::debug("parsing {}", input);
    modules.emplace_back(frontend::parseFile(input, feOpts, diag));
  }
  if (diag.hasErrors())
    diag.fatal("Ptx assembly aborted due to errors");
  // -e names entry functions that must exist in some input (ptxas: "Unknown function f").
  for (const std::string &entry : opts.entries) {
    bool found = false;
    for (const auto &m : modules)
      if (const ptx::Function *f = m->findFunction(entry); f && f->isEntry && f->hasBody)
        found = true;
    if (!found)
      diag.fatal("Unknown function " + entry);
  }
  if (opts.arch.isVirtual)
    return 0; // compute_XX: parse and check only, no output (ptxas does the same)
  // Refuse an unwritable output before any code generation work (ptxas only finds out at
  // the end); the file itself is written atomically once the cubin exists.
  if (!canWriteFile(opts.output))
    diag.fatal("Output file '" + opts.output + "' could not be opened");
  if (!target)
    diag.fatal("Code generation for '" + opts.arch.name() +
               "' is not supported by ptxas-mini yet; -arch=compute_" +
               std::to_string(opts.arch.sm) + " parses and checks only");
  if (opts.compileOnly)
    diag.fatal("Relocatable output (-c) is not supported by ptxas-mini's code generator yet");
  return generateCode(opts, *target, modules, phases, diag);
}

} // namespace ptxmini
