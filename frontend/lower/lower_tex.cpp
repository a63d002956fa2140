//===- frontend/lower/lower_tex.cpp - textures and surfaces (bindless handles) ----------===//
///
/// \file
/// Instruction selection for tex, suld.b, sust.b, txq and suq on texture and surface objects
/// (the `.u64` handles nvcc passes as kernel parameters, cudaTextureObject_t /
/// cudaSurfaceObject_t), as ptxas 13.0.88 selects them for sm_90 (HW: every form below was
/// read off ptxas output with cuobjdump/nvdisasm 13.2; tests/conformance/ptx/texture.ptx
/// holds one kernel per form):
///
///   handle          ULDC URh, c[0x0][param]; UMOV URh+1, URZ (TEX/TLD/TXQ read a UR pair
///                   whose high word ptxas always clears; SULD/SUST read one UR, no UMOV)
///   tex (f32 coords) TEX.LL d2, d1, a, b, URh, 0x0, DIM: a = [array layer,] coordinates,
///                   b = the level of detail (.level's operand, else -32.0, which ptxas
///                   loads for every implicit-LOD tex in a kernel); 1d becomes 2D with y = 0;
///                   cube/acube coordinates are divided by max(|x|,|y|,|z|) (FMNMX, MUFU.RCP,
///                   FMUL) first; an array layer is min(layer, 0xffff) unsigned (ISETP+SEL)
///   tex (s32 coords) TLD.LZ d2, d1, a, URh, 0x0, DIM (texel fetch at level 0)
///   results         d1 = (x, y), d2 = (z, w) for the full write mask (0xf, not printed)
///   sust.b / suld.b SUST.D.BA.DIM[.U8|.U16|.64|.128].STRONG.SM[.TRAP|.IGN] [a], data, URh, 0x0
///                   SULD.D.BA.DIM[...].STRONG.SM[.TRAP|.IGN] d, [a], URh, 0x0: x in bytes, the
///                   array layer last (a1d: x, layer; a2d: x, y, layer); .trap = TRAP,
///                   .zero = IGN, .clamp = neither; 8- and 16-bit vector elements packed
///                   into 32-bit words with PRMT (sust) and unpacked with PRMT (suld)
///   txq/suq .width/.height/.depth   TXQ RZ, d, 0, TEX_HEADER_DIMENSION, URh, 0x0, 1|2|4
///   istypep         one bit of the handle's high word (lowerIstypep)
///
/// Vectors of a (1, 2, 3 or 4 registers) and of the data are aligned pairs / quads; a
/// three-register `a` is a quad whose fourth register holds b, as ptxas allocates it. Results
/// land in temporaries and are moved to the PTX registers. ptxas narrows the write mask to
/// the components the program uses and coalesces the moves; this selection always fetches
/// all four. A handle that is not a kernel parameter is served by a loop over the warp's
/// distinct handles (withHandle); a texture or surface reference (PTX texref mode, `.global
/// .texref` / `.surfref`) is read from its slot in the kernel's constant bank 0 (texRefSlot).
/// Not selected (an error naming the instruction): sampler references, tld4, tex.grad, depth
/// compare, offsets, multisample geometries, f16 results, formatted surface access (sust.p),
/// sured, and the other txq/suq queries.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"
#include "frontend/lower/lower_mem.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <array>
#include <optional>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;

// Texture dimension values: the encoding's field (sm90_forms.def TEXDIM); the encoder prints
// them by name (emit_function.cpp kTexDims).
constexpr int64_t kDim1D = 0, kDim2D = 1, kDim3D = 2, kDimCube = 3, kDimArray1D = 4,
                  kDimArray2D = 5, kDimArrayCube = 7;
constexpr uint32_t kImplicitLod = 0xc2000000; // -32.0f: ptxas's LOD for an implicit-LOD tex
constexpr int64_t kMaxLayer = 0xffff;         // ptxas clamps an array layer to this (unsigned)

/// A PTX texture geometry and how it is selected.
struct GeomRow {
  std::string_view ptx;
  bool array;     ///< the first PTX coordinate is the layer
  unsigned coords; ///< coordinates after the layer
  int64_t texDim; ///< TEX dimension (f32 coordinates)
  int64_t tldDim; ///< TLD dimension (s32 coordinates); -1: none
  bool cube;      ///< coordinates are divided by their largest magnitude first
};
constexpr std::array kGeoms = {
    // 1d samples as 2D with y = 0 (HW: ptxas 13.0 selects `TEX.LL ... 2D` for tex.1d.f32).
    GeomRow{"1d", false, 1, kDim2D, kDim1D, false},
    GeomRow{"2d", false, 2, kDim2D, kDim2D, false},
    GeomRow{"3d", false, 3, kDim3D, kDim3D, false},
    GeomRow{"a1d", true, 1, kDimArray1D, kDimArray1D, false},
    GeomRow{"a2d", true, 2, kDimArray2D, kDimArray2D, false},
    GeomRow{"cube", false, 3, kDimCube, -1, true},
    GeomRow{"acube", true, 3, kDimArrayCube, -1, true},
};

