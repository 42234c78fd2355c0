"""Reproduce, on a GPU machine, whether AOTInductor CUDA packages load at all.

On the lent H200 (torch 2.11.0+cu130) every package built with the image's CXX=/opt/gcc/bin/g++ crashed with
SIGSEGV when loaded, torch's own ("plain") included; built with /usr/bin/g++ they load (2026-12-04,
docs/BENCHMARKS.md). emit_pt2 now checks each package in a child and rebuilds with another compiler, so this
script is only for a new machine where loading fails again. The variants print as they finish.

    python3 scripts/gpu_diag.py plain plainfreeze default nofreeze nometa cpuplain syscxx

cpuplain: the same torch-only package compiled for the CPU (does AOTI loading work at all there?);
syscxx: "plain" compiled with the system /usr/bin/g++ instead of the toolchain torch finds first (a
libstdc++ mismatch between the compiler and torch's own libraries crashes at load time). Every load
runs with faulthandler and prints how the package's shared objects resolve their libraries (ldd).
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed

VARIANT = r"""
import subprocess, sys, torch
sys.path.insert(0, ".")
from pathlib import Path
from deploy.runtimes.cuda.emit import emit_pt2

class Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(16, 16)
    def forward(self, x):
        return torch.relu(self.fc(x))

variant = sys.argv[1]
out = Path(f"/tmp/gpu_diag_{variant}.pt2")
device = "cpu" if variant == "cpuplain" else "cuda"
if variant in ("plain", "plainfreeze", "cpuplain", "syscxx"):  # torch's own API only
    ep = torch.export.export(Small().eval().to(device), (torch.randn(2, 16, device=device),), strict=False)
    torch._inductor.aoti_compile_and_package(ep, package_path=str(out), inductor_configs={"freezing": variant == "plainfreeze"})
else:  # deploy's emitter
    ep = torch.export.export(Small().eval(), (torch.randn(2, 16),), strict=False)
    configs = {"nofreeze": {"freezing": False}, "nometa": {"aot_inductor.metadata": {}}}.get(variant)
    emit_pt2(ep, out, device="cuda", configs=configs)
print(variant, "compiled", flush=True)
import tempfile, zipfile
with tempfile.TemporaryDirectory() as tmp:
    zipfile.ZipFile(out).extractall(tmp)
    for so in Path(tmp).rglob("*.so"):
        deps = subprocess.run(["ldd", str(so)], capture_output=True, text=True).stdout.splitlines()
        keep = [d.strip() for d in deps if any(k in d for k in ("not found", "stdc++", "gcc_s", "libc10", "libtorch", "cuda"))]
        print(variant, "ldd", so.name, " ; ".join(keep)[:600], flush=True)
load = f"import torch, sys; m = torch._inductor.aoti_load_package(sys.argv[1]); print('LOAD OK', m(torch.randn(2, 16, device='{device}'))[0].shape)"
r = subprocess.run([sys.executable, "-X", "faulthandler", "-c", load, str(out)], capture_output=True, text=True)
frames = [l.strip() for l in r.stderr.splitlines() if l.strip().startswith("File")][:4]
print(variant, "load rc", r.returncode, r.stdout.strip()[-200:], r.stderr.strip()[-200:], *frames, flush=True)
"""


def run(variant: str) -> tuple[str, int, list[str]]:
    env = dict(os.environ, CXX="/usr/bin/g++") if variant == "syscxx" else None
    proc = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", VARIANT, variant],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if variant in line or "Error" in line]
    return variant, proc.returncode, lines[-8:]


def main() -> None:
    variants = sys.argv[1:] or ["plain", "cpuplain", "syscxx", "default"]
    with ThreadPoolExecutor(len(variants)) as pool:
        for done in as_completed([pool.submit(run, v) for v in variants]):
            variant, rc, lines = done.result()
            print("VARIANT", variant, "rc", rc, *lines, sep=" | ", flush=True)


if __name__ == "__main__":
    main()
