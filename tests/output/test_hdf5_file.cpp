// The HDF5 wrapper (src/io/hdf5) under mpirun with 1, 2 and 4 ranks: attributes, 1-D and 2-D datasets
// written as unions of row ranges by every rank (one rank with none), strings, errors that name the
// file, the object and the call, and the temporary name / rename protocol of results files. Files are
// read back serially on rank 0 with the plain C API.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "h5_reader.hpp"
#include "io/hdf5/error.hpp"
#include "io/hdf5/file.hpp"
#include "io/hdf5/results_file.hpp"
#include "io/hdf5/row_set.hpp"
#include "scratch_dir.hpp"

namespace {
namespace h5 = rackscale::io::hdf5;
namespace fs = std::filesystem;
using rackscale::test::H5Reader;
using rackscale::test::ScratchDir;

boost::mpi::communicator world() { return {}; }

// Rows handed out in pairs, round robin over all ranks but the last (when there are several), so
// every rank but that one has several disjoint ranges and that one has none.
int owner_of(std::uint64_t row, int ranks) {
  const int writers = ranks > 1 ? ranks - 1 : 1;
  return static_cast<int>((row / 2) % static_cast<std::uint64_t>(writers));
}

std::string slurp(const std::string& path) {
  std::string text(fs::file_size(path), '\0');
  std::ifstream(path, std::ios::binary).read(text.data(), static_cast<std::streamsize>(text.size()));
  return text;
}
}  // namespace

