//===- ori/validate.h - the Ori validator -----------------------------------------------===//
///
/// \file
/// Checks the invariants every phase may rely on and must preserve (see validate.cpp for the
/// list). Runs between phases when the ValidateIR knob is set, always in debug builds, and in
/// `ori-opt -verify`. Returns one message per problem; an empty list means valid.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"

#include <string>
#include <vector>

namespace ptxmini::ori {

std::vector<std::string> validateFunction(const Function &f);
std::vector<std::string> validateProgram(const Program &p);

} // namespace ptxmini::ori
