// Diagnostics must have ptxas's shape, because users and tools match it with regexes.
#include "support/diag.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace ptxmini;

TEST(Diag, ErrorWithLocationHasPtxasShape) {
  DiagEngine d;
  std::ostringstream os;
  d.setStream(os);
  d.error(SourceLoc{"k.ptx", 12, 0}, "Unknown symbol 'x'");
  EXPECT_EQ(os.str(), "ptxas-mini k.ptx, line 12; error   : Unknown symbol 'x'\n");
  EXPECT_EQ(d.errorCount(), 1u);
}

TEST(Diag, ColumnGoesAfterTheMessageSoLineRegexesStillMatch) {
  DiagEngine d;
  std::ostringstream os;
  d.setStream(os);
  d.warning(SourceLoc{"k.ptx", 3, 7}, "w");
  EXPECT_EQ(os.str(), "ptxas-mini k.ptx, line 3; warning : w (column 7)\n");
}

TEST(Diag, FatalPrintsThenThrows) {
  DiagEngine d;
  std::ostringstream os;
  d.setStream(os);
  EXPECT_THROW(d.fatal("Unknown option 'foo'"), FatalError);
  EXPECT_EQ(os.str(), "ptxas-mini fatal   : Unknown option 'foo'\n");
  EXPECT_TRUE(d.hasErrors());
}

TEST(Diag, WerrorTurnsWarningsIntoErrorsAndWSilencesThem) {
  DiagEngine d;
  std::ostringstream os;
  d.setStream(os);
  d.setSuppressWarnings(true);
  d.warning("quiet");
  EXPECT_EQ(os.str(), "");
  d.setWarningsAsErrors(true);
  d.warning("loud");
  EXPECT_EQ(os.str(), "ptxas-mini error   : loud\n");
  EXPECT_EQ(d.errorCount(), 1u);
}

TEST(Diag, InfoIsPaddedLikePtxas) {
  DiagEngine d;
  std::ostringstream os;
  d.setStream(os);
  d.info("0 bytes gmem");
  EXPECT_EQ(os.str(), "ptxas-mini info    : 0 bytes gmem\n");
}
