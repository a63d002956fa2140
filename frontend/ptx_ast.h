//===- frontend/ptx_ast.h - the typed PTX AST -------------------------------------------===//
///
/// \file
/// What the frontend hands to the rest of ptxas-mini: a PTX module as plain value types.
/// Nothing here refers to the ANTLR parse tree (that is private to frontend/).
///
///   Module
///     version, targets, address size, .file table
///     globals:   VarDecl (one per declarator; `%r<100>` stays one decl with rangeCount 100)
///     functions: Function (.entry/.func: params, return params, performance directives,
///                body = Block of Statements)
///   Statement = Instruction | Label | VarDecl | Directive | Block (an inner `{ }` scope)
///   Instruction: family opcode ("ld", "cp.async.bulk.tensor"), structured Modifiers (types,
///                vector width, state space, everything else as words), optional guard,
///                Operands (a variant: register, immediate, float, symbol, address, vector,
///                list, pair, sink).
/// Every node carries the line and column of its first token.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "targets/arch.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ptxmini::ptx {

// ---- Types ----------------------------------------------------------------------------------
enum class ScalarType : uint8_t {
  None,
#define PTX_TYPE(E, TEXT, BITS, KIND) E,
#include "frontend/ptx_types.def"
};
enum class TypeKind : uint8_t { None, Bit, Unsigned, Signed, Float, Pred, Opaque, Packed };

/// "u32" -> U32; None when `text` is no PTX type name (text without the leading dot).
ScalarType parseType(std::string_view text);
std::string_view typeName(ScalarType t); ///< "u32" (no dot); "" for None
unsigned typeBits(ScalarType t);
TypeKind typeKind(ScalarType t);

enum class StateSpace : uint8_t {
  None,
  Reg,
  SReg,
  Const,
  Global,
  Local,
  Param,
  Shared,        ///< .shared (= .shared::cta)
  SharedCluster, ///< .shared::cluster
  Tex,
};
std::string_view stateSpaceName(StateSpace s); ///< "global" (no dot)
/// "global", "shared::cta" -> the space; None when not a state space.
StateSpace parseStateSpace(std::string_view text);

enum class Linkage : uint8_t { None, Visible, Extern, Weak, Common };

// ---- Operands -------------------------------------------------------------------------------
struct Operand;

/// `%r1`, `!%p1` (negated predicate), `%tid.x` (special register).
struct RegOperand {
  std::string name;
  bool negated = false;
};
struct ImmOperand {
  int64_t value = 0;
};
/// `0f3F800000` / `0d...` keep their exact bits; decimal floats are converted.
struct FloatOperand {
  double value = 0;
  uint64_t bits = 0;
  bool isDouble = false; ///< written as 0d... (64-bit), else 32-bit
};
/// A variable, function or label name, with an optional constant offset (`x+4`).
struct SymbolOperand {
  enum class Kind : uint8_t { Unresolved, Variable, Function, Label };
  std::string name;
  int64_t offset = 0;
  Kind kind = Kind::Unresolved; ///< filled by the checker
};
/// `[base+offset]`. base is a register, a symbol, or empty for an absolute `[0x100]`.
/// `[tex, sampler, {x, y}]` and `[tensorMap, {c0, c1}]` keep the extra elements in `extra`.
struct AddressOperand {
  enum class BaseKind : uint8_t { None, Register, Symbol };
  BaseKind baseKind = BaseKind::None;
  std::string base;
  int64_t offset = 0;
  std::vector<Operand> extra;
};
/// `{%r1, %r2, _}`
struct VectorOperand {
  std::vector<Operand> elems;
};
/// `(retval0)` / `(param0, param1)` of call.
struct ListOperand {
  std::vector<Operand> elems;
};
/// `%p|%q` (setp/shfl with two destinations).
struct PairOperand {
  std::string first, second;
};
/// `_`
struct SinkOperand {};

struct Operand {
  std::variant<RegOperand, ImmOperand, FloatOperand, SymbolOperand, AddressOperand,
               VectorOperand, ListOperand, PairOperand, SinkOperand>
      value;
  uint32_t column = 0;

  template <class T> bool is() const { return std::holds_alternative<T>(value); }
  template <class T> const T &as() const { return std::get<T>(value); }
  template <class T> T &as() { return std::get<T>(value); }
};

