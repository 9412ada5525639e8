# clashkit developer commands. Everything runs from the project's own .venv,
# built from the committed uv.lock.

PYTHON ?= python3
VENV   := .venv
STAMP  := $(VENV)/.stamp

# JupyterLab's default settings for this project's venv: no "news?" prompt and no
# update check, so nothing asks to fetch from the internet (the browser test does the same).
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json

# The fast engine compiled by numba into its cache once (clashkit/runs/warm.py),
# again whenever its sources change (from scratch: numba's cache of a function does
# not notice a change in the functions it calls); without it the first fast run compiles.
WARM := $(VENV)/.fast-warm

.PHONY: venv lab test test-long bench figures screenshots lint strip clean

# Notebooks are committed clean whatever a lab session saved: .gitattributes runs them through
# the git filter "nbstripout" (configured here, in this repository's git config) when they are
# added, and git status compares them cleaned.  The same flags as `make strip`.  Where a work
# tree's venv has no nbstripout, the filter passes the notebook through unchanged.
NBSTRIPOUT := $(VENV)/.nbstripout-filter
NBSTRIP_FLAGS := --keep-id --extra-keys metadata.language_info
NBSTRIP_FILTER := sh -c 'if test -x $(VENV)/bin/nbstripout; then exec $(VENV)/bin/nbstripout $(NBSTRIP_FLAGS); else exec cat; fi'

venv: $(STAMP) $(WARM) $(NBSTRIPOUT)

# Rebuilt only when the dependencies change; uv sync leaves the venv exactly
# as the lock file says (it keeps pip and uv itself).
$(STAMP): pyproject.toml uv.lock
	@echo "make: building $(VENV) from uv.lock (about 30 s the first time; again when the lock changes)"
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade uv
	UV_PROJECT_ENVIRONMENT=$(VENV) UV_PYTHON_DOWNLOADS=never $(VENV)/bin/uv sync --frozen
	touch $@

$(WARM): $(STAMP) $(wildcard clashkit/fast/*.py)
	@echo "make: compiling the fast engine with numba into its cache (once; measured 6-10 min of CPU on 2 cores)"
	rm -f clashkit/fast/__pycache__/*.nbi clashkit/fast/__pycache__/*.nbc
	$(VENV)/bin/python -m clashkit.runs.warm
	touch $@

$(NBSTRIPOUT): $(STAMP) Makefile
	@echo "make: git filter nbstripout for *.ipynb (.gitattributes): notebooks are committed without outputs"
	git config filter.nbstripout.clean "$(NBSTRIP_FILTER)"
	git config filter.nbstripout.smudge cat
	touch $@

$(LAB_OVERRIDES): $(STAMP)
	@echo "make: JupyterLab settings: no news prompt, no update check ($@)"
	mkdir -p $(dir $@)
	echo '{"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": false}}' > $@

# Jupyter refuses to run as root without --allow-root (containers often are root).
lab: venv $(LAB_OVERRIDES)
	@echo "make: starting JupyterLab on 127.0.0.1 in notebooks/ (Ctrl-C stops it)"
	$(VENV)/bin/jupyter lab --ip=127.0.0.1 --no-browser $(if $(filter 0,$(shell id -u)),--allow-root) \
		--LabApp.news_url=None --LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate notebooks/

# Notebooks are committed without outputs, execution counts, saved widget state or the kernel's
# language_info (tests/test_notebooks_clean.py); the git filter does the same on every commit.
strip: venv
	@echo "make: clearing the outputs of notebooks/*.ipynb"
	$(VENV)/bin/nbstripout $(NBSTRIP_FLAGS) notebooks/*.ipynb

test: venv
	$(VENV)/bin/python -m pytest -n 2

# The two engines on 1,000,000 games (tests/fast, marker long).
test-long: venv
	$(VENV)/bin/python -m pytest -n 2 -m long tests/fast

bench: venv
	$(VENV)/bin/python benchmarks/run.py

# Every figure of the README, remade by its command and stamped with the commit
# (benchmarks/figures.py; FIGURES="balance memory" for some of them).
FIGURES ?=
figures: venv
	$(VENV)/bin/python benchmarks/figures.py $(FIGURES)

# docs/images/card_designer.png and siege_lab.png, taken by the browser test in JupyterLab and Chromium.
screenshots: venv $(LAB_OVERRIDES)
	$(VENV)/bin/python docs/screenshots.py

# Style, formatting, types (every package numba does not compile) and the layers' import order.
lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

clean:
	rm -rf $(VENV) dist build .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
