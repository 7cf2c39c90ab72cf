#!/usr/bin/python3
"""Runs (or reads) the operator benchmarks and prints one table of ratios per family, every
comparison made on one core:
  - fp32 GEMM through a handle beside OpenBLAS (AVX-512 kernels) and oneDNN's sgemm;
  - s8 x s8 -> s32 GEMM through a handle beside oneDNN's gemm_s8s8s32;
  - bf16 and f16 -> f32 GEMM through a handle beside oneDNN's bf16 matmul primitive;
  - fp32 GEMM at other shapes (odd sizes, few rows, transposes) beside OpenBLAS;
  - Add and Casts on 256 MiB beside memcpy of the same traffic and hand-written AVX-512 loops.
The comparisons are paired: each GEMM size or shape (and the element-wise set as a whole) runs
in rounds, one process per benchmark, ours and its anchors close together and their order
reversed every other round; a figure is the median over the rounds and a ratio the median of
the rounds' ratios, printed with their range.
With matplotlib, also writes a bar chart of the fp32 GEMM table (PNG).

Usage: scripts/bench-report.py [--build build] [--rounds 5] [--json op_bench.json]
                               [--save-json op_bench.json] [--elementwise-json e.json]
                               [--png docs/gemm-f32.png]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from collections import namedtuple

GEMM_F32 = [("BM_GemmF32Handle", "aclcpu"), ("BM_OpenBlasSgemm", "OpenBLAS"), ("BM_OneDnnSgemm", "oneDNN")]
GEMM_S8 = [("BM_GemmS8Handle", "aclcpu"), ("BM_OneDnnGemmS8", "oneDNN")]
# Both 16-bit types beside oneDNN's bf16 matmul (B pre-packed): oneDNN has no f16 GEMM on CPU.
GEMM_BF16 = [("BM_GemmBf16Handle", "aclcpu"), ("BM_OneDnnMatmulBf16", "oneDNN bf16")]
GEMM_F16 = [("BM_GemmF16Handle", "aclcpu"), ("BM_OneDnnMatmulBf16", "oneDNN bf16")]
# Traffic per element of each operator, to pick the memcpy of the same traffic.
CAST_TRAFFIC = {"f32->f16": 6, "f16->f32": 6, "f32->bf16": 6, "bf16->f32": 6, "f32->i32": 8, "i32->f32": 8}


PRINTED = set()  # what the benchmark programs said before their JSON, once each


def run(build, program, benchmark_filter):
    """One run of the benchmarks `benchmark_filter` selects (their JSON)."""
    command = [os.path.join(build, "bench", program), f"--benchmark_filter={benchmark_filter}", "--benchmark_format=json"]
    result = subprocess.run(command, check=True, capture_output=True, text=True)
    start = result.stdout.index("{")  # op_bench prints the OpenBLAS kernel set first
    preamble = result.stdout[:start].strip()
    if preamble and preamble not in PRINTED:
        print(preamble, file=sys.stderr)
        PRINTED.add(preamble)
    return json.loads(result.stdout[start:])


COUNTERS = ("GFLOP/s", "GOP/s", "GB/s")


def run_rounds(build, program, benchmark_filter, rounds, by_argument=True):
    """Runs each group of benchmarks that share arguments (one size or shape: ours and its
    anchors; with by_argument False, all of them) `rounds` times, one process per benchmark and
    round, the group's order reversed every other round, and returns one entry per benchmark
    whose counters are the medians over the rounds, with the rounds' values under "rounds".
    This VM's speed drifts by several percent within minutes (and moves between two levels for
    seconds at a time): compared round by round, both sides of a ratio ran close together,
    neither always first."""
    listing = subprocess.run([os.path.join(build, "bench", program), f"--benchmark_filter={benchmark_filter}",
                              "--benchmark_list_tests=true"], check=True, capture_output=True, text=True).stdout
    groups = {}
    for name in listing.split():
        if name.startswith("BM_"):
            groups.setdefault(name.partition("/")[2] if by_argument else "", []).append(name)
    report, merged = None, {}
    for names in groups.values():
        for round_index in range(rounds):
            for name in names if round_index % 2 == 0 else reversed(names):
                part = run(build, program, f"^{re.escape(name)}$")
                if report is None:
                    report = dict(part, benchmarks=[])
                for entry in part["benchmarks"]:
                    if entry["run_name"] not in merged:
                        merged[entry["run_name"]] = dict(entry, rounds={})
                        report["benchmarks"].append(merged[entry["run_name"]])
                    for counter in COUNTERS:
                        if counter in entry:
                            merged[entry["run_name"]]["rounds"].setdefault(counter, []).append(entry[counter])
    for entry in merged.values():
        for counter, values in entry["rounds"].items():
            entry[counter] = statistics.median(values)
    return report


# A median counter value (in G/s), the benchmark's label, and its values round by round (if any).
Measure = namedtuple("Measure", "value label rounds")


def measure(entry, counter):
    return Measure(entry[counter] / 1e9, entry.get("label", ""),
                   [v / 1e9 for v in entry.get("rounds", {}).get(counter, [])])


def medians(report, counter):
    """{(family, argument): Measure}"""
    values = {}
    for entry in report["benchmarks"]:
        if entry.get("aggregate_name", "median") != "median" or counter not in entry:
            continue
        family, argument = (entry["run_name"].split("/") + ["", ""])[:2]
        values[(family, argument)] = measure(entry, counter)
    return values


def ratio(ours, anchor):
    """ours / anchor: the median of the rounds' ratios with their range when both ran in rounds."""
    if ours.rounds and len(ours.rounds) == len(anchor.rounds):
        ratios = sorted(o / a for o, a in zip(ours.rounds, anchor.rounds))
        return f"{statistics.median(ratios):.2f}× ({ratios[0]:.2f}–{ratios[-1]:.2f})"
    return f"{ours.value / anchor.value:.2f}×"


