//===- ori/print.h - Ori text printer ---------------------------------------------------===//
///
/// \file
/// Prints Ori in the text form that ori/parse.h reads back (the grammar is documented at the
/// top of ori/parse.cpp). print(parse(print(F))) == print(F), byte for byte. Facts the parser
/// recomputes or does not need (preds/succs, and after AnalyzeControlFlow the RPO index,
/// dominator, loop depth, loop headers, back-edges) are printed as `;` comments.
//===----------------------------------------------------------------------------------===//
#pragma once

#include "ori/ori.h"

#include <iosfwd>
#include <string>

namespace ptxmini::ori {

void printOperand(const Function &f, const Operand &o, std::ostream &os);
void printInstr(const Function &f, const Instr &in, std::ostream &os);
void printCtrlCode(const CtrlCode &c, std::ostream &os);
void printFunction(const Function &f, std::ostream &os);
/// Functions separated by one blank line.
void printProgram(const Program &p, std::ostream &os);

std::string toString(const Function &f);
std::string toString(const Function &f, const Instr &in);
std::string toString(const Program &p);

} // namespace ptxmini::ori