// ---- Instructions ---------------------------------------------------------------------------
/// One `.word` after the opcode family. Types, vector widths and state spaces are decoded;
/// every other word (rounding, comparison, cache policy, shape, ...) is kept as its text.
struct Modifier {
  enum class Kind : uint8_t { Type, Vector, Space, Other };
  Kind kind = Kind::Other;
  std::string text;                      ///< without the dot: "rn", "L2::cache_hint", "v4"
  ScalarType type = ScalarType::None;    ///< Kind::Type
  StateSpace space = StateSpace::None;   ///< Kind::Space
  unsigned vectorWidth = 0;              ///< Kind::Vector
};

struct Guard {
  std::string predicate;
  bool negated = false;
};

struct Instruction {
  std::string opcode;              ///< family from the instruction table: "add", "cp.async"
  std::vector<Modifier> modifiers; ///< the words after the family, in source order
  std::optional<Guard> guard;
  std::vector<Operand> operands;
  uint32_t line = 0, column = 0;
  unsigned tableIndex = 0; ///< row in ptx_instructions.def (frontend/ptx_instr_table.h)

  /// The type modifiers in order (cvt.f32.s32 -> {F32, S32}).
  std::vector<ScalarType> types() const;
  /// The first type, or None.
  ScalarType type() const;
  /// The state space modifier, or None (ld.param -> Param).
  StateSpace space() const;
  /// .v2/.v4/.v8 -> 2/4/8, else 1.
  unsigned vectorWidth() const;
  bool has(std::string_view word) const; ///< has(".rn") or has("rn")
  /// The full text as written: "ld.global.nc.v4.f32".
  std::string fullOpcode() const;
};

// ---- Declarations ---------------------------------------------------------------------------
/// One flattened initializer element: `{1, 2, {3}}` -> 1, 2, 3 in row-major order.
struct InitValue {
  enum class Kind : uint8_t { Int, Float, Symbol, Field };
  Kind kind = Kind::Int;
  int64_t intValue = 0;
  FloatOperand floatValue;
  std::string symbol;   ///< Symbol: `x`, `generic(x)` (isGeneric), Field: `filter_mode`
  std::string field;    ///< Field: the value word (`linear`)
  int64_t offset = 0;   ///< Symbol: `x+8`
  bool isGeneric = false;
  bool isMask = false;
};

/// A variable's flattened initializer, read like a std::vector<InitValue> (size, [i],
/// iteration; elements come out by value). Numbers are stored in 24 bytes each instead of an
/// InitValue's 120: curand's tables run to 200,000 elements, and at 120 bytes apiece they
/// alone made parsing such a file peak above ptxas's memory (issue 23). Names (Symbol,
/// Field) are kept as whole InitValues beside them.
class InitList {
public:
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  void reserve(size_t n) { items_.reserve(n); }
  void push_back(const InitValue &v);
  InitValue operator[](size_t i) const;

  class const_iterator {
  public:
    using value_type = InitValue;
    using difference_type = std::ptrdiff_t;
    const_iterator() = default;
    const_iterator(const InitList *l, size_t i) : l_(l), i_(i) {}
    InitValue operator*() const { return (*l_)[i_]; }
    const_iterator &operator++() { ++i_; return *this; }
    const_iterator operator++(int) { const_iterator t = *this; ++i_; return t; }
    bool operator==(const const_iterator &o) const { return i_ == o.i_; }

  private:
    const InitList *l_ = nullptr;
    size_t i_ = 0;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, items_.size()}; }

private:
  struct Item {
    double value;     ///< Float: FloatOperand::value
    uint64_t bits;    ///< Int: the value; Float: FloatOperand::bits; else: index in named_
    InitValue::Kind kind;
    bool isDouble;    ///< Float: FloatOperand::isDouble
  };
  static_assert(sizeof(Item) == 24);
  std::vector<Item> items_;
  std::vector<InitValue> named_;
};

struct VarDecl {
  StateSpace space = StateSpace::None;
  Linkage linkage = Linkage::None;
  ScalarType type = ScalarType::None;
  unsigned vectorWidth = 1;          ///< .v2/.v4/.v8
  unsigned align = 0;                ///< .align N; 0 when not given
  std::string name;
  unsigned rangeCount = 0;           ///< `%r<100>`: 100 registers %r0..%r99; 0: one name
  std::vector<uint64_t> dims;        ///< array dimensions; 0 for `[]`
  bool isPtr = false;                ///< .ptr (kernel params)
  StateSpace ptrSpace = StateSpace::None;
  unsigned ptrAlign = 0;
  std::vector<std::string> attributes; ///< .attribute(.managed) -> "managed"
  bool hasInit = false;
  InitList init;
  uint32_t line = 0, column = 0;

