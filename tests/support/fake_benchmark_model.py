"""Stands in for TFLite's ``benchmark_model`` binary on the emulated phone.

It really runs the model with ai-edge-litert and prints the native tool's log format (stat lines
``count= first= curr= min= max= avg= std= p5= median= p95=`` in microseconds, then ``Inference
timings in us: Init: ..., First inference: ..., Warmup (avg): ..., Inference (avg): ...`` and a
memory line), so deploy's parser is tested against that format with real measurements.
Installed on the device by tests as a script whose first line points at this venv's python.
"""

import resource
import statistics
import sys
import time

import numpy as np


def _flags(argv):
    flags = {}
    for arg in argv:
        key, _, value = arg.lstrip("-").partition("=")
        flags[key] = value
    return flags


def _stat_line(samples_us):
    ordered = sorted(samples_us)

    def pct(q):
        return ordered[min(len(ordered) - 1, int(q / 100.0 * len(ordered)))]

    return (
        f"INFO: count={len(samples_us)} first={samples_us[0]} curr={samples_us[-1]} min={ordered[0]} "
        f"max={ordered[-1]} avg={statistics.fmean(samples_us):g} std={int(statistics.pstdev(samples_us))} "
        f"p5={pct(5)} median={pct(50)} p95={pct(95)}"
    )


def main():
    flags = _flags(sys.argv[1:])
    graph = flags.get("graph", "")
    runs, warmup = int(flags.get("num_runs", 50)), int(flags.get("warmup_runs", 1))
    threads = int(flags.get("num_threads", -1))
    print("INFO: STARTING!")
    print(f"INFO: Graph: [{graph}]")
    print(f"INFO: #threads used for CPU inference: [{threads}]")
    from ai_edge_litert.interpreter import Interpreter

    start = time.perf_counter()
    try:
        interpreter = Interpreter(model_path=graph, num_threads=threads if threads > 0 else None)
        interpreter.allocate_tensors()
    except (ValueError, RuntimeError) as exc:
        print(f"ERROR: Failed to load model {graph}: {exc}")
        sys.exit(1)
    init_us = int((time.perf_counter() - start) * 1e6)
    print(f"INFO: Initialized session in {init_us / 1000:g}ms.")
    rng = np.random.default_rng(0)
    for detail in interpreter.get_input_details():
        interpreter.set_tensor(detail["index"], rng.standard_normal(detail["shape"]).astype(detail["dtype"]))

    def timed(count):
        out = []
        for _ in range(count):
            t0 = time.perf_counter()
            interpreter.invoke()
            out.append(int((time.perf_counter() - t0) * 1e6))
        return out

    print(f"INFO: Running benchmark for at least {warmup} iterations and at least 0 seconds")
    warm = timed(warmup)
    print(_stat_line(warm))
    print(f"INFO: Running benchmark for at least {runs} iterations and at least 0 seconds")
    measured = timed(runs)
    print(_stat_line(measured))
    print(
        f"INFO: Inference timings in us: Init: {init_us}, First inference: {warm[0]}, "
        f"Warmup (avg): {statistics.fmean(warm):g}, Inference (avg): {statistics.fmean(measured):g}"
    )
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(
        "INFO: Note: as the benchmark tool itself affects memory footprint, the following is only APPROXIMATE"
    )
    print(f"INFO: Peak memory footprint (MB): init={peak_mb:g} overall={peak_mb:g}")


if __name__ == "__main__":
    main()
