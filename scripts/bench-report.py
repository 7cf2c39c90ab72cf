#!/usr/bin/python3
"""Runs (or reads) the operator benchmarks and prints one table of ratios per family, every
comparison made on one core:
  - fp32 GEMM through a handle beside OpenBLAS (AVX-512 kernels) and oneDNN's sgemm;
  - s8 x s8 -> s32 GEMM through a handle beside oneDNN's gemm_s8s8s32;
  - bf16 and f16 -> f32 GEMM through a handle beside oneDNN's bf16 matmul primitive;
  - fp32 GEMM at other shapes (odd sizes, few rows, transposes) beside OpenBLAS;
  - Add and Casts on 256 MiB beside memcpy of the same traffic and hand-written AVX-512 loops.
GEMMs are measured side by side in one process (op_bench's BM_PairedGemm*, bench/paired_runs.h):
15 rounds in which ours and each anchor run ~20 ms batches, in rotated order. A ratio is the
median of the rounds' ratios; the report runs that --rounds times, in separate processes, and
prints the median of the processes' medians with the widest quartiles among them. The
element-wise set runs in paired rounds of separate processes, ours and its anchors close
together and their order reversed every other round (a figure is the median over the rounds,
a ratio the median of the rounds' ratios, with their range).
With matplotlib, also writes a bar chart of the fp32 GEMM table (PNG).

Usage: scripts/bench-report.py [--build build] [--rounds 3] [--elementwise-rounds 5]
                               [--json op_bench.json] [--save-json op_bench.json]
                               [--elementwise-json e.json] [--png docs/gemm-f32.png]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from collections import namedtuple

# The paired GEMM families: (benchmark, table title, counter unit, unit as printed).
GEMM_FAMILIES = [("BM_PairedGemmF32", "n³ fp32 GEMM", "GFLOP/s", "GF/s"),
                 ("BM_PairedGemmS8", "n³ s8 GEMM", "GOP/s", "GOP/s"),
                 # Both 16-bit types beside oneDNN's bf16 matmul: oneDNN has no f16 GEMM on CPU.
                 ("BM_PairedGemmBf16", "n³ bf16 GEMM", "GFLOP/s", "GF/s"),
                 ("BM_PairedGemmF16", "n³ f16 GEMM", "GFLOP/s", "GF/s")]
GEMM_SHAPES = "BM_PairedGemmF32Shapes"
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


def run_rounds(build, program, benchmark_filter, rounds):
    """Runs the benchmarks `benchmark_filter` selects `rounds` times, one process per benchmark
    and round, their order reversed every other round, and returns one entry per benchmark
    whose counters are the medians over the rounds, with the rounds' values under "rounds".
    This VM's speed drifts by several percent within minutes (and moves between two levels for
    seconds at a time): compared round by round, both sides of a ratio ran close together,
    neither always first."""
    listing = subprocess.run([os.path.join(build, "bench", program), f"--benchmark_filter={benchmark_filter}",
                              "--benchmark_list_tests=true"], check=True, capture_output=True, text=True).stdout
    groups = {"": [name for name in listing.split() if name.startswith("BM_")]}
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


def run_processes(build, program, benchmark_filter, processes):
    """The benchmarks `benchmark_filter` selects, run in `processes` separate processes: a
    list of their JSON reports."""
    return [run(build, program, benchmark_filter) for _ in range(processes)]


def paired(reports):
    """{run_name: [entry per process]} of the paired benchmarks in `reports`."""
    entries = {}
    for report in reports:
        for entry in report["benchmarks"]:
            entries.setdefault(entry["run_name"], []).append(entry)
    return entries


def paired_rate(entries, name, unit):
    """A contender's median rate over the processes (in G/s), or None if it did not run."""
    values = [entry[f"{name} {unit}"] for entry in entries if f"{name} {unit}" in entry]
    return statistics.median(values) if values else None


def paired_ratio(entries, anchor):
    """Ours over `anchor`: the median of the processes' median ratios, with the lowest first
    and highest third quartile among them."""
    key = f"vs {anchor}"
    medians_ = [entry[key] for entry in entries if key in entry]
    if not medians_:
        return "–"
    low = min(entry[key + " q1"] for entry in entries if key in entry)
    high = max(entry[key + " q3"] for entry in entries if key in entry)
    return f"{statistics.median(medians_):.2f}× ({low:.2f}–{high:.2f})"


