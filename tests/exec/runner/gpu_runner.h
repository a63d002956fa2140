/* gpu_runner.h - run a test description's kernel on a real GPU through the CUDA driver API.
 * libcuda.so.1 is opened at run time (dlopen), so this builds and links everywhere. */
#pragma once

#include "tests/exec/runner/test_desc.h"

#include <map>
#include <string>
#include <vector>

namespace ptxmini::exec {

enum class GpuStatus { Ok, NoGpu, Error };

// Loads `cubin`, allocates and fills the description's buffers, launches, and copies every
// buffer back into `result` (by name). NoGpu when no driver or no device is present.
GpuStatus run_on_gpu(const std::string& cubin, const TestDesc& d, std::map<std::string, std::vector<uint8_t>>& result,
                     std::string& msg);

}  // namespace ptxmini::exec
