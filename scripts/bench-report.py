#!/usr/bin/python3
"""Runs (or reads) the operator benchmarks and prints one table of ratios per family, every
comparison made on one core:
  - fp32 GEMM through a handle beside OpenBLAS (AVX-512 kernels) and oneDNN's sgemm;
  - s8 x s8 -> s32 GEMM through a handle beside oneDNN's gemm_s8s8s32;
  - bf16 and f16 -> f32 GEMM through a handle beside oneDNN's bf16 matmul primitive, f16 also in
    low precision (ACL_COMPUTE_LOW_PRECISION: its inputs rounded to bf16);
  - fp32 GEMM at other shapes (odd sizes, few rows, transposes) beside OpenBLAS and oneDNN's
    f32 matmul primitive (B pre-packed);
  - f32 and bf16 MatMul with B constant (aclSetTensorConst) beside oneDNN's matmul with B
    pre-packed;
  - Add and Casts on 256 MiB beside memcpy of the same traffic and hand-written loops (AVX-512,
    or AVX2 with F16C where the CPU lacks it);
  - a 1-element Add's dispatch through aclopExecuteV2 beside the handle path;
  - fp32 GEMM on every worker beside the same on one (a cube-core resource limit of 1), both in
    one process that may use every CPU: the thread scaling;
  - aclopCompile of a GEMM: cold, warm from the memory cache, and from the disk cache.
Each comparison runs side by side in one process (op_bench's BM_PairedGemm* and
BM_PairedAddDispatch, elementwise_bench's
BM_Paired*; bench/paired_runs.h): 15 rounds in which ours and each anchor run a batch of calls
(~20 ms, at least one call) in rotated order; a ratio is the median of the rounds' ratios. The
report runs each benchmark in --rounds separate processes and prints the median of the
processes' medians, with the lowest first and highest third quartile among them.
Each process but the thread scaling's is pinned to one CPU, the processes taking the CPUs this
one may use in turn: ours
and the anchors then run on the same core (with one usable core our launches run on the
calling thread, as the anchors do). Unpinned, ours ran on a worker thread on whichever CPU it
got and the anchors on the main thread's, and on a VM whose CPUs differ (one sharing its core
with a busy neighbour) a ratio measured two CPUs.
With matplotlib, also writes a bar chart of the fp32 GEMM table (PNG).

Usage: scripts/bench-report.py [--build build] [--rounds 3] [--json saved.json]
                               [--save-json saved.json] [--png docs/gemm-f32.png]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

# The paired GEMM families: (benchmark, table title, counter unit, unit as printed).
GEMM_FAMILIES = [("BM_PairedGemmF32", "n³ fp32 GEMM", "GFLOP/s", "GF/s"),
                 ("BM_PairedGemmS8", "n³ s8 GEMM", "GOP/s", "GOP/s"),
                 # Both 16-bit types beside oneDNN's bf16 matmul: oneDNN has no f16 GEMM on CPU.
                 ("BM_PairedGemmBf16", "n³ bf16 GEMM", "GFLOP/s", "GF/s"),
                 ("BM_PairedGemmF16", "n³ f16 GEMM", "GFLOP/s", "GF/s"),
                 ("BM_PairedGemmF16Low", "n³ f16 GEMM, low precision", "GFLOP/s", "GF/s")]
GEMM_SHAPES = "BM_PairedGemmF32Shapes"
GEMM_CONST_B = "BM_PairedGemmConstB"
GEMM_BF16_SHAPES = "BM_PairedGemmBf16Shapes"
GEMM_THREADS = "BM_PairedGemmF32Threads"
DISPATCH = "BM_PairedAddDispatch"
# aclopCompile of a GEMM (op_bench's BM_CompileGemm*) and the bound on each, in ms.
COMPILES = [("BM_CompileGemm/1/real_time", "cold", 150.0), ("BM_CompileGemm/0/real_time", "warm (memory cache)", 0.02),
            ("BM_CompileGemmFromDiskCache/iterations:20", "warm (disk cache, new runtime)", 5.0)]


# The environment for the benchmarks: this machine's sets OPENBLAS_CORETYPE (forcing OpenBLAS
# onto its AVX2 kernels) and OPENBLAS_L2_SIZE; the anchors run on the kernels OpenBLAS picks for
# the CPU (op_bench prints which).
OPENBLAS_DEFAULTS = {key: value for key, value in os.environ.items()
                     if key not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}

PRINTED = set()  # what the benchmark programs said before their JSON, once each


def run(build, program, benchmark_filter, cpus):
    """One run of the benchmarks `benchmark_filter` selects (their JSON), on the CPUs `cpus`."""
    command = [os.path.join(build, "bench", program), f"--benchmark_filter={benchmark_filter}", "--benchmark_format=json"]
    result = subprocess.run(command, check=True, capture_output=True, text=True, env=OPENBLAS_DEFAULTS,
                            preexec_fn=lambda: os.sched_setaffinity(0, cpus))
    start = result.stdout.index("{")  # op_bench prints the OpenBLAS kernel set first
    preamble = result.stdout[:start].strip()
    if preamble and preamble not in PRINTED:
        print(preamble, file=sys.stderr)
        PRINTED.add(preamble)
    return json.loads(result.stdout[start:])


def run_processes(build, program, benchmark_filter, processes, pinned=True):
    """The benchmarks `benchmark_filter` selects, run in `processes` separate processes, each
    pinned to the next of this process's CPUs (or, not `pinned`, on all of them): a list of their
    JSON reports."""
    cpus = sorted(os.sched_getaffinity(0))
    return [run(build, program, benchmark_filter, {cpus[i % len(cpus)]} if pinned else set(cpus))
            for i in range(processes)]


SKIPPED = {}  # run_name: why, for the benchmarks that could not run here (printed at the end)


def paired(reports):
    """{run_name: [entry per process]} of the paired benchmarks in `reports`. Those that could not
    run on this host (an anchor without the CPU's features: oneDNN's bf16 matmul without
    AVX-512, say) are left out and listed in SKIPPED."""
    entries = {}
    for report in reports:
        for entry in report["benchmarks"]:
            if entry.get("error_occurred"):
                SKIPPED[entry["run_name"]] = entry.get("error_message", "")
                continue
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


def paired_gemm_table(entries_by_name, family, title, unit, shown_unit, threads="1 thread"):
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
    print_table([f"n ({title}, {threads})", f"aclcpu {shown_unit}"] + [f"{a} {shown_unit}" for a in anchors] +
                [f"vs {a}" for a in anchors], rows)
    return table


def paired_shapes_table(entries_by_name):
    """The fp32 GEMM shapes beside OpenBLAS (and oneDNN's matmul, where it ran)."""
    rows, anchors = [], []
    for run_name, entries in entries_by_name.items():
        name, *arguments = run_name.split("/")
        if name != GEMM_SHAPES:
            continue
        anchors = anchors or anchors_of(entries, "GFLOP/s")
        shape = dict(argument.split(":") for argument in arguments if ":" in argument)
        rows.append([f"{shape['m']}x{shape['n']}x{shape['k']}", "NT"[int(shape["ta"])] + "NT"[int(shape["tb"])],
                     f"{paired_rate(entries, 'aclcpu', 'GFLOP/s'):.0f}"] +
                    [f"{paired_rate(entries, a, 'GFLOP/s'):.0f}" for a in anchors] +
                    [paired_ratio(entries, a) for a in anchors])
    if rows:
        print_table(["fp32 GEMM M×N×K, 1 thread", "op(A) op(B)", "aclcpu GF/s"] + [f"{a} GF/s" for a in anchors] +
                    [f"vs {a}" for a in anchors], rows)


def const_b_table(entries_by_name, family=GEMM_CONST_B, title="B constant"):
    """Ours with B constant (aclSetTensorConst), or as `family` passes it, beside oneDNN's matmul
    with B pre-packed."""
    rows = []
    for run_name, entries in entries_by_name.items():
        name, *arguments = run_name.split("/")
        if name != family:
            continue
        shape = dict(argument.split(":") for argument in arguments if ":" in argument)
        rows.append([f"{shape['m']}x{shape['n']}x{shape['k']}", "bf16" if int(shape["bf16"]) else "f32",
                     f"{paired_rate(entries, 'aclcpu', 'GFLOP/s'):.0f}",
                     f"{paired_rate(entries, 'oneDNN', 'GFLOP/s'):.0f}", paired_ratio(entries, "oneDNN")])
    if rows:
        print_table([f"{title}, M×N×K, 1 thread", "dtype", "aclcpu GF/s", "oneDNN (B pre-packed) GF/s",
                     "vs oneDNN"], rows)


def dispatch_table(entries_by_name):
    """A 1-element Add's enqueue + synchronize through aclopExecuteV2 and through a handle, side
    by side (the target is their ratio): ns a call, and ExecuteV2's time over the handle's."""
    entries = next((entries for run_name, entries in entries_by_name.items()
                    if run_name.partition("/")[0] == DISPATCH), None)
    if not entries:
        return
    execute, handle = (paired_rate(entries, name, "M calls/s") for name in ("ExecuteV2", "handle"))
    # The entries' ratios are of rates (ExecuteV2's over the handle's): inverted, a process's
    # third quartile gives the low end of its time ratio, its first the high end.
    ratios = [entry["vs handle"] for entry in entries]
    low = 1 / max(entry["vs handle q3"] for entry in entries)
    high = 1 / min(entry["vs handle q1"] for entry in entries)
    print_table(["1-element Add, enqueue + synchronize", "handle ns", "aclopExecuteV2 ns", "ExecuteV2 / handle"],
                [["1 thread", f"{1e3 / handle:.0f}", f"{1e3 / execute:.0f}",
                  f"{1 / statistics.median(ratios):.2f}× ({low:.2f}–{high:.2f})"]])


def threads_table(entries_by_name):
    """fp32 GEMM on every worker beside the same on one, side by side in one process (the
    thread count is the benchmark's "threads" counter)."""
    workers = sorted({int(entry["threads"]) for run_name, entries in entries_by_name.items()
                      if run_name.startswith(GEMM_THREADS + "/") for entry in entries})
    if workers:
        paired_gemm_table(entries_by_name, GEMM_THREADS, "n³ fp32 GEMM, one process on every CPU", "GFLOP/s", "GF/s",
                          threads="/".join(map(str, workers)) + " threads")


def compile_table(reports):
    """aclopCompile of a GEMM: the median over the processes against the issue's bound."""
    times = {}
    for report in reports:
        for entry in report["benchmarks"]:
            scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[entry["time_unit"]]
            times.setdefault(entry["run_name"], []).append(entry["real_time"] * scale)
    rows = []
    for run_name, title, bound in COMPILES:
        if run_name in times:
            ms = statistics.median(times[run_name])
            shown = f"{ms:.1f} ms" if ms >= 1 else f"{ms * 1e3:.1f} µs" if ms < 0.1 else f"{ms:.2f} ms"
            rows.append([title, shown, f"≤ {bound:g} ms" if bound >= 1 else f"≤ {bound * 1e3:g} µs"])
    if rows:
        print_table(["aclopCompile of a GEMM, 1 thread", "median", "target"], rows)


def print_table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


def elementwise_table(entries_by_name):
    """Add and the Casts beside memcpy of the same traffic and the hand-written loops."""
    rows = []
    for run_name, entries in entries_by_name.items():
        name = run_name.partition("/")[0]
        if name not in ("BM_PairedCast", "BM_PairedAdd"):
            continue
        title = f"Cast {entries[0]['label']}" if name == "BM_PairedCast" else "Add f32"
        hand = paired_rate(entries, "hand-written", "GB/s")
        rows.append([title, f"{paired_rate(entries, 'aclcpu', 'GB/s'):.1f}",
                     f"{paired_rate(entries, 'memcpy', 'GB/s'):.1f}", f"{hand:.1f}" if hand else "–",
                     paired_ratio(entries, "memcpy"), paired_ratio(entries, "hand-written")])
    if rows:
        print_table(["256 MiB, 1 thread (GB/s of traffic)", "aclcpu", "memcpy", "hand-written loop",
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
    parser.add_argument("--rounds", type=int, default=3, help="processes each paired benchmark runs in")
    parser.add_argument("--json", help="read what --save-json wrote instead of running the benchmarks")
    parser.add_argument("--save-json", help="write every process's JSON output here (for --json)")
    parser.add_argument("--png", default="docs/gemm-f32.png")
    args = parser.parse_args()
    saved = json.load(open(args.json)) if args.json else {
        # Pinned: every paired GEMM but the thread scaling's (which needs every CPU).
        "gemm": run_processes(args.build, "op_bench", "BM_Paired(Gemm(F32/|F32Shapes|S8|Bf16|F16|ConstB)|AddDispatch)",
                              args.rounds),
        "elementwise": run_processes(args.build, "elementwise_bench", "BM_Paired", args.rounds),
        "threads": run_processes(args.build, "op_bench", GEMM_THREADS, args.rounds, pinned=False),
        "compile": run_processes(args.build, "op_bench", "BM_CompileGemm", args.rounds)}
    if args.save_json:
        with open(args.save_json, "w") as out:
            json.dump(saved, out, indent=1)
    entries = paired(saved["gemm"])
    tables = {family: paired_gemm_table(entries, family, title, unit, shown)
              for family, title, unit, shown in GEMM_FAMILIES}
    paired_shapes_table(entries)
    const_b_table(entries)
    const_b_table(entries, GEMM_BF16_SHAPES, "B in every call")
    elementwise_table(paired(saved["elementwise"]))
    dispatch_table(entries)
    threads_table(paired(saved.get("threads", [])))
    compile_table(saved.get("compile", []))
    families = {}
    for run_name, why in SKIPPED.items():
        families.setdefault((run_name.partition("/")[0], why), []).append(run_name)
    for (family, why), names in sorted(families.items()):
        print(f"not run here: {family}, {len(names)} benchmarks ({why})")
    if tables["BM_PairedGemmF32"]:
        plot(tables["BM_PairedGemmF32"], args.png)


if __name__ == "__main__":
    main()
