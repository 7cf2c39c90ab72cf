#!/usr/bin/python3
"""Runs (or reads) op_bench's GEMM benchmarks and prints one table of GFLOP/s and ratios:
aclcpu through a handle beside OpenBLAS (AVX-512 kernels) and oneDNN's sgemm when present,
all single-threaded in the same process. With matplotlib, also writes a bar chart (PNG).

Usage: scripts/bench-report.py [--build build] [--json results.json] [--png docs/gemm-f32.png]
"""
import argparse
import json
import os
import subprocess
import sys

ANCHORS = [("BM_GemmF32Handle", "aclcpu"), ("BM_OpenBlasSgemm", "OpenBLAS"), ("BM_OneDnnSgemm", "oneDNN")]


def run_benchmarks(build):
    command = [os.path.join(build, "bench", "op_bench"), "--benchmark_filter=BM_(GemmF32Handle|OpenBlasSgemm|OneDnnSgemm)/",
               "--benchmark_format=json", "--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true"]
    result = subprocess.run(command, check=True, capture_output=True, text=True)
    start = result.stdout.index("{")  # op_bench prints the OpenBLAS kernel set first
    print(result.stdout[:start].strip(), file=sys.stderr)
    return json.loads(result.stdout[start:])


def gflops(report):
    """{implementation: {size: median GFLOP/s}}"""
    table = {}
    for entry in report["benchmarks"]:
        if entry.get("aggregate_name", "median") != "median":
            continue
        family, size = entry["name"].split("/")[:2]
        for prefix, label in ANCHORS:
            if family == prefix:
                table.setdefault(label, {})[int(size)] = entry["GFLOP/s"] / 1e9
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--json", help="read op_bench JSON output instead of running it")
    parser.add_argument("--png", default="docs/gemm-f32.png")
    args = parser.parse_args()
    report = json.load(open(args.json)) if args.json else run_benchmarks(args.build)
    table = gflops(report)
    sizes = sorted(table.get("aclcpu", {}))
    anchors = [label for _, label in ANCHORS[1:] if label in table]
    header = ["n (n³ fp32 GEMM, 1 thread)", "aclcpu GF/s"] + [f"{a} GF/s" for a in anchors] + [f"vs {a}" for a in anchors]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for n in sizes:
        ours = table["aclcpu"][n]
        cells = [str(n), f"{ours:.0f}"] + [f"{table[a][n]:.0f}" for a in anchors]
        cells += [f"{ours / table[a][n]:.2f}×" for a in anchors]
        print("| " + " | ".join(cells) + " |")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no matplotlib: install python3-matplotlib for the PNG)", file=sys.stderr)
        return
    labels = ["aclcpu"] + anchors
    width = 0.8 / len(labels)
    figure, axes = plt.subplots(figsize=(7, 3.5))
    for i, label in enumerate(labels):
        axes.bar([x + i * width for x in range(len(sizes))], [table[label][n] for n in sizes], width, label=label)
    axes.set_xticks([x + width * (len(labels) - 1) / 2 for x in range(len(sizes))], [f"{n}³" for n in sizes])
    axes.set_ylabel("GFLOP/s (1 thread)")
    axes.set_title("fp32 GEMM: aclcpu (through a handle) beside OpenBLAS and oneDNN")
    axes.set_ylim(0, 1.25 * max(max(values.values()) for values in table.values()))
    axes.legend(ncol=len(labels), loc="upper left")
    figure.tight_layout()
    figure.savefig(args.png, dpi=100)
    print(f"wrote {args.png}", file=sys.stderr)


if __name__ == "__main__":
    main()
