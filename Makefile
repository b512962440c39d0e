# okey-rules: `make serve` and `make test` do all the set-up on a fresh clone.
SHELL := /bin/bash
# The interpreter .venv is built with: see scripts/pick_python (override: make PYTHON=...).
PYTHON ?= $(shell scripts/pick_python)
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
GENERATED := server/okey/v1/.generated
PROTOS := $(wildcard proto/okey/v1/*.proto proto_internal/okey/internal/v1/*.proto)
HOST ?= 127.0.0.1
PORT ?= 50051
# The same services over HTTP (Connect, gRPC-Web) beside gRPC: docs/http.md.
HTTP_PORT ?= 8080

.PHONY: setup serve test lint type unit bench gen clean

setup: $(INSTALLED) $(GENERATED)

$(INSTALLED): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

$(GENERATED): $(INSTALLED) $(PROTOS) scripts/gen_protos.py
	$(PY) scripts/gen_protos.py
	@# Re-install (no deps) so the editable finder maps the generated package too.
	$(PY) -m pip install --quiet --no-deps -e .

gen: $(GENERATED)

serve: setup
	$(VENV)/bin/okey-server --host $${OKEY_HOST:-$(HOST)} --port $${OKEY_PORT:-$(PORT)} \
		--http-port $${OKEY_HTTP_PORT:-$(HTTP_PORT)}

lint: setup
	$(VENV)/bin/ruff check .

type: setup
	$(VENV)/bin/mypy

unit: setup
	$(VENV)/bin/pytest

test: setup lint type nginx-for-tests chromium-for-tests
	$(VENV)/bin/pytest

bench: setup
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) server/okey .pytest_cache .mypy_cache .ruff_cache

# --- contract hygiene and the Node client (all also run by `make test`) ---
.PHONY: docs proto-check node-test
NODE_CLIENT := clients/node

# Regenerates docs/api.md, the Node client's message types and the TypeScript client's
# generated code (clients/ts/src/gen) from the protos.
docs: setup ts-gen
	$(PY) scripts/gen_api_docs.py
	cd $(NODE_CLIENT) && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && npm run --silent gen-types

# buf lint, buf breaking against HEAD~1 and HEAD, every element documented, docs current.
proto-check: setup
	$(VENV)/bin/pytest tests/unit/test_proto_hygiene.py tests/unit/test_proto_docs.py

# The Node client's own suite against a freshly started okey-server.
node-test: setup
	$(VENV)/bin/pytest tests/e2e/test_node_client.py

# --- the TypeScript client (clients/ts; its test is part of `make test`) ---
.PHONY: ts-gen ts-test
TS_CLIENT := clients/ts

# clients/ts/src/gen from the protos: protoc-gen-es run by grpcio-tools' protoc.
ts-gen: setup
	cd $(TS_CLIENT) && { [ -d node_modules ] || npm ci --no-audit --no-fund; } \
		&& OKEY_PYTHON=$(abspath $(PY)) npm run --silent generate

# Generated code current, the typing test, the conformance runner over gRPC and HTTP, npm pack.
ts-test: setup
	$(VENV)/bin/pytest tests/e2e/test_ts_client.py

# --- nginx for the load-balancer tests (tests/e2e/test_nginx_*.py; run by `make test`) ---
# Debian's nginx, installed only when missing, where it can be (scripts/apt_for_tests).
.PHONY: nginx-for-tests
nginx-for-tests:
	@scripts/apt_for_tests nginx nginx "tests/e2e/test_nginx_balancer.py"

# --- fuzz and soak (docs/fuzzing.md; a short fixed-seed run is part of `make test`) ---
# Starts okey-server --port 0 and fuzzes every RPC for FUZZ_SECONDS with FUZZ_CONCURRENCY
# client channels; exit 1 on any INTERNAL/UNKNOWN answer, hang or crash. FUZZ_ARGS: more
# flags (--seed N, --case N, --json FILE; see --help).
FUZZ_SECONDS ?= 60
FUZZ_CONCURRENCY ?= 2
.PHONY: fuzz
fuzz: setup
	$(PY) tests/fuzz/fuzz_harness.py --seconds $(FUZZ_SECONDS) --concurrency $(FUZZ_CONCURRENCY) $(FUZZ_ARGS)

# --- soak (docs/operations.md, "Soak"; not part of `make test` or `make bench`) ---
# okey-server --processes 2 under mixed load at SOAK_LOAD of its measured capacity for
# SOAK_SECONDS (default 10 min), a stalled client throughout, one server process killed
# halfway; exit 1 on any failed call of the well-behaved clients, memory not flat or a
# server that went down. SOAK_ARGS: more flags (--json FILE, --server-arg=...; see --help).
SOAK_SECONDS ?= 600
SOAK_LOAD ?= 0.8
.PHONY: soak
soak: setup
	$(PY) bench/soak.py --seconds $(SOAK_SECONDS) --load $(SOAK_LOAD) $(SOAK_ARGS)

# --- the web table (web/ -> server/okey_server/web_static, served at "/"; docs/web-table.md) ---
.PHONY: web chromium-for-tests
WEB := web

# Rebuilds the committed page: npm ci (exact versions of web/package-lock.json), tsc, vite build.
web:
	cd $(WEB) && npm ci --no-audit --no-fund && npm run --silent build

# Debian's Chromium for tests/e2e/test_web_table.py (Playwright drives it; it never downloads
# a browser of its own), installed only when missing, as nginx-for-tests does.
chromium-for-tests:
	@scripts/apt_for_tests chromium /usr/bin/chromium "tests/e2e/test_web_table.py"
