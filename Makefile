# clashkit developer commands. Everything runs from the project's own .venv,
# built from the committed uv.lock.

PYTHON ?= python3
VENV   := .venv
STAMP  := $(VENV)/.stamp

.PHONY: venv lab test bench lint clean

venv: $(STAMP)

# Rebuilt only when the dependencies change; uv sync leaves the venv exactly
# as the lock file says (it keeps pip and uv itself).
$(STAMP): pyproject.toml uv.lock
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade uv
	UV_PROJECT_ENVIRONMENT=$(VENV) UV_PYTHON_DOWNLOADS=never $(VENV)/bin/uv sync --frozen
	touch $@

# Jupyter refuses to run as root without --allow-root (containers often are root).
lab: venv
	$(VENV)/bin/jupyter lab --ip=127.0.0.1 --no-browser $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/

test: venv
	$(VENV)/bin/python -m pytest -n 2

bench: venv
	$(VENV)/bin/python benchmarks/run.py

lint: venv
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(VENV) dist build .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
