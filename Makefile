# The two commands of the README: `make reproduce` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test lint reproduce bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev,cluster]"
	touch $(STAMP)

install: $(STAMP)

lint: $(STAMP)
	$(VENV)/bin/ruff check .

test: $(STAMP) lint
	FEPAPER_BUDGET=smoke $(VENV)/bin/pytest -q

reproduce: $(STAMP)
	$(VENV)/bin/fepaper reproduce

bench: $(STAMP)
	$(VENV)/bin/fepaper bench turns

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
