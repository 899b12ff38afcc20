# halfspace -- GNU make build.
#
#   make            library build/libhalfspace.a (+ .so) and CLI build/halfspace
#   make demo       install missing packages (as root), build, run the bundled examples
#   make check      install missing packages (as root), run every test: unit tests,
#                   CLI tests, valgrind on the CLI tests, then all tests again under
#                   AddressSanitizer + UndefinedBehaviorSanitizer (build-san/), the
#                   soak test and a short fuzzing run (make fuzz-check)
#   make fuzz       every reader fuzzed FUZZ_SECONDS (default 60) seconds (clang)
#   make soak       10^6 queries through the API, resident memory must stay flat
#   make bench      benchmark programs and bench/RESULTS.md
#   make install    PREFIX=/usr/local (library, header, CLI, halfspace.pc)
#   make clean

PREFIX  ?= /usr/local
BUILD   ?= build
CC      ?= cc
CFLAGS  ?= -O2 -g
SANITIZE ?= 0

WARN    := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
DEFS    := -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
INC     := -Iinclude -I.
ifeq ($(SANITIZE),1)
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif
ALL_CFLAGS := $(WARN) $(DEFS) $(INC) $(CFLAGS) $(SANFLAGS) -fPIC -MMD -MP
ALL_CFLAGS += -fvisibility=hidden # the .so exports only the HS_API (hs_) functions
LDLIBS  := -lglpk -lgmp -lm -lpthread
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm -lpthread)

LIB_SRC := $(wildcard polytope/*.c) $(wildcard solver/*.c) \
           $(filter-out src/cli/%,$(wildcard src/*/*.c))
CLI_SRC := $(wildcard src/cli/*.c)
TEST_SRC := $(wildcard tests/test_*.c) tests/helpers.c tests/oracle.c
# Benchmark helpers that have unit tests of their own (tests/test_pdb.c,
# tests/test_tangent.c), compiled with the library's flags.
TEST_BENCH_SRC := bench/pdb.c bench/tangent.c

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o) $(TEST_BENCH_SRC:%.c=$(BUILD)/%.o)

LIBA  := $(BUILD)/libhalfspace.a
LIBSO := $(BUILD)/libhalfspace.so
CLI   := $(BUILD)/halfspace
UNIT  := $(BUILD)/unit_tests

.PHONY: all demo check bench bench-deps install clean deps unit-run cli-run layout-run valgrind-run san-run crosscheck-run slow-rest
all: $(LIBA) $(LIBSO) $(CLI)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIBA): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(LIBSO): $(LIB_OBJ)
	$(CC) -shared $(SANFLAGS) -o $@ $^ $(LDLIBS)

$(CLI): $(CLI_OBJ) $(LIBA)
	$(CC) $(SANFLAGS) -o $@ $(CLI_OBJ) $(LIBA) $(LDLIBS)

# The suite list of tests/test_main.c, generated from the test files.
$(BUILD)/tests/suites.inc: $(filter-out tests/test_main.c,$(wildcard tests/test_*.c))
	@mkdir -p $(dir $@)
	@cat $^ /dev/null | sed -n 's/^Suite \*\(suite_[A-Za-z0-9_]*\)(void).*/SUITE(\1)/p' > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp
$(BUILD)/tests/test_main.o: $(BUILD)/tests/suites.inc
$(BUILD)/tests/test_main.o: ALL_CFLAGS += -I$(BUILD)/tests

$(UNIT): $(TEST_OBJ) $(LIBA)
	$(CC) $(SANFLAGS) -o $@ $(TEST_OBJ) $(LIBA) $(CHECK_LIBS) $(LDLIBS)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d)

# ---------------------------------------------------------------- deps
# Debian packages needed to build and test.  As root with apt-get they are
# installed; otherwise the exact command is printed and make stops.
DEB_PKGS := libgmp-dev libglpk-dev check pkg-config valgrind
define need_header
echo '#include <$(1)>' | $(CC) -E -x c - >/dev/null 2>&1 || missing="$$missing $(2)";
endef
define install_or_explain
if [ -n "$$missing" ]; then \
  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
    echo "deps: installing$$missing"; \
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
  else \
    echo "deps: missing packages:$$missing"; \
    echo "deps: run: sudo apt-get update && sudo apt-get install -y$$missing"; exit 1; \
  fi; \
