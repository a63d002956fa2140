//===- frontend/lower/lower_float_internal.h - float handlers of several files ---------===//
///
/// \file
/// The float handler table (lower_float.cpp) names handlers defined in the files that
/// implement them: lower_float_math.cpp (MUFU-based approximations) and lower_float_div.cpp
/// (IEEE-rounded division, reciprocal and square root).
//===----------------------------------------------------------------------------------===//
#pragma once

#include "frontend/lower/lower_context.h"

namespace ptxmini::frontend::lower {

// lower_float_div.cpp: rcp/div/sqrt (both approximate and IEEE forms).
bool lowerRcp(LowerCtx &ctx, const ptx::Instruction &in);
bool lowerDiv(LowerCtx &ctx, const ptx::Instruction &in);
bool lowerSqrt(LowerCtx &ctx, const ptx::Instruction &in);

// lower_float_math.cpp: MUFU-based approximations.
bool lowerRsqrt(LowerCtx &ctx, const ptx::Instruction &in);
bool lowerSin(LowerCtx &ctx, const ptx::Instruction &in);
bool lowerCos(LowerCtx &ctx, const ptx::Instruction &in);
bool lowerLg2(LowerCtx &ctx, const ptx::Instruction &in);
bool lowerEx2(LowerCtx &ctx, const ptx::Instruction &in);
bool lowerTanh(LowerCtx &ctx, const ptx::Instruction &in);

/// Approximate forms shared by lower_float_div.cpp: rcp.approx[.ftz].f32/f64,
/// div.approx/full[.ftz].f32, sqrt.approx[.ftz].f32 (lower_float_math.cpp).
bool lowerRcpApprox(LowerCtx &ctx, const ptx::Instruction &in);
bool lowerDivApprox(LowerCtx &ctx, const ptx::Instruction &in);
bool lowerSqrtApprox(LowerCtx &ctx, const ptx::Instruction &in);

} // namespace ptxmini::frontend::lower
