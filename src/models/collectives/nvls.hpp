#pragma once
// NVLink SHARP collectives: NCCL's NVLS algorithm inside one NVSwitch domain, on the switch's in-network
// reduction and multicast (network/switch_multimem.hpp). Member r of p owns slice r of the data:
//
//   all-reduce      every member contributes every slice to an in-switch reduction whose sum goes to the
//                   slice's owner (multimem.ld_reduce); the owner multicasts each piece of the sum to every
//                   member as soon as it has it (multimem.st), as NCCL's NVLS kernel stores what it has
//                   just reduced.
//   reduce-scatter  the reductions only: each member ends with the sum of its slice.
//   all-gather      the multicasts only: each member multicasts its slice.
//
// Through a member's scale-up port that is S + S/p into the switch and S/p + S out of it for all-reduce
// (S and S/p for reduce-scatter, S/p and S for all-gather), against 2 (p - 1) S / p each way for a ring:
// the two directions work at once, which is where NVLS gets its higher bus bandwidth.
//
// Channels split the data as for the ring (one by default: they would share the port); each slice is cut
// into P pieces. A member contributes a piece of every slice at a time (slices 0 .. p - 1, so the switch
// completes the sums in slice order), at most kNvlsPiecesInFlight pieces ahead of the sums it has
// received: the contributions of piece k + 2 leave once the sum of its own slice's piece k is back. On
// the GPU the switch's reads are paced by the reductions that issue them; posting every contribution at
// once would queue each multicast behind all of them on the member's port (its port is FIFO), and the
// multicasts would then only start when the contributions are all out, halving NVLS's bandwidth.
// Message index: ((op C + channel) P + piece) p + slice, op 0 for contributions and their sums, 1 for
// multicasts.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "models/vocabulary/program.hpp"
#include "models/collectives/call_state.hpp"
#include "models/network/cluster_spec.hpp"

namespace rackscale::models::collectives {

// Pieces a member's contributions run ahead of its sums (per channel): two keep its port busy while a
// piece is reduced (double buffering) and hold a multicast behind at most two pieces' contributions.
inline constexpr std::uint32_t kNvlsPiecesInFlight = 2;

// Why NVLS cannot run on `cluster` at all, naming the config key and what it found; empty when it can
// (inside one of its NVSwitch domains): an NVSwitch scale-up fabric whose switch reduces
// (switch.nvls_reduce_bandwidth > 0), GPUs with NVLink multicast, domains of at most 96 devices (a
// multicast group is a 96-port mask).
[[nodiscard]] std::string nvls_unavailable(const network::ClusterSpec& cluster);

// The collectives NVLS runs: all-reduce, reduce-scatter and all-gather.
[[nodiscard]] bool nvls_runs(accelerator::CollectiveKind kind) noexcept;

class NvlsMachine final : public CallState {
 public:
  // `bytes` as in CollectiveCall (the buffer for all-reduce, the input of reduce-scatter, the output of
  // all-gather), split over `channels`, each slice over `pieces`.
  NvlsMachine(accelerator::CollectiveKind kind, std::span<const std::uint32_t> members, std::uint32_t rank,
              std::uint64_t bytes, std::uint32_t channels, std::uint32_t pieces);

  void begin(network::DeviceLp& device, Outbox& out) override;
  void receive(network::DeviceLp& device, Outbox& out, std::uint32_t src_device, std::uint32_t index) override;
  [[nodiscard]] bool finished() const override { return begun_ && arrived_ == expected_; }
  void save(boost::archive::binary_oarchive& out) const override;
  void load(boost::archive::binary_iarchive& in) override;
  void list_sends(std::vector<SentMessages>& out) const override;

 private:
  [[nodiscard]] std::uint32_t members() const noexcept { return static_cast<std::uint32_t>(members_.size()); }
  [[nodiscard]] std::uint64_t slice_bytes(std::uint32_t channel, std::uint32_t slice) const noexcept {
    return split(split(bytes_, channels_, channel), members(), slice);
  }
  [[nodiscard]] std::uint64_t piece_bytes(std::uint32_t channel, std::uint32_t slice, std::uint32_t piece) const noexcept {
    return split(slice_bytes(channel, slice), pieces_, piece);
  }
  [[nodiscard]] std::uint32_t index(std::uint32_t op, std::uint32_t channel, std::uint32_t piece,
                                    std::uint32_t slice) const noexcept {
    return ((op * channels_ + channel) * pieces_ + piece) * members() + slice;
  }
  void contribute(network::DeviceLp& device, Outbox& out, std::uint32_t channel, std::uint32_t piece);
  [[nodiscard]] bool reduces() const noexcept { return kind_ != accelerator::CollectiveKind::all_gather; }
  [[nodiscard]] bool multicasts() const noexcept { return kind_ != accelerator::CollectiveKind::reduce_scatter; }

  accelerator::CollectiveKind kind_;
  std::vector<std::uint32_t> members_;
  std::uint32_t rank_;
  std::uint64_t bytes_;
  std::uint32_t channels_;
  std::uint32_t pieces_;
  network::MulticastGroup group_;  // every member, as ports of the switch (made at begin)
  std::uint64_t expected_ = 0;     // deliveries: the sums of its slice and the multicasts of every slice
  std::uint64_t arrived_ = 0;
  bool begun_ = false;
};

}  // namespace rackscale::models::collectives