/// A PTX surface geometry: the SASS shape and how many PTX coordinates it reads.
struct SurfGeomRow {
  std::string_view ptx;
  Modifier dim;
  bool array;      ///< the first PTX coordinate is the layer (SASS wants it last)
  unsigned coords; ///< coordinates after the layer
};
constexpr std::array kSurfGeoms = {
    SurfGeomRow{"1d", Modifier::Dim1D, false, 1},
    SurfGeomRow{"2d", Modifier::Dim2D, false, 2},
    SurfGeomRow{"3d", Modifier::Dim3D, false, 3},
    SurfGeomRow{"a1d", Modifier::Dim1DArray, true, 1},
    SurfGeomRow{"a2d", Modifier::Dim2DArray, true, 2},
};

/// Out-of-bounds modes of suld/sust (HW: .zero prints IGN, .clamp nothing, .trap TRAP).
struct OobRow {
  std::string_view ptx;
  std::optional<Modifier> sass;
};
constexpr std::array kOobModes = {
    OobRow{"trap", Modifier::TRAP},
    OobRow{"zero", Modifier::IGN},
    OobRow{"clamp", std::nullopt},
};

/// SULD/SUST access size by bytes (1, 2, 4, 8, 16): the size modifier, if any.
std::optional<Modifier> sizeModifier(unsigned bytes) {
  switch (bytes) {
  case 1: return Modifier::U8;
  case 2: return Modifier::U16;
  case 8: return Modifier::Size64;
  case 16: return Modifier::Size128;
  default: return std::nullopt;
  }
}

template <class Row, size_t N>
const Row *findRow(const ptx::Instruction &in, const std::array<Row, N> &rows) {
  for (const ptx::Modifier &m : in.modifiers)
    if (m.kind == ptx::Modifier::Kind::Other)
      for (const Row &r : rows)
        if (r.ptx == m.text)
          return &r;
  return nullptr;
}

bool isDefinedBy(const ptx::Instruction &in, const std::string &reg) {
  if (in.operands.empty())
    return false;
  const ptx::Operand &d = in.operands[0];
  auto names = [&](const ptx::Operand &o) {
    return o.is<ptx::RegOperand>() && o.as<ptx::RegOperand>().name == reg;
  };
  if (names(d))
    return true;
  if (d.is<ptx::PairOperand>())
    return d.as<ptx::PairOperand>().first == reg || d.as<ptx::PairOperand>().second == reg;
  const std::vector<ptx::Operand> *elems = nullptr;
  if (d.is<ptx::VectorOperand>())
    elems = &d.as<ptx::VectorOperand>().elems;
  else if (d.is<ptx::ListOperand>())
    elems = &d.as<ptx::ListOperand>().elems;
  if (elems)
    for (const ptx::Operand &e : *elems)
      if (names(e))
        return true;
  return false;
}

void collectDefs(const ptx::Block &b, const std::string &reg,
                 std::vector<const ptx::Instruction *> &out) {
  for (const ptx::Statement &st : b.statements) {
    if (st.is<ptx::Block>())
      collectDefs(st.as<ptx::Block>(), reg, out);
    else if (st.is<ptx::Instruction>() && isDefinedBy(st.as<ptx::Instruction>(), reg))
      out.push_back(&st.as<ptx::Instruction>());
  }
}

/// The constant-bank byte offset of the kernel parameter `reg` holds: its only definition in
/// the kernel is an unguarded 64-bit ld.param of a parameter. nullopt otherwise.
std::optional<uint32_t> handleParamOffset(LowerCtx &ctx, const std::string &reg) {
  if (!ctx.pfn.isEntry)
    return std::nullopt;
  std::vector<const ptx::Instruction *> defs;
  collectDefs(ctx.pfn.body, reg, defs);
  if (defs.size() != 1)
    return std::nullopt;
  const ptx::Instruction &ld = *defs[0];
  if (ld.opcode != "ld" || ld.space() != ptx::StateSpace::Param || ld.guard ||
      ld.vectorWidth() != 1 || ptx::typeBits(ld.type()) != 64 || ld.operands.size() != 2 ||
      !ld.operands[1].is<ptx::AddressOperand>())
    return std::nullopt;
  const auto &addr = ld.operands[1].as<ptx::AddressOperand>();
  auto p = ctx.params.find(addr.base);
  if (addr.baseKind != ptx::AddressOperand::BaseKind::Symbol || p == ctx.params.end() ||
      addr.offset < 0 || static_cast<uint64_t>(addr.offset) + 8 > p->second.size)
    return std::nullopt;
  return ctx.target.constBank().paramBase + p->second.offset + static_cast<uint32_t>(addr.offset);
}

/// The module texture or surface reference `name` names (nullptr when it names none).
const ModuleVar *textureReference(const LowerCtx &ctx, const std::string &name) {
  if (!ctx.moduleLayout)
    return nullptr;
  auto it = ctx.moduleLayout->vars.find(name);
  if (it == ctx.moduleLayout->vars.end() || (it->second.kind != ModuleVar::Kind::TexRef &&
                                             it->second.kind != ModuleVar::Kind::SurfRef))
    return nullptr;
  return &it->second;
}

