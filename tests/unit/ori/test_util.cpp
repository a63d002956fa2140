#include "test_util.h"

#include "ori/parse.h"
#include "support/diag.h"

#include <gtest/gtest.h>

#include <sstream>

namespace ptxmini::ori::test {

Program parseOrDie(const std::string &text) {
  std::ostringstream errs;
  DiagEngine diag("ori-test");
  diag.setStream(errs);
  Program p;
  bool ok = parseProgram(text, "t.ori", diag, p);
  EXPECT_TRUE(ok) << errs.str() << "\n--- input ---\n" << text;
  return p;
}

std::string parseError(const std::string &text) {
  std::ostringstream errs;
  DiagEngine diag("ori-test");
  diag.setStream(errs);
  Program p;
  bool ok = parseProgram(text, "t.ori", diag, p);
  EXPECT_FALSE(ok) << "expected a parse error for:\n" << text;
  EXPECT_TRUE(diag.hasErrors());
  return errs.str();
}

Function parseFunction(const std::string &text) {
  Program p = parseOrDie(text);
  if (p.functions.empty()) {
    ADD_FAILURE() << "no function parsed";
    return Function{};
  }
  return std::move(p.functions[0]);
}

uint32_t blockIndex(const Function &f, const std::string &name) {
  int32_t b = f.findBlock(name);
  EXPECT_GE(b, 0) << "no block " << name;
  return b < 0 ? 0 : static_cast<uint32_t>(b);
}

} // namespace ptxmini::ori::test
