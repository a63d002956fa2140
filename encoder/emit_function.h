//===- encoder/emit_function.h - an allocated, scheduled Ori function to machine code ---===//
#pragma once

#include "ori/ori.h"
#include "support/diag.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ptxmini::enc {

struct EmittedFunction {
  std::vector<uint8_t> code;         ///< instruction words, little-endian, 16 bytes each
  std::vector<uint32_t> exitOffsets; ///< byte offsets of EXIT instructions
  std::vector<uint32_t> abiCallOffsets; ///< byte offsets of CALL.ABS (calls to extern functions)
  uint32_t regCount = 0;             ///< what REGCOUNT / "Used N registers" reports
  std::vector<std::string> sassText; ///< the text each word was assembled from (for -v/dumps)
};

/// Where a function lands in its .text section: whole-program callees follow their kernel
/// in the kernel's section (targets/calling_convention.h), so branch targets, return
/// addresses and call targets are section offsets.
struct EmitLayout {
  uint32_t base = 0;                            ///< section offset of the first instruction
  std::map<std::string, uint32_t> calleeOffset; ///< callee name -> section offset
};

/// Encodes `f` (physical registers, control codes set) for SM `sm` through the table-driven
/// assembler: each instruction is printed in nvdisasm's syntax, assembled by
/// encodeText(), and its control code placed in bits 105-125. False after reporting.
bool emitFunction(const ori::Function &f, unsigned sm, EmittedFunction &out, DiagEngine &diag);
bool emitFunction(const ori::Function &f, unsigned sm, const EmitLayout &layout,
                  EmittedFunction &out, DiagEngine &diag);

/// True when the SM's tables have a form for `in` as it stands, its virtual registers taken
/// as physical ones of their class and width (the legalizer's question: is this operand
/// combination encodable?). `err` (optional) says why not.
bool canEncode(const ori::Instr &in, unsigned sm, std::string *err = nullptr);

/// One instruction in nvdisasm's syntax (`@!P0 IMAD.WIDE R2, R7, 0x4, R2`); branch targets
/// print as the byte address of their block in `blockAddr`.
std::string sassText(const ori::Function &f, const ori::Instr &in,
                     const std::vector<uint32_t> &blockAddr,
                     const std::map<std::string, uint32_t> *calleeOffset = nullptr);

} // namespace ptxmini::enc
