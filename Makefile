# gravf-tui build and test entry points.
#
#   make test   install the hardware tools the tests need (when root on
#               Debian and they are missing), then vet and run every test.
#   make check-large
#               the large-graph check, outside CI (an hour at most).
#   make fidelity
#               fast detail and the model against cycle detail on the whole
#               fidelity corpus, outside CI (docs/FIDELITY.md).
#   make bench  every engine against its peer (Verilator, scipy, numpy, the
#               disk) in one run, the table of docs/PERFORMANCE.md; outside
#               CI. make bench-go runs the Go benchmarks (regressions).

GO       ?= go
TOOLS    := iverilog verilator yosys gpmetis tclsh g++
PACKAGES := iverilog verilator yosys metis tcl g++ libxrt-dev
# Files the tests need besides programs: XRT's headers, for the Vitis
# export's host program (make host).
FILES    := /usr/include/xrt/xrt/xrt_device.h

.PHONY: test tools vet staticcheck bench bench-go bench-tools fuzz build check-large fidelity check-vitis

build:
	$(GO) build -o gravf-tui ./cmd/gravf-tui

# The package timeout is Go's per test binary; gen runs Icarus, Verilator and
# yosys on many projects and needs more than the default 10 minutes when the
# machine is shared.
#
# After the tests, the device nodes a careless write could replace must
# still be devices: a test or command that renames a file onto /dev/null as
# root would break every later shell redirection on the machine, and the
# safe-output promise of docs/RELIABILITY.md is that nothing does.
DEVICES := /dev/null /dev/full /dev/zero
test: tools vet
	$(GO) test -count=1 -timeout 30m ./...
	@for d in $(DEVICES); do test -c $$d || { echo "make test: $$d is no longer a character device; a test replaced it"; exit 1; }; done

# check-large exports WCC and BFS on large graphs (the GraVF code base's
# scale-14 Graph500 graph, R-MAT scale 16) for 4 FPGAs with edges in block
# RAM and off-chip, runs them in Verilator and compares the cycles with
# sim --detail cycle; it also measures the PE's cycles per edge on the
# degree-32 graph of docs/CALIBRATION.md, and runs every LDBC Graphalytics
# validation in Verilator (make test runs one graph per algorithm there).
# Not part of make test.
check-large: tools
	GRAVF_LARGE=1 $(GO) test -count=1 -timeout 60m -v -run 'TestLargeRTLAgreesWithSimulator|TestRTLCyclesPerEdge|TestGraphalytics' ./cmd/gravf-tui

# check-vitis exports 21 Vitis designs (u280, u250, u55c; WCC, PR and BFS on
# 1 and 2 FPGAs, WCC on 3; edges off-chip and in block RAM) and runs each
# kernel testbench in Icarus and Verilator with the protocol checks on, and
# make lint. make test runs four of them. Not part of make test.
check-vitis: tools
	GRAVF_VITIS_MATRIX=1 $(GO) test -count=1 -timeout 60m -v -run 'TestExportMatrix' ./vitis

# fidelity runs gravf-tui validate on every point of the corpus, one
# simulation per core, into out/fidelity.json, and prints the tables of
# docs/FIDELITY.md from it (also in out/fidelity.txt). Not part of make
# test; about an hour on two cores.
fidelity: build
	mkdir -p out
	nice ./gravf-tui validate --json > out/fidelity.json; status=$$?; \
	  ./gravf-tui validate --from out/fidelity.json --points --worst 10 | tee out/fidelity.txt; exit $$status

# tools installs the Debian packages whose programs are missing. The tests
# that need them fail in CI when they are absent; outside CI they skip.
tools:
	@missing=""; \
	for t in $(TOOLS); do command -v $$t >/dev/null 2>&1 || missing="$$missing $$t"; done; \
	for f in $(FILES); do test -e $$f || missing="$$missing $$f"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing $(PACKAGES) (missing:$$missing)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(PACKAGES) >/dev/null; \
	  else \
	    echo "warning: missing$$missing; install the Debian packages $(PACKAGES)"; \
	  fi; \
	fi

vet:
	@test -z "$$(gofmt -l . | tee /dev/stderr)" || (echo "gofmt: the files above need formatting" && exit 1)
	$(GO) vet ./...

staticcheck:
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

# bench measures our engines next to their peers, timed alternately in one
# run (gravf-tui bench --help); BENCHFLAGS selects groups, for example
# BENCHFLAGS='--only ref,model'. It prints the markdown table of
# docs/PERFORMANCE.md and keeps the JSON report in out/bench.json.
BENCHFLAGS ?=
bench: build bench-tools
	mkdir -p out
	nice ./gravf-tui bench --json $(BENCHFLAGS) > out/bench.json
	./gravf-tui bench --from out/bench.json --markdown | tee out/bench.md

# bench-tools installs the peers when root on Debian: Verilator (see tools)
# and the system python3 with numpy and scipy.
bench-tools: tools
	@if ! /usr/bin/python3 -c 'import numpy, scipy' >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing python3-scipy"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-scipy >/dev/null; \
	  else \
	    echo "warning: /usr/bin/python3 lacks numpy or scipy; install the Debian package python3-scipy"; \
	  fi; \
	fi

bench-go:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# fuzz runs every fuzz target for FUZZTIME each.
FUZZTIME ?= 30s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done