  /// Total size in bytes (element size * vector width * array elements; 0 for `[]`).
  uint64_t sizeInBytes() const;
};

/// `.loc`, `.pragma`, `.branchtargets`, `.calltargets`, `.callprototype`, `.section` in a body.
struct Directive {
  enum class Kind : uint8_t { Loc, Pragma, BranchTargets, CallTargets, CallPrototype, Section };
  Kind kind = Kind::Loc;
  std::string label;                 ///< the label in front (`ts: .branchtargets ...`)
  std::vector<std::string> args;     ///< pragma strings (unquoted), target names, proto names
  unsigned file = 0, locLine = 0, locColumn = 0; ///< .loc
  /// .loc ..., function_name f, inlined_at file line column (all zero when absent)
  std::array<unsigned, 3> inlinedAt{0, 0, 0};
  bool hasInlinedAt = false;
  std::vector<VarDecl> protoParams, protoReturns; ///< .callprototype
  uint32_t line = 0, column = 0;
};

struct Label {
  std::string name;
  uint32_t line = 0, column = 0;
};

struct Statement;
struct Block {
  std::vector<Statement> statements;
  uint32_t line = 0, column = 0;
};

struct Statement {
  std::variant<Instruction, Label, VarDecl, Directive, Block> value;
  template <class T> bool is() const { return std::holds_alternative<T>(value); }
  template <class T> const T &as() const { return std::get<T>(value); }
  template <class T> T &as() { return std::get<T>(value); }
};

/// `.maxntid 256, 1, 1`, `.noreturn`, `.pragma "nounroll"` before a body.
struct FunctionAttr {
  std::string name;                 ///< without the dot: "maxntid"; "pragma"
  std::vector<uint64_t> values;
  std::vector<std::string> strings; ///< pragma strings
  uint32_t line = 0;
};

struct Function {
  bool isEntry = false;
  Linkage linkage = Linkage::None;
  std::string name;
  std::vector<VarDecl> returns; ///< .func (.param .b32 r) f(...)
  std::vector<VarDecl> params;
  std::vector<FunctionAttr> attrs;
  bool hasBody = false;         ///< false for a prototype `.extern .func f(...);`
  Block body;
  uint32_t line = 0, column = 0;
  /// Where ptxas's parser has the declaration complete (its "Duplicate definition of
  /// function" line): an .entry's `)`, the word after a .func's parameter list.
  uint32_t declLine = 0;

  const FunctionAttr *attr(std::string_view name) const;
};

struct FileEntry {
  unsigned index = 0;
  std::string path;
  uint64_t timestamp = 0, size = 0;
};

/// `.section .debug_info { ... }` kept as its items for the ELF writer.
struct SectionItem {
  enum class Kind : uint8_t { Label, Data };
  Kind kind = Kind::Data;
  std::string directive; ///< "b8", "b32", "b64"
  std::vector<InitValue> values;
  std::string label;
};
struct Section {
  std::string name; ///< ".debug_info"
  std::vector<SectionItem> items;
  uint32_t line = 0;
};

struct Module {
  std::string fileName;
  unsigned versionMajor = 0, versionMinor = 0; ///< .version 8.0
  std::vector<std::string> targets;            ///< .target sm_90, texmode_independent
  std::optional<ArchInfo> target;              ///< the SM named in .target
  unsigned addressSize = 64;
  std::vector<FileEntry> files;
  std::vector<VarDecl> globals;
  std::vector<Function> functions;
  std::vector<Section> sections;
  std::vector<std::string> pragmas; ///< module-scope .pragma strings
  std::vector<std::pair<std::string, std::string>> aliases;
  uint32_t versionLine = 0, targetLine = 0;

  /// .version as one number: 8.0 -> 80, 7.8 -> 78.
  unsigned version() const { return versionMajor * 10 + versionMinor; }
  const Function *findFunction(std::string_view name) const;
  const VarDecl *findGlobal(std::string_view name) const;
};

} // namespace ptxmini::ptx
