#!/usr/bin/env bash
# One call on a GPU machine: the CLI end to end on CUDA, as a user runs it. Exports samples/branchy.py and
# samples/rnn_loop.py to model.cuda.pt2 (verified on the GPU against eager), benches the .pt2 plain and with
# CUDA-graph replay, and benches the eager model.py on the GPU. Needs only python3 + torch.
# Usage (repo root): [CXX=/usr/bin/g++] bash scripts/gpu_cli_check.sh   -> $OUT (or /tmp/gpu_cli): the
# reports, the bench JSON and the C++ compiler verdicts (aoti_compilers.json). With the image's default
# compiler the first export may build twice (load check); allow GPU_CLI_EXPORT_S for that.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu_cli}
mkdir -p "$OUT"
export PYTHONPATH="$PWD" XDG_CACHE_HOME="$OUT/cache"
PY="${PYTHON:-python3}"
LIMIT=${GPU_CLI_EXPORT_S:-240}
echo "gpu_cli_check: CXX=${CXX:-unset}"
for name in branchy rnn_loop; do
    start=$(date +%s)
    timeout -k 5 "$LIMIT" "$PY" -m deploy.cli export "samples/$name.py" --out "/tmp/gpu_cli_$name" -t cuda --debug
    echo "$name export: rc=$? in $(($(date +%s) - start)) s"
    cp "/tmp/gpu_cli_$name/report.json" "$OUT/${name}_report.json" 2>/dev/null
    package="/tmp/gpu_cli_$name/model.cuda.pt2"
    [ -f "$package" ] || continue
    for graph in "" --cuda-graph; do
        timeout -k 5 60 "$PY" -m deploy.cli bench "$package" --device cuda --runs 200 $graph --json \
            >"$OUT/${name}_pt2${graph}.json"
        echo "$name .pt2 $graph bench: rc=$?; $(grep -E '"(p50_ms|runner)"' "$OUT/${name}_pt2${graph}.json" | tr -d '\n ')"
    done
    timeout -k 5 60 "$PY" -m deploy.cli bench "samples/$name.py" --device cuda --runs 200 --json >"$OUT/${name}_eager.json"
    echo "$name eager bench: rc=$?; $(grep -E '"(p50_ms|runner)"' "$OUT/${name}_eager.json" | tr -d '\n ')"
done
cat "$OUT/cache/deploy/aoti_compilers.json" 2>/dev/null
