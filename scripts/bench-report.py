#!/usr/bin/python3
"""Runs (or reads) the operator benchmarks and prints one table of ratios per family, each
figure a median of 3 and every comparison made within one process on one core:
  - fp32 GEMM through a handle beside OpenBLAS (AVX-512 kernels) and oneDNN's sgemm;
  - s8 x s8 -> s32 GEMM through a handle beside oneDNN's gemm_s8s8s32;
  - bf16 and f16 -> f32 GEMM through a handle beside oneDNN's bf16 matmul primitive;
  - fp32 GEMM at other shapes (odd sizes, few rows, transposes) beside OpenBLAS;
  - Add and Casts on 256 MiB beside memcpy of the same traffic and hand-written AVX-512 loops.
The GEMM comparisons run one size or shape at a time (ours and its anchors back to back).
With matplotlib, also writes a bar chart of the fp32 GEMM table (PNG).

Usage: scripts/bench-report.py [--build build] [--json op_bench.json] [--elementwise-json e.json]
                               [--png docs/gemm-f32.png]
"""
import argparse
import json
import os
import re
import subprocess
import sys

GEMM_F32 = [("BM_GemmF32Handle", "aclcpu"), ("BM_OpenBlasSgemm", "OpenBLAS"), ("BM_OneDnnSgemm", "oneDNN")]
GEMM_S8 = [("BM_GemmS8Handle", "aclcpu"), ("BM_OneDnnGemmS8", "oneDNN")]
# Both 16-bit types beside oneDNN's bf16 matmul (B pre-packed): oneDNN has no f16 GEMM on CPU.
GEMM_BF16 = [("BM_GemmBf16Handle", "aclcpu"), ("BM_OneDnnMatmulBf16", "oneDNN bf16")]
GEMM_F16 = [("BM_GemmF16Handle", "aclcpu"), ("BM_OneDnnMatmulBf16", "oneDNN bf16")]
# Traffic per element of each operator, to pick the memcpy of the same traffic.
CAST_TRAFFIC = {"f32->f16": 6, "f16->f32": 6, "f32->bf16": 6, "bf16->f32": 6, "f32->i32": 8, "i32->f32": 8}


PRINTED = set()  # what the benchmark programs said before their JSON, once each


def run(build, program, benchmark_filter):
    command = [os.path.join(build, "bench", program), f"--benchmark_filter={benchmark_filter}",
               "--benchmark_format=json", "--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true"]
    result = subprocess.run(command, check=True, capture_output=True, text=True)
    start = result.stdout.index("{")  # op_bench prints the OpenBLAS kernel set first
    preamble = result.stdout[:start].strip()
    if preamble and preamble not in PRINTED:
        print(preamble, file=sys.stderr)
        PRINTED.add(preamble)
    return json.loads(result.stdout[start:])


def run_grouped(build, program, benchmark_filter):
    """Like run, but each group of benchmarks that share arguments (one size, one shape: ours and
    its anchors) runs in a process of its own, group after group. Run all at once, every
    benchmark of ours ran minutes before the anchors', and this VM's speed drifts by several
    percent within minutes."""
    listing = subprocess.run([os.path.join(build, "bench", program), f"--benchmark_filter={benchmark_filter}",
                              "--benchmark_list_tests=true"], check=True, capture_output=True, text=True).stdout
    groups = {}
    for name in listing.split():
        if name.startswith("BM_"):
            groups.setdefault(name.partition("/")[2], []).append(name)
    report = None
    for names in groups.values():
        part = run(build, program, "^(" + "|".join(re.escape(name) for name in names) + ")$")
        if report is None:
            report = part
        else:
            report["benchmarks"] += part["benchmarks"]
    return report


def medians(report, counter):
    """{(family, argument): (median counter value, label)}"""
    values = {}
    for entry in report["benchmarks"]:
        if entry.get("aggregate_name", "median") != "median" or counter not in entry:
            continue
        family, argument = (entry["run_name"].split("/") + ["", ""])[:2]
        values[(family, argument)] = (entry[counter] / 1e9, entry.get("label", ""))
    return values


def print_table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


def gemm_table(values, anchors, title, unit):
    """{implementation: {size: value}} for the anchors present, after printing the table."""
    table = {}
    for (family, size), (value, _) in values.items():
        for prefix, label in anchors:
            if family == prefix:
                table.setdefault(label, {})[int(size)] = value
    if "aclcpu" not in table:
        return table
    others = [label for _, label in anchors[1:] if label in table]
    rows = []
    for n in sorted(table["aclcpu"]):
        ours = table["aclcpu"][n]
        rows.append([str(n), f"{ours:.0f}"] + [f"{table[a][n]:.0f}" for a in others] +
                    [f"{ours / table[a][n]:.2f}×" for a in others])
    print_table([f"n ({title}, 1 thread)", f"aclcpu {unit}"] + [f"{a} {unit}" for a in others] +
                [f"vs {a}" for a in others], rows)
    return table


