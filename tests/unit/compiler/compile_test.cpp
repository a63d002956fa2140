//===- tests/unit/compiler/compile_test.cpp - compile() as a library entry point -------===//
///
/// compile() takes parsed options and PTX (files or text), returns the cubin bytes or false
/// with ptxas-shaped diagnostics, and neither throws nor exits; -v goes to the info stream
/// when the caller keeps one; line tables follow .loc / -lineinfo / --suppress-debug-info.
//===----------------------------------------------------------------------------------===//
#include "compiler/compiler.h"
#include "compiler/options.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

using namespace ptxmini;

namespace {

const char *kKernel = R"(.version 8.0
.target sm_90
.address_size 64
.file 1 "/nonexistent/ptxas-mini/k.cu"
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  .loc 1 7 1
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  .loc 1 8 1
  st.global.u32 [%rd2], %r1;
  ret;
}
)";

struct CompileRun {
  bool ok = false;
  std::vector<uint8_t> cubin;
  std::string errors, info;
};

CompileRun compileText(const std::string &ptx, std::vector<std::string> args) {
  std::ostringstream err, info;
  DiagEngine diag;
  diag.setStream(err);
  diag.setInfoStream(info);
  CompileRun r;
  Options opts = parseCommandLine(args, diag);
  opts.inputStrings.push_back(ptx);
  r.ok = compile(opts, diag, r.cubin, {});
  r.errors = err.str();
  r.info = info.str();
  return r;
}

bool contains(const std::vector<uint8_t> &bytes, const std::string &s) {
  return std::search(bytes.begin(), bytes.end(), s.begin(), s.end()) != bytes.end();
}

} // namespace

TEST(Compile, CubinAndSeparateInfoStream) {
  CompileRun r = compileText(kKernel, {"-arch=sm_90", "-v"});
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_GT(r.cubin.size(), 64u);
  EXPECT_TRUE(std::equal(r.cubin.begin(), r.cubin.begin() + 4, "\177ELF"));
  EXPECT_EQ(r.errors, "");
  EXPECT_NE(r.info.find("Compiling entry function 'k' for 'sm_90'"), std::string::npos);
}

TEST(Compile, ErrorsAreAFalseReturnNotAThrow) {
  CompileRun r;
  EXPECT_NO_THROW(r = compileText(".version 8.0\n.target sm_90\n.address_size 64\n"
                                  ".visible .entry k() { bogus.op; }\n",
                                  {"-arch=sm_90"}));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.cubin.empty());
  EXPECT_NE(r.errors.find("application ptx input, line 4; error"), std::string::npos);
  EXPECT_NE(r.errors.find("fatal   : Ptx assembly aborted due to errors"), std::string::npos);
}

TEST(Compile, LineTablesFollowLocAndSuppress) {
  // PTX with .loc gets line tables without -lineinfo (as with ptxas) and none with
  // --suppress-debug-info; the code is the same either way.
  CompileRun with = compileText(kKernel, {"-arch=sm_90"});
  CompileRun without = compileText(kKernel, {"-arch=sm_90", "--suppress-debug-info"});
  ASSERT_TRUE(with.ok && without.ok);
  EXPECT_TRUE(contains(with.cubin, ".debug_line"));
  EXPECT_TRUE(contains(with.cubin, ".nv_debug_line_sass"));
  EXPECT_TRUE(contains(with.cubin, "/nonexistent/ptxas-mini"));
  EXPECT_FALSE(contains(without.cubin, ".debug_line"));
  EXPECT_GT(with.cubin.size(), without.cubin.size());
}

TEST(Compile, SameBytesOnEveryRun) {
  CompileRun a = compileText(kKernel, {"-arch=sm_90", "-lineinfo"});
  CompileRun b = compileText(kKernel, {"-arch=sm_90", "-lineinfo", "--split-compile=0"});
  ASSERT_TRUE(a.ok && b.ok);
  EXPECT_EQ(a.cubin, b.cubin);
}
