//===- encoder/cubin/cubin_dump.h - `sass-mc -elf` text ---------------------------------===//
///
/// \file
/// Prints a cubin model the way `cuobjdump -elf` lays out its text (see cubin_dump.cpp).
//===----------------------------------------------------------------------------------===//
#pragma once

#include "encoder/cubin/cubin_model.h"

#include <iosfwd>

namespace ptxmini::cubin {
void dumpCubin(const Cubin &c, std::ostream &os);
} // namespace ptxmini::cubin
