#include "pdes/checkpoint_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <vector>

#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/collectives/gather.hpp>
#include <boost/serialization/string.hpp>
#include <fmt/format.h>

namespace rackscale::pdes {
namespace {
constexpr std::array<char, 8> kMagic{'R', 'S', 'C', 'K', 'P', 'T', '0', '1'};
constexpr std::uint32_t kFormatVersion = 2;
constexpr int kSizeTag = 71, kBytesTag = 72;
// States move between ranks in pieces an MPI count (int) can hold.
constexpr std::size_t kPiece = std::size_t{1} << 30;

struct Header {
  std::uint32_t version = kFormatVersion;
  std::uint32_t ranks = 0;
  std::uint64_t config_hash = 0;
  std::uint64_t partition_hash = 0;
  std::uint64_t windows = 0;
  SimTime now = 0;
  std::string workload;
  std::vector<std::uint64_t> sizes;
  std::vector<std::uint64_t> checksums;
};

template <class T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

std::string encode(const Header& h) {
  std::string out(kMagic.data(), kMagic.size());
  put(out, h.version);
  put(out, h.ranks);
  put(out, h.config_hash);
  put(out, h.partition_hash);
  put(out, h.windows);
  put(out, h.now);
  put(out, static_cast<std::uint32_t>(h.workload.size()));
  out += h.workload;
  for (const std::uint64_t s : h.sizes) put(out, s);
  for (const std::uint64_t c : h.checksums) put(out, c);
  put(out, fnv1a64(out));
  return out;
}

// Reads what encode() wrote, checking as it goes; `fail` throws with the byte offset of the problem.
class HeaderReader {
 public:
  HeaderReader(std::ifstream& in, std::string path) : in_(in), path_(std::move(path)) {}

  Header read() {
    Header h;
    std::array<char, 8> magic{};
    bytes(magic.data(), magic.size(), "the file's kind");
    if (magic != kMagic) fail(0, "this is not a rackscale checkpoint (no RSCKPT01 at its start)");
    h.version = value<std::uint32_t>("the format version");
    if (h.version != kFormatVersion)
      fail(8, fmt::format("checkpoint format {}; this rackscale reads format {}", h.version, kFormatVersion));
    h.ranks = value<std::uint32_t>("the rank count");
    h.config_hash = value<std::uint64_t>("the config hash");
    h.partition_hash = value<std::uint64_t>("the partition hash");
    h.windows = value<std::uint64_t>("the window count");
    h.now = value<SimTime>("the simulated time");
    const auto name_size = value<std::uint32_t>("the workload name");
    if (name_size > 64) fail(offset_ - 4, fmt::format("a workload name of {} bytes; the header is corrupt", name_size));
    h.workload.resize(name_size);
    bytes(h.workload.data(), name_size, "the workload name");
    if (h.ranks == 0 || h.ranks > (1u << 24)) fail(12, fmt::format("{} ranks; the header is corrupt", h.ranks));
    h.sizes.resize(h.ranks);
    h.checksums.resize(h.ranks);
    for (auto& s : h.sizes) s = value<std::uint64_t>("the ranks' state sizes");
    for (auto& c : h.checksums) c = value<std::uint64_t>("the ranks' checksums");
    const std::uint64_t expected = fnv1a64(seen_);
    if (value<std::uint64_t>("the header checksum") != expected)
      fail(offset_ - 8, "the header's checksum does not match its contents; the file is corrupt");
    return h;
  }
  [[nodiscard]] std::uint64_t offset() const noexcept { return offset_; }
  [[noreturn]] void fail(std::uint64_t at, const std::string& what) const {
    throw CheckpointRefused(fmt::format("checkpoint {} (byte {}): {}", path_, at, what));
  }

 private:
  void bytes(char* to, std::size_t n, const char* what) {
    in_.read(to, static_cast<std::streamsize>(n));
    if (static_cast<std::size_t>(in_.gcount()) != n)
      fail(offset_ + static_cast<std::uint64_t>(in_.gcount()),
           fmt::format("the file ends inside {}; it is truncated", what));
    seen_.append(to, n);
    offset_ += n;
  }
  template <class T>
  T value(const char* what) {
    T v{};
    bytes(reinterpret_cast<char*>(&v), sizeof v, what);
    return v;
  }

  std::ifstream& in_;
  std::string path_;
  std::string seen_;
  std::uint64_t offset_ = 0;
};

void send_state(const boost::mpi::communicator& comm, int to, const std::string& state) {
  comm.send(to, kSizeTag, static_cast<std::uint64_t>(state.size()));
  for (std::size_t at = 0; at < state.size(); at += kPiece)
    comm.send(to, kBytesTag, state.data() + at, static_cast<int>(std::min(kPiece, state.size() - at)));
}

std::string receive_state(const boost::mpi::communicator& comm, int from) {
  std::uint64_t size = 0;
  comm.recv(from, kSizeTag, size);
  std::string state(size, '\0');
  for (std::size_t at = 0; at < state.size(); at += kPiece)
    comm.recv(from, kBytesTag, state.data() + at, static_cast<int>(std::min(kPiece, state.size() - at)));
  return state;
}

// Rank 0's half of a write: the header, then each rank's state as it arrives. Returns "" or the error.
std::string write_on_root(const boost::mpi::communicator& comm, const std::string& path, const Header& header,
                          const std::string& own_state) {
  const std::string temporary = fmt::format("{}.tmp-{}", path, ::getpid());
  std::string problem;
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) problem = fmt::format("cannot create {}: {}", temporary, std::strerror(errno));
    if (problem.empty()) out << encode(header);
    // Every rank's state is received even after a failure, so no rank is left waiting in its send.
    for (int r = 0; r < comm.size(); ++r) {
      const std::string state = r == 0 ? own_state : receive_state(comm, r);
      if (problem.empty()) out.write(state.data(), static_cast<std::streamsize>(state.size()));
    }
    if (problem.empty()) {
      out.flush();
      if (!out) problem = fmt::format("cannot write {}: {}", temporary, std::strerror(errno));
    }
  }
  if (problem.empty() && std::rename(temporary.c_str(), path.c_str()) != 0)
    problem = fmt::format("cannot rename {} to {}: {}", temporary, path, std::strerror(errno));
  if (!problem.empty()) std::remove(temporary.c_str());
  return problem;
}
}  // namespace