def print_table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


def gemm_table(values, anchors, title, unit):
    """{implementation: {size: Measure}} for the anchors present, after printing the table."""
    table = {}
    for (family, size), value in values.items():
        for prefix, label in anchors:
            if family == prefix:
                table.setdefault(label, {})[int(size)] = value
    if "aclcpu" not in table:
        return table
    others = [label for _, label in anchors[1:] if label in table]
    rows = []
    for n in sorted(table["aclcpu"]):
        ours = table["aclcpu"][n]
        rows.append([str(n), f"{ours.value:.0f}"] + [f"{table[a][n].value:.0f}" for a in others] +
                    [ratio(ours, table[a][n]) for a in others])
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
        values.setdefault(key, {})[family] = measure(entry, "GFLOP/s")
    rows = [[shape, trans, f"{v['BM_GemmF32HandleShapes'].value:.0f}", f"{v['BM_OpenBlasSgemmShapes'].value:.0f}",
             ratio(v["BM_GemmF32HandleShapes"], v["BM_OpenBlasSgemmShapes"])]
            for (shape, trans), v in values.items() if len(v) == 2]
    if rows:
        print_table(["fp32 GEMM M×N×K, 1 thread", "op(A) op(B)", "aclcpu GF/s", "OpenBLAS GF/s", "vs OpenBLAS"],
                    rows)


def elementwise_table(values):
    ours = {m.label: m for (family, _), m in values.items() if family == "BM_CastHandle"}
    hand = {m.label: m for (family, _), m in values.items() if family == "BM_HandWrittenCast"}
    memcpy = {int(argument): m for (family, argument), m in values.items() if family == "BM_MemcpySameTraffic"}
    add = next((m for (family, _), m in values.items() if family == "BM_AddF32Handle"), None)
    rows = []
    for name, traffic in CAST_TRAFFIC.items():
        if name not in ours:
            continue
        copy = memcpy.get(traffic)
        rows.append([f"Cast {name}", f"{ours[name].value:.1f}", f"{copy.value:.1f}" if copy else "–",
                     f"{hand[name].value:.1f}" if name in hand else "–", ratio(ours[name], copy) if copy else "–",
                     ratio(ours[name], hand[name]) if name in hand else "–"])
    if add and 12 in memcpy:
        rows.append(["Add f32", f"{add.value:.1f}", f"{memcpy[12].value:.1f}", "–", ratio(add, memcpy[12]), "–"])
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
        axes.bar([x + i * width for x in range(len(sizes))], [table[label][n].value for n in sizes], width,
                 label=label)
    axes.set_xticks([x + width * (len(labels) - 1) / 2 for x in range(len(sizes))], [f"{n}³" for n in sizes])
    axes.set_ylabel("GFLOP/s (1 thread)")
    axes.set_title("fp32 GEMM: aclcpu (through a handle) beside OpenBLAS and oneDNN")
    axes.set_ylim(0, 1.25 * max(m.value for values in table.values() for m in values.values()))
    axes.legend(ncol=len(labels), loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    print(f"wrote {path}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each GEMM comparison")
    parser.add_argument("--json", help="read op_bench JSON output instead of running it")
    parser.add_argument("--save-json", help="write the GEMM rounds' merged JSON here (for --json)")
    parser.add_argument("--elementwise-json", help="read elementwise_bench JSON output instead of running it")
    parser.add_argument("--png", default="docs/gemm-f32.png")
    args = parser.parse_args()
    gemm = json.load(open(args.json)) if args.json else run_rounds(
        args.build, "op_bench", "BM_(GemmF32Handle|OpenBlasSgemm|OneDnnSgemm|GemmS8Handle|OneDnnGemmS8|GemmBf16Handle|GemmF16Handle|"
        "OneDnnMatmulBf16|GemmF32HandleShapes|OpenBlasSgemmShapes)/", args.rounds)
    if args.save_json:
        with open(args.save_json, "w") as out:
            json.dump(gemm, out, indent=1)
    elementwise = json.load(open(args.elementwise_json)) if args.elementwise_json else run_rounds(
        args.build, "elementwise_bench", ".", args.rounds, by_argument=False)
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
