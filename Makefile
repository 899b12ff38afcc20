# halfspace -- GNU make build.
#
#   make            library build/libhalfspace.a and build/libhalfspace.so.VERSION
#                   (SONAME libhalfspace.so.MAJOR, with the two symlinks), CLI
#                   build/halfspace; missing packages: installed as root, else
#                   the apt-get command is printed and make stops
#   make python     the Python package in build/python/halfspace (cffi, API mode;
#                   import it with PYTHONPATH=build/python, no install needed)
#   make demo       install missing packages (as root), build, run the bundled examples
#   make check      install missing packages (as root), run every test, each phase
#                   announced as it starts: unit tests, CLI tests, README
#                   examples, layout rules,
#                   the OMPL example, then side by side (a) valgrind on the CLI
#                   tests, batch/world with 8 threads under ThreadSanitizer
#                   (make tsan, build-tsan/), an install into a temporary
#                   prefix used from C, the CLI and Python (make
#                   install-check) and the soak test, (b) the
#                   cross-check, 20 s of differential fuzzing (fuzz-diff-check),
#                   the C and CLI tests under AddressSanitizer +
#                   UndefinedBehaviorSanitizer (build-san/), the Python and
#                   picture tests and a short run of every reader's fuzzer
#                   (make fuzz-check, build-fuzz/); 6 to 7.5 minutes on 2 cores
#   make check-quick  unit and CLI tests only (under a minute once built)
#   make tsan       ThreadSanitizer build, batch and world queries with 8 threads
#   make fuzz       every reader fuzzed FUZZ_SECONDS (default 60) seconds (clang),
#                   then the answers (fuzz-diff) as long
#   make fuzz-diff  differential fuzzing of answers for FUZZ_DIFF_SECONDS (600)
#   make soak       10^6 queries through the API, resident memory must stay flat
#   make bench      benchmark programs and bench/RESULTS.md, then make plots
#   make plots      bench/plots/*.svg from the RESULT lines of bench/RESULTS.md
#   make install    PREFIX=/usr/local DESTDIR= (library, headers, CLI, halfspace.pc,
#                   and the Python package when the Debian python has cffi and numpy)
#   make install-python   the Python package alone (into PYTHON_SITE)
#   make uninstall  PREFIX=/usr/local DESTDIR= (removes what install put there)
#   make clean

PREFIX  ?= /usr/local
BUILD   ?= build
CC      ?= cc
CFLAGS  ?= -O2 -g
SANITIZE ?= 0
# The Python the package is built for: Debian's (python3-cffi, python3-numpy),
# not whatever python3 comes first on PATH.
PYTHON  ?= /usr/bin/python3

# The version, written once: the HS_VERSION_* macros of include/halfspace.h.
HS_VERSION := $(shell sed -n 's/^\#define HS_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9][0-9]*\)$$/\2/p' \
                include/halfspace.h | paste -s -d . -)
HS_MAJOR   := $(firstword $(subst ., ,$(HS_VERSION)))

WARN    := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
DEFS    := -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
INC     := -Iinclude -I.
ifeq ($(SANITIZE),1)
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif
ifeq ($(SANITIZE),thread)
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
endif
ALL_CFLAGS := $(WARN) $(DEFS) $(INC) $(CFLAGS) $(SANFLAGS) -fPIC -MMD -MP
ALL_CFLAGS += -fvisibility=hidden # the .so exports only the HS_API (hs_) functions
# URDF robots: libxml2 for the XML, Assimp for mesh formats beyond STL/OBJ/OFF.
XML_CFLAGS := $(shell pkg-config --cflags libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2)
XML_LIBS   := $(shell pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2)
ASSIMP_LIBS := $(shell pkg-config --libs assimp 2>/dev/null || echo -lassimp)
ALL_CFLAGS += $(XML_CFLAGS)
LDLIBS  := $(XML_LIBS) $(ASSIMP_LIBS) -lglpk -lgmp -lm -lpthread
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm -lpthread)

LIB_SRC := $(wildcard polytope/*.c) $(wildcard solver/*.c) \
           $(filter-out src/cli/% src/draw/%,$(wildcard src/*/*.c))
