#!/usr/bin/env bash
# Creates the side venv .peers/venv holding litert-torch, the peer converter bench/ compares against.
# The product never imports anything from it; only bench/peer_convert.py runs inside it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEERS="$ROOT/.peers"
VENV="$PEERS/venv"
PY="${PY:-python3}"
TORCH_VERSION="${TORCH_VERSION:-2.13.0}"
LITERT_TORCH_VERSION="${LITERT_TORCH_VERSION:-0.10.0}"

mkdir -p "$PEERS"
if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV"
    "$VENV/bin/pip" install -q --upgrade pip
fi

# torch first, pinned: pip takes the local CPU wheel; an unpinned torch pulls a multi-GB CUDA build.
"$VENV/bin/pip" install -q "torch==$TORCH_VERSION"

# The constraint keeps litert-torch's dependency resolution from replacing that torch.
CONSTRAINTS="$PEERS/constraints.txt"
printf 'torch==%s\n' "$TORCH_VERSION" >"$CONSTRAINTS"
"$VENV/bin/pip" install -q -c "$CONSTRAINTS" "litert-torch==$LITERT_TORCH_VERSION"

# Importing litert-torch logs many harmless warnings (torchao CUDA kernels, absl); keep them in a log.
if ! "$VENV/bin/python" -c "import importlib.metadata as m, torch, litert_torch; \
print('litert-torch', m.version('litert-torch'), 'torch', torch.__version__)" 2>"$PEERS/import.log"; then
    cat "$PEERS/import.log" >&2
    exit 1
fi
