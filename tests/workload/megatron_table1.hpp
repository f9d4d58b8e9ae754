#pragma once
// Narayanan et al. 2021 (SC'21), Table 1 (data/reference/megatron2021_table1.csv) as test cases: the rows
// read from the CSV and each row's scenario, shared by tests/workload/test_megatron_table.cpp (throughput
// against the published one) and tests/search/test_megatron_search.cpp (where the published layout ranks
// in a search). The case: DGX A100 nodes (8 x A100-80GB on NVSwitch, 8 x 200 Gb/s HDR InfiniBand) on a fat
// tree; GPT with vocabulary 51200, sequence 2048, GeLU MLP of 4h; the row's TP, PP and global batch (DP
// follows from the GPU count); micro-batch 1; full recomputation; unfused attention (the paper predates
// FlashAttention); the interleaved schedule with the most virtual stages up to 4 that divide the layers of
// a stage (the paper does not list them).
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace rackscale::test {

struct Row {
  double params_billion = 0;
  int heads = 0, hidden = 0, layers = 0, tp = 0, pp = 0, dp = 0, gpus = 0, global_batch = 0;
  double tflops_per_gpu = 0;
};

inline std::vector<Row> read_table(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<Row> rows;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {  // the columns this test relies on, in this order
      EXPECT_EQ(line.rfind("params_billion,heads,hidden,layers,tensor_parallel,pipeline_parallel,data_parallel,gpus,"
                           "global_batch,tflops_per_gpu",
                           0),
                0u)
          << line;
      header = false;
      continue;
    }
    std::stringstream cells(line);
    std::vector<std::string> c;
    for (std::string cell; std::getline(cells, cell, ',');) c.push_back(cell);
    if (c.size() < 10) throw std::runtime_error("short row: " + line);
    rows.push_back({std::stod(c[0]), std::stoi(c[1]), std::stoi(c[2]), std::stoi(c[3]), std::stoi(c[4]), std::stoi(c[5]),
                    std::stoi(c[6]), std::stoi(c[7]), std::stoi(c[8]), std::stod(c[9])});
  }
  return rows;
}

inline int virtual_stages(const Row& r) {
  if (r.pp == 1) return 1;
  for (int v : {4, 3, 2})
    if (r.layers % (r.pp * v) == 0) return v;
  return 1;
}

inline std::string scenario_yaml(const Row& r) {
  return fmt::format(R"(name: megatron-table1-{params}b
cluster:
  nodes: {nodes}
  devices_per_node: 8
  nodes_per_rack: 4
  accelerator: a100-sxm4-80gb
  nic: connectx6-hdr-200g
  scale_up: {{kind: nvswitch, domain_devices: 8, bandwidth: 300GB/s, efficiency: 0.68, latency: 500ns, switch: nvswitch-gen2}}
  scale_out: {{topology: fat_tree, switch: quantum-qm8700-hdr, cable_latency: 50ns}}
workload:
  type: training
  model: {{layers: {layers}, hidden: {hidden}, heads: {heads}, vocabulary: 51200, sequence: 2048, activation: gelu}}
  parallel: {{tensor: {tp}, pipeline: {pp}, virtual_stages: {v}, global_batch: {batch}, micro_batch: 1, recompute: full,
             fused_attention: false}}
  stack: megatron_lm
)",
                     fmt::arg("params", r.params_billion), fmt::arg("nodes", r.gpus / 8), fmt::arg("layers", r.layers),
                     fmt::arg("hidden", r.hidden), fmt::arg("heads", r.heads), fmt::arg("tp", r.tp), fmt::arg("pp", r.pp),
                     fmt::arg("v", virtual_stages(r)), fmt::arg("batch", r.global_batch));
}

}  // namespace rackscale::test
