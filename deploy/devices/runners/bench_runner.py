"""Device-side benchmark runner for boards with python3 and onnxruntime or ai-edge-litert (or tflite_runtime).

Pushed next to the model by deploy's adb harness and run there; it imports nothing from deploy.
Prints one line ``__deploy_result__ {json}`` with init_ms (load + allocate), first_ms, the raw
per-run samples (warm-up excluded) and this process's peak RSS. Exit 3 if no runtime can load
the model, 4 if the model fails to run.
"""

import argparse
import json
import resource
import sys
import time

import numpy as np

_ORT_TYPES = {
    "tensor(float)": np.float32,
    "tensor(float16)": np.float16,
    "tensor(double)": np.float64,
    "tensor(int64)": np.int64,
    "tensor(int32)": np.int32,
    "tensor(int8)": np.int8,
    "tensor(uint8)": np.uint8,
    "tensor(bool)": np.bool_,
}


def random_array(shape, dtype, rng):
    shape = tuple(d if isinstance(d, int) and d > 0 else 1 for d in shape)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) > 0.5
    if np.issubdtype(dtype, np.integer):
        return rng.integers(0, 10, size=shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def load_onnx(path, threads):
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.log_severity_level = 3
    if threads:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
    session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    specs = [(i.name, i.shape, _ORT_TYPES.get(i.type, np.float32)) for i in session.get_inputs()]

    def run(feed):
        return session.run(names, dict(zip([s[0] for s in specs], feed)))

    return "onnxruntime", ort.__version__, specs, run


def load_tflite(path, threads):
    try:
        from ai_edge_litert.interpreter import Interpreter

        runtime = "ai-edge-litert"
    except ImportError:
        from tflite_runtime.interpreter import Interpreter

        runtime = "tflite_runtime"
    interpreter = Interpreter(model_path=path, num_threads=threads or None)
    details = interpreter.get_input_details()
    for detail in details:  # a dynamic dim (-1 in shape_signature) runs at size 1
        signature = [int(d) for d in detail.get("shape_signature", detail["shape"])]
        if any(d < 0 for d in signature):
            interpreter.resize_tensor_input(detail["index"], [d if d > 0 else 1 for d in signature])
    interpreter.allocate_tensors()
    details = interpreter.get_input_details()
    specs = [(d["name"], [int(x) for x in d["shape"]], d["dtype"]) for d in details]
    outputs = interpreter.get_output_details()

    def run(feed):
        for detail, value in zip(details, feed):
            interpreter.set_tensor(detail["index"], value)
        interpreter.invoke()
        return [interpreter.get_tensor(o["index"]) for o in outputs]

    return runtime, "", specs, run


def measure(args):
    start = time.perf_counter()
    loader = load_onnx if args.model.endswith(".onnx") else load_tflite
    try:
        runtime, version, specs, run = loader(args.model, args.threads)
    except ImportError as exc:
        print(f"no runtime for {args.model} on this device: {exc}", file=sys.stderr)
        sys.exit(3)
    init_ms = (time.perf_counter() - start) * 1e3
    rng = np.random.default_rng(args.seed)
    feed = [random_array(shape, dtype, rng) for _name, shape, dtype in specs]
    start = time.perf_counter()
    run(feed)
    first_ms = (time.perf_counter() - start) * 1e3
    for _ in range(args.warmup):
        run(feed)
    samples = []
    for _ in range(args.runs):
        start = time.perf_counter()
        run(feed)
        samples.append((time.perf_counter() - start) * 1e3)
    return {
        "runtime": runtime,
        "runtime_version": version,
        "python": sys.version.split()[0],
        "init_ms": init_ms,
        "first_ms": first_ms,
        "samples_ms": samples,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,  # KiB on Linux
    }


def main():
    parser = argparse.ArgumentParser(description="time one model on this device")
    parser.add_argument("--model", required=True)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    try:
        result = measure(args)
    except SystemExit:
        raise
    except Exception as exc:  # the model failed to load or run: say so on one line
        print(f"model failed on this device: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(4)
    print("__deploy_result__ " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
