//===- frontend/lower/lower_module_data.cpp - module variables and shared-memory layout ---===//
///
/// \file
/// Where ptxas puts the memory a module declares, for sm_90 executables. HW: every rule
/// below was read off ptxas 13.0.88 cubins with cuobjdump 13.2 -elf / -sass:
///   .global   initialised ones in .nv.global.init, the others in .nv.global (zero
///             initialisers such as `= 0` still count as initialised); within each section
///             sorted by alignment (largest first), then size (smallest first); variables
///             with the same alignment and size come in an order we could not reproduce
///             (it depends on the number of variables, not their names: a hash table's
///             order, GUESS), we keep declaration order there, so the section sizes match
///             ptxas and such variables may swap places.
///             Every .global variable, used or not, gets an 8-byte slot in constant bank 4
///             in declaration order, filled by an R_CUDA_64 relocation; code reads the
///             variable's address from it (`LDC.64 R2, c[0x4][0x8]`).
///   .extern .func   every extern function a kernel calls (vprintf, __assertfail, directly or
///             through its .func) gets a slot too, relocated against its undefined symbol.
///             The slots of the externs of the first kernel ptxas processes (the last one
///             defined) come before the variables', in declaration order; those of the other
///             kernels' (processing order, declaration order within a kernel) after them.
///             HW: probed with one to three kernels calling vprintf/__assertfail, with and
///             without .global variables declared before and after the externs.
///   .const    constant bank 3 (.nv.constant3) in declaration order, each at its alignment;
///             code reads `c[0x3][offset]`, and `mov.u64 %rd, cvar` gives the offset.
///   .shared   per kernel, after the 1 KB reserved at the bottom of the window: the kernel's
///             own .shared variables in declaration order (used or not), then the module's
///             .shared variables the kernel names, in declaration order, each at its
///             alignment; the section's alignment is the largest of theirs. A module-scope
///             `.extern .shared` gives every kernel a .nv.shared.<k> section: the externs
///             start after the static variables at their (largest) alignment, the section
///             size is rounded up to it and its alignment includes it.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_mem.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace ptxmini::frontend::lower {
namespace {

uint64_t alignUp(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

SourceLoc locOf(const ptx::Module &m, const ptx::VarDecl &d) {
  return SourceLoc{m.fileName, d.line, d.column};
}

/// The element size of a declaration (bytes per initializer value).
unsigned elementBytes(const ptx::VarDecl &d) { return (ptx::typeBits(d.type) + 7) / 8; }

/// Size in bytes; `[]` takes its length from the initializer.
uint64_t declSize(const ptx::VarDecl &d) {
  bool open = std::find(d.dims.begin(), d.dims.end(), 0) != d.dims.end();
  if (!open)
    return d.sizeInBytes();
  if (d.dims.size() != 1)
    return 0;
  return uint64_t{elementBytes(d)} * d.vectorWidth * d.init.size();
}

/// The initial bytes of `d` (little endian, one value per element); false after reporting.
bool initBytes(const ptx::Module &m, const ptx::VarDecl &d, const ModuleLayout &layout,
               DiagEngine &diag, std::vector<uint8_t> &out,
               std::vector<LoweredVariable::AddressInit> &addressInits) {
  unsigned n = elementBytes(d);
  ptx::TypeKind kind = ptx::typeKind(d.type);
  for (const ptx::InitValue &v : d.init) {
    uint64_t bits = 0;
    if (v.kind == ptx::InitValue::Kind::Symbol && !v.isMask && n == 8 &&
        d.space == ptx::StateSpace::Global) {
      // A function's address: its function-pointer value (no relocation; HW: ptxas 13.0
      // writes plain numbers for function names in .nv.global.init). A .global variable's
      // (plain or generic(), + offset): an R_CUDA_G64 relocation against it (HW: ptxas 13.0,
      // `.u64 tab[2] = {gx, generic(gx)+4}` -> two R_CUDA_G64 gx+0 / gx+4).
      if (auto f = layout.functionPointers.find(v.symbol); f != layout.functionPointers.end()) {
        if (v.offset != 0) {
          diag.error(locOf(m, d), "Module-scope variable '" + d.name +
                                      "': a function address with an offset is not "
                                      "supported by ptxas-mini's code generator yet");
          return false;
        }
        bits = f->second;
        for (unsigned k = 0; k < n; ++k)
          out.push_back(static_cast<uint8_t>(bits >> (8 * k)));
        continue;
      }
      const ptx::VarDecl *target = nullptr;
      for (const ptx::VarDecl &g : m.globals)
        if (g.name == v.symbol)
          target = &g;
      if (target && target->space == ptx::StateSpace::Global) {
        addressInits.push_back(LoweredVariable::AddressInit{
            static_cast<uint32_t>(out.size()), v.symbol, v.offset});
        out.insert(out.end(), n, 0);
        continue;
      }
    }
    switch (v.kind) {
    case ptx::InitValue::Kind::Int:
      bits = static_cast<uint64_t>(v.intValue);
      if (kind == ptx::TypeKind::Float) {
        // `.f32 x = 1`: the value, as the variable's type.
        if (n == 4) {
          float f = static_cast<float>(v.intValue);
          uint32_t b;
          std::memcpy(&b, &f, 4);
          bits = b;
        } else if (n == 8) {
          double f = static_cast<double>(v.intValue);
          std::memcpy(&bits, &f, 8);
        } else {
          diag.error(locOf(m, d), "Module-scope variable '" + d.name +
                                      "': a half-precision initializer is not supported by "
                                      "ptxas-mini's code generator yet");
          return false;
        }
      }
      break;
    case ptx::InitValue::Kind::Float:
      if (n == 8) {
        std::memcpy(&bits, &v.floatValue.value, 8);
        if (v.floatValue.isDouble)
          bits = v.floatValue.bits;
      } else if (n == 4) {
        float f = static_cast<float>(v.floatValue.value);
        uint32_t b;
        std::memcpy(&b, &f, 4);
        bits = (!v.floatValue.isDouble) ? static_cast<uint32_t>(v.floatValue.bits) : b;
      } else {
        diag.error(locOf(m, d), "Module-scope variable '" + d.name +
                                    "': a floating-point initializer of a " +
                                    std::to_string(n * 8) +
                                    "-bit element is not supported by ptxas-mini's code "
                                    "generator yet");
        return false;
      }
      break;
    default:
      // mask(...), addresses in 32-bit elements, in .const variables or of variables outside
      // the global space.
      diag.error(locOf(m, d), "Module-scope variable '" + d.name +
                                  "' initialized with an address is not supported by "
                                  "ptxas-mini's code generator yet");
      return false;
    }
    for (unsigned k = 0; k < n; ++k)
      out.push_back(static_cast<uint8_t>(bits >> (8 * k)));
  }
  return true;
}

/// Every variable or address a body names: symbol operands and address bases.
void namedSymbols(const ptx::Block &b, std::set<std::string> &out) {
  for (const ptx::Statement &st : b.statements) {
    if (st.is<ptx::Block>()) {
      namedSymbols(st.as<ptx::Block>(), out);
      continue;
    }
    if (!st.is<ptx::Instruction>())
      continue;
    std::vector<const ptx::Operand *> work;
    for (const ptx::Operand &o : st.as<ptx::Instruction>().operands)
      work.push_back(&o);
    while (!work.empty()) {
      const ptx::Operand *o = work.back();
      work.pop_back();
      if (o->is<ptx::SymbolOperand>())
        out.insert(o->as<ptx::SymbolOperand>().name);
      else if (o->is<ptx::AddressOperand>()) {
        const auto &a = o->as<ptx::AddressOperand>();
        if (a.baseKind == ptx::AddressOperand::BaseKind::Symbol)
          out.insert(a.base);
      } else if (o->is<ptx::VectorOperand>()) {
        for (const ptx::Operand &e : o->as<ptx::VectorOperand>().elems)
          work.push_back(&e);
      }
    }
  }
}

void sharedDecls(const ptx::Block &b, std::vector<const ptx::VarDecl *> &out) {
  for (const ptx::Statement &st : b.statements) {
    if (st.is<ptx::Block>())
      sharedDecls(st.as<ptx::Block>(), out);
    else if (st.is<ptx::VarDecl>() && st.as<ptx::VarDecl>().space == ptx::StateSpace::Shared)
      out.push_back(&st.as<ptx::VarDecl>());
  }
}

} // namespace

bool layoutModuleData(const ptx::Module &m, const Target &, DiagEngine &diag,
                      ModuleLayout &layout, LoweredModuleData &data) {
  bool ok = true;
  auto refuse = [&](const ptx::VarDecl &d, const std::string &what) {
    diag.error(locOf(m, d), "Module-scope variable '" + d.name + "': " + what +
                                " is not supported by ptxas-mini's code generator yet");
    ok = false;
  };
  // Function pointers (lower_call.cpp): 8 * (index + 1) into each kernel's table.
  data.functionPointers = addressTakenFunctions(m);
  for (size_t i = 0; i < data.functionPointers.size(); ++i)
    layout.functionPointers[data.functionPointers[i]] = static_cast<uint32_t>(8 * (i + 1));
  // HW (ptxas 13.0.88): in a module without kernels no function is emitted, and a function's
  // address in an initializer is its 1-based index among the address-taken functions in
  // order of first declaration (a prototype counts): `.func f2(...);` before the bodies of
  // f1 and f2 makes `tbl[3] = {f2, f1, 0}` hold 1, 2, 0; without the prototype 2, 1, 0.
  if (std::none_of(m.functions.begin(), m.functions.end(),
                   [](const ptx::Function &f) { return f.isEntry && f.hasBody; })) {
    uint32_t index = 0;
    llvm::StringMap<bool> seen;
    for (const ptx::Function &f : m.functions)
      if (layout.functionPointers.count(f.name) && seen.insert({f.name, true}).second)
        layout.functionPointers[f.name] = ++index;
  }
  layout.functionPointerOrder = data.functionPointers;
  std::vector<size_t> globalRows; // indices into data.variables of .global variables
  uint64_t constEnd = 0;
  uint32_t slot = 0;
  size_t firstRow = data.variables.size();
  std::vector<std::vector<std::string>> kernelExterns; // processing order
  for (auto it = m.functions.rbegin(); it != m.functions.rend(); ++it)
    if (it->isEntry && it->hasBody)
      kernelExterns.push_back(externsCalled(m, *it));
  auto slotExterns = [&](const std::vector<std::string> &names) {
    for (const std::string &n : names)
      if (layout.externSlots.insert({n, slot}).second) {
        data.externs.push_back(LoweredExtern{n, slot});
        slot += 8;
      }
  };
  if (!kernelExterns.empty())
    slotExterns(kernelExterns[0]);
  for (unsigned i = 0; i < m.globals.size(); ++i) {
    const ptx::VarDecl &d = m.globals[i];
    if (layout.vars.count(d.name)) {
      refuse(d, "a second declaration");
      continue;
    }
    ModuleVar v;
    v.declIndex = i;
    v.align = d.align ? d.align : std::max<unsigned>(1, elementBytes(d) * d.vectorWidth);
    uint64_t size = declSize(d);
    if (ptx::typeKind(d.type) == ptx::TypeKind::Opaque) {
      // Texture and surface references (PTX texref mode): no storage; each kernel naming one
      // gets a header-index slot in its constant bank 0 (lower_tex.cpp). Sampler references
      // (independent mode) and initialised references are not modelled.
      if (d.space == ptx::StateSpace::Global && !d.hasInit &&
          (d.type == ptx::ScalarType::TEXREF || d.type == ptx::ScalarType::SURFREF) &&
          d.linkage != ptx::Linkage::Extern) {
        v.kind = d.type == ptx::ScalarType::TEXREF ? ModuleVar::Kind::TexRef
                                                   : ModuleVar::Kind::SurfRef;
        layout.vars[d.name] = v;
        continue;
      }
      refuse(d, "a ." + std::string(ptx::typeName(d.type)) + " variable");
      continue;
    }
    switch (d.space) {
    case ptx::StateSpace::Shared:
      v.kind = ModuleVar::Kind::Shared;
      v.isExtern = d.linkage == ptx::Linkage::Extern;
      v.size = static_cast<uint32_t>(size);
      if (v.isExtern) {
        layout.hasExternShared = true;
        layout.externSharedAlign = std::max(layout.externSharedAlign, v.align);
      }
      layout.vars[d.name] = v;
      continue;
    case ptx::StateSpace::Global:
    case ptx::StateSpace::Const:
      break;
    default:
      refuse(d, "the ." + std::string(ptx::stateSpaceName(d.space)) + " state space");
      continue;
    }
    if (d.linkage == ptx::Linkage::Extern) {
      refuse(d, "an .extern declaration (defined in another module)");
      continue;
    }
    if (d.linkage == ptx::Linkage::Visible || d.linkage == ptx::Linkage::Weak ||
        d.linkage == ptx::Linkage::Common) {
      // HW: ptxas gives .visible variables GLOBAL symbols after the functions; the cubin
      // builder does not model those yet.
      refuse(d, "a .visible/.weak/.common variable");
      continue;
    }
    if (size == 0 || size > UINT32_MAX) {
      refuse(d, "a variable of " + std::to_string(size) + " bytes");
      continue;
    }
    LoweredVariable lv;
    lv.name = d.name;
    lv.size = static_cast<uint32_t>(size);
    lv.align = v.align;
    lv.hasInit = d.hasInit;
    if (d.hasInit && !initBytes(m, d, layout, diag, lv.init, lv.addressInits)) {
      ok = false;
      continue;
    }
    if (lv.init.size() > lv.size)
      lv.init.resize(lv.size);
    v.size = lv.size;
    if (d.space == ptx::StateSpace::Const) {
      v.kind = ModuleVar::Kind::Const;
      lv.isConst = true;
      constEnd = alignUp(constEnd, v.align);
      v.constOffset = static_cast<uint32_t>(constEnd);
      lv.offset = constEnd;
      constEnd += size;
    } else {
      v.kind = ModuleVar::Kind::Global;
      for (const ptx::InitValue &iv : d.init)
        v.holdsFunctionAddress |= iv.kind == ptx::InitValue::Kind::Symbol &&
                                  layout.functionPointers.count(iv.symbol);
      v.slotOffset = slot;
      lv.slot = slot;
      slot += 8;
      lv.addressSlot = true;
      globalRows.push_back(data.variables.size());
    }
    layout.vars[d.name] = v;
    data.variables.push_back(std::move(lv));
  }
  for (size_t k = 1; k < kernelExterns.size(); ++k)
    slotExterns(kernelExterns[k]);
  if (constEnd > 0x10000) {
    diag.error(SourceLoc{m.fileName, 0, 0},
               "The module's .const variables need " + std::to_string(constEnd) +
                   " bytes, more than the 64 KB of the constant bank");
    ok = false;
  }
  // .global placement: per section, largest alignment first, then smallest size; equal
  // keys keep declaration order (see the file comment).
  for (bool init : {true, false}) {
    std::vector<size_t> rows;
    for (size_t r : globalRows)
      if (data.variables[r].hasInit == init)
        rows.push_back(r);
    std::stable_sort(rows.begin(), rows.end(), [&](size_t a, size_t b) {
      const LoweredVariable &x = data.variables[a], &y = data.variables[b];
      return x.align != y.align ? x.align > y.align : x.size < y.size;
    });
    uint64_t end = 0;
    for (size_t r : rows) {
      LoweredVariable &lv = data.variables[r];
      end = alignUp(end, lv.align);
      lv.offset = end;
      end += lv.size;
    }
  }
  (void)firstRow;
  return ok;
}

bool layoutKernelShared(LowerCtx &ctx, const ModuleLayout &layout) {
  std::vector<const ptx::VarDecl *> own;
  sharedDecls(ctx.pfn.body, own);
  std::set<std::string> named;
  namedSymbols(ctx.pfn.body, named);
  const uint32_t reserve = ctx.target.memory().sharedReserve;
  uint64_t end = 0;
  uint32_t align = 1;
  bool ok = true;
  auto place = [&](const std::string &name, uint64_t size, uint32_t a) {
    end = alignUp(end, a);
    ctx.sharedVars[name] = static_cast<uint32_t>(reserve + end);
    end += size;
    align = std::max(align, a);
  };
  for (const ptx::VarDecl *d : own) {
    uint64_t size = declSize(*d);
    uint32_t a = d->align ? d->align : std::max<unsigned>(1, elementBytes(*d) * d->vectorWidth);
    if (d->linkage == ptx::Linkage::Extern || d->hasInit) {
      ctx.diag.error(SourceLoc{ctx.module.fileName, d->line, d->column},
                     "Declarations in the .shared state space with .extern or an "
                     "initializer inside a function are not supported by ptxas-mini's "
                     "code generator yet");
      ok = false;
      continue;
    }
    place(d->name, size, a);
  }
  // Module variables the kernel names, in declaration order.
  std::vector<std::pair<unsigned, std::string>> mods;
  for (const std::string &n : named)
    if (auto it = layout.vars.find(n); it != layout.vars.end() &&
                                       it->second.kind == ModuleVar::Kind::Shared &&
                                       !it->second.isExtern && !ctx.sharedVars.count(n))
      mods.push_back({it->second.declIndex, n});
  std::sort(mods.begin(), mods.end());
  for (const auto &[idx, n] : mods) {
    const ModuleVar &v = layout.vars.find(n)->second;
    place(n, v.size, v.align);
  }
  bool any = !own.empty() || !mods.empty();
  if (layout.hasExternShared) {
    end = alignUp(end, layout.externSharedAlign);
    align = std::max(align, layout.externSharedAlign);
    for (const auto &entry : layout.vars)
      if (entry.second.kind == ModuleVar::Kind::Shared && entry.second.isExtern &&
          !ctx.sharedVars.count(entry.getKey()))
        ctx.sharedVars[entry.getKey()] = static_cast<uint32_t>(reserve + end);
    any = true;
  }
  if (end > 0xffffffu) {
    ctx.diag.error(SourceLoc{ctx.module.fileName, ctx.pfn.line, ctx.pfn.column},
                   "Function '" + ctx.pfn.name + "' uses too much shared data (" +
                       std::to_string(end) + " bytes)");
    ok = false;
  }
  ctx.out.usesShared = any;
  for (const auto &entry : ctx.sharedVars)
    ctx.out.sharedAddresses[entry.getKey().str()] = entry.getValue();
  ctx.out.sharedBytes = static_cast<uint32_t>(end);
  ctx.out.sharedAlign = any ? align : 1;
  return ok;
}

} // namespace ptxmini::frontend::lower
