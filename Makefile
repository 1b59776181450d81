# dgtd — one binary (bin/dgtd), a static library of everything but main(), and cmocka tests.
#   make            build bin/dgtd
#   make run        run the built-in default case (PEC cavity eigenmode)
#   make test       build and run the test suite; ends with "N passed, N failed"
#   make asan       the same tests under AddressSanitizer + UBSan (objects in build-asan/)
#   make test-all   the test suite plus the slow exhaustive checks (DGTD_TEST_ALL=1)
#   make docs-images  redraw docs/img/ from the shipped sphere case (scripts/render-docs.sh)
#   make install PREFIX=DIR  install bin/dgtd in DIR/bin, its templates, tuning files, the
#                   example cases and the docs in DIR/share/dgtd (where the binary looks;
#                   default /usr/local)
#   make fuzz       libFuzzer harnesses for every reader (tests/fuzz/, clang), each run for
#                   FUZZ_SECONDS (default 60) one after another; not part of make test
#   make test-portable  the full Oclgrind table: covering variants x N=1..3 x precision,
#                   edge sizes, MPI halo kernels, GPU-like limits (DGTD_TEST_PORTABLE=1)
#   make mutate     plant known bugs one at a time in a scratch copy and report which tests
#                   catch each (scripts/mutate.py; every bug must be caught)
#   make test-gpu-isa  every kernel family, N = 1..8, float and double, compiled for NVIDIA
#                   sm_90, AMD gfx90a and Intel PVC/DG2 without the hardware
#                   (scripts/gpu_isa.py; table in bench/results/isa/); make test runs N = 3

CC      ?= cc
BUILD   ?= build
BIN     ?= bin
PKGS     = OpenCL clblast libcjson lapacke cmocka mpich
OPT     ?= -O2
SAN     ?=
CFLAGS  ?=
WARN     = -Wall -Wextra -Werror
ALL_CFLAGS = -std=c11 $(OPT) -g $(WARN) $(SAN) -D_XOPEN_SOURCE=700 \
           -DCL_TARGET_OPENCL_VERSION=120 -Isrc -Icl_templates $(CFLAGS)
# pkg-config is asked in the recipes, after the deps check has installed the packages.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS)) -I/usr/include/scotch
PKG_LIBS   = $(shell pkg-config --libs $(PKGS)) -lscotch -lscotcherr -lm

LIB_SRC  := $(filter-out src/app/main.c,$(wildcard src/*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/*/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
LIB      := $(BUILD)/libdgtd.a
DEPS_OK  := $(BUILD)/.deps-ok

.PHONY: all run test test-all test-portable test-gpu-isa asan clean deps tests docs-images fuzz fuzzers install mutate
all: $(BIN)/dgtd

# Install missing Debian packages (as root) or say exactly what to run.
$(DEPS_OK): scripts/install-deps.sh
	@scripts/install-deps.sh
	@mkdir -p $(@D) && touch $@
deps: $(DEPS_OK)

$(BUILD)/%.o: %.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN)/dgtd: $(BUILD)/src/app/main.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS) $(PKG_LIBS)

$(BUILD)/tests/%: tests/%.c $(wildcard tests/*.h tests/*/*.h) $(LIB) | $(DEPS_OK)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -Itests -MMD -MP -o $@ $< $(LIB) $(LDFLAGS) $(PKG_LIBS)

tests: $(TEST_BIN) $(BIN)/dgtd

run: $(BIN)/dgtd
	$(BIN)/dgtd run

test: tests
	@BUILD=$(BUILD) BIN=$(BIN) tests/run_tests.sh $(TEST_BIN)

test-all: tests
	@DGTD_TEST_ALL=1 BUILD=$(BUILD) BIN=$(BIN) tests/run_tests.sh $(TEST_BIN)

# The binary finds cl_templates/ and tuning/ in ../share/dgtd beside its bin/ directory.
PREFIX  ?= /usr/local
SHARE    = $(DESTDIR)$(PREFIX)/share/dgtd
install: $(BIN)/dgtd
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(SHARE)/cl_templates" "$(SHARE)/tuning" \
	  "$(SHARE)/configs/meshes" "$(SHARE)/docs/img"
	install -m 755 $(BIN)/dgtd "$(DESTDIR)$(PREFIX)/bin/dgtd"
	install -m 644 cl_templates/*.cl cl_templates/*.h "$(SHARE)/cl_templates"
	install -m 644 tuning/*.json "$(SHARE)/tuning"
	install -m 644 configs/*.json configs/README.md "$(SHARE)/configs"
	install -m 644 configs/meshes/*.geo configs/meshes/*.msh "$(SHARE)/configs/meshes"
	install -m 644 README.md "$(SHARE)"
	install -m 644 docs/*.md "$(SHARE)/docs"
	install -m 644 docs/img/*.png "$(SHARE)/docs/img"
	@echo "installed $(DESTDIR)$(PREFIX)/bin/dgtd; templates, tuning files, examples and docs in $(SHARE)"

docs-images: $(BIN)/dgtd
	scripts/render-docs.sh $(BIN)
PORTABLE_BIN := $(filter $(BUILD)/tests/portable/test_portable_%,$(TEST_BIN))
test-portable: $(PORTABLE_BIN) $(BIN)/dgtd
	@DGTD_TEST_PORTABLE=1 BUILD=$(BUILD) BIN=$(BIN) tests/run_tests.sh $(PORTABLE_BIN)

mutate: tests
	@/usr/bin/python3 scripts/mutate.py

test-gpu-isa: $(BIN)/dgtd
	@BUILD=$(BUILD) /usr/bin/python3 scripts/gpu_isa.py --dgtd $(BIN)/dgtd --build $(BUILD)

# Sanitizer build: separate object and binary folders so it never mixes with the normal one.
asan:
	@$(MAKE) --no-print-directory BUILD=build-asan BIN=build-asan/bin OPT=-O1 \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" test

# Fuzzing: the library and the harnesses built by clang with libFuzzer, ASan and UBSan in
# build-fuzz/; then each harness runs for FUZZ_SECONDS (tests/fuzz/run_fuzzers.sh).
FUZZ_SECONDS ?= 60
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_util.h $(LIB) | $(DEPS_OK)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -fsanitize=fuzzer -Itests/fuzz -o $@ $< $(LIB) $(LDFLAGS) $(PKG_LIBS)

fuzzers: $(FUZZ_BIN)

fuzz:
	@$(MAKE) --no-print-directory BUILD=build-fuzz BIN=build-fuzz/bin CC=clang OPT=-O1 \
	  SAN="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=fuzzer,address,undefined" fuzzers
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run_fuzzers.sh build-fuzz/fuzz $(FUZZ_ONLY)

clean:
	rm -rf build build-asan build-fuzz bin

-include $(LIB_OBJ:.o=.d) $(BUILD)/src/app/main.d $(TEST_BIN:=.d)