fi
endef

deps:
	@missing=""; \
	$(call need_header,gmp.h,libgmp-dev) \
	$(call need_header,glpk.h,libglpk-dev) \
	$(call need_header,check.h,check) \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	command -v valgrind >/dev/null 2>&1 || missing="$$missing valgrind"; \
	$(install_or_explain)

# Packages of the benchmarks only: the peers we measure against.
bench-deps:
	@missing=""; \
	$(call need_header,ccd/ccd.h,libccd-dev) \
	echo '#include <fcl/fcl.h>' | g++ -std=c++17 -E -x c++ -I/usr/include/eigen3 - >/dev/null 2>&1 \
	  || missing="$$missing libfcl-dev g++"; \
	$(install_or_explain)

# ---------------------------------------------------------------- demo
demo: deps
	@$(MAKE) --no-print-directory all
	@sh examples/demo.sh $(CLI)

# ---------------------------------------------------------------- tests
unit-run: $(UNIT) $(CLI)
	HS_CLI=$(CLI) HS_EXAMPLES=examples $(UNIT)

cli-run: $(CLI)
	sh tests/cli_tests.sh $(CLI)

# The house rules: floors, no circles, only hs_ exported, file sizes, names.
layout-run: all
	python3 tests/layout_check.py $(BUILD)

valgrind-run: $(CLI)
	HS_VALGRIND=1 sh tests/cli_tests.sh $(CLI)

# The cross-check bar: exact engine vs glp_exact, 0 disagreements on 10,000.
crosscheck-run: $(CLI)
	$(CLI) crosscheck --count 10000 --seed 1 | tail -n 1 | tee $(BUILD)/crosscheck.txt
	grep -qx 'crosscheck: 10000 instances, 0 disagreements' $(BUILD)/crosscheck.txt

# The slow parts (valgrind on the CLI tests; the 10,000-instance
# cross-check, then the sanitizer build and its tests) run side by side on
# two CPUs, each job's output kept together.
check: deps
	@$(MAKE) --no-print-directory all $(UNIT)
	@$(MAKE) --no-print-directory unit-run cli-run layout-run
	@$(MAKE) --no-print-directory -j2 --output-sync=target valgrind-run slow-rest
	@echo "check: all tests passed"

slow-rest:
	@$(MAKE) --no-print-directory crosscheck-run
	@$(MAKE) --no-print-directory san-run
	@$(MAKE) --no-print-directory soak fuzz-check

san-run:
	@$(MAKE) --no-print-directory BUILD=build-san SANITIZE=1 CFLAGS="-O1 -g" unit-run cli-run

# ---------------------------------------------------------------- bench
bench: deps bench-deps all
	@$(MAKE) --no-print-directory -C . -f bench/bench.mk BUILD=$(BUILD)

# ================================================================ fuzzing
# libFuzzer harnesses, one per reader (fuzz/fuzz_<name>.c), built with
# clang, AddressSanitizer and UndefinedBehaviorSanitizer in build-fuzz/.
#   make fuzz         each harness fuzzed FUZZ_SECONDS seconds (default 60),
#                     starting from fuzz/corpus/<name> and fuzz/crashes/<name>;
#                     new inputs go to build-fuzz/corpus/<name>, a crash to
#                     build-fuzz/crashes/<name>/ (and make stops)
#   make fuzz-check   (run by make check) every input of fuzz/corpus/<name>
#                     and fuzz/crashes/<name> replayed, then each harness
#                     fuzzed FUZZ_CHECK_SECONDS seconds (default 10)
# A crash, once fixed, has its input committed to fuzz/crashes/<name>/ as a
# regression input.  URDF: when its reader exists, add "urdf" to
# FUZZ_TARGETS, with fuzz/fuzz_urdf.c and seeds in fuzz/corpus/urdf/.
FUZZ_TARGETS := ine cert batch chain vrml obj off stl
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_CHECK_SECONDS ?= 10
FUZZ_BUILD := build-fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := $(WARN) $(DEFS) $(INC) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link -MMD -MP
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o) $(FUZZ_BUILD)/src/cli/batch_list.o
FUZZ_UTIL_OBJ := $(FUZZ_BUILD)/fuzz/fuzz_util.o $(FUZZ_BUILD)/fuzz/fuzz_mesh.o
FUZZ_BIN := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
# each input: at most 8 KB, 20 s, 2 GB
FUZZ_OPTS := -max_len=8192 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1

