/* kernel_image.h - the emulator's whole view of a kernel: a narrow, loader-independent struct.
 *
 * It is filled by load_cubin.cpp from the project's own cubin reader and sm_90 decoder.
 * Nothing in the emulator depends on how it was built. */
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ptxmini::exec {

struct KernelParam {
  uint32_t ordinal = 0;
  uint32_t offset = 0;  // byte offset inside the parameter block (which starts at param_base)
  uint32_t size = 0;
};

// One instruction's control block (sass-encoding.md 2.2): what the performance model
// (perf_model.h) reads; the functional emulator ignores it.
struct InstCtrl {
  uint8_t stall = 1;        // cycles before the warp's next instruction may issue
  bool yield = false;       // the `Y` form (raw bit 109 clear)
  uint8_t write_sb = 7;     // scoreboard released when the result lands, 7 = none
  uint8_t read_sb = 7;      // scoreboard released when the sources have been read, 7 = none
  uint8_t wait_mask = 0;    // scoreboards SB0..SB5 that must be released before issue
};

struct KernelImage {
  std::string name;
  // Instruction text of the kernel's section (index = byte offset / 16); empty string for a
  // slot with no instruction. Labels are resolved to byte offsets by the loader.
  std::vector<std::string> insts;
  // Control block per slot (same indexing as insts); empty when unknown (hand-written SASS
  // without annotations), which the performance model refuses.
  std::vector<InstCtrl> ctrl;
  // Labels of the section (name -> byte offset), for targets printed as `(label).
  std::vector<std::pair<std::string, uint32_t>> labels;
  // Parameters, in ordinal order; they live in constant bank 0 at param_base.
  std::vector<KernelParam> params;
  uint32_t param_base = 0x210;   // HW: EIATTR_PARAM_CBANK says 0x210 for every sm_90 kernel seen
  uint32_t param_size = 0;
  // Static shared memory size in bytes as the cubin's .nv.shared.<kernel> section gives it; on
  // sm_90 it already includes the 1 KiB reserved at the bottom of the window.
  uint32_t shared_size = 0;
  uint32_t num_regs = 0;         // EIATTR_REGCOUNT: registers per thread (0 = unknown)
  uint32_t frame_size = 0;       // EIATTR_FRAME_SIZE (per-thread local bytes of the kernel)
  uint32_t min_stack_size = 0;   // EIATTR_MIN_STACK_SIZE
  // Constant banks from the cubin (.nv.constant<N>[.kernel]) by bank number: initial contents.
  // Bank 0 is built at launch from its size, the launch geometry and the parameters.
  std::map<int, std::vector<uint8_t>> cbanks;
  // Module .global data: one segment per data section (.nv.global.init with its bytes,
  // .nv.global zeros), placed in global memory when the emulator is created.
  struct GlobalSegment {
    std::string section;
    std::vector<uint8_t> bytes;
  };
  std::vector<GlobalSegment> globals;
  // 64-bit addresses the loader must write into constant banks (R_CUDA_64 in
  // .rela.nv.constant<N>): bank[offset] = address of globals[segment] + value.
  struct BankAddress {
    int bank = 0;
    uint32_t offset = 0;
    size_t segment = 0;
    uint64_t value = 0;
  };
  std::vector<BankAddress> bank_addresses;
  // 64-bit addresses the loader writes into global data (R_CUDA_G64 in .rela.nv.global.init,
  // variables initialised with `generic(v)+k`): globals[segment][offset] = address of
  // globals[target] + value.
  struct SegmentAddress {
    size_t segment = 0;
    uint64_t offset = 0;
    size_t target = 0;
    uint64_t value = 0;
  };
  std::vector<SegmentAddress> segment_addresses;
};

}  // namespace ptxmini::exec
