//===- compiler/compiler.cpp - the compiler's one entry point --------------------------===//
///
/// \file
/// The pipeline behind `compile` (compiler.h):
///   1. every input (a file or PTX text): read, parse, check (frontend/); errors are
///      collected per input and the run stops after the front end if any were reported
///      ("Ptx assembly aborted due to errors", as ptxas);
///   2. -arch=compute_XX stops here and produces nothing, as ptxas does;
///   3. code generation for sm_XX: lowering to Ori (frontend/lower), the phase table
///      (control-flow analysis, register allocation, control codes), encoding through the
///      sm_90 tables, and the cubin builder; the cubin bytes go back to the caller.
///      What the lowering does not cover yet is an error naming the PTX instruction.
///      Whole-program calls (targets/calling_convention.h): the functions run through the
///      phases callees first (components of the call graph in Tarjan order), each caller
///      given its callees' clobber sets and frame alignments; each kernel's .text is the
///      kernel followed by private copies of the functions it reaches, in PTX order.
/// A fatal diagnostic throws FatalError inside; `compile` catches it (and any other
/// exception) and returns false, so a library caller's process is never ended.
//===----------------------------------------------------------------------------------===//
#include "compiler/compiler.h"
#include "compiler/debug_info.h"
#include "compiler/line_tables.h"

#include "frontend/frontend.h"
#include "phases/phase_manager.h"
#include "frontend/ptx_ast.h"
#include "encoder/cubin/cubin_builder.h"
#include "encoder/emit_function.h"
#include "frontend/lower.h"
#include "targets/target.h"
#include "regalloc/regalloc.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <map>
#include <set>
#include <chrono>
#include <cstdio>
#include "support/knobs.h"
#include "targets/cubin_facts.h"

#include <spdlog/spdlog.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <fstream>
#include <iomanip>
#include <iterator>
#include <optional>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