void collectTexRefs(const LowerCtx &ctx, const ptx::Block &b,
                    std::vector<LoweredFunction::TexRef> &out) {
  for (const ptx::Statement &st : b.statements) {
    if (st.is<ptx::Block>()) {
      collectTexRefs(ctx, st.as<ptx::Block>(), out);
      continue;
    }
    if (!st.is<ptx::Instruction>())
      continue;
    for (const ptx::Operand &o : st.as<ptx::Instruction>().operands) {
      if (!o.is<ptx::AddressOperand>())
        continue;
      const auto &a = o.as<ptx::AddressOperand>();
      if (a.baseKind != ptx::AddressOperand::BaseKind::Symbol)
        continue;
      const ModuleVar *v = textureReference(ctx, a.base);
      if (v && std::none_of(out.begin(), out.end(),
                            [&](const LoweredFunction::TexRef &r) { return r.name == a.base; }))
        out.push_back({a.base, v->kind == ModuleVar::Kind::SurfRef, 0});
    }
  }
}

/// The constant-bank-0 offset of the header-index slot of texture or surface reference
/// `name` in this kernel. HW (ptxas 13.0.88, one and two kernels naming texrefs and surfrefs
/// declared and used in different orders, read with cuobjdump -elf / -sass): a kernel's
/// references get 4-byte slots right after its parameters, the textures first, then the
/// surfaces, each in order of first use in the body; the driver fills them through
/// R_CUDA_TEX_HEADER_INDEX / R_CUDA_SURF_HEADER_INDEX relocations in .rela.nv.constant0.<k>
/// (the cubin builder writes them from LoweredFunction::texRefs, kept in order of first use:
/// the symbol order), and the code reads them as it reads a bindless handle parameter
/// (ULDC, high word URZ).
uint32_t texRefSlot(LowerCtx &ctx, const std::string &name) {
  std::vector<LoweredFunction::TexRef> &refs = ctx.out.texRefs;
  if (refs.empty()) {
    collectTexRefs(ctx, ctx.pfn.body, refs);
    uint32_t next = ctx.target.constBank().paramBase + (ctx.out.paramBytes + 3) / 4 * 4;
    for (bool surface : {false, true})
      for (LoweredFunction::TexRef &r : refs)
        if (r.surface == surface) {
          r.offset = next;
          next += 4;
        }
  }
  for (const LoweredFunction::TexRef &r : refs)
    if (r.name == name)
      return r.offset;
  return 0; // not reached: the scan saw every reference of the body
}

