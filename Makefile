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

.PHONY: setup compile browser test screenshots demo watch bench clean

setup: $(STAMP)

# The compiled core (vigtavl_env/compiled.py) is built by the install itself (setup.py's
# ext_modules); this rebuilds in place the modules whose source changed since, a few seconds when
# nothing did. Without Cython or a C compiler everything still runs, as plain Python.
compile: setup
	@$(VENV)/bin/vigtavl compile \
		|| echo "warning: the compiled core was not rebuilt; the stale modules run as plain Python (slower)" >&2

$(STAMP): pyproject.toml setup.py
	$(PY) -m venv $(VENV)
	$(PIP) install $(TORCH_PIP_ARGS) 'torch==$(TORCH_VERSION)'
	$(PIP) install -e '.[dev,rllib]' 'torch==$(TORCH_VERSION)'
	@$(PIP) show torch | grep -E '^Version: $(TORCH_VERSION)(\+.*)?$$' \
		|| { echo "error: torch is not $(TORCH_VERSION) after install" >&2; exit 1; }
	touch $@

# Debian's Chromium for the browser tests (tests/test_web_browser.py), installed when missing: as
# root with apt-get (CI), else with sudo; without either the browser tests are skipped locally.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		elif command -v sudo >/dev/null 2>&1; then sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else echo "warning: no chromium and no root to install it: the browser tests will be skipped" >&2; fi; }

test: compile browser
	$(PYTHON) -m pytest $(PYTEST_ARGS)

# The web app's pictures in docs/img/, taken by the browser tests.
screenshots: compile browser
	VIGTAVL_SCREENSHOTS=docs/img $(PYTHON) -m pytest -o addopts="" -q tests/test_web_browser.py tests/test_web_thrones_browser.py

demo: compile
	$(PYTHON) -m training.demo

watch: compile
	$(PYTHON) -m tools.demo

bench: compile
	$(PIP) install -q -e '.[dev,rllib,bench]' 'torch==$(TORCH_VERSION)'
	$(PYTHON) -m tools.bench
	$(PYTHON) -m tools.bench_env
	$(PYTHON) -m tools.bench_vector
	$(PYTHON) -m tools.bench_search

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist *.egg-info vigtavl_env/_compiled vigtavl_env/_compiled.json
	find vigtavl_env agents -name '*.so' -delete
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