TEST(Hdf5File, RanksWriteDisjointRowRangesAndAttributes) {
  const auto comm = world();
  const ScratchDir dir(comm, "hdf5-rows");
  const std::string path = dir / "rows.h5";
  const std::uint64_t rows = 37;
  const std::uint64_t columns = 3;
  const h5::RowSet mine = h5::RowSet::where(rows, [&](std::uint64_t r) { return owner_of(r, comm.size()) == comm.rank(); });
  if (comm.size() > 1 && comm.rank() == comm.size() - 1) {
    EXPECT_TRUE(mine.empty());
  }
  if (comm.size() > 2 && comm.rank() == 0) {
    EXPECT_GT(mine.ranges().size(), 1u);
  }
  const std::string big(100'000, 'y');  // beyond the 64 KiB of compact attribute storage
  {
    h5::ResultsFile results(comm, path, false);
    h5::File& file = results.file();
    file.set_attribute("name", "rows test");
    file.set_attribute("empty", "");
    file.set_attribute("big", big);
    file.set_attribute("count", std::int64_t{-5});
    file.set_attribute("total", std::uint64_t{1} << 63);
    // Differs by rank: rank 0's value is the one stored.
    file.set_attribute("rank_dependent", 1.5 + comm.rank());
    const std::vector<std::string> names{"alpha", "be", ""};
    file.set_attribute("names", std::span<const std::string>(names));
    const std::vector<double> weights{0.25, 0.5};
    file.set_attribute("weights", std::span<const double>(weights));

    h5::Group group = file.create_group("table");
    h5::Dataset ids = group.create_dataset<std::uint64_t>("ids", rows);
    h5::Dataset grid = group.create_dataset<double>("grid", rows, columns);
    h5::Dataset small = group.create_dataset<std::uint8_t>("small", rows);
    h5::Dataset label = group.create_string_dataset("label", 4, 6);
    std::vector<std::uint64_t> id_values;
    std::vector<double> grid_values;
    std::vector<std::uint8_t> small_values;
    for (const auto& range : mine.ranges())
      for (std::uint64_t r = range.first; r < range.first + range.count; ++r) {
        id_values.push_back(1000 + r);
        small_values.push_back(static_cast<std::uint8_t>(r % 7));
        for (std::uint64_t c = 0; c < columns; ++c) grid_values.push_back(static_cast<double>(r) + 0.1 * static_cast<double>(c));
      }
    ids.write_rows(mine, std::span<const std::uint64_t>(id_values));
    grid.write_rows(mine, std::span<const double>(grid_values));
    small.write_rows(mine, std::span<const std::uint8_t>(small_values));
    // Strings written by rank 0 alone: the other ranks take part with nothing.
    const std::vector<std::string> labels{"one", "two", "three", "sixsix"};
    label.write_strings(comm.rank() == 0 ? h5::RowSet::all(4) : h5::RowSet{},
                        comm.rank() == 0 ? std::span<const std::string>(labels) : std::span<const std::string>());
    ids.set_attribute("units", "bytes");
    EXPECT_EQ(ids.path(), "/table/ids");
    EXPECT_FALSE(fs::exists(path)) << "the final name appears only at commit";
    EXPECT_TRUE(fs::exists(results.partial_path()));
  }
  // The scope above ended without commit: the partial file is gone and nothing took the final name.
  comm.barrier();
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(fs::is_empty(dir.path()));

  // The same again, committed.
  {
    h5::ResultsFile results(comm, path, false);
    {
      h5::Group group = results.file().create_group("table");
      h5::Dataset ids = group.create_dataset<std::uint64_t>("ids", rows);
      h5::Dataset grid = group.create_dataset<double>("grid", rows, columns);
      std::vector<std::uint64_t> id_values;
      std::vector<double> grid_values;
      for (const auto& range : mine.ranges())
        for (std::uint64_t r = range.first; r < range.first + range.count; ++r) {
          id_values.push_back(1000 + r);
          for (std::uint64_t c = 0; c < columns; ++c) grid_values.push_back(static_cast<double>(r) + 0.1 * static_cast<double>(c));
        }
      ids.write_rows(mine, std::span<const std::uint64_t>(id_values));
      grid.write_rows(mine, std::span<const double>(grid_values));
      h5::Dataset label = group.create_string_dataset("label", 4, 6);
      const std::vector<std::string> labels{"one", "two", "three", "sixsix"};
      label.write_strings(comm.rank() == 0 ? h5::RowSet::all(4) : h5::RowSet{},
                          comm.rank() == 0 ? std::span<const std::string>(labels) : std::span<const std::string>());
    }
    results.file().set_attribute("name", "rows test");
    results.file().set_attribute("big", big);
    results.file().set_attribute("rank_dependent", 1.5 + comm.rank());
    const std::vector<std::string> names{"alpha", "be", ""};
    results.file().set_attribute("names", std::span<const std::string>(names));
    results.file().set_attribute("total", std::uint64_t{1} << 63);
    results.commit();
    EXPECT_FALSE(fs::exists(results.partial_path()));
  }
  ASSERT_TRUE(fs::exists(path));
  if (comm.rank() == 0) {
    const H5Reader in(path);
    const auto ids = in.read<std::uint64_t>("/table/ids");
    ASSERT_EQ(ids.size(), rows);
    for (std::uint64_t r = 0; r < rows; ++r) EXPECT_EQ(ids[r], 1000 + r) << "row " << r;
    EXPECT_EQ(in.shape("/table/grid"), (std::vector<hsize_t>{rows, columns}));
    const auto grid = in.read<double>("/table/grid");
    for (std::uint64_t r = 0; r < rows; ++r)
      for (std::uint64_t c = 0; c < columns; ++c)
        EXPECT_EQ(grid[r * columns + c], static_cast<double>(r) + 0.1 * static_cast<double>(c));
    EXPECT_EQ(in.strings("/table/label"), (std::vector<std::string>{"one", "two", "three", "sixsix"}));
    EXPECT_EQ(in.string_attribute("/", "name"), "rows test");
    EXPECT_EQ(in.string_attribute("/", "big"), big);
    EXPECT_EQ(in.attribute<double>("/", "rank_dependent"), 1.5);
    EXPECT_EQ(in.attribute<std::uint64_t>("/", "total"), std::uint64_t{1} << 63);
    EXPECT_EQ(in.string_attributes("/", "names"), (std::vector<std::string>{"alpha", "be", ""}));
  }
}

TEST(Hdf5File, ScalarAttributesAndEmptyDatasets) {
  const auto comm = world();
  const ScratchDir dir(comm, "hdf5-scalars");
  const std::string path = dir / "scalars.h5";
  {
    h5::ResultsFile results(comm, path, false);
    results.file().set_attribute("empty", "");
    results.file().set_attribute("count", std::int64_t{-5});
    const std::vector<double> weights{0.25, 0.5};
    results.file().set_attribute("weights", std::span<const double>(weights));
    {
      h5::Dataset none = results.file().create_dataset<std::uint64_t>("none", 0);
      none.write_rows(h5::RowSet{}, std::span<const std::uint64_t>());
      h5::Dataset small = results.file().create_dataset<std::uint8_t>("small", 3);
      const std::vector<std::uint8_t> values{7, 8, 9};
      small.write_rows(comm.rank() == 0 ? h5::RowSet::all(3) : h5::RowSet{},
                       comm.rank() == 0 ? std::span<const std::uint8_t>(values) : std::span<const std::uint8_t>());
    }
    results.commit();
  }
  if (comm.rank() == 0) {
    const H5Reader in(path);
    EXPECT_EQ(in.string_attribute("/", "empty"), "");
    EXPECT_EQ(in.attribute<std::int64_t>("/", "count"), -5);
    EXPECT_EQ(in.attribute_values<double>("/", "weights"), (std::vector<double>{0.25, 0.5}));
    EXPECT_TRUE(in.read<std::uint64_t>("/none").empty());
    EXPECT_EQ(in.read<std::uint8_t>("/small"), (std::vector<std::uint8_t>{7, 8, 9}));
  }
}

TEST(Hdf5File, ErrorsNameTheCallTheFileAndTheObject) {
  const auto comm = world();
  const ScratchDir dir(comm, "hdf5-errors");
  const std::string path = dir / "errors.h5";
  h5::ResultsFile results(comm, path, false);
  {
    h5::Dataset first = results.file().create_dataset<std::uint64_t>("twice", 4);
    try {
      (void)results.file().create_dataset<std::uint64_t>("twice", 4);
      ADD_FAILURE() << "creating a dataset twice succeeded";
    } catch (const h5::Error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("H5Dcreate2 failed"), std::string::npos) << message;
      EXPECT_NE(message.find(results.partial_path()), std::string::npos) << message;
      EXPECT_NE(message.find("dataset '/twice'"), std::string::npos) << message;
    }
    // Caller bugs are caught before any collective call.
    const std::vector<std::uint64_t> three{1, 2, 3};
    EXPECT_THROW(first.write_rows(h5::RowSet::all(2), std::span<const std::uint64_t>(three)), std::invalid_argument);
    EXPECT_THROW(first.write_rows(h5::RowSet::all(5), std::span<const std::uint64_t>()), std::invalid_argument);
    const std::vector<double> doubles{1, 2, 3, 4};
    EXPECT_THROW(first.write_rows(h5::RowSet::all(4), std::span<const double>(doubles)), std::invalid_argument);
    h5::RowSet backwards;
    backwards.add(3);
    EXPECT_THROW(backwards.add(1), std::invalid_argument);
  }
  try {
    (void)h5::File::create(comm, dir / "no-such-dir/file.h5");
    ADD_FAILURE() << "creating a file in a missing directory succeeded";
  } catch (const h5::Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("H5Fcreate failed (file '" + dir / "no-such-dir/file.h5" + "')"), std::string::npos) << message;
  }
}

