# clashkit developer commands. Everything runs from the project's own .venv,
# built from the committed uv.lock.

PYTHON ?= python3
VENV   := .venv
STAMP  := $(VENV)/.stamp
# The greedy policy compiled with mypyc (clashkit/compiled.py), made again whenever
# its source changes; without it (or with it stale) clashkit runs the source.
COMPILED := clashkit/policies/greedy.digest

.PHONY: venv lab test test-long bench lint clean

venv: $(STAMP) $(COMPILED)

# Rebuilt only when the dependencies change; uv sync leaves the venv exactly
# as the lock file says (it keeps pip and uv itself).
$(STAMP): pyproject.toml uv.lock
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade uv
	UV_PROJECT_ENVIRONMENT=$(VENV) UV_PYTHON_DOWNLOADS=never $(VENV)/bin/uv sync --frozen
	touch $@

$(COMPILED): clashkit/policies/greedy.py clashkit/compiled.py $(STAMP)
	$(VENV)/bin/python -m clashkit.compiled
	$(VENV)/bin/python -m clashkit.fast.warm

# Jupyter refuses to run as root without --allow-root (containers often are root).
lab: venv
	$(VENV)/bin/jupyter lab --ip=127.0.0.1 --no-browser $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/

test: venv
	$(VENV)/bin/python -m pytest -n 2

# The two engines on 1,000,000 games (tests/fast, marker long).
test-long: venv
	$(VENV)/bin/python -m pytest -n 2 -m long tests/fast

bench: venv
	$(VENV)/bin/python benchmarks/run.py

# greedy.py must type-check: mypyc compiles it (clashkit/compiled.py).
lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --follow-imports=silent clashkit/policies/greedy.py clashkit/compiled.py

clean:
	rm -rf $(VENV) dist build .pytest_cache .ruff_cache .mypy_cache .hypothesis
	rm -f clashkit/policies/*.so clashkit/policies/*.digest
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
