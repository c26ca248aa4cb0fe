# ekoc build. `make` builds libekoc (static + shared, the Rust crate embedded),
# `make test` runs cargo tests, the CMocka suite, the install check and the
# Python tests (against eko's stored values), `make test-eko` the side-by-side
# tests with eko computing, `make check-all` everything CI runs (.ci/run),
# `make lha` runs the Les Houches benchmark (`make lh23` its 2023 aN3LO
# sibling), `make install PREFIX=...` installs headers, libraries and ekoc.pc.
# See README.md ("Tests and checks").

SHELL := /bin/bash
export PATH := $(HOME)/.cargo/bin:$(PATH)

CC       ?= gcc
PYTHON   ?= python3
NVCC     ?= nvcc
BACKEND  ?= adaptive
BUILD    ?= build
OPT      ?= -O2
SAN      ?=

# -fno-math-errno: the library never reads errno after a math function, and
# with errno out of the way sqrt is one instruction GCC can vectorise (the
# grouped Magnus steps); the results are the same (correctly rounded either way)
CFLAGS_BASE := -std=c11 -g $(OPT) -fPIC -fopenmp -fno-math-errno -Wall -Wextra -Wshadow -Wno-unused-function \
               -D_GNU_SOURCE -Iinclude -Isrc
ifeq ($(SAN),1)
  CFLAGS_BASE += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
  LDSAN := -fsanitize=address,undefined
  BUILD := build-san
endif
# (The exact g3 and the LHA tables' P_ns^(2)+ constant, once the reference builds
# EKORE_FEATURES=exact-g3 / lha-tables, are the run-time theory.physics now:
# `build/perf/lha --physics exact`, docs/physics.md §12.9.)
CARGO_TARGET := target
CARGO_FLAGS  := --release --offline --quiet --target-dir $(CARGO_TARGET)
CFLAGS  := $(CFLAGS_BASE) $(EXTRA_CFLAGS)
LDLIBS  := -lgsl -lgslcblas -lm -lpthread -ldl -fopenmp $(LDSAN)

RUST_DIR := rust-bridge
RUST_LIB := $(RUST_DIR)/$(CARGO_TARGET)/release/libekore.a
RUST_SRC := $(shell find $(RUST_DIR)/ekore/src -name '*.rs' 2>/dev/null) $(RUST_DIR)/ekore/Cargo.toml $(RUST_DIR)/Cargo.toml

C_SRC   := $(wildcard src/*.c src/*/*.c)
C_OBJ   := $(C_SRC:%.c=$(BUILD)/%.o)
C_DEP   := $(C_OBJ:.o=.d)
LIB_A   := $(BUILD)/libekoc.a
LIB_SO  := $(BUILD)/libekoc.so

# The version has one source, EKOC_VERSION_MAJOR/MINOR/PATCH in include/ekoc.h;
# the shared library's soname carries the major number.
ekoc_version_field = $(shell sed -n 's/^\#define EKOC_VERSION_$(1)[[:space:]]\{1,\}\([0-9]\{1,\}\).*/\1/p' include/ekoc.h)
EKOC_VERSION_MAJOR := $(call ekoc_version_field,MAJOR)
EKOC_VERSION_MINOR := $(call ekoc_version_field,MINOR)
EKOC_VERSION_PATCH := $(call ekoc_version_field,PATCH)
ifeq ($(and $(EKOC_VERSION_MAJOR),$(EKOC_VERSION_MINOR),$(EKOC_VERSION_PATCH)),)
  $(error include/ekoc.h must define EKOC_VERSION_MAJOR, EKOC_VERSION_MINOR and EKOC_VERSION_PATCH as numbers)
endif
EKOC_VERSION := $(EKOC_VERSION_MAJOR).$(EKOC_VERSION_MINOR).$(EKOC_VERSION_PATCH)
EKOC_SONAME  := libekoc.so.$(EKOC_VERSION_MAJOR)

TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
DEPS_OK  := $(BUILD)/.deps-ok

