//===- frontend/ptx_ast.cpp - helpers of the PTX AST ------------------------------------===//
///
/// \file
/// Name <-> enum tables of the AST (types from ptx_types.def, state spaces) and the small
/// query methods of Instruction/VarDecl/Module/Function.
//===----------------------------------------------------------------------------------===//
#include "frontend/ptx_ast.h"

#include <array>

namespace ptxmini::ptx {
namespace {

struct TypeRow {
  ScalarType type;
  std::string_view text;
  unsigned bits;
  TypeKind kind;
};
constexpr TypeRow kTypes[] = {
#define PTX_TYPE(E, TEXT, BITS, KIND) {ScalarType::E, TEXT, BITS, TypeKind::KIND},
#include "frontend/ptx_types.def"
};

struct SpaceRow {
  StateSpace space;
  std::string_view text;
};
constexpr SpaceRow kSpaces[] = {
    {StateSpace::Reg, "reg"},         {StateSpace::SReg, "sreg"},
    {StateSpace::Const, "const"},     {StateSpace::Global, "global"},
    {StateSpace::Local, "local"},     {StateSpace::Param, "param"},
    {StateSpace::Shared, "shared"},   {StateSpace::Shared, "shared::cta"},
    {StateSpace::SharedCluster, "shared::cluster"}, {StateSpace::Tex, "tex"},
};

} // namespace

ScalarType parseType(std::string_view text) {
  for (const TypeRow &r : kTypes)
    if (r.text == text)
      return r.type;
  return ScalarType::None;
}

std::string_view typeName(ScalarType t) {
  for (const TypeRow &r : kTypes)
    if (r.type == t)
      return r.text;
  return "";
}

unsigned typeBits(ScalarType t) {
  for (const TypeRow &r : kTypes)
    if (r.type == t)
      return r.bits;
  return 0;
}

TypeKind typeKind(ScalarType t) {
  for (const TypeRow &r : kTypes)
    if (r.type == t)
      return r.kind;
  return TypeKind::None;
}

std::string_view stateSpaceName(StateSpace s) {
  for (const SpaceRow &r : kSpaces)
    if (r.space == s)
      return r.text;
  return "";
}

StateSpace parseStateSpace(std::string_view text) {
  for (const SpaceRow &r : kSpaces)
    if (r.text == text)
      return r.space;
  return StateSpace::None;
}

std::vector<ScalarType> Instruction::types() const {
  std::vector<ScalarType> out;
  for (const Modifier &m : modifiers)
    if (m.kind == Modifier::Kind::Type)
      out.push_back(m.type);
  return out;
}

ScalarType Instruction::type() const {
  for (const Modifier &m : modifiers)
    if (m.kind == Modifier::Kind::Type)
      return m.type;
  return ScalarType::None;
}

StateSpace Instruction::space() const {
  for (const Modifier &m : modifiers)
    if (m.kind == Modifier::Kind::Space)
      return m.space;
  return StateSpace::None;
}

unsigned Instruction::vectorWidth() const {
  for (const Modifier &m : modifiers)
    if (m.kind == Modifier::Kind::Vector)
      return m.vectorWidth;
  return 1;
}

bool Instruction::has(std::string_view word) const {
  if (word.starts_with('.'))
    word.remove_prefix(1);
  for (const Modifier &m : modifiers)
    if (m.text == word)
      return true;
  return false;
}

std::string Instruction::fullOpcode() const {
  std::string s = opcode;
  for (const Modifier &m : modifiers) {
    s += '.';
    s += m.text;
  }
  return s;
}

void InitList::push_back(const InitValue &v) {
  Item it{0.0, 0, v.kind, false};
  switch (v.kind) {
  case InitValue::Kind::Int:
    it.bits = static_cast<uint64_t>(v.intValue);
    break;
  case InitValue::Kind::Float:
    it.value = v.floatValue.value;
    it.bits = v.floatValue.bits;
    it.isDouble = v.floatValue.isDouble;
    break;
  default:
    it.bits = named_.size();
    named_.push_back(v);
    break;
  }
  // A number carries nothing else: what InitValue holds beyond it is at its defaults.
  if (v.kind == InitValue::Kind::Int || v.kind == InitValue::Kind::Float) {
    bool plain = v.symbol.empty() && v.field.empty() && v.offset == 0 && !v.isGeneric &&
                 !v.isMask &&
                 (v.kind == InitValue::Kind::Int
                      ? v.floatValue.value == 0 && v.floatValue.bits == 0 && !v.floatValue.isDouble
                      : v.intValue == 0);
    if (!plain) {
      it.kind = InitValue::Kind::Symbol; // kept whole (the parser never makes such a value)
      it.bits = named_.size();
      named_.push_back(v);
    }
  }
  items_.push_back(it);
}

InitValue InitList::operator[](size_t i) const {
  const Item &it = items_[i];
  InitValue v;
  switch (it.kind) {
  case InitValue::Kind::Int:
    v.kind = InitValue::Kind::Int;
    v.intValue = static_cast<int64_t>(it.bits);
    return v;
  case InitValue::Kind::Float:
    v.kind = InitValue::Kind::Float;
    v.floatValue.value = it.value;
    v.floatValue.bits = it.bits;
    v.floatValue.isDouble = it.isDouble;
    return v;
  default:
    return named_[it.bits];
  }
}

uint64_t VarDecl::sizeInBytes() const {
  uint64_t n = (typeBits(type) + 7) / 8 * vectorWidth;
  for (uint64_t d : dims)
    n *= d;
  return n;
}

const FunctionAttr *Function::attr(std::string_view n) const {
  for (const FunctionAttr &a : attrs)
    if (a.name == n)
      return &a;
  return nullptr;
}

const Function *Module::findFunction(std::string_view n) const {
  for (const Function &f : functions)
    if (f.name == n)
      return &f;
  return nullptr;
}

const VarDecl *Module::findGlobal(std::string_view n) const {
  for (const VarDecl &v : globals)
    if (v.name == n)
      return &v;
  return nullptr;
}

} // namespace ptxmini::ptx
