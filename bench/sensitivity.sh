#!/bin/sh
# How each software-stack and model knob moves two training predictions (docs/validation.md,
# "Sensitivity"): GPT-3 175B on 1,024 A100s and Llama 3 405B on 16,384 H100s, one run per knob, each
# printing iteration time, MFU, HFU, hardware TFLOP/s per device and the exposed-communication and
# bubble shares. Analytical network, 2 ranks; about 15 minutes on 2 cores.
#   sh bench/sensitivity.sh [RACKSCALE]
set -eu
cd "$(dirname "$0")/.."
rackscale=${1:-build/rackscale}
gpt=configs/training/gpt3-175b-1024-a100.yaml
llama=configs/training/llama3-405b-16384-h100.yaml
run() {
  label=$1; config=$2; shift 2
  scripts/mpirun.sh -np 2 "$rackscale" --progress off run "$config" "$@" --json 2>/dev/null | tail -n 1 |
    /usr/bin/python3 bench/training_row.py "$label"
}
echo "| case | iteration | MFU | HFU | TFLOP/s per device | exposed comm | bubble |"
echo "|---|---|---|---|---|---|---|"
run "GPT-3 / 1,024 A100: as configured (megatron_lm)" $gpt
run "... stack.overlap_grad_reduce: true" $gpt --set workload.stack.overlap_grad_reduce=true
run "... stack.pipeline_transfers: blocking" $gpt --set workload.stack.pipeline_transfers=blocking
run "... stack: deepspeed, virtual_stages 1" $gpt --set workload.stack=deepspeed --set workload.parallel.virtual_stages=1
run "... stack: megatron_lm, virtual_stages 1" $gpt --set workload.parallel.virtual_stages=1
run "... fused_attention: true" $gpt --set workload.parallel.fused_attention=true
run "... fused_attention: true, model.causal: false" $gpt --set workload.parallel.fused_attention=true --set workload.model.causal=false
run "Llama 3 405B / 16,384 H100: as configured" $llama
run "... stack.overlap_grad_reduce: false" $llama --set workload.stack.overlap_grad_reduce=false
run "... stack.pipeline_transfers: blocking" $llama --set workload.stack.pipeline_transfers=blocking
run "... recompute: selective" $llama --set workload.parallel.recompute=selective
run "... recompute: full" $llama --set workload.parallel.recompute=full
run "... model.causal: false" $llama --set workload.model.causal=false