.PHONY: all lib deps rust test test-c test-rust test-python test-eko check-all test-exports test-structure test-install \
        lha lha-time-like lh23 stats header header-check \
        install install-python uninstall uninstall-python \
        check-asan check-valgrind fuzz fuzz-build cuda clean gpu-check
.DEFAULT_GOAL := all

all: lib $(BUILD)/perf/lha $(BUILD)/perf/lha_polarized $(BUILD)/perf/lha_time_like

deps: $(DEPS_OK)
$(DEPS_OK): scripts/setup.sh
	@mkdir -p $(@D)
	bash scripts/setup.sh
	@touch $@

# ---- Rust crate (offline: it has no external crates) -------------------------
rust: $(RUST_LIB)
$(RUST_LIB): $(RUST_SRC) | $(DEPS_OK)
	cd $(RUST_DIR) && cargo build $(CARGO_FLAGS)
	@touch $@

# ---- the generated Rust header (committed; CI checks it is fresh) ------------
CBINDGEN_PIN := 0.24.3
header: | $(DEPS_OK)
	cd $(RUST_DIR)/ekore && cbindgen --config ../cbindgen.toml --quiet --output ../../include/ekore.h .

header-check: | $(DEPS_OK)
	@v=$$(cbindgen --version | awk '{print $$2}'); \
	  if [ "$$v" != "$(CBINDGEN_PIN)" ]; then echo "header-check: cbindgen $$v found, $(CBINDGEN_PIN) pinned" >&2; exit 1; fi
	@tmp=$$(mktemp); (cd $(RUST_DIR)/ekore && cbindgen --config ../cbindgen.toml --quiet --output $$tmp .); \
	  if ! diff -u include/ekore.h $$tmp; then echo "header-check: include/ekore.h is stale; run 'make header'" >&2; rm -f $$tmp; exit 1; fi; \
	  rm -f $$tmp; echo "header-check: include/ekore.h is up to date"

# ---- C library ---------------------------------------------------------------
lib: $(LIB_A) $(LIB_SO)

$(BUILD)/%.o: %.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# The Rust std objects in the staticlib also carry LLVM bitcode (.llvmbc); binutils'
# LLVMgold bfd plugin (LLVM 14) claims them, fails, and ar/ranlib then index no
# symbols for them, so static links miss std. A copy without the bitcode links fine.
RUST_LIB_NOBC := $(BUILD)/libekore_nobc.a
$(RUST_LIB_NOBC): $(RUST_LIB)
	@mkdir -p $(@D)
	objcopy -R .llvmbc -R .llvmcmd $< $@

# libekoc.a carries the Rust objects too, so a C user links one archive.
$(LIB_A): $(C_OBJ) $(RUST_LIB_NOBC)
	@rm -f $@
	@{ echo "create $@"; echo "addlib $(RUST_LIB_NOBC)"; for o in $(C_OBJ); do echo "addmod $$o"; done; echo save; echo end; } | ar -M
	ranlib $@

# libekoc.so exports exactly the functions declared in include/ (src/ekoc.map,
# written by scripts/public_api.py map; `make test-exports` checks both). Its
# soname is libekoc.so.MAJOR (what programs linked against it load); the
# build folder has that name as a link too, so such programs also run from it.
$(LIB_SO): $(C_OBJ) $(RUST_LIB) src/ekoc.map include/ekoc.h
	$(CC) -shared -o $@ $(C_OBJ) -Wl,--whole-archive $(RUST_LIB) -Wl,--no-whole-archive \
	  -Wl,--version-script=src/ekoc.map -Wl,-soname,$(EKOC_SONAME) $(LDLIBS)
	ln -sfn libekoc.so $(@D)/$(EKOC_SONAME)

-include $(C_DEP)

