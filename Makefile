# The two commands of the README: `make reproduce` and `make test` (what CI runs).
# `make quick` is the day-to-day subset: the tests not marked slow.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test quick lint reproduce bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev,cluster]"
	touch $(STAMP)

install: $(STAMP)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports --no-cache --no-logo

test: $(STAMP) lint
	FEPAPER_BUDGET=smoke $(VENV)/bin/pytest -q

quick: $(STAMP) lint
	FEPAPER_BUDGET=smoke $(VENV)/bin/pytest -q -m "not slow"

reproduce: $(STAMP)
	$(VENV)/bin/fepaper reproduce

bench: $(STAMP)
	$(VENV)/bin/fepaper bench turns

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