std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t hash) noexcept {
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::uint64_t partition_hash(const RankMap& map) {
  std::uint64_t hash = fnv1a64(fmt::format("{} ranks {} LPs", map.ranks(), map.lp_count()));
  for (LpId lp = 0; lp < map.lp_count(); ++lp) {
    const std::int32_t owner = map.owner(lp);
    hash = fnv1a64(std::string_view(reinterpret_cast<const char*>(&owner), sizeof owner), hash);
  }
  return hash;
}

void write_checkpoint_file(const boost::mpi::communicator& comm, const std::string& path,
                           const CheckpointIdentity& identity, SimTime now, std::uint64_t windows,
                           const std::string& rank_state) {
  const std::array<std::uint64_t, 2> mine{rank_state.size(), fnv1a64(rank_state)};
  std::vector<std::array<std::uint64_t, 2>> all;
  boost::mpi::gather(comm, mine, all, 0);
  std::string problem;
  if (comm.rank() == 0) {
    Header header;
    header.ranks = static_cast<std::uint32_t>(comm.size());
    header.config_hash = identity.config_hash;
    header.partition_hash = identity.partition_hash;
    header.windows = windows;
    header.now = now;
    header.workload = identity.workload;
    for (const auto& [size, checksum] : all) {
      header.sizes.push_back(size);
      header.checksums.push_back(checksum);
    }
    problem = write_on_root(comm, path, header, rank_state);
  } else {
    send_state(comm, 0, rank_state);
  }
  boost::mpi::broadcast(comm, problem, 0);
  if (!problem.empty()) throw CheckpointWriteFailed(fmt::format("checkpoint {}: {}", path, problem));
}

std::string read_checkpoint_file(const boost::mpi::communicator& comm, const std::string& path,
                                 const CheckpointIdentity& identity) {
  std::string problem;
  std::ifstream in;
  Header header;
  std::uint64_t states_at = 0;
  if (comm.rank() == 0) {
    try {
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path, ec))
        throw CheckpointRefused(fmt::format("checkpoint {}: no such file", path));
      in.open(path, std::ios::binary);
      if (!in) throw CheckpointRefused(fmt::format("checkpoint {}: cannot open: {}", path, std::strerror(errno)));
      HeaderReader reader(in, path);
      header = reader.read();
      states_at = reader.offset();
      if (header.workload != identity.workload)
        reader.fail(52, fmt::format("it was written by a {} run; this is a {} run", header.workload, identity.workload));
      if (header.config_hash != identity.config_hash)
        reader.fail(16, fmt::format("it was written for another config (hash {:016x}; this run's is {:016x}); "
                                    "a restart needs the same config, presets and --set overrides",
                                    header.config_hash, identity.config_hash));
      if (header.ranks != static_cast<std::uint32_t>(comm.size()))
        reader.fail(12, fmt::format("it was written by {} rank(s); restart it on {} rank(s) (this run has {}): "
                                    "the ranks' states cannot be redistributed",
                                    header.ranks, header.ranks, comm.size()));
      if (header.partition_hash != identity.partition_hash)
        reader.fail(24, "it was written with another placement of LPs on ranks; restart with the same "
                        "--partition (or --placement) as the interrupted run");
      std::uint64_t expected = states_at;
      for (const std::uint64_t s : header.sizes) expected += s;
      const auto actual = static_cast<std::uint64_t>(std::filesystem::file_size(path, ec));
      if (actual < expected)
        reader.fail(actual, fmt::format("the file has {} bytes where its header announces {}; it is truncated",
                                        actual, expected));
      if (actual > expected)
        reader.fail(expected, fmt::format("{} bytes follow the last rank's state; the file is corrupt", actual - expected));
      // Every state is checked before any rank restores one, so a corrupt file is refused by all.
      std::uint64_t at = states_at;
      std::string state;
      for (std::uint32_t r = 0; r < header.ranks; ++r) {
        state.resize(header.sizes[r]);
        in.read(state.data(), static_cast<std::streamsize>(state.size()));
        if (!in || fnv1a64(state) != header.checksums[r])
          reader.fail(at, fmt::format("rank {}'s state (bytes {} to {}) does not match its checksum; the file is corrupt",
                                      r, at, at + header.sizes[r]));
        at += header.sizes[r];
      }
    } catch (const CheckpointRefused& e) {
      problem = e.what();
    }
  }
  boost::mpi::broadcast(comm, problem, 0);
  if (!problem.empty()) throw CheckpointRefused(problem);
  if (comm.rank() != 0) return receive_state(comm, 0);
  in.clear();
  in.seekg(static_cast<std::streamoff>(states_at));
  std::string own;
  for (std::uint32_t r = 0; r < header.ranks; ++r) {
    std::string state(header.sizes[r], '\0');
    in.read(state.data(), static_cast<std::streamsize>(state.size()));
    if (r == 0) own = std::move(state);
    else send_state(comm, static_cast<int>(r), state);
  }
  return own;
}

}  // namespace rackscale::pdes
