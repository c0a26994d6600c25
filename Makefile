# The two commands of the README: `make reproduce` and `make test` (what CI runs).
# `make quick` is the day-to-day subset: the tests not marked slow; `make lab` opens the notebooks.
# Both run the tests on every core (pytest-xdist) and make test prints the 20 slowest.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Two installs: what reproduction needs (the library and the notebook runner), and on top of it
# what development needs (tests, linters, the browser test, dask for the cluster tests).
# pip's output goes to a log file; its last lines are shown if it fails.
REPRODUCE_STAMP := $(VENV)/.installed-reproduce
DEV_STAMP := $(VENV)/.installed-dev
LAB_STAMP := $(VENV)/.installed-lab
# numba compiles a kernel on its first call and caches it beside the package: pay it once, at
# install, instead of in the first command, test or time-limited decision (`fepaper warm-up`).
WARM_UP = echo "compiling the kernels into numba's cache (fepaper warm-up, minutes the first time)" && \
	$(VENV)/bin/fepaper warm-up --quiet

.PHONY: install install-reproduce test quick lint docs reproduce lab screenshots bench clean

$(PY):
	@echo "creating $(VENV) with $(PYTHON)"
	@$(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --upgrade pip > $(VENV)/install.log 2>&1 || (tail -20 $(VENV)/install.log; exit 1)

$(REPRODUCE_STAMP): pyproject.toml | $(PY)
	@echo "installing fepaper and what reproduction needs into $(VENV) (log: $(VENV)/install.log)"
	@$(PY) -m pip install -e ".[reproduce]" >> $(VENV)/install.log 2>&1 || (tail -30 $(VENV)/install.log; exit 1)
	@$(WARM_UP)
	@touch $@

$(DEV_STAMP): pyproject.toml | $(PY)
	@echo "installing fepaper with the test, lint and cluster tools into $(VENV) (log: $(VENV)/install.log)"
	@$(PY) -m pip install -e ".[dev,cluster]" >> $(VENV)/install.log 2>&1 || (tail -30 $(VENV)/install.log; exit 1)
	@$(WARM_UP)
	@touch $@ $(REPRODUCE_STAMP)

$(LAB_STAMP): pyproject.toml | $(PY)
	@echo "installing fepaper with JupyterLab and the widgets into $(VENV) (log: $(VENV)/install.log)"
	@$(PY) -m pip install -e ".[reproduce,notebook]" >> $(VENV)/install.log 2>&1 || (tail -30 $(VENV)/install.log; exit 1)
	@touch $@

install: $(DEV_STAMP)

install-reproduce: $(REPRODUCE_STAMP)

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports --no-cache --no-logo
	$(VENV)/bin/mypy

test: $(DEV_STAMP) lint docs
	FEPAPER_BUDGET=smoke $(VENV)/bin/pytest -q -n auto --durations=20

# The documentation site, a static folder (site/index.html): the pages of docs/, the report's executed
# pages as they are, the API reference from the docstrings. Warnings are errors and every internal
# link and image of the built site must find its target (docs/site_hooks.py). A few seconds.
docs: $(DEV_STAMP)
	$(VENV)/bin/mkdocs build --strict --quiet

quick: $(DEV_STAMP) lint
	FEPAPER_BUDGET=smoke $(VENV)/bin/pytest -q -n auto -m "not slow"

reproduce: $(REPRODUCE_STAMP)
	$(VENV)/bin/fepaper reproduce

lab: $(LAB_STAMP)
	$(VENV)/bin/jupyter lab notebooks

# The widget picture of the README (docs/images/widgets.png), taken by the real-browser test.
screenshots: $(DEV_STAMP)
	FEPAPER_SCREENSHOTS=docs/images $(VENV)/bin/pytest -q tests/test_browser.py

bench: $(REPRODUCE_STAMP)
	$(VENV)/bin/fepaper bench turns

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info site
