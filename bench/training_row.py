#!/usr/bin/python3
"""One markdown table row from `rackscale run --json`'s last line (a training run) on standard input:
label, iteration time, MFU, HFU, hardware TFLOP/s per device, exposed-communication and bubble shares."""
import json
import sys

label = sys.argv[1]
r = json.load(sys.stdin)
t = r["iteration_time_ps"]


def share(key):
    return 100.0 * r["mean_" + key + "_ps"] / t


print("| {} | {:.3f} s | {:.1f} % | {:.1f} % | {:.1f} | {:.1f} % | {:.1f} % |".format(
    label, t / 1e12, 100 * r["mfu"], 100 * r["hfu"], r["hardware_flops_per_device_per_s"] / 1e12,
    share("exposed_communication"), share("pipeline_bubble")))