namespace ptxmini {

void printVersion(std::ostream &os) {
  // The third line has ptxas's shape ("Cuda compilation tools, release 13.0, V13.0.88") so
  // that tools which read the release from `ptxas --version` find the ptxas release whose
  // input and options ptxas-mini follows: Triton matches `release (\d+\.\d+)` and picks
  // the PTX ISA version it emits from it (and falls back to its own ptxas when nothing
  // matches); others match `V(\d+)\.(\d+)\.(\d+)`.
  os << "ptxas-mini: an open PTX optimizing assembler (not NVIDIA's ptxas)\n"
     << "Version 0.1.0, PTX ISA up to 9.0\n"
     << "Compatible with Cuda compilation tools, release 13.0, V13.0.88\n";
}

void printPtxIsaVersions(std::ostream &os) {
  for (const char *v : frontend::ptxIsaVersions())
    os << v << '\n';
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

/// The -maxrregcount limit (0: none), checked once as ptxas does: one above 255 is ignored
/// and one below the target's minimum raised to it, each with ptxas's warning.
uint32_t globalRegisterLimit(const Options &opts, const Target &t, DiagEngine &diag) {
  if (!opts.maxRegCount)
    return 0;
  if (opts.maxRegCountArchMin)
    return t.minRegisterCount();
  if (opts.maxRegCountArchMax)
    return t.maxRegisterCount();
  uint32_t limit = *opts.maxRegCount;
  if (limit > t.maxRegisterCount()) {
    diag.warning("Too big maxrregcount value specified " + std::to_string(limit) +
                 ", will be ignored");
    return 0;
  }
  if (limit < t.minRegisterCount()) {
    diag.warning("For profile " + opts.arch.name() + " adjusting per thread register count of " +
                 std::to_string(limit) + " to lower bound of " +
                 std::to_string(t.minRegisterCount()));
    limit = t.minRegisterCount();
  }
  return limit;
}

/// The register limit of a kernel, as ptxas decides it (HW: ptxas 13.0.88 -v): .maxnreg
/// and launch bounds (.maxntid/.reqntid with .minnctapersm) take precedence over
/// -maxrregcount (the smaller of the two if both are present).
uint32_t kernelRegisterLimit(const Options &opts, const Target &t, uint32_t global,
                             const frontend::LoweredFunction &lf, DiagEngine &diag) {
  std::optional<uint32_t> entry;
  const auto &bounds = lf.maxntid ? lf.maxntid : lf.reqntid;
  if (bounds) {
    uint32_t threads = (*bounds)[0] * (*bounds)[1] * (*bounds)[2];
    entry = t.registerLimitForLaunchBounds(threads, lf.minnctapersm.value_or(1));
  } else if (lf.minnctapersm) {
    diag.warning(".minnctapersm is ignored when neither .maxntid nor .reqntid is specified");
  }
  if (lf.maxnreg)
    entry = entry ? std::min(*entry, std::max(*lf.maxnreg, t.minRegisterCount()))
                  : std::max(*lf.maxnreg, t.minRegisterCount());
  // -v's lines about it (HW: ptxas 13.0.88 -v -maxrregcount N on kernels with .maxnreg,
  // .maxntid with and without .minnctapersm, and neither): one per kernel, before the gmem
  // line, kernels in reverse PTX order; .maxntid alone prints nothing.
  if (!entry) {
    if (global && opts.verbose)
      diag.info("Overriding maximum register limit " + std::to_string(t.maxRegisterCount() + 1) +
                " for '" + lf.fn.name + "' with  " + std::to_string(global) +
                " of maxrregcount option");
    return global;
  }
  // Nothing is printed when the kernel keeps the global value.
  if (global && opts.verbose && *entry != global) {
    std::string head = "Overriding global maxrregcount " + std::to_string(global) +
                       " with entry-specific value " + std::to_string(*entry);
    if (bounds && lf.minnctapersm)
      diag.info(head + " computed using thread count");
    else if (!bounds && lf.maxnreg)
      diag.info(head + " of .maxnreg");
  }
  return *entry;
}

/// The call graph of the lowered functions, by index.
struct CallGraph {
  std::vector<std::vector<size_t>> callees;
  std::vector<size_t> sccOf;               ///< strongly connected component of each function
  std::vector<std::vector<size_t>> sccs;   ///< callees' components before their callers'
};

CallGraph buildCallGraph(const std::vector<frontend::LoweredFunction> &fns) {
  CallGraph g;
  std::map<std::string, size_t> byName;
  for (size_t i = 0; i < fns.size(); ++i)
    byName.emplace(fns[i].fn.name, i);
  g.callees.resize(fns.size());
  for (size_t i = 0; i < fns.size(); ++i)
    for (const std::string &c : fns[i].fn.callees)
      if (auto it = byName.find(c); it != byName.end())
        g.callees[i].push_back(it->second);
  // Tarjan's algorithm: components come out callees first.
  std::vector<int> index(fns.size(), -1), low(fns.size(), 0);
  std::vector<bool> onStack(fns.size(), false);
  std::vector<size_t> stack;
  g.sccOf.assign(fns.size(), 0);
  int counter = 0;
  auto visit = [&](auto &self, size_t v) -> void {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    onStack[v] = true;
    for (size_t w : g.callees[v]) {
      if (index[w] < 0) {
        self(self, w);
        low[v] = std::min(low[v], low[w]);
      } else if (onStack[w]) {
        low[v] = std::min(low[v], index[w]);
      }
    }
    if (low[v] == index[v]) {
      std::vector<size_t> comp;
      size_t w;
      do {
        w = stack.back();
        stack.pop_back();
        onStack[w] = false;
        g.sccOf[w] = g.sccs.size();
        comp.push_back(w);
      } while (w != v);
      std::sort(comp.begin(), comp.end());
      g.sccs.push_back(std::move(comp));
    }
  };
  for (size_t i = 0; i < fns.size(); ++i)
    if (index[i] < 0)
      visit(visit, i);
  return g;
}

/// The functions reachable from `root` through calls (root excluded), in index order.
std::vector<size_t> reachable(const CallGraph &g, size_t root) {
  std::vector<bool> seen(g.callees.size(), false);
  std::vector<size_t> work{root};
  while (!work.empty()) {
    size_t v = work.back();
    work.pop_back();
    for (size_t w : g.callees[v])
      if (!seen[w]) {
        seen[w] = true;
        work.push_back(w);
      }
  }
  std::vector<size_t> out;
  for (size_t i = 0; i < seen.size(); ++i)
    if (seen[i] && i != root)
      out.push_back(i);
  return out;
}

/// What code generation learned about one function.
struct Generated {
  bool done = false;
  ori::PhysRegSet clobbers;
  uint32_t codeBytes = 0;
  double ms = 0;
};

void reportFrame(const ori::Function &f, DiagEngine &diag) {
  diag.info("Function properties for " + f.name);
  diag.infoStream() << "    " << f.frame.size << " bytes stack frame, " << f.frame.spillStoreBytes
                << " bytes spill stores, " << f.frame.spillLoadBytes << " bytes spill loads\n";
}

/// The largest stack a call chain from `i` needs below its caller's frame, or nullopt
/// when a chain is recursive.
std::optional<uint32_t> stackBelow(const CallGraph &g,
                                   const std::vector<frontend::LoweredFunction> &fns, size_t i,
                                   std::vector<int> &state) {
  if (state[i] == 1)
    return std::nullopt;
  state[i] = 1;
  uint32_t deepest = 0;
  for (size_t c : g.callees[i]) {
    auto d = stackBelow(g, fns, c, state);
    if (!d) {
      state[i] = 0;
      return std::nullopt;
    }
    deepest = std::max(deepest, *d);
  }
  state[i] = 0;
  return fns[i].fn.frame.size + deepest;
}

/// The FDE program of a callee (HW: ptxas gives a frameless callee an empty one): after
/// its prologue the CFA is R1 + frame, after its epilogue R1 again.
std::vector<uint8_t> calleeCfaProgram(const ori::Function &f) {
  std::vector<uint8_t> p;
  if (!f.frame.size)
    return p;
  auto advance = [&](uint32_t bytes) {
    p.push_back(0x04); // DW_CFA_advance_loc4, in 4-byte code units
    for (int k = 0; k < 4; ++k)
      p.push_back(static_cast<uint8_t>((bytes / 4) >> (8 * k)));
  };
  auto defCfa = [&](uint32_t off) {
    p.insert(p.end(), {0x0c, 0x81, 0x80, 0x80, 0x28}); // DW_CFA_def_cfa R1
    do {
      uint8_t b = off & 0x7f;
      off >>= 7;
      p.push_back(static_cast<uint8_t>(b | (off ? 0x80 : 0)));
    } while (off);
  };
  advance(16); // the prologue is the first instruction
  defCfa(f.frame.size);
  uint32_t pc = 0, firstRet = 0;
  for (const ori::Block &b : f.blocks)
    for (const ori::Instr &in : b.instrs) {
      if (in.op == ori::Opcode::RET && !firstRet)
        firstRet = pc;
      pc += 16;
    }
  if (firstRet > 16) {
    advance(firstRet - 16);
    defCfa(0);
  }
  return p;
}

/// KPARAM_INFO's pointee fields of a kernel parameter declared `.ptr [.space] [.align N]`.
/// HW: ptxas 13.0.88 with cuobjdump -elf on one kernel per form: "Space" 4 for .global and
/// .const, 2 .shared, 1 .local, 5 generic (.ptr with no space); logAlignment log2(N), 0 when
/// no .align is given; both 0 for a parameter that is not .ptr (nvcc's PTX never says .ptr,
/// Triton's says `.ptr .global .align 1` on every pointer).
struct PointeeCode {
  ptx::StateSpace space;
  uint32_t code;
};
constexpr PointeeCode kPointeeSpaceCodes[] = {{ptx::StateSpace::Global, 4},
                                              {ptx::StateSpace::Const, 4},
                                              {ptx::StateSpace::Shared, 2},
                                              {ptx::StateSpace::Local, 1},
                                              {ptx::StateSpace::None, 5}};
cubin::ParamInfo paramInfo(const frontend::LoweredParam &p) {
  cubin::ParamInfo pi{p.offset, p.size, 0, 0};
  if (!p.isPtr)
    return pi;
  for (const PointeeCode &c : kPointeeSpaceCodes)
    if (c.space == p.pointee)
      pi.pointeeSpace = c.code;
  pi.logAlign = p.pointeeAlign > 1 ? static_cast<uint32_t>(std::bit_width(p.pointeeAlign) - 1) : 0;
  return pi;
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

/// Warpgroup MMAs make the module's .nv.compat ISA_CLASS 4 (HW: ptxas 13.0.88 on an sm_90a
/// kernel with one wgmma.mma_async, read with cuobjdump -elf 13.2).
bool usesWgmma(const ori::Function &f) {
  for (const ori::Block &b : f.blocks)
    for (const ori::Instr &in : b.instrs)
      if (in.op == ori::Opcode::HGMMA || in.op == ori::Opcode::IGMMA ||
          in.op == ori::Opcode::QGMMA)
        return true;
  return false;
}

/// Lowering, the phase table, encoding and the cubin, for every function of every module.
/// `lines`: the module's line tables when they are written (-lineinfo, or .loc in the PTX).
std::vector<uint8_t> generateCode(const Options &opts, const Target &target,
                                  const std::vector<std::unique_ptr<ptx::Module>> &modules,
                                  PhaseManager &phases, const LineTables *lines,
                                  DebugInfo *debug, DiagEngine &diag) {
  cubin::ModuleInfo mi;
  mi.sm = opts.arch.sm;
  mi.archSpecific = opts.arch.suffix == 'a';
  // HW: ptxas 13.0.88's tkinfo options string, e.g. "-lineinfo  -arch sm_90 ". Of the
  // options ptxas records there (-v, -O, -suppress-debug-info, ...) only -lineinfo is
  // modelled.
  mi.toolOptions = std::string(opts.minnctapersm
                                   ? "-minnctapersm " + std::to_string(*opts.minnctapersm) + " "
                                   : "") +
                   (opts.maxntidText.empty() ? "" : "-maxntid " + opts.maxntidText + " ") +
                   (opts.lineInfo ? "-lineinfo  " : "") + "-arch " + opts.arch.name() + " ";
  // HW: with -g ptxas records more of its command line: "k.ptx -g  -O 0 -o k.cubin -arch
  // sm_90 " (the input as given, -O only when given, -o only when given).
  if (debug)
    mi.toolOptions = (opts.inputs.empty() ? std::string() : opts.inputs[0] + " ") + "-g  " +
                     (opts.optLevelGiven ? "-O 0 " : "") +
                     (opts.outputGiven ? "-o " + opts.output + " " : "") + "-arch " +
                     opts.arch.name() + " ";
  if (lines) {
    mi.debug = debug ? cubin::ModuleInfo::Debug::Full : cubin::ModuleInfo::Debug::LineInfo;
    mi.lineInfo = lines->moduleInfo();
    if (debug) // -g writes .debug_str with the PTX's other DWARF sections
      mi.lineInfo->debugStr.clear();
  }
  std::vector<frontend::LoweredFunction> lowered;
  frontend::LoweredModuleData moduleData;
  frontend::LowerOptions lowerOpts;
  lowerOpts.contractMulAdd = opts.fmad;
  for (const auto &m : modules) {
    if (m->target)
      mi.ptxTargetSm = m->target->sm;
    frontend::lowerModule(*m, target, lowered, diag, moduleData, lowerOpts);
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
    if (v.addressSlot)
      g.slot = v.slot;
    for (const frontend::LoweredVariable::AddressInit &a : v.addressInits)
      g.addressInits.push_back(cubin::GlobalVar::AddressInit{a.offset, a.symbol, a.addend});
    if (debug)
      debug->placeVariable(g.name);
    mi.globals.push_back(std::move(g));
  }
  std::set<std::string> externNames;
  for (const frontend::LoweredExtern &x : moduleData.externs) {
    mi.externs.push_back(cubin::ExternFunction{x.name, x.slot});
    externNames.insert(x.name);
  }
  const ori::PhysRegSet abiClobbers = ra::abiCallClobbers(target);
  if (diag.hasErrors())
    diag.fatal("Ptx assembly aborted due to errors");
  // The kernels compiled (-e selects) and the functions they reach.
  CallGraph g = buildCallGraph(lowered);
  std::vector<size_t> kernels;
  for (size_t i = 0; i < lowered.size(); ++i)
    if (lowered[i].isKernel &&
        (opts.entries.empty() || std::find(opts.entries.begin(), opts.entries.end(),
                                           lowered[i].fn.name) != opts.entries.end()))
      kernels.push_back(i);
  std::vector<bool> needed(lowered.size(), false);
  std::vector<uint32_t> limit(lowered.size(), UINT32_MAX); // UINT32_MAX: no limit
  uint32_t globalLimit = globalRegisterLimit(opts, target, diag);
  // HW: ptxas 13.0.88 -v -maxrregcount on a module without kernels names its dummy entry.
  if (kernels.empty() && globalLimit && opts.verbose)
    diag.info("Overriding maximum register limit " + std::to_string(target.maxRegisterCount() + 1) +
              " for '__cuda_dummy_entry__' with  " + std::to_string(globalLimit) +
              " of maxrregcount option");
  // In reverse order, as ptxas prints the limits' -v lines (its compilation order).
  for (size_t k : llvm::reverse(kernels)) {
    needed[k] = true;
    // --maxntid / --minnctapersm: as the directives, for kernels that do not have them
    // (HW: ptxas 13.0.88 writes EIATTR_MAX_THREADS for them; -maxrregcount overrides both).
    frontend::LoweredFunction &kf = lowered[k];
    if (!opts.maxRegCount) {
      if (opts.maxntid && !kf.maxntid && !kf.reqntid)
        kf.maxntid = opts.maxntid;
      if (opts.minnctapersm && !kf.minnctapersm && (kf.maxntid || kf.reqntid))
        kf.minnctapersm = opts.minnctapersm;
    }
    uint32_t l = kernelRegisterLimit(opts, target, globalLimit, lowered[k], diag);
    limit[k] = l ? l : UINT32_MAX;
    // A callee shared by kernels with different limits gets the smallest.
    for (size_t c : reachable(g, k)) {
      needed[c] = true;
      limit[c] = std::min(limit[c], limit[k]);
    }
  }
  for (uint32_t &l : limit)
    if (l == UINT32_MAX)
      l = 0;
  if (opts.verbose) {
    // ptxas -v's "N bytes gmem": the sizes of .nv.global.init and .nv.global (each the end
    // of its last variable); .const variables are not counted (HW: ptxas 13.0.88 -v on a
    // module with initialised, uninitialised and .const variables of mixed alignment).
    // Placed as the cubin builder places them: at the given offset, else appended at the
    // variable's alignment.
    uint64_t initEnd = 0, zeroEnd = 0;
    for (const cubin::GlobalVar &g : mi.globals) {
      if (g.space != cubin::GlobalVar::Space::Global)
        continue;
      uint64_t &end = g.init.empty() ? zeroEnd : initEnd;
      uint64_t a = std::max<uint32_t>(g.align, 1);
      end = g.offset ? std::max(end, *g.offset + g.size) : (end + a - 1) / a * a + g.size;
    }
    diag.info(std::to_string(initEnd + zeroEnd) + " bytes gmem");
  }
  // Callees first, each with the clobber sets and frame alignments of the callees already
  // compiled. A component of the call graph (Tarjan order: callees' components first) is
  // compiled by one task; components whose callees are all done form a wave, and the
  // components of a wave run in parallel (--split-compile). Each task reports into its own
  // buffer, replayed in component order, so the output does not depend on the thread count.
  std::vector<Generated> gen(lowered.size());
  auto compileComponent = [&](size_t s, PhaseManager &pm, DiagEngine &d) {
    const std::vector<size_t> &comp = g.sccs[s];
    for (size_t i : comp) {
      if (!needed[i])
        continue;
      ori::Function &f = lowered[i].fn;
      // setmaxnreg: the entry count; AllocateRegisters holds each region after a USETMAXREG
      // to that instruction's count (regalloc/live_intervals.cpp, addSetmaxnregRegions).
      f.maxRegs = limit[i];
      for (size_t k = 0; k < f.callees.size(); ++k) {
        f.calleeClobbers.resize(f.callees.size());
        // An extern function (CUDA ABI): what the ABI lets it change.
        if (externNames.count(f.callees[k]))
          f.calleeClobbers[k] = abiClobbers;
        for (size_t c : g.callees[i])
          if (lowered[c].fn.name == f.callees[k]) {
            bool sameComponent = g.sccOf[c] == g.sccOf[i];
            if (!sameComponent)
              f.calleeClobbers[k] = gen[c].clobbers;
            f.minFrameAlign =
                std::max(f.minFrameAlign, sameComponent ? 16u : lowered[c].fn.frame.align);
          }
      }
      // An indirect call (the pseudo-callee "(indirect)", frontend/lower/lower_call.cpp)
      // may reach every address-taken function: it changes what any of them changes. A
      // target in this function's own component (recursion through a pointer) leaves the
      // set unknown: every register.
      for (size_t k = 0; k < f.callees.size(); ++k) {
        if (f.callees[k] != "(indirect)")
          continue;
        ori::PhysRegSet any;
        bool known = true;
        for (size_t c : g.callees[i]) {
          const std::string &n = lowered[c].fn.name;
          if (std::find(moduleData.functionPointers.begin(), moduleData.functionPointers.end(),
                        n) == moduleData.functionPointers.end())
            continue;
          if (g.sccOf[c] == g.sccOf[i] || !gen[c].done)
            known = false;
          else
            any.unite(gen[c].clobbers);
        }
        f.calleeClobbers.resize(f.callees.size());
        if (known)
          f.calleeClobbers[k] = any;
      }
      auto start = std::chrono::steady_clock::now();
      pm.run(f);
      if (d.hasErrors())
        return;
      gen[i].ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                            start)
                      .count();
      gen[i].clobbers = ra::clobbersOf(f, target);
      for (const ori::Block &b : f.blocks)
        gen[i].codeBytes += static_cast<uint32_t>(b.instrs.size()) * 16;
      gen[i].done = true;
    }
    // A recursive cycle: what any member may change is everything the members write plus
    // what their calls out of the cycle change (the calls inside it add nothing new).
    bool recursive = comp.size() > 1;
    for (size_t c : g.callees[comp[0]])
      recursive |= c == comp[0];
    if (recursive) {
      ori::PhysRegSet cycle;
      for (size_t i : comp)
        if (needed[i])
          cycle.unite(ra::clobbersOf(lowered[i].fn, target, /*skipUnknownCalls=*/true));
      for (size_t i : comp)
        gen[i].clobbers = cycle;
    }
  };
  std::vector<unsigned> wave(g.sccs.size(), 0);
  unsigned waves = 0;
  for (size_t s = 0; s < g.sccs.size(); ++s) {
    for (size_t i : g.sccs[s])
      for (size_t c : g.callees[i])
        if (g.sccOf[c] != s)
          wave[s] = std::max(wave[s], wave[g.sccOf[c]] + 1);
    waves = std::max(waves, wave[s] + 1);
  }
  // More threads than CPUs buy nothing (and TBB warns on stderr when asked for them).
  unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  unsigned threads = opts.splitCompile ? std::min(opts.splitCompile, cpus) : cpus;
  if (phases.dumpsAnything())
    threads = 1; // DUMPIR text comes out function by function
  tbb::task_arena arena(static_cast<int>(threads));
  for (unsigned w = 0; w < waves; ++w) {
    std::vector<size_t> members;
    for (size_t s = 0; s < g.sccs.size(); ++s)
      if (wave[s] == w)
        members.push_back(s);
    std::vector<std::ostringstream> text(members.size()), infoText(members.size());
    std::vector<DiagEngine> diags;
    diags.reserve(members.size());
    for (size_t m = 0; m < members.size(); ++m) {
      diags.emplace_back(diag.toolName());
      diags.back().setStream(text[m]);
      if (diag.infoSeparate())
        diags.back().setInfoStream(infoText[m]);
      diags.back().setSuppressWarnings(opts.suppressWarnings);
      diags.back().setWarningsAsErrors(opts.warningsAsErrors);
    }
    auto task = [&](size_t m) {
      PhaseManager pm = phases.withDiag(&diags[m]);
      compileComponent(members[m], pm, diags[m]);
    };
    if (threads == 1 || members.size() == 1) {
      for (size_t m = 0; m < members.size(); ++m)
        task(m);
    } else {
      arena.execute([&] { tbb::parallel_for(size_t{0}, members.size(), task); });
    }
    bool failed = false;
    for (size_t m = 0; m < members.size(); ++m) {
      diag.stream() << text[m].str();
      diag.infoStream() << infoText[m].str();
      failed |= diags[m].hasErrors();
    }
    if (failed)
      diag.fatal("Ptx assembly aborted due to errors");
  }
  // One .text per kernel: the kernel, then private copies of the functions it reaches in
  // PTX definition order (HW: ptxas's layout, `$<kernel>$<func>` symbols).
  std::vector<std::function<void()>> reports;
  for (size_t k : kernels) {
    const frontend::LoweredFunction &lf = lowered[k];
    if (uint32_t lim = targets::cubinFactsFor(opts.arch.sm).paramBaseLimit;
        lim && lf.paramBytes > lim)
      diag.fatal("Entry function '" + lf.fn.name + "': a parameter block of " +
                 std::to_string(lf.paramBytes) + " bytes (more than " + std::to_string(lim) +
                 ") is placed elsewhere in constant bank 0 on " + opts.arch.name() +
                 ", which ptxas-mini's code generator does not support yet");
    std::vector<size_t> callees = reachable(g, k);
    enc::EmitLayout layout;
    uint32_t at = gen[k].codeBytes;
    for (size_t c : callees) {
      layout.calleeOffset[lowered[c].fn.name] = at;
      at += gen[c].codeBytes;
    }
    enc::EmittedFunction ef;
    if (!enc::emitFunction(lf.fn, opts.arch.sm, layout, ef, diag))
      diag.fatal("Ptx assembly aborted due to errors");
    cubin::FunctionInfo fi;
    // Line tables: the PTX line of every instruction in code order, the kernel's and then
    // each callee's at its place in the .text.
    auto addLineRows = [&](const ori::Function &f, uint32_t base, size_t codeBytes) {
      if (!lines)
        return;
      std::vector<uint32_t> ptxLines;
      for (const ori::Block &b : f.blocks)
        for (const ori::Instr &in : b.instrs)
          ptxLines.push_back(in.srcLine);
      if (ptxLines.size() * 16 != codeBytes)
        diag.fatal("Internal error: line tables for '" + f.name + "' do not match its code");
      lines->addRows(f.name, ptxLines, base, fi.sourceLines, fi.ptxLines);
      if (debug)
        debug->placeFunction(f.name, ptxLines, base, lf.fn.name);
    };
    addLineRows(lf.fn, 0, ef.code.size());
    fi.name = lf.fn.name;
    fi.isKernel = lf.isKernel;
    fi.code = ef.code;
    fi.exitOffsets = ef.exitOffsets;
    fi.syscallOffsets = ef.abiCallOffsets;
    fi.externs = lf.externs;
    if (!ef.exitOffsets.empty())
      fi.cfaEnd = ef.exitOffsets.back();
    uint32_t regCount = ef.regCount;
    for (size_t c : callees) {
      const ori::Function &cf = lowered[c].fn;
      enc::EmitLayout cl = layout;
      cl.base = layout.calleeOffset[cf.name];
      enc::EmittedFunction ec;
      if (!enc::emitFunction(cf, opts.arch.sm, cl, ec, diag))
        diag.fatal("Ptx assembly aborted due to errors");
      addLineRows(cf, static_cast<uint32_t>(cl.base), ec.code.size());
      fi.code.insert(fi.code.end(), ec.code.begin(), ec.code.end());
      fi.exitOffsets.insert(fi.exitOffsets.end(), ec.exitOffsets.begin(), ec.exitOffsets.end());
      fi.syscallOffsets.insert(fi.syscallOffsets.end(), ec.abiCallOffsets.begin(),
                               ec.abiCallOffsets.end());
      regCount = std::max(regCount, ec.regCount);
      cubin::LocalFunction loc;
      loc.name = "$" + lf.fn.name + "$" + cf.name;
      loc.offset = cl.base;
      loc.size = ec.code.size();
      loc.frameSize = cf.frame.size;
      loc.raRegister = target.callingConvention().returnAddress;
      loc.cfaProgram = calleeCfaProgram(cf);
      fi.localFunctions.push_back(std::move(loc));
    }
    for (const frontend::LoweredParam &p : lf.params)
      fi.params.push_back(paramInfo(p));
    if (debug && lf.isKernel)
      debug->placeShared(lf.sharedAddresses);
    if (debug && lf.isKernel) {
      std::vector<uint32_t> addresses;
      for (const frontend::LoweredParam &p : lf.params)
        addresses.push_back(target.constBank().paramBase + p.offset);
      debug->placeParams(lf.fn.name, addresses);
    }
    fi.paramBytes = lf.paramBytes;
    for (const frontend::LoweredFunction::TexRef &t : lf.texRefs)
      fi.texRefs.push_back(cubin::FunctionInfo::TexRefSlot{t.name, t.surface, t.offset});
    // HW: ptxas 13.0 reports a kernel using setmaxnreg with its entry count, the launch-bound
    // limit (`.maxntid 384` -> "Used 168 registers"): the pool setmaxnreg moves registers in.
    // The code of a region after setmaxnreg.inc may use registers beyond it.
    if (!lf.setmaxnreg.empty() && limit[k])
      regCount = limit[k];
    fi.regCount = regCount;
    if (limit[k])
      fi.maxReg = limit[k];
    fi.maxntid = lf.maxntid;
    fi.reqntid = lf.reqntid;
    fi.frameSize = lf.fn.frame.size;
    std::vector<int> state(lowered.size(), 0);
    std::optional<uint32_t> stack = stackBelow(g, lowered, k, state);
    fi.minStackSize = stack.value_or(lf.fn.frame.size);
    if (lf.fn.frame.size)
      fi.cfaStart = 32; // after `LDC R1, c[0x0][0x28]` and `IADD3 R1, R1, -frame, RZ`
    // Indirect calls: the kernel's table of the address-taken functions' code offsets
    // (frontend/lower/lower_call.cpp); entry 0 is 1 as in ptxas's (GUESS: its meaning).
    bool reachesPointee = false;
    for (size_t c : callees)
      reachesPointee |= std::find(moduleData.functionPointers.begin(),
                                  moduleData.functionPointers.end(),
                                  lowered[c].fn.name) != moduleData.functionPointers.end();
    if (reachesPointee) {
      fi.functionTable.push_back(1);
      for (const std::string &n : moduleData.functionPointers) {
        auto it = layout.calleeOffset.find(n);
        fi.functionTable.push_back(it == layout.calleeOffset.end() ? 0 : it->second);
      }
    }
    // A kernel may carry callees it never calls (the address-taken functions of a kernel that
    // only takes their addresses): HW: ptxas gives such a kernel no .rela.text and no
    // CRS_STACK_SIZE; what counts is a CALL in its code or its callees'. A call to an extern
    // (system) function, CALL.ABS (vprintf, malloc), sets CRS_STACK_SIZE 0 but needs no
    // .rela.text: HW: ptxas 13.0.88 on cuda-samples EGLSync_CUDAEvent_Interop (a kernel whose
    // only call is vprintf) writes neither .rel.text nor .rela.text for it.
    auto callKinds = [](const ori::Function &f, bool &any, bool &relocated) {
      for (const ori::Block &b : f.blocks)
        for (const ori::Instr &in : b.instrs)
          if (in.op == ori::Opcode::CALL) {
            any = true;
            relocated = relocated || !llvm::is_contained(in.mods, ori::Modifier::ABS);
          }
    };
    bool calls = false, relocatedCalls = false;
    callKinds(lf.fn, calls, relocatedCalls);
    for (size_t c : callees)
      callKinds(lowered[c].fn, calls, relocatedCalls);
    if (calls)
      fi.crsStackSize = 0; // HW: ptxas writes CRS_STACK_SIZE 0 for kernels with calls
    fi.hasCalls = relocatedCalls;
    if (!lf.setmaxnreg.empty()) {
      // HW: ptxas 13.0 writes EIATTR_REG_RECONFIG (0x54, no value) and CRS_STACK_SIZE 0 for a
      // kernel that keeps a setmaxnreg (cuobjdump -elf of a `.maxntid 384` kernel).
      cubin::Attribute rc;
      rc.format = cubin::Attribute::NVal;
      rc.attr = 0x54;
      fi.extraAttributes.push_back(rc);
      fi.crsStackSize = 0;
    }
    fi.numBarriers = namedBarrierCount(lf.fn);
    fi.sharedBytes = lf.sharedBytes;
    fi.sharedAlign = lf.sharedAlign;
    fi.usesShared = lf.usesShared;
    fi.referencesShared = lf.referencesShared;
    if (lf.reqnctapercluster)
      fi.clusterDims = *lf.reqnctapercluster;
    if (usesTexturesOrSurfaces(lf.fn))
      mi.isaClass = std::max<uint8_t>(mi.isaClass, 2);
    // HW: a module with a texture query has no .nv.callgraph (cubin_builder.h).
    for (size_t i : [&] {
           std::vector<size_t> v{k};
           v.insert(v.end(), callees.begin(), callees.end());
           return v;
         }())
      for (const ori::Block &b : lowered[i].fn.blocks)
        for (const ori::Instr &in : b.instrs)
          mi.noCallgraph |= in.op == ori::Opcode::TXQ;
    if (usesWgmma(lf.fn))
      mi.isaClass = std::max<uint8_t>(mi.isaClass, 4);
    mi.functions.push_back(std::move(fi));
    if (opts.warnOnSpills || opts.warnOnLocalMemory)
      for (size_t i : [&] {
             std::vector<size_t> v{k};
             v.insert(v.end(), callees.begin(), callees.end());
             return v;
           }()) {
        const ori::FrameInfo &fr = lowered[i].fn.frame;
        // ptxas 13.0's wording and order (probed: the local-memory line first).
        if (opts.warnOnLocalMemory && fr.size)
          diag.warning("Local memory used for function '" + lowered[i].fn.name +
                       "', size of stack frame: " + std::to_string(fr.size) + " bytes");
        if (opts.warnOnSpills && (fr.spillStoreBytes || fr.spillLoadBytes))
          diag.warning("Registers are spilled to local memory in function '" +
                       lowered[i].fn.name + "', " + std::to_string(fr.spillStoreBytes) +
                       " bytes spill stores, " + std::to_string(fr.spillLoadBytes) +
                       " bytes spill loads");
      }
    if (opts.verbose)
      reports.push_back([&, k, callees, regCount, stack] {
        const ori::Function &f = lowered[k].fn;
        diag.info("Compiling entry function '" + f.name + "' for '" + opts.arch.name() + "'");
        reportFrame(f, diag);
        std::string used = "Used " + std::to_string(regCount) + " registers, used " +
                           std::to_string(namedBarrierCount(f)) + " barriers";
        uint32_t cumulative = stack.value_or(f.frame.size);
        if (cumulative)
          used += ", " + std::to_string(cumulative) + " bytes cumulative stack size";
        // HW: ptxas 13.0.88 -v ends the line with the kernel's static shared memory.
        if (lowered[k].sharedBytes)
          used += ", " + std::to_string(lowered[k].sharedBytes) + " bytes smem";
        diag.info(used);
        double ms = gen[k].ms;
        for (size_t c : callees)
          ms += gen[c].ms;
        char buf[64];
        std::snprintf(buf, sizeof buf, "Compile time = %.3f ms", ms);
        diag.info(buf);
        for (size_t c : callees)
          reportFrame(lowered[c].fn, diag);
      });
  }
  // HW: ptxas -v reports the kernels in reverse definition order.
  for (auto it = reports.rbegin(); it != reports.rend(); ++it)
    (*it)();
  if (debug)
    debug->finish(mi, diag);
  std::string err;
  auto model = cubin::buildCubin(mi, err);
  if (!model)
    diag.fatal("Internal error building the cubin: " + err);
  auto bytes = cubin::writeCubin(*model, err);
  if (!bytes)
    diag.fatal("Internal error writing the cubin: " + err);
  return std::move(*bytes);
}

std::vector<uint8_t> finishCompile(const Options &opts, const Target *target,
                                   const std::vector<std::unique_ptr<ptx::Module>> &modules,
                                   PhaseManager &phases, const CompileHooks &hooks,
                                   DiagEngine &diag);

/// `compile` without the exception boundary: a fatal diagnostic throws FatalError.
std::vector<uint8_t> compileOrThrow(const Options &opts, DiagEngine &diag,
                                    const CompileHooks &hooks) {
  // Knobs that name phases are checked before any work, so a typo is reported at once.
  const Target *target = Target::get(opts.arch); // null for compute_XX (checked below)
  PhaseManager phases(opts.knobs, opts.optLevel,
                      hooks.dumpStream ? hooks.dumpStream : &diag.infoStream(), &diag, target);
  if (!phases.ok())
    throw FatalError{"invalid phase name in knobs"}; // the manager has reported it
  frontend::FrontendOptions feOpts;
  feOpts.arch = opts.arch.name();
  std::vector<std::unique_ptr<ptx::Module>> modules;
  for (const std::string &input : opts.inputs) {
    spdlog::debug("parsing {}", input);
    modules.emplace_back(frontend::parseFile(input, feOpts, diag));
  }
  // HW: ptxas names PTX given with --input-as-string "application ptx input" in messages.
  for (const std::string &text : opts.inputStrings)
    modules.emplace_back(frontend::parseText(text, "application ptx input", feOpts, diag));
  // HW (ptxas 13.0.88): several inputs are one program: a function defined in two of them
  // is "Duplicate definition of function" at the later definition.
  if (modules.size() > 1 && !diag.hasErrors()) {
    std::set<std::string> defined;
    for (const auto &m : modules)
      for (const ptx::Function &f : m->functions)
        if (f.hasBody && !defined.insert(f.name).second)
          diag.error(SourceLoc{m->fileName, f.declLine ? f.declLine : f.line, 0},
                     "Duplicate definition of function '" + f.name + "'");
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
  // HW (ptxas 13.0.88): PTX whose .target names `debug` (nvcc -G writes it) compiles as -g
  // does -- at -O0 unless -O was given (then "Optimized debugging not supported"), with its
  // DWARF, -lineinfo ignored -- and must carry .debug_abbrev/.debug_info.
  bool targetDebug = false;
  for (const auto &m : modules)
    targetDebug |= std::find(m->targets.begin(), m->targets.end(), "debug") != m->targets.end();
  if (targetDebug && !opts.deviceDebug) {
    for (const auto &m : modules)
      for (const char *need : {".debug_abbrev", ".debug_info"})
        if (std::none_of(m->sections.begin(), m->sections.end(),
                         [&](const ptx::Section &s) { return s.name == need; })) {
          diag.error(SourceLoc{m->fileName, m->targetLine, 0},
                     "Debug information not found in presence of .target debug");
          break;
        }
    if (diag.hasErrors())
      diag.fatal("Ptx assembly aborted due to errors");
    if (opts.optLevelGiven && opts.optLevel > 0)
      diag.fatal("Optimized debugging not supported");
    Options debugOpts = opts;
    debugOpts.deviceDebug = true;
    debugOpts.lineInfo = false;
    debugOpts.optLevel = 0;
    PhaseManager debugPhases(opts.knobs, 0,
                             hooks.dumpStream ? hooks.dumpStream : &diag.infoStream(), &diag,
                             target);
    return finishCompile(debugOpts, target, modules, debugPhases, hooks, diag);
  }
  return finishCompile(opts, target, modules, phases, hooks, diag);
}

/// The rest of compileOrThrow once the modules are parsed: line tables, debug information
/// and code generation.
std::vector<uint8_t> finishCompile(const Options &opts, const Target *target,
                                   const std::vector<std::unique_ptr<ptx::Module>> &modules,
                                   PhaseManager &phases, const CompileHooks &hooks,
                                   DiagEngine &diag) {
  if (opts.arch.isVirtual)
    return {}; // compute_XX: parse and check only, no output (ptxas does the same)
  if (hooks.beforeCodeGen)
    hooks.beforeCodeGen(diag);
  // Line tables: HW: ptxas writes them for -lineinfo and for any PTX with .loc, unless
  // --suppress-debug-info says not to.
  std::optional<LineTables> lines;
  if (!opts.suppressDebugInfo && modules.size() == 1) {
    std::string text;
    if (!opts.inputs.empty()) {
      std::ifstream in(opts.inputs[0], std::ios::binary);
      text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } else {
      text = opts.inputStrings[0];
    }
    lines.emplace(*modules[0], text);
    if (!opts.lineInfo && !opts.deviceDebug && !lines->hasLocs())
      lines.reset();
  } else if (opts.deviceDebug && !opts.suppressDebugInfo) {
    diag.fatal("-g: debug information is written for one input at a time; this run has " +
               std::to_string(modules.size()));
  } else if (!opts.suppressDebugInfo && opts.lineInfo) {
    diag.warning("-lineinfo: line tables are written for one input at a time; this run has " +
                 std::to_string(modules.size()) + " and gets none");
  }
  if (!target)
    diag.fatal("Code generation for '" + opts.arch.name() +
               "' is not supported by ptxas-mini yet; -arch=compute_" +
               std::to_string(opts.arch.sm) + " parses and checks only");
  if (opts.compileOnly)
    diag.fatal("Relocatable output (-c) is not supported by ptxas-mini's code generator yet");
  std::optional<DebugInfo> debug;
  // HW: -g -suppress-debug-info compiles at -O0 and writes no debug information at all.
  if (opts.deviceDebug && !opts.suppressDebugInfo)
    debug.emplace(*modules[0], diag);
  return generateCode(opts, *target, modules, phases, lines ? &*lines : nullptr,
                      debug ? &*debug : nullptr, diag);
}

} // namespace

bool compile(const Options &opts, DiagEngine &diag, std::vector<uint8_t> &cubin,
             const CompileHooks &hooks) {
  try {
    cubin = compileOrThrow(opts, diag, hooks);
    return true;
  } catch (const FatalError &) {
    // Reported already.
  } catch (const std::bad_alloc &) {
    diag.error("Out of memory");
  } catch (const std::exception &e) {
    diag.error(std::string("Internal error: ") + e.what());
  } catch (...) {
    diag.error("Internal error: unknown exception");
  }
  cubin.clear();
  return false;
}

} // namespace ptxmini
