//===- targets/calling_convention.h - how ptxas-mini's functions call each other -------===//
///
/// \file
/// THE calling convention of ptxas-mini's whole-program code (the only record of it; the
/// lowering of .func/call/ret in frontend/lower/lower_call.cpp, the register allocator in
/// regalloc/ and the driver's clobber sets follow it). ptxas, in whole-program mode (no -c),
/// places every called .func as a private copy after the kernel in the kernel's .text
/// (symbol `$<kernel>$<func>`), so the convention is private to one cubin and ours to choose.
/// What ptxas itself does, for comparison (HW: ptxas 13.0.88 on nvcc's device_call.cu /
/// recursion, read with cuobjdump 13.2): `MOV Rk, <return offset>; CALL.REL.NOINC <callee>`,
/// the callee returns with `RET.REL.NODEC Rk 0x0` after zeroing Rk+1; arguments and results
/// sit in registers it chooses per callee (interprocedural allocation); a recursive callee
/// saves the registers it uses with STL after `IADD3 R1, R1, -frame` and restores them.
///
/// ptxas-mini's convention:
///   Stack     R1 is the stack pointer into local memory. A kernel loads it from
///             c[0x0][0x28] (`LDC R1, c[0x0][0x28]`, as ptxas starts every kernel). A function
///             whose frame is not empty lowers R1 by the frame size on entry
///             (`IADD3 R1, R1, -size, RZ`) and raises it again before every RET; the frame
///             holds the PTX .local variables at [R1 + 0, local) and then the allocator's
///             spill slots. Frame sizes keep R1 aligned for every callee (Function::minFrameAlign).
///   Return    The caller writes the return point's .text offset into R2
///   address   (`MOV R2, <offset of the instruction after the CALL>`) and calls with
///             `CALL.REL.NOINC <callee>`; the callee keeps R2 as an ordinary value and returns
///             with `MOV R2, ra; MOV R3, RZ; RET.REL.NODEC R2 0x0` (R3: the high half, zero).
///   Arguments The callee's PTX parameters are laid out as in memory (each .param at its
///             alignment, in order); word i (bytes 4i..4i+3) travels in R(4+i). Results
///             (the `func_retval` parameters) the same way, also from R4. A 64-bit
///             parameter aligned to 8 bytes therefore lands in an aligned pair. Sub-word
///             parameters must start on a word boundary (their upper bits are unspecified,
///             as for 8/16-bit registers); at most kMaxParamWords words each way.
///   Clobbers  Whole-program, interprocedural: a call may change every register its callee
///             (and, transitively, the callee's callees) writes, plus R2, R3 and the result
///             registers; the driver allocates callees first and hands their clobber sets to
///             the callers (Function::calleeClobbers). A call inside a recursive cycle (or to
///             a callee whose set is unknown) clobbers every allocatable register of every
///             class. Values live across a call live in registers outside the set or in the
///             caller's spill slots: nothing is callee-saved. R1 is preserved.
///   Blocks    A CALL ends its Ori block: the argument registers and R2 are live to the
///             block's end, the results from the next block's start, and the next block's
///             label is the return point. RET ends its block too; the result registers are
///             live up to it. The register allocator relies on exactly this shape.
///   Extern    A function declared without a body (`.extern .func vprintf`, __assertfail,
///   calls     malloc, ...: resolved by the driver at load time) is called through the CUDA
///             ABI, as ptxas does (HW: ptxas 13.0.88 -arch=sm_90, read with cuobjdump 13.2):
///             its 64-bit address sits in a constant-bank-4 slot that an R_CUDA_64 relocation
///             against the undefined symbol fills (`MOV R0, slot; LDC.64 R2, c[0x4][R0]`),
///             the arguments and results travel in R4.. exactly as above, and the call is
///             `LEPC R20, <return point>; CALL.ABS.NOINC R2` (R20:R21 the return address).
///             What survives it (HW, probed with 60 values and 4 predicates live across a
///             vprintf call): R1, R16-R19 and R22 up; UR36 and up. ptxas moved every live
///             predicate into R registers around it (P2R/ISETP), so every P is clobbered;
///             R0, R2-R15 and R20-R21 are. A divergent if containing the call is bracketed
///             with `BSSY B6` where ptxas otherwise starts at B0: B6 and up survive, B0-B5
///             do not. GUESS: UR0-UR35 and every UP are clobbered (ptxas only ever put call
///             temporaries in UR4-UR5 and kept values in UR36/UR38).
///   Indirect  `call (r), %rd, (a), proto;`: the same register convention (the prototype's
///   calls     parameters laid out as above). A function pointer is the function's index
///             among the module's address-taken functions, 8 * (index + 1); every kernel that
///             reaches an indirect call carries private copies of all of them and a table of
///             their code offsets in .nv.constant2.<kernel> (entry 0 holds 1), and the call is
///             `LDC.64 R, c[0x2][fp]; MOV R2, <return point>; CALL.REL.NOINC R 0x0`
///             (HW: ptxas 13.0 with two kernels; with one it stores code offsets in the
///             pointers instead). With no Func operand the CALL clobbers every register.
///             `.calltargets` lists are refused with a "not supported" error.
//===----------------------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace ptxmini {

struct CallingConvention {
  uint32_t stackPointer = 1;    ///< R1
  uint32_t returnAddress = 2;   ///< R2 (R3 is zeroed before RET)
  uint32_t firstParamReg = 4;   ///< parameter / result word 0
  uint32_t maxParamWords = 64;  ///< R4..R67 each way
  // The CUDA ABI of extern calls (see above).
  uint32_t abiReturnAddress = 20;      ///< R20:R21, written by LEPC
  uint32_t abiSavedGprsFrom = 16;      ///< R16 and up survive an ABI call...
  uint32_t abiSavedUgprsFrom = 36;     ///< ...as do UR36 and up (GUESS: the boundary)
  uint32_t abiSavedBarriersFrom = 6;   ///< ...and B6 and up
};

} // namespace ptxmini
