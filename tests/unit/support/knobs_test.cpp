// The knob registry: typed parsing, defaults, and errors that tell the user what to type.
#include "support/knobs.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

using namespace ptxmini;

TEST(Knobs, DefaultsComeFromTheTableAndAreNotMarkedSet) {
  Knobs k;
  EXPECT_FALSE(k.isSet(KnobId::ValidateIR));
  EXPECT_FALSE(k.getBool(KnobId::ValidateIR));
  EXPECT_TRUE(k.getStringList(KnobId::DUMPIR).empty());
}

TEST(Knobs, AssignParsesByTypeAndIsCaseInsensitive) {
  Knobs k;
  std::string err;
  ASSERT_TRUE(k.assign("validateir=1", err)) << err;
  EXPECT_TRUE(k.getBool(KnobId::ValidateIR));
  EXPECT_TRUE(k.isSet(KnobId::ValidateIR));
  ASSERT_TRUE(k.assign("DUMPIR=AnalyzeControlFlow,3", err)) << err;
  ASSERT_EQ(k.getStringList(KnobId::DUMPIR).size(), 2u);
  EXPECT_EQ(k.getStringList(KnobId::DUMPIR)[1], "3");
}

TEST(Knobs, BareBoolNameSwitchesItOn) {
  Knobs k;
  std::string err;
  ASSERT_TRUE(k.assign("ValidateIR", err)) << err;
  EXPECT_TRUE(k.getBool(KnobId::ValidateIR));
}

TEST(Knobs, UnknownNameSuggestsTheClosestKnob) {
  Knobs k;
  std::string err;
  EXPECT_FALSE(k.assign("DUMPIRR=all", err));
  EXPECT_EQ(err, "Unknown knob 'DUMPIRR'; did you mean 'DUMPIR'?");
}

TEST(Knobs, MalformedValueNamesTheType) {
  Knobs k;
  std::string err;
  EXPECT_FALSE(k.assign("ValidateIR=maybe", err));
  EXPECT_EQ(err, "Invalid value 'maybe' for knob 'ValidateIR' of type BOOL");
}

TEST(Knobs, TypedParsersRejectGarbage) {
  EXPECT_FALSE(parseKnobValue(KnobType::Int, "12x"));
  EXPECT_EQ(std::get<int64_t>(*parseKnobValue(KnobType::Int, "0x10")), 16);
  EXPECT_FALSE(parseKnobValue(KnobType::Double, "1.5.2"));
  EXPECT_DOUBLE_EQ(std::get<double>(*parseKnobValue(KnobType::Double, "0.5")), 0.5);
  EXPECT_FALSE(parseKnobValue(KnobType::IntList, "1,,2"));
  EXPECT_EQ(std::get<std::vector<int64_t>>(*parseKnobValue(KnobType::IntList, "1,2,3")).size(),
            3u);
}

TEST(Knobs, KnobsFileNeedsHeaderAndReportsTheBadLine) {
  std::string path = ::testing::TempDir() + "/knobs_test.txt";
  {
    std::ofstream f(path);
    f << "[knobs]\nValidateIR=1\n\nNoSuchKnob=3\n";
  }
  Knobs k;
  std::string err;
  EXPECT_FALSE(k.loadFile(path, err));
  EXPECT_NE(err.find("line 4"), std::string::npos) << err;
  EXPECT_TRUE(k.getBool(KnobId::ValidateIR)) << "lines before the bad one still apply";
  {
    std::ofstream f(path);
    f << "ValidateIR=1\n";
  }
  EXPECT_FALSE(k.loadFile(path, err));
  EXPECT_NE(err.find("Knobs header not found"), std::string::npos) << err;
  EXPECT_FALSE(k.loadFile(path + ".missing", err));
  EXPECT_NE(err.find("Knobs file not found"), std::string::npos) << err;
  std::remove(path.c_str());
}

TEST(Knobs, EveryTableDefaultParses) {
  for (const KnobInfo &ki : allKnobs())
    EXPECT_TRUE(parseKnobValue(ki.type, ki.defaultValue).has_value()) << ki.name;
}