# ---- tests -------------------------------------------------------------------
$(BUILD)/tests/%: tests/%.c $(LIB_A) $(wildcard tests/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests $< -o $@ $(LIB_A) -lcmocka $(LDLIBS) \
	  $(if $(findstring test_hot_alloc,$*),-Wl$(comma)--wrap=malloc -Wl$(comma)--wrap=calloc -Wl$(comma)--wrap=realloc -Wl$(comma)--wrap=free)
comma := ,

test: test-structure test-rust test-c test-exports test-install test-python

test-rust: | $(DEPS_OK)
	cd $(RUST_DIR) && cargo test --release --offline --quiet

test-c: $(TEST_BIN)
	@set -e; for t in $(TEST_BIN); do echo "== $$t"; $$t; done

# what leaves libekoc.so is the public API: every exported symbol is declared in
# include/ and every declared function is exported (skips, saying so, without nm)
# layers one way, files <= 600 lines, every cited document and section exists (docs/architecture.md)
test-structure:
	$(PYTHON) scripts/check_structure.py

test-exports: $(LIB_SO)
	$(PYTHON) scripts/public_api.py check-exports $(LIB_SO)

# install into a scratch prefix, build a C program with pkg-config only (shared
# and static), uninstall (tests/install/check_install.sh; skips without pkg-config)
test-install: lib
	MAKE='$(MAKE)' CC='$(CC)' PYTHON='$(PYTHON)' BUILD='$(BUILD)' EKOC_VERSION='$(EKOC_VERSION)' \
	  EKOC_SONAME='$(EKOC_SONAME)' bash tests/install/check_install.sh

# eko's values come from ffi/tests/data (eko_values.py); the tests marked
# eko_live, where eko itself runs, skip here and run in test-eko
test-python: lib
	@if [ -d ffi/tests ]; then EKOC_LIB=$(abspath $(LIB_SO)) $(PYTHON) -m pytest -q ffi/tests; fi

# the side-by-side tests with eko 0.15.7 computing every value (each must still
# equal the stored one) and the eko_live tests; ~30 s on a warm numba cache,
# ~15 min on a cold one (eko's numba compilation; README.md "Tests and checks")
test-eko: lib
	EKOC_LIB=$(abspath $(LIB_SO)) EKOC_TEST_EKO=live $(PYTHON) -m pytest -q ffi/tests -m "eko_values or eko_live"

# before a release: everything CI runs (.ci/run: test, test-eko, cuda, header-check,
# lha, check-asan, check-valgrind, fuzz)
check-all:
	bash .ci/run

# ---- install (README.md "Installing"; scripts/install.sh does the work) -----------
# make install PREFIX=/opt/ekoc [LIBDIR=...] [INCLUDEDIR=...] [DESTDIR=/stage]
#                               [PYTHON_INSTALL=1 [PYTHON=...] [PIP_FLAGS=...]]
# make install-python (the Python package, bundling the installed libekoc.so)
# make uninstall PREFIX=... [DESTDIR=...] (what install listed in
#   $(PREFIX)/share/ekoc/install_manifest.txt, and the Python package if recorded)
# PREFIX and DESTDIR may come from the environment (conda-build, packaging
# tools set them); LIBDIR and INCLUDEDIR only from the command line
PREFIX         ?= /usr/local
LIBDIR          = $(PREFIX)/lib
INCLUDEDIR      = $(PREFIX)/include
DESTDIR        ?=
PYTHON_INSTALL ?= 0
PIP_FLAGS      ?=
INSTALL_ENV = PREFIX='$(PREFIX)' LIBDIR='$(LIBDIR)' INCLUDEDIR='$(INCLUDEDIR)' DESTDIR='$(DESTDIR)' \
              BUILD='$(BUILD)' PYTHON='$(PYTHON)' PIP_FLAGS='$(PIP_FLAGS)' \
              EKOC_VERSION='$(EKOC_VERSION)' EKOC_SONAME='$(EKOC_SONAME)'

install: lib
	$(INSTALL_ENV) bash scripts/install.sh install
ifeq ($(PYTHON_INSTALL),1)
	$(INSTALL_ENV) bash scripts/install.sh install-python
endif

install-python:
	$(INSTALL_ENV) bash scripts/install.sh install-python

uninstall:
	$(INSTALL_ENV) bash scripts/install.sh uninstall

uninstall-python:
	$(INSTALL_ENV) bash scripts/install.sh uninstall-python

# ---- benchmark -----------------------------------------------------------------
$(BUILD)/perf/lha: perf/lha_tables.h perf/lha_exceptions.h perf/lha_hoppet_ref.h perf/lha_common.h
$(BUILD)/perf/lha_polarized: perf/lha_polarized_tables.h perf/lha_common.h
$(BUILD)/perf/lha_time_like: perf/lha_time_like_ref.h perf/lha_common.h
$(BUILD)/perf/bench_batch: perf/lha_common.h
$(BUILD)/perf/%: perf/%.c $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< -o $@ $(LIB_A) $(LDLIBS)

# both runs: eko's settings (reproduces eko), then the converged settings
# (reproduces the tables' digits; perf/lha.c, perf/lha_exceptions.h); then the
# polarized parts, tables 16-18 of hep-ph/0511119, the same two ways (perf/lha_polarized.c)
# The converged runs use the N-space backend (parts multiplied in N-space,
# one inversion per target: docs/physics.md §3.2) unless CONVERGED_BACKEND
# says otherwise (batch: eko's x-space products; the adaptive driver takes
# minutes at these settings).
# PHYSICS=exact runs every part with the tables' physics instead of eko's
# (theory.physics: the exact g3(N) and the exact NNLO splitting functions,
# docs/physics.md §12.9; the summary lines end in physics=exact).
CONVERGED_BACKEND ?= nspace
PHYSICS ?= eko
lha: $(BUILD)/perf/lha $(BUILD)/perf/lha_polarized $(BUILD)/perf/lha_time_like
	$(BUILD)/perf/lha --backend $(BACKEND) --physics $(PHYSICS)
	$(BUILD)/perf/lha --backend $(CONVERGED_BACKEND) --settings converged --physics $(PHYSICS)
	$(BUILD)/perf/lha_polarized --backend $(BACKEND) --physics $(PHYSICS)
	$(BUILD)/perf/lha_polarized --backend $(CONVERGED_BACKEND) --settings converged --physics $(PHYSICS)
	$(BUILD)/perf/lha_time_like --backend $(BACKEND) --physics $(PHYSICS)
	$(BUILD)/perf/lha_time_like --backend $(CONVERGED_BACKEND) --settings converged --physics $(PHYSICS)

# the time-like parts alone (perf/lha_time_like.c: against a converged HOPPET reference)
lha-time-like: $(BUILD)/perf/lha_time_like
	$(BUILD)/perf/lha_time_like --backend $(BACKEND) --physics $(PHYSICS)
	$(BUILD)/perf/lha_time_like --backend $(CONVERGED_BACKEND) --settings converged --physics $(PHYSICS)

# the Les Houches 2023 aN3LO benchmark, arXiv:2406.16188 (perf/lh23.py,
# docs/benchmarks.md): ekoc against eko's and MSHT's tables of the study
lh23: lib
	EKOC_LIB=$(abspath $(LIB_SO)) $(PYTHON) perf/lh23.py --backend $(BACKEND)

stats: $(BUILD)/perf/lha
	bash perf/stats.sh $(BUILD)/perf/lha $(BACKEND)

# ---- reliability checks (issue 7) -------------------------------------------------
# check-asan:     the C tests and a short LHA run built with ASan+UBSan in $(SAN_BUILD);
# check-valgrind: the plain build's C tests and one LHA part under memcheck (no
#                 invalid access, no definite/indirect leak);
# fuzz:           the libFuzzer harnesses tests/fuzz/fuzz_*.c, built with clang, ASan
#                 and UBSan in $(FUZZ_BUILD), each run for FUZZ_SECONDS seconds on a
#                 scratch corpus seeded from tests/fuzz/corpus/<harness>.
SAN_BUILD          ?= build-san
LHA_ASAN_PARTS     ?= 2/2,14/1
LHA_VALGRIND_PARTS ?= 2/2
SAN_ENV  := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
            UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
VALGRIND := EKOC_TEST_UNDER_VALGRIND=1 OMP_WAIT_POLICY=passive valgrind --tool=memcheck --error-exitcode=1 --leak-check=full \
            --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect --quiet

check-asan: | $(DEPS_OK)
	$(SAN_ENV) $(MAKE) --no-print-directory SAN=1 BUILD=$(SAN_BUILD) test-c $(SAN_BUILD)/perf/lha
	$(SAN_ENV) $(SAN_BUILD)/perf/lha --quiet --threads 2 --parts $(LHA_ASAN_PARTS)
	@echo "check-asan: no ASan/UBSan finding"

# test_operator (~10 s of CPU natively, ~8 min under memcheck), test_batch_engine
# (4 s natively) and test_engine_property (~35 s natively: random cards against
# dense references) run under ASan (check-asan) instead.
VALGRIND_SKIP  ?= test_operator test_batch_engine test_engine_property
VALGRIND_TESTS := $(filter-out $(VALGRIND_SKIP:%=$(BUILD)/tests/%),$(TEST_BIN))

check-valgrind: $(VALGRIND_TESTS) $(BUILD)/perf/lha
	@set -e; for t in $(VALGRIND_TESTS); do SECONDS=0; $(VALGRIND) $$t > $$t.valgrind.log 2>&1 || \
	  { cat $$t.valgrind.log; echo "check-valgrind: $$t failed" >&2; exit 1; }; echo "== valgrind $$t: clean ($${SECONDS} s)"; done
	$(VALGRIND) $(BUILD)/perf/lha --quiet --threads 2 --parts $(LHA_VALGRIND_PARTS) | tail -1
	@echo "check-valgrind: no memcheck finding"

FUZZ_BUILD   ?= build-fuzz
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 60
FUZZ_SRC     := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN     := $(FUZZ_SRC:tests/fuzz/%.c=$(FUZZ_BUILD)/%)
FUZZ_OBJ     := $(C_SRC:%.c=$(FUZZ_BUILD)/%.o)
# OpenMP pragmas are off in the fuzz build (-fopenmp=libgomp: clang only links
# libgomp), so every execution is single-threaded; tests/fuzz/include/omp.h
# declares the runtime functions.
FUZZ_CFLAGS  := -std=c11 -g -O2 -fPIC -fopenmp=libgomp -Wall -Wextra -Wshadow -Wno-unused-function \
                -Wno-unused-variable -Wno-unknown-pragmas -D_GNU_SOURCE -Itests/fuzz/include -Iinclude -Isrc \
                -Itests/fuzz -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

$(FUZZ_BUILD)/src/%.o: src/%.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

# the ekore crate with libFuzzer's coverage instrumentation (8-bit counters, PC
# table, comparison tracing), so that the fuzzers also see the branches of the
# Rust code; its own target dir, the normal build is untouched
FUZZ_RUSTFLAGS := -C passes=sancov-module -C llvm-args=-sanitizer-coverage-level=3 \
                  -C llvm-args=-sanitizer-coverage-inline-8bit-counters -C llvm-args=-sanitizer-coverage-pc-table \
                  -C llvm-args=-sanitizer-coverage-trace-compares
$(FUZZ_BUILD)/libekore_nobc.a: $(RUST_SRC) | $(DEPS_OK)
	@mkdir -p $(@D)
	cd $(RUST_DIR) && RUSTFLAGS="$(FUZZ_RUSTFLAGS)" cargo build --release --offline --quiet \
	  --target-dir $(abspath $(FUZZ_BUILD))/rust-target
	objcopy -R .llvmbc -R .llvmcmd $(FUZZ_BUILD)/rust-target/release/libekore.a $@

# keep the objects (they are only prerequisites of a pattern rule)
.SECONDARY: $(FUZZ_OBJ) $(FUZZ_BUILD)/libekore_nobc.a

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_input.h $(FUZZ_OBJ) $(FUZZ_BUILD)/libekore_nobc.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< -o $@ $(FUZZ_OBJ) $(FUZZ_BUILD)/libekore_nobc.a \
	  -lgsl -lgslcblas -lm -lpthread -ldl -lgomp

-include $(FUZZ_OBJ:.o=.d)

fuzz-build: $(FUZZ_BIN)

fuzz: $(FUZZ_BIN)
	@set -e; for b in $(FUZZ_BIN); do n=$$(basename $$b); \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$n $(FUZZ_BUILD)/artifacts tests/fuzz/corpus/$$n; \
	  echo "== $$n: $(FUZZ_SECONDS) s"; rc=0; \
	  $(SAN_ENV) $$b -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 \
	    -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/artifacts/$$n- \
	    $(FUZZ_BUILD)/corpus/$$n tests/fuzz/corpus/$$n > $(FUZZ_BUILD)/$$n.log 2>&1 || rc=$$?; \
	  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)" $(FUZZ_BUILD)/$$n.log || true; \
	  if [ $$rc -ne 0 ]; then tail -40 $(FUZZ_BUILD)/$$n.log; echo "fuzz: $$n failed (rc $$rc), input in $(FUZZ_BUILD)/artifacts/" >&2; exit 1; fi; \
	done; echo "fuzz: no crash in $(words $(FUZZ_BIN)) harnesses"

