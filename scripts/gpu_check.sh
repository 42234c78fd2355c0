#!/usr/bin/env bash
# One call on a GPU machine: export the samples to model.cuda.pt2 (AOTInductor), verify them on the GPU
# against eager, and time eager / torch.compile / .pt2 / .pt2 + CUDA graph. Needs only python3 + torch.
# Order: eager CUDA for every sample, then torch.compile, then the .pt2 path in child processes (a native
# crash there, e.g. SIGSEGV in aoti_load_package, is one FAILED line; the other numbers stay).
# Usage (repo root): bash scripts/gpu_check.sh   -> table on stdout; $OUT/gpu_check.md/.json/.log if $OUT is
# set, rewritten after every row so a timeout still leaves them.
# Knobs: GPU_CHECK_MODELS=mobilenet_v2,resnet,tiny_transformer  GPU_CHECK_BUDGET_S=420  GPU_CHECK_TIMEOUT_S=470
#        GPU_CHECK_STEPS=eager,compile,pt2  GPU_CHECK_PT2_RESERVE_S=200  GPU_CHECK_COMPILE_JOBS=3
#        GPU_CHECK_CONFIGS='{"freezing": false}'  (Inductor options for the AOTI compile)
# Without a GPU (tests of the control flow): GPU_CHECK_DEVICE=cpu, GPU_CHECK_SAMPLES=dir,
#        GPU_CHECK_SIMULATE_CRASH=1|model,... (the .pt2 worker kills itself with SIGSEGV before loading).
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
PY="${PYTHON:-python3}"
echo "gpu_check: $(date -u +%FT%TZ) $("$PY" --version 2>&1) on $(nproc) cores"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo "nvidia-smi: not available"
# The Python side keeps its own budget; this hard limit only stops a hang from eating the whole call.
timeout -k 10 "${GPU_CHECK_TIMEOUT_S:-470}" "$PY" scripts/gpu_check.py "$@"
rc=$?
[ "$rc" -eq 124 ] && echo "gpu_check: stopped by the ${GPU_CHECK_TIMEOUT_S:-470} s limit; partial results are in \$OUT"
exit "$rc"
