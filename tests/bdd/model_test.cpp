// Model files: the shared models parse; every truncation and a corrupted
// node are errors naming the file and the byte, never a crash.
#include "bdd/model.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::vector<std::string> models(const char *folder) {
  std::vector<std::string> paths;
  for (const auto &entry : fs::directory_iterator(fs::path(POC_BDD_MODELS) / folder))
    paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::vector<unsigned char> bytes_of(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(ModelFiles, SharedModelsParseInBothFormats) {
  for (const char *folder : {"sylvan-format", "thesis-2014-format"}) {
    const auto paths = models(folder);
    ASSERT_EQ(paths.size(), 4u) << folder;
    for (const auto &path : paths) {
      const bdd::ModelFile m = bdd::parse_model(path, bdd::ModelFormat::Automatic);
      EXPECT_EQ(m.format, std::string(folder) == "sylvan-format" ? bdd::ModelFormat::Sylvan
                                                                 : bdd::ModelFormat::Thesis2014);
      EXPECT_FALSE(m.groups.empty()) << path;
      EXPECT_FALSE(m.state_variables.empty()) << path;
    }
  }
}

TEST(ModelFiles, GroupCountsOfTheThesisModels) {
  // Fig. 5.14's "groups" column.
  const std::vector<std::pair<std::string, std::size_t>> expected{
      {"anderson.1", 6}, {"anderson.6", 18}, {"at.5", 26}, {"schedule_world.2", 26}};
  for (const auto &[name, groups] : expected) {
    bool found = false;
    for (const auto &path : models("thesis-2014-format"))
      if (fs::path(path).filename().string().rfind(name + ".", 0) == 0) {
        EXPECT_EQ(bdd::parse_model(path, bdd::ModelFormat::Thesis2014).groups.size(), groups)
            << name;
        found = true;
      }
    EXPECT_TRUE(found) << name;
  }
}

TEST(ModelFiles, EveryTruncationIsAnErrorWithItsOffset) {
  for (const char *folder : {"sylvan-format", "thesis-2014-format"}) {
    const std::string path = models(folder).front();
    const auto bytes = bytes_of(path);
    const std::uint64_t end = bdd::parse_model(path, bdd::ModelFormat::Automatic).bytes_read;
    // Every byte of the headers, then a sample through the nodes, and the
    // last bytes of the model.
    for (std::size_t cut = 0; cut < end; cut += cut < 512 || cut + 64 > end ? 1 : 997) {
      std::vector<unsigned char> head(bytes.begin(), bytes.begin() + static_cast<long>(cut));
      try {
        bdd::parse_model_bytes(path, head, bdd::ModelFormat::Automatic);
        FAIL() << path << " cut at " << cut << " parsed";
      } catch (const bdd::ModelError &e) {
        EXPECT_LE(e.offset(), cut) << e.what();
        EXPECT_EQ(std::string(e.what()).rfind(path + ": byte ", 0), 0u) << e.what();
      }
    }
  }
}

TEST(ModelFiles, CorruptNodesAndTrailingBytesAreErrors) {
  // The 2014 format ends with the last group (Sylvan's may carry more).
  const std::string thesis = models("thesis-2014-format").front();
  auto with_extra = bytes_of(thesis);
  with_extra.push_back(0);
  try {
    bdd::parse_model_bytes(thesis, with_extra, bdd::ModelFormat::Thesis2014);
    FAIL() << "trailing byte accepted";
  } catch (const bdd::ModelError &e) {
    EXPECT_EQ(e.offset(), with_extra.size() - 1);
  }
  const std::string path = models("sylvan-format").front();
  auto bytes = bytes_of(path);
  // The first node of the initial set: make its low edge name itself.
  const bdd::ModelFile m = bdd::parse_model(path, bdd::ModelFormat::Sylvan);
  const std::size_t header = 4 * (1 + 13 + 1) + 4 + 8; // vector size 13, k = -1, node count
  ASSERT_EQ(m.state_variables.size(), 31u);            // bits 1,1,1,1 and nine 3s
  bytes[header + 8] = 1;                               // low index 1 of node 1
  try {
    bdd::parse_model_bytes(path, bytes, bdd::ModelFormat::Sylvan);
    FAIL() << "a node naming itself was accepted";
  } catch (const bdd::ModelError &e) {
    EXPECT_EQ(e.offset(), header) << e.what();
    EXPECT_NE(std::string(e.what()).find("child numbered after it"), std::string::npos) << e.what();
  }
  EXPECT_THROW(bdd::parse_model(path + ".missing", bdd::ModelFormat::Automatic), bdd::ModelError);
}

} // namespace