def shapes_table(report):
    """The fp32 GEMM shapes of BM_GemmF32HandleShapes beside OpenBLAS (median GFLOP/s)."""
    values = {}
    for entry in report["benchmarks"]:
        if entry.get("aggregate_name", "median") != "median" or "GFLOP/s" not in entry:
            continue
        family, *arguments = entry["run_name"].split("/")
        if family not in ("BM_GemmF32HandleShapes", "BM_OpenBlasSgemmShapes"):
            continue
        shape = dict(argument.split(":") for argument in arguments if ":" in argument)
        key = (f"{shape['m']}x{shape['n']}x{shape['k']}", "NT"[int(shape["ta"])] + "NT"[int(shape["tb"])])
        values.setdefault(key, {})[family] = entry["GFLOP/s"] / 1e9
    rows = [[shape, trans, f"{v['BM_GemmF32HandleShapes']:.0f}", f"{v['BM_OpenBlasSgemmShapes']:.0f}",
             f"{v['BM_GemmF32HandleShapes'] / v['BM_OpenBlasSgemmShapes']:.2f}×"]
            for (shape, trans), v in values.items() if len(v) == 2]
    if rows:
        print_table(["fp32 GEMM M×N×K, 1 thread", "op(A) op(B)", "aclcpu GF/s", "OpenBLAS GF/s", "vs OpenBLAS"],
                    rows)


def elementwise_table(values):
    ours = {label: value for (family, _), (value, label) in values.items() if family == "BM_CastHandle"}
    hand = {label: value for (family, _), (value, label) in values.items() if family == "BM_HandWrittenCast"}
    memcpy = {int(argument): value for (family, argument), (value, _) in values.items()
              if family == "BM_MemcpySameTraffic"}
    add = values.get(("BM_AddF32Handle", "real_time"), values.get(("BM_AddF32Handle", ""), (None, "")))[0]
    rows = []
    for name, traffic in CAST_TRAFFIC.items():
        if name not in ours:
            continue
        copy = memcpy.get(traffic)
        rows.append([f"Cast {name}", f"{ours[name]:.1f}", f"{copy:.1f}" if copy else "–",
                     f"{hand[name]:.1f}" if name in hand else "–",
                     f"{ours[name] / copy:.2f}×" if copy else "–",
                     f"{ours[name] / hand[name]:.2f}×" if name in hand else "–"])
    if add and 12 in memcpy:
        rows.append(["Add f32", f"{add:.1f}", f"{memcpy[12]:.1f}", "–", f"{add / memcpy[12]:.2f}×", "–"])
    print_table(["256 MiB, 1 thread (GB/s of traffic)", "aclcpu", "memcpy", "hand-written AVX-512",
                 "vs memcpy", "vs hand-written"], rows)


def plot(table, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no matplotlib: install python3-matplotlib for the PNG)", file=sys.stderr)
        return
    sizes = sorted(table["aclcpu"])
    labels = ["aclcpu"] + [label for _, label in GEMM_F32[1:] if label in table]
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
    figure.savefig(path, dpi=100)
    print(f"wrote {path}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--json", help="read op_bench JSON output instead of running it")
    parser.add_argument("--elementwise-json", help="read elementwise_bench JSON output instead of running it")
    parser.add_argument("--png", default="docs/gemm-f32.png")
    args = parser.parse_args()
    gemm = json.load(open(args.json)) if args.json else run_grouped(
        args.build, "op_bench", "BM_(GemmF32Handle|OpenBlasSgemm|OneDnnSgemm|GemmS8Handle|OneDnnGemmS8|GemmBf16Handle|GemmF16Handle|"
        "OneDnnMatmulBf16|GemmF32HandleShapes|OpenBlasSgemmShapes)/")
    elementwise = json.load(open(args.elementwise_json)) if args.elementwise_json else run(
        args.build, "elementwise_bench", ".")
    f32 = gemm_table(medians(gemm, "GFLOP/s"), GEMM_F32, "n³ fp32 GEMM", "GF/s")
    gemm_table(medians(gemm, "GOP/s"), GEMM_S8, "n³ s8 GEMM", "GOP/s")
    gemm_table(medians(gemm, "GFLOP/s"), GEMM_BF16, "n³ bf16 GEMM", "GF/s")
    gemm_table(medians(gemm, "GFLOP/s"), GEMM_F16, "n³ f16 GEMM", "GF/s")
    shapes_table(gemm)
    elementwise_table(medians(elementwise, "GB/s"))
    if "aclcpu" in f32:
        plot(f32, args.png)


if __name__ == "__main__":
    main()