def anchors_of(entries, unit):
    """The anchors of a paired benchmark, in the order it ran them (ours is "aclcpu")."""
    names = [key[:-len(unit) - 1] for key in entries[0] if key.endswith(" " + unit)]
    return [name for name in names if name != "aclcpu"]


def paired_gemm_table(entries_by_name, family, title, unit, shown_unit):
    """Prints the family's table; returns {implementation: {size: rate}} for the plot."""
    sizes = {}
    for run_name, entries in entries_by_name.items():
        name, _, argument = run_name.partition("/")
        if name == family:
            sizes[int(argument.partition("/")[0])] = entries
    if not sizes:
        return {}
    anchors = anchors_of(next(iter(sizes.values())), unit)
    table, rows = {}, []
    for n in sorted(sizes):
        entries = sizes[n]
        for label in ["aclcpu"] + anchors:
            table.setdefault(label, {})[n] = paired_rate(entries, label, unit)
        rows.append([str(n), f"{table['aclcpu'][n]:.0f}"] + [f"{table[a][n]:.0f}" for a in anchors] +
                    [paired_ratio(entries, a) for a in anchors])
    print_table([f"n ({title}, 1 thread)", f"aclcpu {shown_unit}"] + [f"{a} {shown_unit}" for a in anchors] +
                [f"vs {a}" for a in anchors], rows)
    return table


def paired_shapes_table(entries_by_name):
    """The fp32 GEMM shapes beside OpenBLAS."""
    rows = []
    for run_name, entries in entries_by_name.items():
        name, *arguments = run_name.split("/")
        if name != GEMM_SHAPES:
            continue
        shape = dict(argument.split(":") for argument in arguments if ":" in argument)
        rows.append([f"{shape['m']}x{shape['n']}x{shape['k']}", "NT"[int(shape["ta"])] + "NT"[int(shape["tb"])],
                     f"{paired_rate(entries, 'aclcpu', 'GFLOP/s'):.0f}",
                     f"{paired_rate(entries, 'OpenBLAS', 'GFLOP/s'):.0f}", paired_ratio(entries, "OpenBLAS")])
    if rows:
        print_table(["fp32 GEMM M×N×K, 1 thread", "op(A) op(B)", "aclcpu GF/s", "OpenBLAS GF/s", "vs OpenBLAS"],
                    rows)


def print_table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


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
    labels = list(table)  # aclcpu first
    width = 0.8 / len(labels)
    figure, axes = plt.subplots(figsize=(7, 3.5))
    for i, label in enumerate(labels):
        axes.bar([x + i * width for x in range(len(sizes))], [table[label][n] for n in sizes], width,
                 label=label)
    axes.set_xticks([x + width * (len(labels) - 1) / 2 for x in range(len(sizes))], [f"{n}³" for n in sizes])
    axes.set_ylabel("GFLOP/s (1 thread)")
    axes.set_title("fp32 GEMM: aclcpu (through a handle) beside OpenBLAS and oneDNN")
    axes.set_ylim(0, 1.25 * max(rate for values in table.values() for rate in values.values()))
    axes.legend(ncol=len(labels), loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    print(f"wrote {path}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--rounds", type=int, default=3, help="processes of the paired GEMM benchmarks")
    parser.add_argument("--elementwise-rounds", type=int, default=5, help="rounds of the element-wise benchmarks")
    parser.add_argument("--json", help="read the paired GEMM JSON (--save-json) instead of running op_bench")
    parser.add_argument("--save-json", help="write the paired GEMM processes' JSON here (for --json)")
    parser.add_argument("--elementwise-json", help="read elementwise_bench JSON output instead of running it")
    parser.add_argument("--png", default="docs/gemm-f32.png")
    args = parser.parse_args()
    reports = json.load(open(args.json))["processes"] if args.json else run_processes(
        args.build, "op_bench", "BM_PairedGemm", args.rounds)
    if args.save_json:
        with open(args.save_json, "w") as out:
            json.dump({"processes": reports}, out, indent=1)
    elementwise = json.load(open(args.elementwise_json)) if args.elementwise_json else run_rounds(
        args.build, "elementwise_bench", ".", args.elementwise_rounds)
    entries = paired(reports)
    tables = {family: paired_gemm_table(entries, family, title, unit, shown)
              for family, title, unit, shown in GEMM_FAMILIES}
    paired_shapes_table(entries)
    elementwise_table(medians(elementwise, "GB/s"))
    if tables["BM_PairedGemmF32"]:
        plot(tables["BM_PairedGemmF32"], args.png)


if __name__ == "__main__":
    main()