/// Emits, through `issue`, the texture or surface instruction whose handle operand is
/// `[h, {...}]`, with h in uniform registers: a pair (high word cleared for a parameter) for
/// TEX/TLD/TXQ, one register for SULD/SUST.
///   A kernel parameter loaded once with ld.param: ULDC from its constant-bank slot (and
///     UMOV URZ into the high word).
///   Any other 64-bit register (a handle selected or loaded at run time): a loop over the
///     distinct handles of the warp. HW: ptxas 13.0.88 (cuda-samples bindlessTexture,
///     d_render) loops with `@P1 R2UR P0, UR4, R8; @P1 R2UR.OR P0, UR5, R9; @!P0 TEX ...;
///     @P1 BRA.U.ANY`; this lowering spells the same loop with ELECT, which the emulator
///     models: the lowest pending thread's handle goes into uniform registers (R2UR under
///     the elected predicate), every pending thread holding the same handle (ISETP against
///     the uniform registers) issues the instruction and is served, and the loop runs while
///     any thread is pending. A guarded PTX instruction starts with its guard as the pending
///     set. SULD/SUST compare the low word only (the word they read).
bool withHandle(LowerCtx &ctx, const ptx::Instruction &in, const ptx::AddressOperand &addr,
                bool pair, llvm::function_ref<void(const Operand &)> issue) {
  std::optional<uint32_t> off;
  if (addr.baseKind == ptx::AddressOperand::BaseKind::Symbol) {
    if (!textureReference(ctx, addr.base) || !ctx.pfn.isEntry || addr.offset != 0)
      return ctx.unsupported(in, "Texture or surface reference '" + addr.base +
                                     "' outside a kernel or with an offset in '" +
                                     in.fullOpcode() + "'");
    off = texRefSlot(ctx, addr.base);
  } else if (addr.baseKind != ptx::AddressOperand::BaseKind::Register || addr.offset != 0) {
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  } else {
    off = handleParamOffset(ctx, addr.base);
  }
  Operand guard = ctx.curGuard;
  if (off) {
    // Unguarded: a uniform instruction takes no per-thread guard, and loading a parameter
    // has no effect to suppress (ptxas guards them with a VOTEU-made UP; not needed for a
    // load).
    ctx.curGuard = {};
    Operand h = ctx.temp(RegClass::UR, pair ? 2 : 1);
    ctx.emit(Opcode::ULDC, {}, {pair ? component(h, 0) : h}, {Operand::cbank(0, *off)});
    if (pair)
      ctx.emit(Opcode::UMOV, {}, {component(h, 1)}, {URZ()});
    ctx.curGuard = guard;
    issue(h);
    return true;
  }
  Operand src = ctx.reg(in, addr.base);
  if (src.kind == ori::OperandKind::None)
    return false;
  if (src.kind != ori::OperandKind::VReg || src.cls != RegClass::R || src.width != 2)
    return ctx.unsupported(in, "A texture or surface handle that is not a 64-bit register ('" +
                                   addr.base + "' in '" + in.fullOpcode() + "')");
  ctx.curGuard = {};
  Operand pending = ctx.temp(RegClass::P), elected = ctx.temp(RegClass::P),
          same = ctx.temp(RegClass::P);
  const Operand urz = URZ();
  // PLOP3.LUT 0x8 of three true inputs is false, 0x80 their conjunction (as
  // perThreadUniformLoop). `elected` is false outside the ELECT of each iteration, so only
  // the leader's R2UR writes the uniform registers.
  auto setFalse = [&](const Operand &p) {
    ctx.emit(Opcode::PLOP3, {Modifier::LUT}, {p, PT()},
             {PT(), PT(), PT(), Operand::intImm(0x8), Operand::intImm(0)});
  };
  ctx.emit(Opcode::PLOP3, {Modifier::LUT}, {pending, PT()},
           {PT(), guard.kind == ori::OperandKind::None ? PT() : guard, PT(),
            Operand::intImm(0x80), Operand::intImm(0)});
  setFalse(elected);
  uint32_t loop = ctx.startBlock();
  ctx.emit(Opcode::ELECT, {}, {elected, urz}, {PT()}).guard = pending;
  Operand h = ctx.temp(RegClass::UR, pair ? 2 : 1);
  const unsigned words = pair ? 2 : 1;
  for (unsigned k = 0; k < words; ++k)
    ctx.emit(Opcode::R2UR, {}, {pair ? component(h, k) : h}, {component(src, k)}).guard =
        elected;
  setFalse(elected);
  for (unsigned k = 0; k < words; ++k)
    ctx.emit(Opcode::ISETP, {Modifier::EQ, Modifier::U32, Modifier::AND}, {same, PT()},
             {component(src, k), pair ? component(h, k) : h, k == 0 ? pending : same});
  ctx.curGuard = same;
  issue(h);
  setFalse(pending); // served (under `same`)
  ctx.curGuard = {};
  ctx.emit(Opcode::BRA, {Modifier::U, Modifier::ANY}, {}, {Operand::block(loop)}).guard =
      pending;
  ctx.startBlock();
  ctx.curGuard = guard;
  return true;
}

/// `o` (a PTX source) as a 32-bit register: immediates are moved into a fresh one.
Operand asRegister(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &o) {
  Operand s = ctx.source(in, o);
  if (s.kind == ori::OperandKind::None || s.kind == ori::OperandKind::VReg)
    return s;
  if (s.kind == ori::OperandKind::FImm64) {
    ctx.unsupported(in, "A 64-bit immediate operand of '" + in.fullOpcode() + "'");
    return {};
  }
  Operand r = ctx.temp(RegClass::R);
  ctx.emit(Opcode::MOV, {}, {r}, {Operand::intImm(s.imm & 0xffffffff)});
  return r;
}

/// MOV d, src, a 32-bit immediate (integer or float bits) spelled as MOV's hex immediate.
void move(LowerCtx &ctx, const Operand &d, const Operand &src) {
  Operand s = src;
  if (s.kind == ori::OperandKind::FImm32 || s.kind == ori::OperandKind::Imm)
    s = Operand::intImm(s.imm & 0xffffffff);
  ctx.emit(Opcode::MOV, {}, {d}, {s});
}

/// Copies `src` into 32-bit component `k` of the vector register `vec`.
void moveInto(LowerCtx &ctx, const Operand &vec, unsigned k, const Operand &src) {
  move(ctx, vec.width == 1 ? vec : component(vec, k), src);
}

/// A fresh register of `n` 32-bit components (1, 2 or 4: three take a quad).
Operand vectorTemp(LowerCtx &ctx, unsigned n) {
  return ctx.temp(RegClass::R, static_cast<uint8_t>(n == 1 ? 1 : n == 2 ? 2 : 4));
}

/// min(layer, 0xffff) unsigned into component `k` of `vec`.
void clampLayer(LowerCtx &ctx, const Operand &vec, unsigned k, const Operand &layer) {
  Operand p = ctx.temp(RegClass::P);
  ctx.emit(Opcode::ISETP, {Modifier::GT, Modifier::U32, Modifier::AND}, {p, PT()},
           {layer, Operand::intImm(kMaxLayer), PT()});
  Operand notP = p;
  notP.mods |= ori::OM_NOT;
  ctx.emit(Opcode::SEL, {}, {vec.width == 1 ? vec : component(vec, k)},
           {layer, Operand::intImm(kMaxLayer), notP});
}

