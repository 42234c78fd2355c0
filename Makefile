# Set-up, tests and the demo. Every target creates .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test demo lint bench bench-peers clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# torch first, pinned: pip takes the local CPU wheel; an unpinned torch pulls a multi-GB CUDA build.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dev,chart]'
	touch $(STAMP)

install: $(STAMP)

# One worker per core (at most 4): the suite is hundreds of independent exports.
test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --maxprocesses=4 tests

# The main job: mobilenet_v2 to ONNX with the eager-vs-ONNX summary; then the two control-flow samples,
# whose Python if / for loop deploy rewrites into torch.cond / a scan, to ONNX and TFLite.
demo: $(STAMP)
	$(BIN)/deploy export samples/mobilenet_v2.py --target onnx
	$(BIN)/python scripts/demo_summary.py deploy_out/mobilenet_v2
	$(BIN)/deploy export samples/branchy.py --target onnx,tflite
	$(BIN)/python scripts/demo_summary.py deploy_out/branchy --runs 20
	$(BIN)/deploy export samples/rnn_loop.py --target onnx,tflite
	$(BIN)/python scripts/demo_summary.py deploy_out/rnn_loop --runs 20

lint: $(STAMP)
	$(BIN)/ruff check deploy tests bench scripts samples

bench: $(STAMP)
	$(BIN)/python bench/bench_backends.py

# litert-torch, the peer we compare against, lives in a side venv (.peers/) and is never imported by deploy.
bench-peers:
	bash bench/setup_peers.sh

clean:
	rm -rf deploy_out .pytest_cache
