#pragma once
// Minimum and maximum of unsigned 64-bit values (times, counts) over all ranks.
//
// Why not boost::mpi::all_reduce with minimum<std::uint64_t>: Boost.MPI sends std::uint64_t as
// MPI_UNSIGNED_LONG, and Open MPI 4.1.4 (Debian 12) compares MPI_UNSIGNED_LONG as signed in MPI_MIN and
// MPI_MAX, so kNever (2^64 - 1) reads as -1 and wins every minimum. MPI_UINT64_T compares correctly;
// tests/pdes/test_rank_reduce.cpp guards this.
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include <boost/mpi/communicator.hpp>

namespace rackscale::pdes {

[[nodiscard]] std::uint64_t min_over_ranks(const boost::mpi::communicator& comm, std::uint64_t value);
[[nodiscard]] std::uint64_t max_over_ranks(const boost::mpi::communicator& comm, std::uint64_t value);
// Element-wise minimum; `in` and `out` have the same length.
void min_over_ranks(const boost::mpi::communicator& comm, std::span<const std::uint64_t> in,
                    std::span<std::uint64_t> out);

// Element-wise sum, minimum or maximum over ranks into `out` on `root` (out is left untouched
// elsewhere); `in` and `out` have the same length on root.
enum class Reduction { sum, min, max };
void reduce_to_root(const boost::mpi::communicator& comm, std::span<const std::uint64_t> in,
                    std::span<std::uint64_t> out, Reduction op, int root = 0);
// The same with the result on every rank.
void reduce_to_all(const boost::mpi::communicator& comm, std::span<const std::uint64_t> in,
                   std::span<std::uint64_t> out, Reduction op);

// Records whose every field is an unsigned 64-bit integer (times, counts), reduced field by field with
// the result on every rank: a figure keeps its name in the code instead of a position in a row of words.
// `in` and `out` have the same length.
template <class Record>
void reduce_records_to_all(const boost::mpi::communicator& comm, std::span<const Record> in, std::span<Record> out,
                           Reduction op) {
  static_assert(std::is_trivially_copyable_v<Record> && std::has_unique_object_representations_v<Record> &&
                    sizeof(Record) % sizeof(std::uint64_t) == 0 && alignof(Record) == alignof(std::uint64_t),
                "a record of unsigned 64-bit fields, without padding");
  constexpr std::size_t kWords = sizeof(Record) / sizeof(std::uint64_t);
  std::vector<std::uint64_t> words(in.size() * kWords), reduced(in.size() * kWords);
  if (!in.empty()) std::memcpy(words.data(), in.data(), in.size_bytes());
  reduce_to_all(comm, words, reduced, op);
  // Trivially copyable (asserted above), so its bytes may be written whole.
  if (!out.empty()) std::memcpy(static_cast<void*>(out.data()), reduced.data(), out.size_bytes());
}
// One record.
template <class Record>
[[nodiscard]] Record reduce_record_to_all(const boost::mpi::communicator& comm, const Record& mine, Reduction op) {
  Record all{};
  reduce_records_to_all<Record>(comm, std::span<const Record>(&mine, 1), std::span<Record>(&all, 1), op);
  return all;
}

}  // namespace rackscale::pdes
