"""Convert sample model.py files to .tflite with litert-torch, the peer converter bench/ compares against.

Runs INSIDE the side venv made by bench/setup_peers.sh (.peers/venv), never in the project venv: the
product does not import litert-torch. For each model it writes <out>/<stem>.tflite and <out>/<stem>.json
(litert-torch version, conversion seconds, whether the sample's dynamic shapes were kept).

    .peers/venv/bin/python bench/peer_convert.py samples/mobilenet_v2.py ... --out .peers/out
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import sys
import time
import traceback
from pathlib import Path
from types import ModuleType


def load_sample(path: Path) -> ModuleType:
    """Import a model.py file by path, under a private module name."""
    spec = importlib.util.spec_from_file_location(f"_peer_sample_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def convert_one(sample: Path, out_dir: Path) -> dict:
    """Convert one sample; returns the metadata written next to the .tflite."""
    import litert_torch
    import torch

    module = load_sample(sample)
    model = module.model().eval()
    example_inputs = tuple(module.example_inputs())
    dynamic = module.dynamic_shapes() if hasattr(module, "dynamic_shapes") else None
    target = out_dir / f"{sample.stem}.tflite"
    info = {
        "model": sample.stem,
        "litert_torch": importlib.metadata.version("litert-torch"),
        "torch": torch.__version__,
        "path": str(target),
        "dynamic_shapes": dynamic is not None,
        "dynamic_error": None,
    }
    start = time.perf_counter()
    with torch.no_grad():
        try:
            edge_model = litert_torch.convert(model, example_inputs, dynamic_shapes=dynamic)
        except Exception as error:  # noqa: BLE001 - a failed dynamic conversion falls back to static
            if dynamic is None:
                raise
            info["dynamic_shapes"] = False
            info["dynamic_error"] = f"{type(error).__name__}: {str(error).splitlines()[0][:300]}"
            edge_model = litert_torch.convert(model, example_inputs)
    tmp = target.with_suffix(".tflite.tmp")
    edge_model.export(str(tmp))
    tmp.replace(target)
    info["convert_s"] = round(time.perf_counter() - start, 3)
    info["bytes"] = target.stat().st_size
    return info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("samples", nargs="+", type=Path, help="model.py files")
    parser.add_argument(
        "--out", type=Path, default=Path(".peers/out"), help="cache dir for the .tflite files"
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    failures = 0
    for sample in args.samples:
        try:
            info = convert_one(sample, args.out)
        except Exception as error:  # noqa: BLE001 - report per model, keep converting the others
            failures += 1
            traceback.print_exc()
            info = {"model": sample.stem, "error": f"{type(error).__name__}: {str(error)[:500]}"}
            (args.out / f"{sample.stem}.tflite").unlink(missing_ok=True)
        (args.out / f"{sample.stem}.json").write_text(json.dumps(info, indent=2) + "\n")
        print(json.dumps(info))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