/// The elements of a `{...}` operand (a single register counts as a one-element vector).
std::optional<std::vector<ptx::Operand>> elements(const ptx::Operand &o) {
  if (o.is<ptx::VectorOperand>())
    return o.as<ptx::VectorOperand>().elems;
  if (o.is<ptx::RegOperand>())
    return std::vector<ptx::Operand>{o};
  return std::nullopt;
}

bool lowerTex(LowerCtx &ctx, const ptx::Instruction &in) {
  const GeomRow *g = findRow(in, kGeoms);
  bool level = in.has("level");
  std::vector<ptx::ScalarType> types = in.types();
  if (!g || in.vectorWidth() != 4 || types.size() != 2)
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"1d", "2d", "3d", "a1d", "a2d", "cube", "acube", "level"}))
    return false;
  ptx::ScalarType dt = types[0], ct = types[1];
  bool intCoords = ct == ptx::ScalarType::S32;
  if ((dt != ptx::ScalarType::F32 && dt != ptx::ScalarType::U32 &&
       dt != ptx::ScalarType::S32) ||
      (ct != ptx::ScalarType::F32 && !intCoords) || (intCoords && (g->tldDim < 0 || level)))
    return ctx.unsupported(in);
  if (in.operands.size() != (level ? 3u : 2u) || !in.operands[0].is<ptx::VectorOperand>() ||
      !in.operands[1].is<ptx::AddressOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  const auto &dsts = in.operands[0].as<ptx::VectorOperand>().elems;
  const auto &addr = in.operands[1].as<ptx::AddressOperand>();
  if (dsts.size() != 4 || addr.extra.size() != 1 || !addr.extra[0].is<ptx::VectorOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  const auto &coords = addr.extra[0].as<ptx::VectorOperand>().elems;
  unsigned nptx = (g->array ? 1 : 0) + g->coords;
  if (coords.size() < nptx)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  std::vector<Operand> dst;
  for (const ptx::Operand &d : dsts) {
    if (d.is<ptx::SinkOperand>()) {
      dst.push_back({});
      continue;
    }
    if (!d.is<ptx::RegOperand>())
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    dst.push_back(ctx.reg(in, d.as<ptx::RegOperand>().name));
    if (dst.back().kind == ori::OperandKind::None)
      return false;
  }
  // The coordinate vector a: [layer,] coordinates [, y = 0 for a 1d tex].
  bool promote1d = !intCoords && g->ptx == "1d";
  unsigned n = nptx + (promote1d ? 1 : 0);
  Operand a = vectorTemp(ctx, n);
  unsigned k = 0;
  if (g->array) {
    Operand layer = asRegister(ctx, in, coords[0]);
    if (layer.kind == ori::OperandKind::None)
      return false;
    clampLayer(ctx, a, k++, layer);
  }
  std::vector<Operand> c;
  for (unsigned i = g->array ? 1 : 0; i < nptx; ++i) {
    c.push_back(g->cube ? asRegister(ctx, in, coords[i]) : ctx.source(in, coords[i]));
    if (c.back().kind == ori::OperandKind::None)
      return false;
  }
  if (g->cube) {
    // Divide by the largest magnitude (HW: ptxas 13.0 emits FMNMX |x|, |y|; FMNMX with |z|;
    // MUFU.RCP; FMUL for tex.cube / tex.acube).
    // Each result in a register of its own: CSE merges the max(|x|, |y|) of cube fetches
    // that share two coordinates only when nothing redefines it.
    Operand m1 = ctx.temp(RegClass::R), m = ctx.temp(RegClass::R), r = ctx.temp(RegClass::R);
    auto absOf = [](Operand o) {
      o.mods |= ori::OM_ABS;
      return o;
    };
    ctx.emit(Opcode::FMNMX, {}, {m1}, {absOf(c[0]), absOf(c[1]), notPT()});
    ctx.emit(Opcode::FMNMX, {}, {m}, {m1, absOf(c[2]), notPT()});
    ctx.emit(Opcode::MUFU, {Modifier::RCP}, {r}, {m});
    for (const Operand &x : c)
      ctx.emit(Opcode::FMUL, {}, {component(a, k++)}, {r, x});
  } else {
    for (const Operand &x : c)
      moveInto(ctx, a, k++, x);
  }
  if (promote1d)
    moveInto(ctx, a, k++, Operand::intImm(0));

  Operand d1 = ctx.temp(RegClass::R, 2), d2 = ctx.temp(RegClass::R, 2);
  bool ok;
  if (intCoords) {
    ok = withHandle(ctx, in, addr, true, [&](const Operand &handle) {
      ctx.emit(Opcode::TLD, {Modifier::LZ}, {d2, d1},
               {a, handle, Operand::intImm(0), Operand::intImm(g->tldDim)});
    });
  } else {
    // b: the LOD, in the fourth register of a three-register a (as ptxas allocates it).
    Operand b = n == 3 ? component(a, 3) : ctx.temp(RegClass::R);
    if (level) {
      Operand lod = ctx.source(in, in.operands[2]);
      if (lod.kind == ori::OperandKind::None)
        return false;
      move(ctx, b, lod);
    } else {
      move(ctx, b, Operand::intImm(kImplicitLod));
    }
    ok = withHandle(ctx, in, addr, true, [&](const Operand &handle) {
      ctx.emit(Opcode::TEX, {Modifier::LL}, {d2, d1},
               {a, b, handle, Operand::intImm(0), Operand::intImm(g->texDim)});
    });
  }
  if (!ok)
    return false;
  for (unsigned i = 0; i < 4; ++i)
    if (dst[i].kind != ori::OperandKind::None)
      ctx.emit(Opcode::MOV, {}, {dst[i]}, {component(i < 2 ? d1 : d2, i % 2)});
  return true;
}

/// The parts suld.b / sust.b share: geometry, element size, vector width, out-of-bounds mode.
struct SurfAccess {
  const SurfGeomRow *geom = nullptr;
  unsigned elemBits = 0, vec = 1, bytes = 0;
  std::optional<Modifier> oob;
};

bool surfaceAccess(LowerCtx &ctx, const ptx::Instruction &in, SurfAccess &s) {
  s.geom = findRow(in, kSurfGeoms);
  const OobRow *oob = nullptr;
  for (const OobRow &r : kOobModes)
    if (in.has(r.ptx))
      oob = &r;
  std::vector<ptx::ScalarType> types = in.types();
  if (!in.has("b") || !s.geom || !oob || types.size() != 1 ||
      ptx::typeKind(types[0]) != ptx::TypeKind::Bit)
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"b", "1d", "2d", "3d", "a1d", "a2d", "trap", "zero", "clamp"}))
    return false;
  s.elemBits = ptx::typeBits(types[0]);
  s.vec = in.vectorWidth();
  s.bytes = s.elemBits / 8 * s.vec;
  s.oob = oob->sass;
  if (s.bytes > 16)
    return ctx.unsupported(in);
  return true;
}