TEST(Hdf5File, ExistingFilesAreReplacedOnlyWhenAllowed) {
  const auto comm = world();
  const ScratchDir dir(comm, "hdf5-replace");
  const std::string path = dir / "out.h5";
  if (comm.rank() == 0) std::ofstream(path) << "precious";
  comm.barrier();

  const auto refused = h5::check_destination(comm, path, false);
  EXPECT_TRUE(refused.exists);
  EXPECT_EQ(refused.problem, path + ": the file exists");
  EXPECT_EQ(h5::check_destination(comm, path, true).problem, "");
  EXPECT_NE(h5::check_destination(comm, dir.path(), true).problem.find("is a directory"), std::string::npos);
  // A missing directory is made.
  EXPECT_EQ(h5::check_destination(comm, dir / "made/deeper/out.h5", false).problem, "");
  EXPECT_TRUE(fs::is_directory(dir / "made/deeper"));

  // A file that appears while a run writes is not replaced without permission...
  {
    h5::ResultsFile results(comm, path, false);
    results.file().set_attribute("new", "yes");
    EXPECT_THROW(results.commit(), h5::Error);
  }
  comm.barrier();
  EXPECT_EQ(slurp(path), "precious");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}), 2) << "out.h5 and made/ only";
  // ... and is with it.
  {
    h5::ResultsFile results(comm, path, true);
    results.file().set_attribute("new", "yes");
    results.commit();
  }
  if (comm.rank() == 0) {
    EXPECT_EQ(H5Reader(path).string_attribute("/", "new"), "yes");
  }
}