CLI_SRC := $(wildcard src/cli/*.c)
TEST_SRC := $(wildcard tests/test_*.c) tests/helpers.c tests/oracle.c
# Benchmark helpers that have unit tests of their own (tests/test_pdb.c,
# tests/test_tangent.c), compiled with the library's flags.
TEST_BENCH_SRC := bench/pdb.c bench/tangent.c bench/families.c bench/families_rest.c

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o) $(TEST_BENCH_SRC:%.c=$(BUILD)/%.o)

# The Python package (python/): its modules, the cffi module's C source
# generated from the headers, and where the Debian python keeps its headers
# and extension suffix (evaluated only when a recipe needs them).
PY_SRC   := $(wildcard python/halfspace/*.py)
PY_BUILD := $(BUILD)/python
PY_STAMP := $(PY_BUILD)/halfspace/.built
PY_INC    = $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)
PY_EXT    = $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
PY_VER    = $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
# The generated C is cffi's (not ours): -Wall -Wextra clean, not -Wpedantic.
PY_CFLAGS := -O2 -g -fPIC -Wall -Wextra -fvisibility=hidden

# ---------------------------------------------------------------- pictures
# Pictures (issue 17): src/draw/ draws with cairo and is linked into the
# CLI only, so the library and the programs using it need no cairo.
# Fonts: DejaVu Sans (fonts-dejavu-core).  The picture tests: pictures-run.
DRAW_SRC := $(wildcard src/draw/*.c)
DRAW_OBJ := $(DRAW_SRC:%.c=$(BUILD)/%.o)
CAIRO_CFLAGS := $(patsubst -I%,-isystem %,$(shell pkg-config --cflags cairo fontconfig 2>/dev/null))
DRAW_LIBS := $(shell pkg-config --libs cairo fontconfig 2>/dev/null || echo -lcairo -lfontconfig)
$(DRAW_OBJ): ALL_CFLAGS += $(CAIRO_CFLAGS)
CLI_OBJ += $(DRAW_OBJ)

LIBA  := $(BUILD)/libhalfspace.a
LIBSO := $(BUILD)/libhalfspace.so
SONAME := libhalfspace.so.$(HS_MAJOR)
LIBSO_REAL := $(BUILD)/libhalfspace.so.$(HS_VERSION)
CLI   := $(BUILD)/halfspace
UNIT  := $(BUILD)/unit_tests

.PHONY: all demo check bench bench-deps install install-lib install-python uninstall clean \
        deps build-deps python-deps python unit-run cli-run python-run layout-run \
        valgrind-run san-run crosscheck-run readme-run ompl-run fuzz-diff fuzz-diff-check \
        tsan tsan-run install-check check-quick check-slow-a check-slow-b
all: build-deps $(LIBA) $(LIBSO) $(BUILD)/$(SONAME) $(CLI)
.PHONY: pictures-run plots plots-deps

# Every object waits for the check of the build packages (order only: it
# never makes an object out of date).
$(BUILD)/%.o: %.c | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIBA): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# The shared library: the real file carries the full version, its SONAME the
# major one; libhalfspace.so.MAJOR (run time) and libhalfspace.so (-lhalfspace
# at link time) are symlinks to it.
$(LIBSO_REAL): $(LIB_OBJ)
	$(CC) -shared $(SANFLAGS) -Wl,-soname,$(SONAME) -o $@ $^ $(LDLIBS)

$(BUILD)/$(SONAME) $(LIBSO): $(LIBSO_REAL)
	ln -sf $(notdir $(LIBSO_REAL)) $@

$(CLI): $(CLI_OBJ) $(LIBA)
	$(CC) $(SANFLAGS) -o $@ $(CLI_OBJ) $(LIBA) $(LDLIBS) $(DRAW_LIBS)

# The suite list of tests/test_main.c, generated from the test files.  Made
# on every run (FORCE) but rewritten only when it changes, so that a test
# file removed since the last build leaves no stale suite behind.
SUITE_SRC := $(filter-out tests/test_main.c,$(wildcard tests/test_*.c))
$(BUILD)/tests/suites.inc: $(SUITE_SRC) FORCE
	@mkdir -p $(dir $@)
	@cat $(SUITE_SRC) /dev/null | sed -n 's/^Suite \*\(suite_[A-Za-z0-9_]*\)(void).*/SUITE(\1)/p' > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp
$(BUILD)/tests/test_main.o: $(BUILD)/tests/suites.inc
.PHONY: FORCE
FORCE:
$(BUILD)/tests/test_main.o: ALL_CFLAGS += -I$(BUILD)/tests

$(UNIT): $(TEST_OBJ) $(LIBA)
	$(CC) $(SANFLAGS) -o $@ $(TEST_OBJ) $(LIBA) $(CHECK_LIBS) $(LDLIBS)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d)