/// The coordinate vector of a surface access: x (bytes), [y, [z,]] [layer last].
Operand surfaceCoords(LowerCtx &ctx, const ptx::Instruction &in, const SurfAccess &s,
                      const ptx::AddressOperand &addr) {
  if (addr.extra.size() != 1) {
    ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    return {};
  }
  std::optional<std::vector<ptx::Operand>> coords = elements(addr.extra[0]);
  unsigned nptx = (s.geom->array ? 1 : 0) + s.geom->coords;
  if (!coords || coords->size() < nptx) {
    ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    return {};
  }
  Operand a = vectorTemp(ctx, nptx);
  unsigned k = 0;
  for (unsigned i = s.geom->array ? 1 : 0; i < nptx; ++i) {
    Operand x = ctx.source(in, (*coords)[i]);
    if (x.kind == ori::OperandKind::None)
      return {};
    moveInto(ctx, a, k++, x);
  }
  if (s.geom->array) {
    Operand layer = ctx.source(in, (*coords)[0]);
    if (layer.kind == ori::OperandKind::None)
      return {};
    moveInto(ctx, a, k++, layer);
  }
  return a;
}

std::vector<Modifier> surfaceModifiers(const SurfAccess &s) {
  std::vector<Modifier> mods = {Modifier::D, Modifier::BA, s.geom->dim};
  if (std::optional<Modifier> size = sizeModifier(s.bytes))
    mods.push_back(*size);
  mods.push_back(Modifier::STRONG);
  mods.push_back(Modifier::SM);
  if (s.oob)
    mods.push_back(*s.oob);
  return mods;
}

ori::Instr &emitWithMods(LowerCtx &ctx, Opcode op, const std::vector<Modifier> &mods,
                         std::initializer_list<Operand> defs, std::initializer_list<Operand> uses) {
  ori::Instr &i = ctx.emit(op, {}, defs, uses);
  for (Modifier m : mods)
    i.mods.push_back(m);
  return i;
}

/// PRMT selectors (PRMT d, a, sel, c: nibble values 0-3 pick bytes of a, 4-7 bytes of c).
/// HW: the packing sequence is ptxas 13.0's for sust.b.v4.b8 and v2.b16.
constexpr int64_t kPackLowHalves = 0x5410;    // a.lo16 | c.lo16 << 16
constexpr int64_t kByte1Into1 = 0x7604;       // c.b0, a.b0 -> bytes 0, 1 (c.b2, c.b3 kept)
constexpr int64_t kByte2Into2 = 0x7054;       // a.b0 -> byte 2 of c
constexpr int64_t kByte3Into3 = 0x0654;       // a.b0 -> byte 3 of c
constexpr int64_t kExtractByte[4] = {0x7770, 0x7771, 0x7772, 0x7773}; // c = RZ: zero-extended
constexpr int64_t kExtractHigh16 = 0x7732;                              // c = RZ

