# pbrain-renju — every target sets up what it needs (`make test` on a fresh clone just works).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
RUNTIME := $(VENV)/.installed-runtime
REVIEW := $(VENV)/.installed-review
CSRC   := $(wildcard native/src/*.c)
CHDR   := $(wildcard native/src/*.h native/include/*.h)
CFLAGS := -std=c11 -O2 -Wall -Wextra -Werror -Inative/include

.PHONY: install test cwarn lint match review net train ablate bench bench-search bench-prover bench-protocol signature build build-onedir smoke clean

install: $(STAMP)

# The engine and the match runner only: the virtual environment, an editable install and the C
# core (cffi builds engine/_native in place). What `make match` needs, in about 20 seconds.
$(RUNTIME): pyproject.toml setup.py native/build_ffi.py $(CSRC) $(CHDR)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[match]'
	touch $@

# The game review's picture: matplotlib beside the runtime.
$(REVIEW): $(RUNTIME)
	$(PY) -m pip install -q -e '.[review]'
	touch $@

# Everything: the test and training extras too (torch).
$(STAMP): $(RUNTIME)
	$(PY) -m pip install -q -e '.[test,train]'
	touch $@

# The C core must stay -Wall -Wextra clean: compile every file on its own with -Werror.
cwarn:
	@for f in $(CSRC); do $(CC) $(CFLAGS) -c $$f -o /dev/null || exit 1; done
	@echo "C core: -Wall -Wextra clean"

lint: install
	$(VENV)/bin/ruff check engine native tests

# The whole suite, the frozen executable's smoke test included.
test: install cwarn lint build
	PBRAIN_EXE=dist/pbrain-renju $(PY) -m pytest -q -n 2

# PyInstaller: dist/pbrain-renju (one file, the recommended form; see README).
build: dist/pbrain-renju

dist/pbrain-renju: $(STAMP) build.spec packaging/pbrain_renju.py $(wildcard engine/*.py engine/*/*.py) $(wildcard models/*)
	$(PY) -m pip install -q -e '.[build]'
	PBRAIN_BUNDLE=onefile $(PY) -m PyInstaller --noconfirm --clean --log-level WARN build.spec

build-onedir: $(STAMP)
	$(PY) -m pip install -q -e '.[build]'
	PBRAIN_BUNDLE=onedir $(PY) -m PyInstaller --noconfirm --clean --log-level WARN build.spec

smoke: build
	PBRAIN_EXE=dist/pbrain-renju $(PY) -m pytest -q tests/test_frozen.py

bench: install
	$(PY) -m engine.bench.core --write docs/benchmarks.md

# The README's main job: a short match of pbrain-renju against the strongest baseline, refereed
# like Gomocup (1.5-2.5 minutes from a fresh clone on a 2-core machine); the overrides play anything else.
ENGINE   ?= pbrain-renju
OPPONENT ?= alphabeta
GAMES    ?= 16
TC       ?= 500
RULE     ?= renju
match: $(RUNTIME)
	$(PY) -m engine.match --engine "$(ENGINE)" --engine "$(OPPONENT)" --games $(GAMES) --tc $(TC) --rule $(RULE) --out matches/latest

# Where a game turned: the win rate curve, the proven wins and the turning points (a picture and
# a summary; GAME is a .psq, .sgf, RenjuNet .xml/.rif or results.json; about MS x 1.5 a move).
GAME ?= tests/data/records/gomocup2019-renju-missed-vcf.psq
MS   ?= 1000
PNG  ?= review.png
REVIEW_ARGS ?=
review: $(REVIEW)
	$(PY) -m engine review "$(GAME)" --ms $(MS) --png "$(PNG)" $(REVIEW_ARGS)

# The shipped net from scratch: models/data's records and engine targets pooled, a net trained on
# them, its int8 twin and a report beside the shipped net's figures (runs/net; a rerun resumes).
NET_ARGS ?=
net: install
	$(PY) -m engine.train.recipe --out runs/net $(NET_ARGS)

# A small self-play training that finishes on a 2-core machine in a few minutes (runs/small; the
# README says how to run a large one, and on a GPU). Re-running resumes the run folder.
TRAIN_ARGS ?= --iterations 4 --games 16 --playouts 64 --steps 20
train: install
	$(PY) -m engine.train --run runs/small $(TRAIN_ARGS)

# The method's ablations at equal self-play budget (docs/training.md).
ABLATE_ARGS ?=
ablate: install
	$(PY) -m engine.train.measure.ablate --out runs/ablate $(ABLATE_ARGS)

# The threat-space prover: nodes per second, solve rates on the self-play VCF set, puzzles.
bench-prover: install
	$(PY) -m engine.bench.prover --write docs/benchmarks.md

# MCTS playouts per second and where the time goes (heuristic evaluator until a model ships).
bench-search: install
	$(PY) -m engine.bench.search --write docs/benchmarks.md

# The search's moves at a fixed playout budget against tests/data/signature.json (SIGNATURE_ARGS=--write
# tests/data/signature.json stores today's, for a change meant to alter play).
SIGNATURE_ARGS ?= --check
signature: install
	$(PY) -m engine.bench.signature $(SIGNATURE_ARGS)

# The engine as a manager sees it: sizes, cold starts, memory, time per move (several minutes).
bench-protocol: build build-onedir
	$(PY) -m engine.bench.protocol --write docs/benchmarks.md

clean:
	rm -rf $(VENV) build dist *.egg-info engine/_native.* .pytest_cache .hypothesis
