// A table of bad configs (tests/io/bad_configs/), each with the exact one-line diagnostic it must give:
// file:line:column, key path, what was expected and what was found.
#include <filesystem>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "config_test_support.hpp"

namespace rackscale::io::test {
namespace {

// file -> the message after "<path>:".
const std::map<std::string, std::string>& expected_messages() {
  static const std::map<std::string, std::string> table{
      {"wrong_type.yaml", "4:10: cluster.nodes: expected an integer, found 'eight'"},
      {"unknown_key.yaml", "4:3: cluster.nodez: unknown key; did you mean 'nodes'?"},
      {"unknown_top_level_key.yaml", "11:1: simulaton: unknown key; did you mean 'simulation'?"},
      {"missing_required.yaml", "4:3: cluster: missing required key 'nodes'"},
      {"missing_submapping.yaml", "8:5: cluster.scale_out: missing required key 'torus'"},
      {"full_mapping_missing_field.yaml", "6:8: cluster.nic: missing required key 'latency'"},
      {"bare_number_bandwidth.yaml",
       "6:44: cluster.nic.bandwidth: expected a bandwidth with a unit, such as 400Gbps or 50GB/s, found 50"},
      {"unit_case.yaml",
       "6:44: cluster.nic.bandwidth: expected a bandwidth unit (one of bps, Kbps, Mbps, Gbps, Tbps, B/s, KB/s, MB/s, "
       "GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s), found '50gb/s'; did you mean '50GB/s'?"},
      {"negative_bandwidth.yaml", "6:44: cluster.nic.bandwidth: expected a non-negative bandwidth, found '-50GB/s'"},
      {"zero_bandwidth.yaml", "8:16: cluster.nic.bandwidth: expected a bandwidth > 0, found '0GB/s'"},
      {"duration_without_unit.yaml",
       "10:20: cluster.scale_out.cable_latency: expected a duration with a unit, such as 500ns or 1.5us, found 50"},
      {"fractional_picoseconds.yaml",
       "10:20: cluster.scale_out.cable_latency: expected a whole number of picoseconds, found '0.5ps'"},
      {"fractional_bytes.yaml", "11:49: workload.bytes: expected a whole number of bytes, found '1.5B'"},
      {"size_overflow.yaml", "11:49: workload.bytes: expected a size below 16EiB (2^64 bytes), found '100000000TB'"},
      {"inconsistent_nics.yaml", "5:18: cluster.nics_per_node: expected 0 or 8 (devices_per_node), found 3"},
      {"wrong_submapping.yaml", "11:5: cluster.scale_out.dragonfly: only allowed with topology: dragonfly"},
      {"switch_on_torus.yaml",
       "9:5: cluster.scale_out.switch: only allowed with topology: fat_tree, rail_fat_tree or dragonfly"},
      {"unknown_enum.yaml",
       "8:15: cluster.scale_out.topology: expected one of none, fat_tree, rail_fat_tree, dragonfly, torus3d, found "
       "'fattree'; did you mean 'fat_tree'?"},
      {"unknown_preset.yaml",
       "5:16: cluster.accelerator: expected an accelerator preset (one of a100-sxm4-40gb, a100-sxm4-80gb, b200-gb200, "
       "b200-hgx, h100-sxm5-80gb, h200-sxm-141gb, mi300x, tpu-v4, tpu-v5p, v100-sxm2-32gb), found 'h100'; did you "
       "mean 'h100-sxm5-80gb'?"},
      {"unknown_preset_field.yaml", "6:33: cluster.nic.bandwith: unknown key; did you mean 'bandwidth'?"},
      {"oversubscription_below_one.yaml",
       "10:44: cluster.scale_out.fat_tree.oversubscription: expected a number >= 1, found -2"},
      {"oversubscription_too_many.yaml",
       "10:44: cluster.scale_out.fat_tree.oversubscription: expected a number or a sequence of 1 number (leaf) for a "
       "2-tier fat tree, found a sequence of 2"},
      {"tiers_out_of_range.yaml", "10:23: cluster.scale_out.fat_tree.tiers: expected an integer <= 3, found 4"},
      {"idle_above_tdp.yaml", "5:53: cluster.accelerator.idle_power: expected a power <= tdp (700W), found '800W'"},
      {"scale_up_none_with_bandwidth.yaml",
       "7:26: cluster.scale_up.bandwidth: only allowed with kind: nvswitch or mesh"},
      {"mesh_with_switch.yaml", "7:59: cluster.scale_up.switch: only allowed with kind: nvswitch"},
      {"preset_as_sequence.yaml", "5:16: cluster.accelerator: expected a preset name or a mapping, found a sequence"},
      {"mapping_expected.yaml", "7:14: cluster.scale_out: expected a mapping, found 'fat_tree'"},
      {"receiver_out_of_range.yaml",
       "11:67: workload.receiver: expected a device index below 16 (the cluster's devices), found 16"},
      {"duplicate_key.yaml", "5:3: cluster.nodes: duplicate key (first written on line 4)"},
      {"nvlink_multicast_not_bool.yaml",
       "5:59: cluster.accelerator.nvlink_multicast: expected one of true, false, found 'yes'"},
      {"yaml_syntax.yaml", "5:9: YAML syntax error: end of sequence flow not found"},
      {"tco_act_not_mapping.yaml",
       "14:10: tco.embodied.act: expected auto or a mapping {epa_kwh_per_cm2, gpa_g_per_cm2, mpa_g_per_cm2}, found "
       "2.15"},
      {"tco_decay_with_straight_line.yaml", "13:3: tco.decay_oom_per_year: only allowed with depreciation: exponential"},
      {"tco_fractional_tokens.yaml", "13:17: tco.token_budget: expected a whole number below 1.8e19, found 1.5e0"},
      {"tco_grid_and_intensity.yaml",
       "14:19: tco.grid_intensity: expected either tco.grid (a preset) or tco.grid_intensity (gCO2e per kWh), found "
       "both"},
      {"tco_host_idle_above_active.yaml", "13:41: tco.power.host_active: expected a power >= host_idle (900 W), found '800W'"},
      {"tco_network_share_itemized.yaml", "15:5: tco.prices.network_share: only allowed with network: cottier_factor"},
      {"tco_price_negative.yaml", "13:20: tco.prices.switch: expected a number >= 0, found -5"},
      {"training_tokens_moved.yaml", "15:3: workload.training_tokens: unknown key; it moved to 'tco.token_budget'"},
      {"overlap_grad_reduce_moved.yaml",
       "14:43: workload.parallel.overlap_grad_reduce: unknown key; it moved to 'workload.stack.overlap_grad_reduce'"},
      {"stack_without_interleaving.yaml",
       "14:54: workload.parallel.virtual_stages: expected 1: stack deepspeed has no interleaved schedule (its "
       "interleaved_schedule is false), found 2"},
      {"tco_pue_below_one.yaml", "13:8: tco.pue: expected a number >= 1, found 0.9"},
      {"tco_unknown_grid.yaml",
       "13:9: tco.grid: expected one of world, usa, europe, taiwan, india, iceland, coal, gas, solar, hydro, nuclear, "
       "wind, usa_patterson2021, found 'germany'"},
      {"tco_unknown_key.yaml", "13:3: tco.token_budjet: unknown key; did you mean 'token_budget'?"},
      {"alias_cycle.yaml",
       "10:52: cluster.scale_out.fat_tree.oversubscription[0]: alias *ratio is inside the value it names (a cycle); "
       "expected an alias to a finished value"},
      {"alias_bomb.yaml",
       "8:7: laughs.l4: expected aliases to copy at most 100000 values in all, found more (nested aliases multiply)"},
      {"nul_byte.yaml", "2:11: expected text, found a NUL byte"},
      {"nesting_too_deep.yaml",
       "2:1207: YAML syntax error: expected values nested at most 499 levels deep, found deeper"},
      {"multiple_documents.yaml",
       "12:1: expected one YAML document, found a second one (after '---' or '...')"},
      {"tag_unknown.yaml", "4:10: cluster.nodes: expected a value without a YAML tag, found the tag '!count'"},
      {"tag_binary.yaml", "2:7: name: expected a value without a YAML tag, found the tag '!!binary'"},
      {"devices_overflow.yaml", "4:3: cluster.nodes: 8000000000 devices; at most 4294967295 are supported"},
      {"variability_unknown_distribution.yaml",
       "14:29: workload.variability.compute.distribution: expected one of none, lognormal, found 'normal'"},
      {"variability_negative_sigma.yaml", "14:47: workload.variability.compute.sigma: expected a number >= 0, found -0.1"},
      {"variability_slow_device_out_of_range.yaml",
       "14:31: workload.variability.compute.slow[0].device: expected a device below 16 (the cluster's devices), found "
       "16"},
      {"variability_unknown_jitter.yaml",
       "14:28: workload.variability.jitter.distribution: expected one of none, exponential, lognormal, found 'gamma'"},
      {"degraded_link_out_of_range.yaml",
       "9:27: cluster.degraded_links[0].link: expected a port id below 64 (the topology's ports, /links in the "
       "results file), found 100000"},
      {"degraded_link_above_one.yaml", "9:40: cluster.degraded_links[0].fraction: expected a fraction in [0, 1], found 1.5"},
      {"not_a_mapping.yaml",
       "2:1: expected a mapping of scenario keys (name, cluster, workload, ...), found a sequence"},
  };
  return table;
}

std::string bad_dir() { return source_dir() + "/tests/io/bad_configs"; }

TEST(BadConfigs, EachGivesItsExactMessage) {
  for (const auto& [file, message] : expected_messages()) {
    const std::string path = bad_dir() + "/" + file;
    SCOPED_TRACE(path);
    ASSERT_TRUE(std::filesystem::exists(path));
    EXPECT_EQ(load_error(path), path + ":" + message);
  }
}

TEST(BadConfigs, EveryFileIsInTheTable) {
  for (const auto& entry : std::filesystem::directory_iterator(bad_dir()))
    EXPECT_EQ(expected_messages().count(entry.path().filename().string()), 1u) << entry.path();
}

TEST(BadConfigs, MessagesAreOneLine) {
  for (const auto& [file, message] : expected_messages()) EXPECT_EQ(message.find('\n'), std::string::npos) << file;
}

}  // namespace
}  // namespace rackscale::io::test