# ---- CUDA (optional): libekoc_cuda.so, dlopen'ed by the gpu backend ---------------
# `make cuda` builds it with nvcc (sm_90 SASS for H100/H200 plus compute_80 PTX,
# which the driver JIT-compiles for any newer card); without nvcc it says so and
# succeeds, and the gpu backend then reports EKOC_ERR_NO_DEVICE at run time.
CUDA_HOME    ?= /usr/local/cuda
NVCC_FOUND   := $(shell command -v $(NVCC) 2>/dev/null || { test -x $(CUDA_HOME)/bin/nvcc && echo $(CUDA_HOME)/bin/nvcc; })
CUDA_GENCODE ?= -gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=compute_80
CUDA_LIB     := $(BUILD)/libekoc_cuda.so
CUDA_DEPS    := src/gpu/ekoc_cuda.cu $(wildcard src/gpu/*.h src/ad/*.h src/quad/*.h include/*.h include/ekoc/*.h)

cuda:
	@if [ -z "$(NVCC_FOUND)" ]; then \
	  echo "make cuda: nvcc not found (NVCC=$(NVCC), CUDA_HOME=$(CUDA_HOME)); libekoc_cuda.so not built, backend gpu will report EKOC_ERR_NO_DEVICE"; \
	else $(MAKE) --no-print-directory $(CUDA_LIB) NVCC_BIN=$(NVCC_FOUND); fi

# --fmad=false: the device does the host's operation sequence (no FMA contraction)
$(CUDA_LIB): $(CUDA_DEPS)
	@mkdir -p $(@D)
	$(NVCC_BIN) -O3 -std=c++17 --fmad=false -Xcompiler -fPIC,-fvisibility=hidden,-Wall,-Wextra -shared \
	  $(CUDA_GENCODE) -Iinclude -Isrc $< -o $@ -cudart static

# the batch driver's inner loops are short fixed-length loops: -O3 unrolls them
# (11% fewer instructions on the LHA parts, same bits)
$(BUILD)/src/quad/batch.o: CFLAGS += -O3
$(BUILD)/src/quad/batch_eval.o: CFLAGS += -O3
# the block products of the composition are dense n x n matrix products: -O3 vectorises them
$(BUILD)/src/evol/blockop.o: CFLAGS += -O3
# the flavour-basis expansion's row sums (dst[y] += w s[y]): -O2 leaves them scalar
$(BUILD)/src/evol/operator.o: CFLAGS += -O3
# the QED group kernels' lane loops carry per-lane selections: -O2 leaves half of them scalar
$(BUILD)/src/ad/kernel_qed_batch.o: CFLAGS += -O3

gpu-check:
	bash perf/gpu_check.sh

# (build-exact-g3, build-lha-tables and their target-* folders: left by the former reference builds)
clean:
	rm -rf build build-san build-cuda build-fuzz build-exact-g3 build-lha-tables $(RUST_DIR)/target $(RUST_DIR)/target-exact-g3 $(RUST_DIR)/target-lha-tables
