// Moving a finished output file to its name without replacing one: the portable way
// (io::detail::move_without_replacing, what macOS and file systems without RENAME_NOREPLACE use),
// run here on Linux, and publish(), which on Linux takes renameat2. Both must agree.
#include "io/output_destination.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace rackscale::io {
namespace {

namespace fs = std::filesystem;

class OutputDestination : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rackscale-output-destination-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  [[nodiscard]] std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static void write(const std::string& file, const std::string& text) { std::ofstream(file) << text; }
  // The files here are one line.
  static std::string read(const std::string& file) {
    std::ifstream in(file);
    std::string text;
    std::getline(in, text);
    return text;
  }

 private:
  fs::path dir_;
};

TEST_F(OutputDestination, FallbackMovesToAFreeName) {
  write(path("a.h5.partial-1"), "complete");
  ASSERT_EQ(detail::move_without_replacing(path("a.h5.partial-1"), path("a.h5")), 0) << std::strerror(errno);
  EXPECT_EQ(read(path("a.h5")), "complete");
  EXPECT_FALSE(fs::exists(path("a.h5.partial-1")));
  // The temporary name is gone, not left as a second link to the file.
  EXPECT_EQ(fs::hard_link_count(path("a.h5")), 1U);
}

TEST_F(OutputDestination, FallbackRefusesAnExistingFileAndKeepsBoth) {
  write(path("a.h5.partial-1"), "new");
  write(path("a.h5"), "old");
  errno = 0;
  EXPECT_EQ(detail::move_without_replacing(path("a.h5.partial-1"), path("a.h5")), -1);
  EXPECT_EQ(errno, EEXIST);
  EXPECT_EQ(read(path("a.h5")), "old");
  EXPECT_EQ(read(path("a.h5.partial-1")), "new");
}

TEST_F(OutputDestination, FallbackRefusesADanglingSymlink) {
  write(path("a.h5.partial-1"), "new");
  fs::create_symlink("nowhere", path("a.h5"));
  errno = 0;
  EXPECT_EQ(detail::move_without_replacing(path("a.h5.partial-1"), path("a.h5")), -1);
  EXPECT_EQ(errno, EEXIST);
  EXPECT_TRUE(fs::is_symlink(path("a.h5")));
  EXPECT_EQ(read(path("a.h5.partial-1")), "new");
}

TEST_F(OutputDestination, FallbackReportsAMissingFile) {
  errno = 0;
  EXPECT_EQ(detail::move_without_replacing(path("gone.partial-1"), path("a.h5")), -1);
  EXPECT_EQ(errno, ENOENT);
  EXPECT_FALSE(fs::exists(path("a.h5")));
}

TEST_F(OutputDestination, PublishMovesRefusesAndReplacesOnlyWhenAllowed) {
  write(path("a.h5.partial-1"), "first");
  EXPECT_EQ(publish(path("a.h5.partial-1"), path("a.h5"), false), "");
  EXPECT_EQ(read(path("a.h5")), "first");
  EXPECT_FALSE(fs::exists(path("a.h5.partial-1")));

  write(path("a.h5.partial-2"), "second");
  EXPECT_EQ(publish(path("a.h5.partial-2"), path("a.h5"), false),
            path("a.h5") + ": the file appeared during the run; not replaced");
  EXPECT_EQ(read(path("a.h5")), "first");

  EXPECT_EQ(publish(path("a.h5.partial-2"), path("a.h5"), true), "");
  EXPECT_EQ(read(path("a.h5")), "second");
  EXPECT_FALSE(fs::exists(path("a.h5.partial-2")));
}

}  // namespace
}  // namespace rackscale::io