.PHONY: fuzz fuzz-check fuzz-build fuzz-deps

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/libfuzzhs.a: $(FUZZ_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/fuzz/fuzz_%.o $(FUZZ_UTIL_OBJ) $(FUZZ_BUILD)/libfuzzhs.a
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

-include $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_UTIL_OBJ:.o=.d) $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz/fuzz_%.d)

# clang with libFuzzer: installed as root with apt-get, else the command
# is printed and make stops (needed by the fuzz targets only).
fuzz-deps:
	@missing=""; \
	printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }\n' \
	  | $(FUZZ_CC) -fsanitize=fuzzer,address,undefined -x c - -o $(FUZZ_BUILD)-probe \
	  >/dev/null 2>&1 || missing="$$missing clang"; \
	rm -f $(FUZZ_BUILD)-probe; \
	$(install_or_explain)

fuzz-build: $(FUZZ_BIN)

# fuzz_run NAME SECONDS OUTPUT-CORPUS: one harness, its log kept in
# build-fuzz/NAME.log, the last lines shown when it fails.
define fuzz_run
mkdir -p $(3) $(FUZZ_BUILD)/crashes/$(1); \
$(FUZZ_BUILD)/fuzz_$(1) $(FUZZ_OPTS) -max_total_time=$(2) \
  -artifact_prefix=$(FUZZ_BUILD)/crashes/$(1)/ $(3) fuzz/corpus/$(1) fuzz/crashes/$(1) \
  >$(FUZZ_BUILD)/$(1).log 2>&1 \
  || { tail -n 40 $(FUZZ_BUILD)/$(1).log; echo "fuzz: $(1) FAILED (input in $(FUZZ_BUILD)/crashes/$(1)/)"; exit 1; }; \
echo "fuzz: $(1): $$(sed -n 's/^stat::number_of_executed_units: *//p' $(FUZZ_BUILD)/$(1).log) runs in $(2) s, no finding"
endef

fuzz: deps fuzz-deps
	@$(MAKE) --no-print-directory fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  $(call fuzz_run,$$t,$(FUZZ_SECONDS),$(FUZZ_BUILD)/corpus/$$t) || exit 1; \
	done

fuzz-check: fuzz-deps
	@$(MAKE) --no-print-directory fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  rm -rf $(FUZZ_BUILD)/check/$$t; \
	  $(call fuzz_run,$$t,$(FUZZ_CHECK_SECONDS),$(FUZZ_BUILD)/check/$$t) || exit 1; \
	done

# ================================================================ soak
# 10^6 queries through the API in one process; fails if the resident
# memory grows (tests/soak.c).  About 5 s; run by make check.
SOAK := $(BUILD)/soak
.PHONY: soak
$(SOAK): tests/soak.c $(LIBA)
	$(CC) $(ALL_CFLAGS) $(SANFLAGS) -o $@ tests/soak.c $(LIBA) $(LDLIBS)

soak: $(SOAK)
	$(SOAK) 1000000
# ============================================================ end fuzzing, soak

# ---------------------------------------------------------------- install
install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
	           $(DESTDIR)$(PREFIX)/include/halfspace \
	           $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(LIBA) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIBSO) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/halfspace.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 include/halfspace/*.h $(DESTDIR)$(PREFIX)/include/halfspace/
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/
	version=$$(sed -n 's/^#define HS_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9][0-9]*\)$$/\2/p' \
	  include/halfspace.h | paste -s -d . -); \
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
	  'Name: halfspace' 'Description: exact intersection of convex polyhedra given by linear inequalities' \
	  "Version: $$version" 'Libs: -L$${libdir} -lhalfspace' 'Libs.private: -lglpk -lgmp -lm -lpthread' \
	  'Cflags: -I$${includedir}' > $(DESTDIR)$(PREFIX)/lib/pkgconfig/halfspace.pc

clean:
	rm -rf build build-san build-fuzz bench/out
