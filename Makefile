# kessen: `make run` plays a shipped example, `make test` runs the whole test suite, `make serve` the web page.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
EXAMPLE ?= examples/song-of-blades/warband-skirmish.toml

.PHONY: run test bench check-odds clean serve browser compiled

$(BIN)/kessen: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.test-deps: $(BIN)/kessen
	$(BIN)/pip install --quiet -e '.[test,web,dask,plot,parquet]'
	touch $@

$(VENV)/.compile-deps: $(BIN)/kessen
	$(BIN)/pip install --quiet -e '.[compile]'
	touch $@

# The battle engine compiled with mypyc (setup.py says which modules) into .venv/compiled, where a C compiler is
# present; rebuilt when a source changes. `make run`, `make bench` and the parity test play with it; the editable
# source in src/ stays what every other test imports.
COMPILED := $(VENV)/compiled
HAS_CC = $(BIN)/python -c 'import sys; sys.path.insert(0, "."); from setup import c_compiler; sys.exit(c_compiler() is None)'

$(COMPILED)/.built: $(VENV)/.compile-deps setup.py $(shell find src/kessen -name '*.py')
	@rm -rf $(COMPILED) $(VENV)/wheels
	@if $(HAS_CC); then \
		echo "compiling the engine with mypyc (a few minutes)"; \
		KESSEN_COMPILE=1 $(BIN)/pip wheel --quiet --no-deps --no-build-isolation --wheel-dir $(VENV)/wheels . && \
		$(BIN)/pip install --quiet --no-deps --target $(COMPILED) $(VENV)/wheels/kessen-*.whl && touch $@; \
	else \
		echo "kessen: no C compiler on this machine: the engine runs as pure Python"; \
	fi

compiled: $(COMPILED)/.built

$(VENV)/.web-deps: $(BIN)/kessen
	$(BIN)/pip install --quiet -e '.[web]'
	touch $@

# The browser tests drive Debian's Chromium, and the Japanese page needs fonts with its glyphs.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@if [ ! -x /usr/bin/chromium ] || ! fc-list :lang=ja 2>/dev/null | grep -q .; then \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	fi

run: $(BIN)/kessen $(COMPILED)/.built
	PYTHONPATH=$(COMPILED) $(BIN)/kessen odds song-of-blades melee --format table --input examples/song-of-blades/melee.json
	PYTHONPATH=$(COMPILED) $(BIN)/kessen battle $(EXAMPLE) --seed 7

test: $(VENV)/.test-deps $(COMPILED)/.built browser
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2

serve: $(VENV)/.web-deps
	$(BIN)/kessen serve $(SERVE_ARGS)

bench: $(VENV)/.test-deps $(COMPILED)/.built
	$(BIN)/python -m benchmarks

check-odds: $(BIN)/kessen
	for r in song-of-blades battlehost legions armies-clash; do ../shared/tools/check-odds $$r || exit 1; done

clean:
	rm -rf $(VENV) build src/*.egg-info