# ---------------------------------------------------------------- python
# The package as used in place (make check, examples): build/python/halfspace,
# its extension linked to $(BUILD)/libhalfspace.so.MAJOR by an rpath to
# $(BUILD).  `make install` builds a second copy whose rpath is $(PREFIX)/lib.
#   $(call py_module,OUTDIR,RPATH)
define py_module
	@mkdir -p $(1)/halfspace
	$(PYTHON) python/build_ffi.py $(1)/_halfspace_cffi.c include
	$(CC) $(PY_CFLAGS) -I"$(PY_INC)" -Iinclude -shared -o $(1)/halfspace/_halfspace_cffi$(PY_EXT) \
	  $(1)/_halfspace_cffi.c -L$(BUILD) -lhalfspace -Wl,-rpath,$(2)
	cp $(PY_SRC) $(1)/halfspace/
endef

python: $(PY_STAMP)

$(PY_STAMP): $(PY_SRC) python/build_ffi.py include/halfspace.h $(wildcard include/halfspace/*.h) \
             $(LIBSO) $(BUILD)/$(SONAME) | python-deps
	$(call py_module,$(PY_BUILD),$(abspath $(BUILD)))
	@touch $@

# ---------------------------------------------------------------- examples
# The OMPL planner client (C++, Debian's libompl-dev): RRTConnect plans the
# Panda of the real data set (../shared/data, or HS_DATA) around a table and
# a shelf; make check runs it (a named skip when the data set is missing).
CXX      ?= g++
HS_DATA  ?= ../shared/data
OMPL_INC := $(patsubst -I%,-isystem %,$(filter -I%,$(shell pkg-config --cflags ompl 2>/dev/null)))
OMPL_INC := $(if $(OMPL_INC),$(OMPL_INC),-isystem /usr/include/ompl-1.5 -isystem /usr/include/eigen3)
OMPL_PANDA := $(BUILD)/examples/ompl_panda

$(OMPL_PANDA): examples/ompl_panda/ompl_panda.cpp $(LIBA) include/halfspace.h include/halfspace/robot.h
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -g -Wall -Wextra -Wpedantic -Iinclude $(OMPL_INC) $(SANFLAGS) \
	  -o $@ $< $(LIBA) -lompl $(LDLIBS)

ompl-run: $(OMPL_PANDA)
	@urdf=$(HS_DATA)/urdf/franka_panda/panda.urdf; \
	if [ -f "$$urdf" ]; then \
	  $(OMPL_PANDA) "$$urdf" examples/ompl_panda/table_shelf.wrl || exit 1; \
	else \
	  echo "SKIP ompl_panda: $$urdf not found (the real data set is missing)"; \
	fi

# ---------------------------------------------------------------- deps
# Debian packages needed to build and test.  As root with apt-get they are
# installed; otherwise the exact command is printed and make stops.
DEB_PKGS := libgmp-dev libglpk-dev check pkg-config valgrind libxml2-dev libassimp-dev \
            libompl-dev g++
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
# libxml2's headers live in their own folder; the OMPL example needs g++.
define need_build_libs
echo '#include <libxml/parser.h>' | $(CC) -E -x c $(XML_CFLAGS) - >/dev/null 2>&1 \
  || missing="$$missing libxml2-dev"; \
$(call need_header,assimp/cimport.h,libassimp-dev)
endef
define need_ompl
echo '#include <ompl/config.h>' | $(CXX) -E -x c++ $(OMPL_INC) - >/dev/null 2>&1 \
  || missing="$$missing libompl-dev g++";
endef

# Debian's python3 with the modules of the Python package and its tests.
define need_python
$(PYTHON) -c 'import $(1)' >/dev/null 2>&1 || missing="$$missing $(2)";
endef
define python_checks
$(call need_python,cffi,python3-cffi) \
$(call need_python,numpy,python3-numpy) \
{ [ -n "$(PY_INC)" ] && [ -f "$(PY_INC)/Python.h" ]; } || missing="$$missing python3-dev";
endef
# What the Python tests need beyond the package: pytest, and Dask
# (python3-dask, python3-distributed) for halfspace.dask and its test.
define python_test_checks
$(call need_python,pytest,python3-pytest) \
$(call need_python,dask,python3-dask) \
$(call need_python,distributed,python3-distributed)
endef

deps:
	@missing=""; \
	$(call need_header,gmp.h,libgmp-dev) \
	$(call need_header,glpk.h,libglpk-dev) \
	$(call need_header,check.h,check) \
	$(need_build_libs) \
	$(need_ompl) \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	command -v valgrind >/dev/null 2>&1 || missing="$$missing valgrind"; \
	$(python_checks) \
	$(python_test_checks) \
	$(call need_header,cairo/cairo.h,libcairo2-dev) \
	$(draw_deps_check) \
	$(install_or_explain)
	@$(draw_browser_deps)

# What compiling the library needs (checked before every build: plain
# `make` without the packages prints the apt-get command, never a compiler
# error).
build-deps:
	@missing=""; \
	$(call need_header,gmp.h,libgmp-dev) \
	$(call need_header,glpk.h,libglpk-dev) \
	$(call need_header,cairo/cairo.h,libcairo2-dev) \
	[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing="$$missing fonts-dejavu-core"; \
	$(need_build_libs) \
	$(install_or_explain)

# What building the Python package needs.
python-deps:
	@missing=""; \
	$(python_checks) \
	$(install_or_explain)

# Pictures: the font, and the tools of the picture tests (xmllint reads
# the SVGs, pdftotext the PDFs).  Chromium (the step-through page in a
# real browser) is installed when possible and never required: without
# it the browser test prints a named skip.  gnuplot: `make plots`.
define draw_deps_check
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing="$$missing fonts-dejavu-core"; \
command -v xmllint >/dev/null 2>&1 || missing="$$missing libxml2-utils"; \
command -v pdftotext >/dev/null 2>&1 || missing="$$missing poppler-utils";
endef
define draw_browser_deps
if ! command -v chromium >/dev/null 2>&1; then \
  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
    echo "deps: installing chromium (browser test of the step-through page)"; \
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1 \
      || echo "deps: chromium could not be installed: the browser test will be skipped"; \
  else \
    echo "deps: no chromium: the browser test will be skipped (sudo apt-get install -y chromium)"; \
  fi; \
fi
endef

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

# The Python package's tests (pytest), against the CLI and the exact engine.
python-run: $(PY_STAMP) $(CLI)
	@missing=""; $(python_test_checks) $(install_or_explain)
	HS_CLI=$(abspath $(CLI)) HS_EXAMPLES=$(abspath examples) PYTHONPATH=$(abspath $(PY_BUILD)) \
	  $(PYTHON) -m pytest -q -p no:cacheprovider python/tests

# The README's command-line examples against the output shown under them.
readme-run: $(CLI)
	sh tests/readme_check.sh $(CLI)

# The house rules: floors, no circles, only hs_ exported, file sizes, names.
layout-run: all
	python3 tests/layout_check.py $(BUILD)

valgrind-run: $(CLI)
	HS_VALGRIND=1 sh tests/cli_tests.sh $(CLI)

# Tests that look at the pictures (tests/pictures_check.py): SVGs parsed
# with xmllint, PDF text, PNG sizes and ink, the step-through page in
# headless Chromium (a named skip without it); outputs in $(BUILD)/pictures.
pictures-run: $(CLI)
	python3 tests/pictures_check.py $(CLI) $(BUILD)/pictures

# The cross-check bar: exact engine vs glp_exact, 0 disagreements on 10,000.
crosscheck-run: $(CLI)
	$(CLI) crosscheck --count 10000 --seed 1 | tail -n 1 | tee $(BUILD)/crosscheck.txt
	@grep -qx 'crosscheck: 10000 instances, 0 disagreements' $(BUILD)/crosscheck.txt

# make check prints each phase as it starts.  The quick ones run in the
# foreground; the slow ones run side by side on two CPUs, (a) valgrind on
# the CLI tests, then the ThreadSanitizer build and its runs, and (b) the
# cross-check, the differential fuzzing, the AddressSanitizer build with
# the unit and CLI tests, the Python and the picture tests; each phase's
# output goes to a log under $(BUILD)/ of which the last line is shown
# (all of it when it fails).  About 8 minutes on 2 cores from a clean tree.
#   $(call check_phase,TAG,TITLE,TARGET)
define check_phase
	@echo "$(1) == $(2)"
	@t0=$$(date +%s); \
	$(MAKE) --no-print-directory $(3) > $(BUILD)/check-$(3).log 2>&1 || \
	  { cat $(BUILD)/check-$(3).log; echo "$(1) FAILED: $(2) (log: $(BUILD)/check-$(3).log)"; exit 1; }; \
	echo "$(1)    $$(tail -n 1 $(BUILD)/check-$(3).log) ($$(( $$(date +%s) - t0 )) s)"
endef

# The build, the unit tests and the CLI tests: the start of check and all
# of check-quick.
define quick_steps
	@echo "== build"
	@$(MAKE) --no-print-directory -j2 all $(UNIT)
	@echo "== unit tests"
	@$(MAKE) --no-print-directory unit-run
	@echo "== CLI tests"
	@$(MAKE) --no-print-directory cli-run
endef

check: deps
	$(quick_steps)
	@echo "== README examples (command line)"
	@$(MAKE) --no-print-directory readme-run
	@echo "== layout rules"
	@$(MAKE) --no-print-directory layout-run
	@echo "== the OMPL example (planning the Panda with halfspace)"
	@$(MAKE) --no-print-directory ompl-run
	@echo "== in parallel: (a) valgrind on the CLI tests, ThreadSanitizer, install, soak; (b) cross-check," \
	      "differential fuzzing, AddressSanitizer, Python and picture tests, reader fuzzing"
	@$(MAKE) --no-print-directory -j2 check-slow-a check-slow-b
	@echo "check: all tests passed"

# The unit and CLI tests only (well under a minute once built).
check-quick: build-deps
	$(quick_steps)
	@echo "check-quick: unit and CLI tests passed"

check-slow-a:
	$(call check_phase,(a),valgrind on the CLI tests (about 4 minutes),valgrind-run)
	$(call check_phase,(a),ThreadSanitizer build: batch and world with 8 threads,tsan)
	$(call check_phase,(a),install into a temporary prefix and use it (C shared and static, CLI, Python),install-check)
	$(call check_phase,(a),soak: 10^6 queries in flat memory,soak)

check-slow-b:
	$(call check_phase,(b),cross-check: 10000 instances against GLPK,crosscheck-run)
	$(call check_phase,(b),differential fuzzing of answers (20 s),fuzz-diff-check)
	$(call check_phase,(b),AddressSanitizer + UndefinedBehaviorSanitizer build: unit and CLI tests,san-run)
	$(call check_phase,(b),Python tests,python-run)
	$(call check_phase,(b),pictures,pictures-run)
	$(call check_phase,(b),fuzzing: every reader's corpus replayed and fuzzed briefly,fuzz-check)

san-run:
	@$(MAKE) --no-print-directory BUILD=build-san SANITIZE=1 CFLAGS="-O1 -g" unit-run cli-run

# ThreadSanitizer (build-tsan/): batch and world queries with 8 threads
# (tests/tsan_run.sh), every output equal to the one-thread output.
tsan:
	@$(MAKE) --no-print-directory BUILD=build-tsan SANITIZE=thread CFLAGS="-O1 -g" tsan-run

tsan-run: $(CLI)
	sh tests/tsan_run.sh $(CLI)

# make install into a temporary prefix, then a C program built against it
# with pkg-config (shared and static), the installed CLI and Python
# package, and make uninstall leaving nothing (tests/install_check.sh).
install-check: all
	MAKE="$(MAKE)" PYTHON="$(PYTHON)" sh tests/install_check.sh

# ---------------------------------------------------------------- fuzz-diff
# Differential fuzzing of answers (tests/diff_fuzz.c): generated pairs,
# n = 1..8, in several forms (rows scaled, space scaled near the ends of
# the double range, decimal rows, swapped) through the fast, exact and
# glpk-exact engines; every certificate verified, read back from text and
# JSON, and simplified.  fuzz-diff runs FUZZ_DIFF_SECONDS (seed
# FUZZ_DIFF_SEED); fuzz-diff-check runs 20 s (for make check).
FUZZ_DIFF_SECONDS ?= 600
FUZZ_DIFF_SEED ?= $(shell date +%s)
DIFF_FUZZ := $(BUILD)/diff_fuzz

$(DIFF_FUZZ): $(BUILD)/tests/diff_fuzz.o $(LIBA)
	$(CC) $(SANFLAGS) -o $@ $(BUILD)/tests/diff_fuzz.o $(LIBA) $(LDLIBS)

-include $(BUILD)/tests/diff_fuzz.d

fuzz-diff: $(DIFF_FUZZ)
	$(DIFF_FUZZ) --seconds $(FUZZ_DIFF_SECONDS) --seed $(FUZZ_DIFF_SEED)

fuzz-diff-check: $(DIFF_FUZZ)
	$(DIFF_FUZZ) --seconds 20 --seed 1

# ---------------------------------------------------------------- bench
bench: deps bench-deps all
	@$(MAKE) --no-print-directory -C . -f bench/bench.mk BUILD=$(BUILD)
	@$(MAKE) --no-print-directory plots

# The benchmarks as plots: bench/plots/*.svg from the RESULT lines of
# bench/RESULTS.md (gnuplot), without running a benchmark.
plots: plots-deps
	python3 bench/plots.py bench/RESULTS.md bench/plots

plots-deps:
	@missing=""; \
	command -v gnuplot >/dev/null 2>&1 || missing="$$missing gnuplot-nox"; \
	$(install_or_explain)

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
# regression input.
FUZZ_TARGETS := ine cert batch chain vrml obj off stl urdf
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_CHECK_SECONDS ?= 10
FUZZ_BUILD := build-fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := $(WARN) $(DEFS) $(INC) $(XML_CFLAGS) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link -MMD -MP
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
	@$(MAKE) --no-print-directory fuzz-diff FUZZ_DIFF_SECONDS=$(FUZZ_SECONDS)

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
# Under $(DESTDIR)$(PREFIX): lib/libhalfspace.a, lib/libhalfspace.so.VERSION
# with the symlinks .so.MAJOR and .so, include/halfspace.h and
# include/halfspace/*.h, bin/halfspace, lib/pkgconfig/halfspace.pc and the
# Python package in $(PYTHON_SITE) (Debian's dist-packages of that prefix:
# on sys.path for PREFIX=/usr/local or /usr, otherwise add it to PYTHONPATH).
# Outside /usr, halfspace.pc puts an rpath to $(PREFIX)/lib in Libs, so a
# program built with `pkg-config --cflags --libs halfspace` runs as it is.
PYTHON_SITE ?= $(PREFIX)/lib/python$(PY_VER)/dist-packages
LIBDIR := $(PREFIX)/lib
ifeq ($(PREFIX),/usr)
PC_RPATH :=
else
PC_RPATH := -Wl,-rpath,$${libdir}
endif

install: install-lib
	@if $(PYTHON) -c 'import cffi, numpy' >/dev/null 2>&1 && [ -f "$(PY_INC)/Python.h" ]; then \
	  $(MAKE) --no-print-directory install-python; \
	else \
	  echo "install: Python package skipped ($(PYTHON) lacks cffi, numpy or Python.h):" \
	       "apt-get install python3-cffi python3-numpy python3-dev, then make install-python"; \
	fi

install-lib: all
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PREFIX)/include \
	           $(DESTDIR)$(PREFIX)/include/halfspace \
	           $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 644 $(LIBA) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(LIBSO_REAL) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(LIBSO_REAL)) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libhalfspace.so
	install -m 644 include/halfspace.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 include/halfspace/*.h $(DESTDIR)$(PREFIX)/include/halfspace/
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
	  'Name: halfspace' 'Description: exact intersection of convex polyhedra given by linear inequalities' \
	  'Version: $(HS_VERSION)' 'Libs: -L$${libdir} $(PC_RPATH) -lhalfspace' \
	  'Libs.private: $(LDLIBS)' \
	  'Cflags: -I$${includedir}' > $(DESTDIR)$(LIBDIR)/pkgconfig/halfspace.pc
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null 2>&1; then \
	  ldconfig || true; fi

# The package with its extension linked to $(PREFIX)/lib/libhalfspace.so.MAJOR.
install-python: $(LIBSO) $(BUILD)/$(SONAME) python-deps
	$(call py_module,$(BUILD)/python-install,$(LIBDIR))
	install -d $(DESTDIR)$(PYTHON_SITE)/halfspace
	install -m 644 $(BUILD)/python-install/halfspace/*.py $(DESTDIR)$(PYTHON_SITE)/halfspace/
	install -m 755 $(BUILD)/python-install/halfspace/_halfspace_cffi$(PY_EXT) \
	  $(DESTDIR)$(PYTHON_SITE)/halfspace/

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libhalfspace.a $(DESTDIR)$(LIBDIR)/libhalfspace.so \
	      $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/$(notdir $(LIBSO_REAL)) \
	      $(DESTDIR)$(LIBDIR)/pkgconfig/halfspace.pc $(DESTDIR)$(PREFIX)/bin/halfspace \
	      $(DESTDIR)$(PREFIX)/include/halfspace.h
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/include/halfspace/,$(notdir $(wildcard include/halfspace/*.h)))
	-rmdir $(DESTDIR)$(PREFIX)/include/halfspace 2>/dev/null
	rm -rf $(DESTDIR)$(PYTHON_SITE)/halfspace

clean:
	rm -rf build build-san build-tsan build-fuzz bench/out python/build python/halfspace.egg-info
