# clashkit developer commands. Everything runs from the project's own .venv,
# built from the committed uv.lock.

PYTHON ?= python3
VENV   := .venv
STAMP  := $(VENV)/.stamp

# JupyterLab's default settings for this project's venv: no "news?" prompt and no
# update check, so nothing asks to fetch from the internet (the browser test does the same).
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json

# The fast engine compiled by numba into its cache once (clashkit/runs/warm.py: one
# line a compiled part with its time; a lock, so two builds here wait for each other),
# again from scratch whenever its sources or the values they import change; without it the
# first fast run compiles.
WARM := $(VENV)/.fast-warm

# The lab's environment (make lab): the package and what the notebooks and the command line
# need, no test, lint, docs, browser or OpenSpiel tools.  Added to whatever the venv holds
# (--inexact), so make lab after make test installs and removes nothing.
LAB_STAMP := $(VENV)/.lab-stamp
UV_SYNC := UV_PROJECT_ENVIRONMENT=$(VENV) UV_PYTHON_DOWNLOADS=never $(VENV)/bin/uv sync --frozen --compile-bytecode

.PHONY: venv lab test test-long bench figures screenshots lint strip clean docs docs-serve tutorials expert card-values

# Notebooks are committed clean whatever a lab session saved: .gitattributes runs them through
# the git filter "nbstripout" (configured here, in this repository's git config) when they are
# added, and git status compares them cleaned.  The same flags as `make strip`.  Where a work
# tree's venv has no nbstripout, the filter passes the notebook through unchanged.
NBSTRIPOUT := $(VENV)/.nbstripout-filter
NBSTRIP_FLAGS := --keep-id --extra-keys metadata.language_info
NBSTRIP_FILTER := sh -c 'if test -x $(VENV)/bin/nbstripout; then exec $(VENV)/bin/nbstripout $(NBSTRIP_FLAGS); else exec cat; fi'

# Bytecode written ahead (uv's --compile-bytecode, compileall for the project's own code): an
# environment with PYTHONDONTWRITEBYTECODE would otherwise compile every module in every process.
BYTECODE := $(VENV)/bin/python -m compileall -q -j 0 clashkit tests benchmarks
venv: $(STAMP) $(WARM) $(NBSTRIPOUT)
	@$(BYTECODE)

# The whole environment (make test, make docs, the figures): the lab's and the dev and docs groups
# of pyproject.toml, exactly as the lock says (uv sync keeps pip and uv itself), its modules compiled
# to bytecode; rebuilt only when the dependencies change.
$(STAMP): pyproject.toml uv.lock | $(VENV)/bin/uv
	@echo "make: building $(VENV) from uv.lock with the test, docs and development tools (once, again when the lock changes)"
	@started=$$(date +%s); \
	  $(UV_SYNC) --group docs && \
	  echo "make: $(VENV) built in $$(( $$(date +%s) - started )) s"
	@touch $@

# Nothing to do where the whole environment is current (it holds the lab's).
$(LAB_STAMP): pyproject.toml uv.lock | $(VENV)/bin/uv
	@if test $(STAMP) -nt uv.lock -a $(STAMP) -nt pyproject.toml; then :; else \
	  echo "make: building $(VENV) from uv.lock for the lab: the package and what it needs (once, again when the lock changes)"; \
	  started=$$(date +%s); \
	  $(UV_SYNC) --no-default-groups --inexact && \
	  echo "make: $(VENV) built in $$(( $$(date +%s) - started )) s ($$(du -sm $(VENV) | cut -f1) MB)"; fi
	@touch $@

$(VENV)/bin/uv:
	@echo "make: a virtual environment in $(VENV) with uv (the installer)"
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	@$(VENV)/bin/python -m pip install --quiet --upgrade uv

# Looked at whenever any module changes: warm remakes the cache only when its fingerprint does (the
# fast engine's sources and the values they import from the rest: runs/warm.py, frozen_values).
$(WARM): $(LAB_STAMP) $(shell find clashkit -name '*.py' -not -path '*/__pycache__/*')
	$(VENV)/bin/python -m clashkit.runs.warm --stamp $@

$(NBSTRIPOUT): $(LAB_STAMP) Makefile
	@echo "make: git filter nbstripout for *.ipynb (.gitattributes): notebooks are committed without outputs"
	git config filter.nbstripout.clean "$(NBSTRIP_FILTER)"
	git config filter.nbstripout.smudge cat
	touch $@

$(LAB_OVERRIDES): $(LAB_STAMP)
	@echo "make: JupyterLab settings: no news prompt, no update check ($@)"
	mkdir -p $(dir $@)
	echo '{"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": false}}' > $@

# Jupyter refuses to run as root without --allow-root (containers often are root).  JupyterLab
# starts at once; on a first build the fast engine compiles beside it (warm's --then).
lab: $(LAB_STAMP) $(NBSTRIPOUT) $(LAB_OVERRIDES)
	@$(BYTECODE)
	@echo "make: JupyterLab on 127.0.0.1 in notebooks/ (Ctrl-C stops it)"
	$(VENV)/bin/python -m clashkit.runs.warm --stamp $(WARM) --then \
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

# Every figure of the documentation (docs/), remade by its command and stamped with the commit
# (benchmarks/figures.py; FIGURES="balance memory" for some of them).
FIGURES ?=
figures: venv
	$(VENV)/bin/python benchmarks/figures.py $(FIGURES)

# expert's evaluation weights (data/expert.json), fitted on self-play positions with the
# defaults of `clashkit expert-train` (seeded: the same file, byte for byte; tests/test_expert.py
# checks its hash).
expert: venv
	$(VENV)/bin/clashkit expert-train --out data/expert.json

# The card values the bots build their decks by (data/card-values.csv; clashkit/policies/card_values.py):
# a meta study under expert on the shipped card set, these sizes and seed (the same file, byte for byte,
# with any number of workers; a few minutes on two cores).  Every row names the card set by its digest:
# after a change of data/cards.csv the bots go back to the formula's values until this is run again
# (tests/test_deck_building.py checks the file's hash and its card set).
card-values: venv
	$(VENV)/bin/clashkit meta --policy expert --evaluations 800 -n 200 --value-games 20 --seed 1 \
		--no-progress --write-values data/card-values.csv

# The documentation site (mkdocs.yml, docs/) into site/: strict (a broken link or reference
# fails), offline (no web font, no CDN; docs/_site/hooks.py fails the build on any src or
# href off the site). The tutorials are the committed copies in docs/tutorials/.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

# The site while writing, rebuilt on every save, on 127.0.0.1 only.
docs-serve: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:8000

# The tutorials' copies (docs/tutorials/): every notebook run whole, with its outputs
# (docs/_site/tutorials.py; a few minutes on two cores). Run it after changing a notebook.
tutorials: venv
	$(VENV)/bin/python docs/_site/tutorials.py

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
	rm -rf $(VENV) dist build site .cache .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