bool lowerSust(LowerCtx &ctx, const ptx::Instruction &in) {
  SurfAccess s;
  if (!surfaceAccess(ctx, in, s))
    return false;
  if (in.operands.size() != 2 || !in.operands[0].is<ptx::AddressOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  std::optional<std::vector<ptx::Operand>> vals = elements(in.operands[1]);
  if (!vals || vals->size() != s.vec)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  const auto &addr = in.operands[0].as<ptx::AddressOperand>();
  std::vector<Operand> v;
  for (const ptx::Operand &o : *vals) {
    v.push_back(s.elemBits == 64 ? ctx.source(in, o) : asRegister(ctx, in, o));
    if (v.back().kind == ori::OperandKind::None)
      return false;
    if (s.elemBits == 64 && (v.back().kind != ori::OperandKind::VReg || v.back().width != 2))
      return ctx.unsupported(in, "A 64-bit immediate operand of '" + in.fullOpcode() + "'");
  }
  Operand a = surfaceCoords(ctx, in, s, addr);
  if (a.kind == ori::OperandKind::None)
    return false;
  // The data: one register, or packed / gathered into a pair or quad.
  Operand data;
  if (s.vec == 1) {
    data = v[0];
  } else if (s.elemBits == 8) {
    Operand t = ctx.temp(RegClass::R);
    ctx.emit(Opcode::PRMT, {}, {t}, {v[1], Operand::intImm(kByte1Into1), v[0]});
    if (s.vec == 4) {
      Operand t2 = ctx.temp(RegClass::R);
      ctx.emit(Opcode::PRMT, {}, {t2}, {v[2], Operand::intImm(kByte2Into2), t});
      t = ctx.temp(RegClass::R);
      ctx.emit(Opcode::PRMT, {}, {t}, {v[3], Operand::intImm(kByte3Into3), t2});
    }
    data = t;
  } else if (s.elemBits == 16) {
    data = vectorTemp(ctx, s.vec / 2);
    for (unsigned i = 0; i < s.vec; i += 2)
      ctx.emit(Opcode::PRMT, {}, {data.width == 1 ? data : component(data, i / 2)},
               {v[i], Operand::intImm(kPackLowHalves), v[i + 1]});
  } else {
    data = vectorTemp(ctx, s.bytes / 4);
    unsigned k = 0;
    for (const Operand &x : v)
      for (unsigned h = 0; h < s.elemBits / 32; ++h)
        moveInto(ctx, data, k++, s.elemBits == 64 ? component(x, h) : x);
  }
  return withHandle(ctx, in, addr, false, [&](const Operand &handle) {
    emitWithMods(ctx, Opcode::SUST, surfaceModifiers(s), {},
                 {Operand::mem(a, 0), data, handle, Operand::intImm(0)});
  });
}

bool lowerSuld(LowerCtx &ctx, const ptx::Instruction &in) {
  SurfAccess s;
  if (!surfaceAccess(ctx, in, s))
    return false;
  if (in.operands.size() != 2 || !in.operands[1].is<ptx::AddressOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  std::optional<std::vector<ptx::Operand>> outs = elements(in.operands[0]);
  if (!outs || outs->size() != s.vec)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  std::vector<Operand> d;
  for (const ptx::Operand &o : *outs) {
    if (o.is<ptx::SinkOperand>()) {
      d.push_back({});
      continue;
    }
    if (!o.is<ptx::RegOperand>())
      return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
    d.push_back(ctx.reg(in, o.as<ptx::RegOperand>().name));
    if (d.back().kind == ori::OperandKind::None)
      return false;
  }
  const auto &addr = in.operands[1].as<ptx::AddressOperand>();
  Operand a = surfaceCoords(ctx, in, s, addr);
  if (a.kind == ori::OperandKind::None)
    return false;
  Operand r = vectorTemp(ctx, std::max(1u, s.bytes / 4));
  if (!withHandle(ctx, in, addr, false, [&](const Operand &handle) {
        emitWithMods(ctx, Opcode::SULD, surfaceModifiers(s), {r},
                     {Operand::mem(a, 0), handle, Operand::intImm(0)});
      }))
    return false;
  auto word = [&](unsigned i) { return r.width == 1 ? r : component(r, i); };
  for (unsigned i = 0; i < s.vec; ++i) {
    if (d[i].kind == ori::OperandKind::None)
      continue;
    if (s.vec == 1) {
      ctx.emit(Opcode::MOV, {}, {r.width == 1 ? d[i] : component(d[i], 0)}, {word(0)});
      for (unsigned h = 1; h < r.width; ++h)
        ctx.emit(Opcode::MOV, {}, {component(d[i], h)}, {word(h)});
    } else if (s.elemBits == 8) {
      ctx.emit(Opcode::PRMT, {}, {d[i]}, {r, Operand::intImm(kExtractByte[i]), RZ()});
    } else if (s.elemBits == 16) {
      Operand w = word(i / 2);
      if (i % 2 == 0)
        ctx.emit(Opcode::MOV, {}, {d[i]}, {w});
      else
        ctx.emit(Opcode::PRMT, {}, {d[i]}, {w, Operand::intImm(kExtractHigh16), RZ()});
    } else if (s.elemBits == 32) {
      ctx.emit(Opcode::MOV, {}, {d[i]}, {word(i)});
    } else {
      ctx.emit(Opcode::MOV, {}, {component(d[i], 0)}, {word(2 * i)});
      ctx.emit(Opcode::MOV, {}, {component(d[i], 1)}, {word(2 * i + 1)});
    }
  }
  return true;
}

/// txq / suq .width / .height / .depth: TXQ of the texture header's dimensions at LOD 0.
struct QueryRow {
  std::string_view ptx;
  int64_t mask; ///< the component of TEX_HEADER_DIMENSION (x width, y height, z depth)
};
constexpr std::array kQueries = {
    QueryRow{"width", 0x1},
    QueryRow{"height", 0x2},
    QueryRow{"depth", 0x4},
};
constexpr int64_t kQueryDimension = 0; // TXQ's TEX_HEADER_DIMENSION (emit_function.cpp)

bool lowerQuery(LowerCtx &ctx, const ptx::Instruction &in) {
  // HW: a module with txq/suq is written differently by ptxas 13.0 (no .nv.callgraph,
  // EIATTR_MAX_STACK_SIZE records between REGCOUNT and FRAME_SIZE in .nv.info; observed with
  // cuobjdump 13.2 -elf); the compiler tells the cubin builder (ModuleInfo::noCallgraph).
  const QueryRow *q = findRow(in, kQueries);
  if (!q || ptx::typeBits(in.type()) != 32)
    return ctx.unsupported(in);
  if (!ctx.onlyModifiers(in, {"width", "height", "depth"}))
    return false;
  if (in.operands.size() != 2 || !in.operands[0].is<ptx::RegOperand>() ||
      !in.operands[1].is<ptx::AddressOperand>() ||
      !in.operands[1].as<ptx::AddressOperand>().extra.empty())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  if (d.kind == ori::OperandKind::None)
    return false;
  Operand lod = ctx.temp(RegClass::R), r = ctx.temp(RegClass::R);
  ctx.emit(Opcode::MOV, {}, {lod}, {Operand::intImm(0)});
  if (!withHandle(ctx, in, in.operands[1].as<ptx::AddressOperand>(), true,
                  [&](const Operand &handle) {
                    ctx.emit(Opcode::TXQ, {}, {RZ(), r},
                             {lod, Operand::intImm(kQueryDimension), handle,
                              Operand::intImm(0), Operand::intImm(q->mask)});
                  }))
    return false;
  ctx.emit(Opcode::MOV, {}, {d}, {r});
  return true;
}

/// istypep.texref / .samplerref / .surfref p, h: whether the 64-bit handle h is of that
/// kind. HW: ptxas 13.0.88 tests one bit of the high word: `LOP3.LUT t, h.hi, 0x20000000
/// (texref) | 0x40000000 (samplerref) | 0x80000000 (surfref), RZ, 0xc0`, then ISETP.NE.EX of
/// t against the bit and uses the negation; this lowering sets p = (t != 0), the same test.
struct TypeBitRow {
  std::string_view ptx;
  uint32_t bit;
};
constexpr std::array kHandleKinds = {
    TypeBitRow{"texref", 0x20000000u},
    TypeBitRow{"samplerref", 0x40000000u},
    TypeBitRow{"surfref", 0x80000000u},
};

bool lowerIstypep(LowerCtx &ctx, const ptx::Instruction &in) {
  const TypeBitRow *k = nullptr;
  for (const TypeBitRow &r : kHandleKinds)
    if (in.type() == ptx::parseType(r.ptx))
      k = &r;
  if (!k || !ctx.onlyModifiers(in, {}))
    return k ? false : ctx.unsupported(in);
  if (in.operands.size() != 2 || !in.operands[0].is<ptx::RegOperand>() ||
      !in.operands[1].is<ptx::RegOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand p = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  Operand h = ctx.reg(in, in.operands[1].as<ptx::RegOperand>().name);
  if (p.kind == ori::OperandKind::None || h.kind == ori::OperandKind::None)
    return false;
  if (p.cls != RegClass::P || h.cls != RegClass::R || h.width != 2)
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  Operand t = ctx.temp(RegClass::R);
  ctx.emit(Opcode::LOP3, {Modifier::LUT}, {t},
           {component(h, 1), Operand::intImm(k->bit), RZ(), Operand::intImm(0xc0), notPT()});
  ctx.emit(Opcode::ISETP, {Modifier::NE, Modifier::U32, Modifier::AND}, {p, PT()},
           {t, RZ(), PT()});
  return true;
}

constexpr std::array kRows = {
    HandlerRow{"tex", TypeClass::Any, lowerTex},
    HandlerRow{"suld", TypeClass::Any, lowerSuld},
    HandlerRow{"sust", TypeClass::Any, lowerSust},
    HandlerRow{"txq", TypeClass::Any, lowerQuery},
    HandlerRow{"suq", TypeClass::Any, lowerQuery},
    HandlerRow{"istypep", TypeClass::Any, lowerIstypep},
};

} // namespace

std::span<const HandlerRow> textureHandlers() { return kRows; }

} // namespace ptxmini::frontend::lower
