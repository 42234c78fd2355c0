"""Reproduce, on a GPU machine, whether AOTInductor CUDA packages load at all.

On the lent H200 (torch 2.11.0+cu130) every variant below compiled and then crashed with SIGSEGV
inside torch._inductor.aoti_load_package, including "plain", which uses no deploy code at all.
Run this first in a session with a GPU: if "plain" loads, the crash is gone and
scripts/gpu_check.sh can time the .pt2 path.

    python3 scripts/gpu_diag.py plain plainfreeze default nofreeze nometa
"""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

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
if variant.startswith("plain"):  # torch's own API only
    ep = torch.export.export(Small().eval().cuda(), (torch.randn(2, 16, device="cuda"),), strict=False)
    torch._inductor.aoti_compile_and_package(ep, package_path=str(out), inductor_configs={"freezing": variant == "plainfreeze"})
else:  # deploy's emitter
    ep = torch.export.export(Small().eval(), (torch.randn(2, 16),), strict=False)
    configs = {"nofreeze": {"freezing": False}, "nometa": {"aot_inductor.metadata": {}}}.get(variant)
    emit_pt2(ep, out, device="cuda", configs=configs)
print(variant, "compiled", flush=True)
load = "import torch, sys; m = torch._inductor.aoti_load_package(sys.argv[1]); print('LOAD OK', m(torch.randn(2, 16, device='cuda'))[0].shape)"
r = subprocess.run([sys.executable, "-c", load, str(out)], capture_output=True, text=True)
print(variant, "load rc", r.returncode, r.stdout.strip()[-200:], r.stderr.strip()[-200:], flush=True)
"""


def run(variant: str) -> tuple[str, int, list[str]]:
    proc = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", VARIANT, variant], capture_output=True, text=True, timeout=300
    )
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if variant in line or "Error" in line]
    return variant, proc.returncode, lines[-6:]


def main() -> None:
    variants = sys.argv[1:] or ["plain", "default"]
    with ThreadPoolExecutor(len(variants)) as pool:
        for variant, rc, lines in pool.map(run, variants):
            print("VARIANT", variant, "rc", rc, *lines, sep=" | ", flush=True)


if __name__ == "__main__":
    main()
