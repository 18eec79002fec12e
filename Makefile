# Build foundation for vigtavl. Everything runs from a local virtualenv in .venv.
#
# torch is installed first, pinned to a CPU build of TORCH_VERSION (found via
# pip's configured find-links on the dev machine). The project install then
# repeats the pin on its command line, so resolving the other dependencies can
# never replace it with a different (CUDA, multi-gigabyte) torch.
# On a machine without a local CPU wheel, pass e.g.
#   make setup TORCH_PIP_ARGS='--index-url https://download.pytorch.org/whl/cpu'

PY ?= python3
VENV := .venv
PIP := $(VENV)/bin/pip
PYTHON := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TORCH_VERSION := 2.13.0
TORCH_PIP_ARGS ?=
PYTEST_ARGS ?= -n 2

.PHONY: setup compile test demo watch bench clean

setup: $(STAMP)

# The optional compiled core (vigtavl_env/compiled.py): rebuilds the hot modules whose source
# changed, about 2 minutes from scratch, a second when nothing changed. Without Cython or a C
# compiler everything still runs, as plain Python.
compile: setup
	@$(VENV)/bin/vigtavl compile \
		|| echo "warning: the compiled core was not built; running as plain Python (slower)" >&2

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(PIP) install $(TORCH_PIP_ARGS) 'torch==$(TORCH_VERSION)'
	$(PIP) install -e '.[dev,rllib]' 'torch==$(TORCH_VERSION)'
	@$(PIP) show torch | grep -E '^Version: $(TORCH_VERSION)(\+.*)?$$' \
		|| { echo "error: torch is not $(TORCH_VERSION) after install" >&2; exit 1; }
	touch $@

test: compile
	$(PYTHON) -m pytest $(PYTEST_ARGS)

demo: compile
	$(PYTHON) -m training.demo

watch: compile
	$(PYTHON) -m vigtavl_env.demo

bench: compile
	$(PIP) install -q -e '.[dev,rllib,bench]' 'torch==$(TORCH_VERSION)'
	$(PYTHON) -m vigtavl_env.bench
	$(PYTHON) -m vigtavl_env.bench_env
	$(PYTHON) -m vigtavl_env.bench_vector
	$(PYTHON) -m agents.bench_search

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist *.egg-info vigtavl_env/_compiled
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
