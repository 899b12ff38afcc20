# bench.mk -- benchmark programs; run from the top directory, normally by
# `make bench` (which builds $(BUILD)/libhalfspace.a first):
#
#   make -f bench/bench.mk [BUILD=build] [TABLE1_ARGS='--sizes 60x60 ...']
#
# The default target (bench-all) runs both benchmark programs, one after
# the other (never in parallel: they time things):
#
#  - $(BUILD)/bench/table1: its whole output goes to bench/out/table1.md and
#    refreshes the generated part of the section "## Seed 002, Table 1:
#    faithful and exact engines" of bench/RESULTS.md, the lines between the
#    markers <!-- table1:begin --> and <!-- table1:end -->;
#  - $(BUILD)/bench/pairs (bench/pairs.c: fast, exact and faithful engines,
#    GLPK, libccd GJK and MPR on the same pairs): bench/out/pairs.md, and
#    the lines between <!-- pairs:begin --> and <!-- pairs:end --> of the
#    section "## Fast engine vs GLPK and libccd (bench/pairs)";
#  - $(BUILD)/bench/triangles (bench/triangles.c: seed 000's raw method and
#    uniform grid on a scene of about 2000 triangles): bench/out/triangles.md,
#    and the lines between <!-- triangles:begin --> and <!-- triangles:end -->
#    of the section "## Seed 000: triangles, raw method vs uniform grid
#    (bench/triangles)".
#
# Text outside the markers (other sections, the interpretation) is left
# alone.  Each program alone: make -f bench/bench.mk table1-run / pairs-run /
# triangles-run (PAIRS_ARGS='--sizes 60,250 --pairs 50' for a shorter run;
# TRIANGLES_ARGS='--reps-raw 3 --reps-grid 21').

BUILD  ?= build
CC     ?= cc
CFLAGS ?= -O2 -g

BENCH_CFLAGS := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
                -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Iinclude -I. $(CFLAGS) -MMD -MP
BENCH_LIBS   := -lglpk -lgmp -lm -lpthread
PAIRS_LIBS   := -lccd $(BENCH_LIBS)
LIBA         := $(BUILD)/libhalfspace.a
BENCH_OUT    := bench/out
RESULTS      := bench/RESULTS.md

# Code shared by the benchmark programs (no main).
BENCH_COMMON := bench/tangent.c
TABLE1       := $(BUILD)/bench/table1
TABLE1_OBJ   := $(BUILD)/bench/table1.o $(BENCH_COMMON:%.c=$(BUILD)/%.o)
# The exact engine needs minutes per 250x250 pair (disjoint pairs about
# 5 minutes each on a 2-CPU Xeon VM), so by default it runs on only the
# first 4 of the 20 pairs of that size; the faithful engine runs on all.
TABLE1_ARGS  ?= --exact-count 250x250=4
PAIRS        := $(BUILD)/bench/pairs
PAIRS_OBJ    := $(BUILD)/bench/pairs.o $(BENCH_COMMON:%.c=$(BUILD)/%.o)
PAIRS_ARGS   ?=
PAIRS_TITLE  := Fast engine vs GLPK and libccd (bench/pairs)
TRIANGLES    := $(BUILD)/bench/triangles
TRIANGLES_OBJ := $(BUILD)/bench/triangles.o
TRIANGLES_ARGS ?=
TRIANGLES_TITLE := Seed 000: triangles, raw method vs uniform grid (bench/triangles)

.PHONY: bench-all table1-run table1-build table1-splice pairs-run pairs-build pairs-splice \
        triangles-run triangles-build triangles-splice
# Timed runs must not overlap, whatever -j says.
.NOTPARALLEL:
bench-all: table1-run pairs-run triangles-run

table1-build: $(TABLE1)
pairs-build: $(PAIRS)
triangles-build: $(TRIANGLES)

$(BUILD)/bench/%.o: bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -c $< -o $@

$(TABLE1): $(TABLE1_OBJ) $(LIBA)
	$(CC) -o $@ $(TABLE1_OBJ) $(LIBA) $(BENCH_LIBS)

$(PAIRS): $(PAIRS_OBJ) $(LIBA)
	$(CC) -o $@ $(PAIRS_OBJ) $(LIBA) $(PAIRS_LIBS)

$(TRIANGLES): $(TRIANGLES_OBJ) $(LIBA)
	$(CC) -o $@ $(TRIANGLES_OBJ) $(LIBA) $(BENCH_LIBS)

# Only when the library is missing (bench.mk run on its own).
$(LIBA):
	$(MAKE) -f Makefile BUILD=$(BUILD) $@

-include $(TABLE1_OBJ:.o=.d) $(PAIRS_OBJ:.o=.d) $(TRIANGLES_OBJ:.o=.d)

table1-run: $(TABLE1)
	@mkdir -p $(BENCH_OUT)
	@load=$$(cut -d' ' -f1-3 /proc/loadavg); when=$$(date -u '+%Y-%m-%d %H:%M UTC'); \
	start=$$(date +%s); \
	$(TABLE1) $(TABLE1_ARGS) > $(BENCH_OUT)/table1.raw || exit 1; \
	end=$$(date +%s); \
	{ echo "Run $$when on $$(nproc) CPUs" \
	       "($$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1))," \
	       "wall time $$((end - start)) s, load average at start $$load."; \
	  echo "Command: \`make bench\`, which runs \`$(TABLE1) $(TABLE1_ARGS)\`."; \
	  echo; cat $(BENCH_OUT)/table1.raw; } > $(BENCH_OUT)/table1.md
	@cat $(BENCH_OUT)/table1.md
	@$(MAKE) --no-print-directory -f bench/bench.mk BUILD=$(BUILD) table1-splice

# Replace the lines between the markers with bench/out/table1.md, or append
# the section when RESULTS.md does not have it yet.
table1-splice:
	@touch $(RESULTS)
	@if grep -q '^<!-- table1:begin -->' $(RESULTS); then \
	  awk -v gen=$(BENCH_OUT)/table1.md ' \
	    /^<!-- table1:begin -->/ { print; while ((getline l < gen) > 0) print l; skip = 1; next } \
	    /^<!-- table1:end -->/   { skip = 0 } \
	    !skip { print }' $(RESULTS) > $(RESULTS).tmp && mv $(RESULTS).tmp $(RESULTS); \
	else \
	  { echo; echo '## Seed 002, Table 1: faithful and exact engines'; echo; \
	    echo '<!-- table1:begin -->'; cat $(BENCH_OUT)/table1.md; \
	    echo '<!-- table1:end -->'; } >> $(RESULTS); \
	fi
	@echo "bench: updated $(RESULTS) (section Seed 002, Table 1)"

# bench/pairs: run, keep the output with the machine, date and command, and
# splice it into RESULTS.md like table1 above.
pairs-run: $(PAIRS)
	@mkdir -p $(BENCH_OUT)
	@load=$$(cut -d' ' -f1-3 /proc/loadavg); when=$$(date -u '+%Y-%m-%d %H:%M UTC'); \
	start=$$(date +%s); \
	$(PAIRS) $(PAIRS_ARGS) > $(BENCH_OUT)/pairs.raw || exit 1; \
	end=$$(date +%s); \
	{ echo "Run $$when on $$(nproc) CPUs" \
	       "($$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1))," \
	       "wall time $$((end - start)) s, load average at start $$load."; \
	  echo "Command: \`make bench\`, which runs \`$(strip $(PAIRS) $(PAIRS_ARGS))\`."; \
	  echo; cat $(BENCH_OUT)/pairs.raw; } > $(BENCH_OUT)/pairs.md
	@cat $(BENCH_OUT)/pairs.md
	@$(MAKE) --no-print-directory -f bench/bench.mk BUILD=$(BUILD) pairs-splice

pairs-splice:
	@touch $(RESULTS)
	@if grep -q '^<!-- pairs:begin -->' $(RESULTS); then \
	  awk -v gen=$(BENCH_OUT)/pairs.md ' \
	    /^<!-- pairs:begin -->/ { print; while ((getline l < gen) > 0) print l; skip = 1; next } \
	    /^<!-- pairs:end -->/   { skip = 0 } \
	    !skip { print }' $(RESULTS) > $(RESULTS).tmp && mv $(RESULTS).tmp $(RESULTS); \
	else \
	  { echo; echo '## $(PAIRS_TITLE)'; echo; \
	    echo '<!-- pairs:begin -->'; cat $(BENCH_OUT)/pairs.md; \
	    echo '<!-- pairs:end -->'; } >> $(RESULTS); \
	fi
	@echo "bench: updated $(RESULTS) (section $(PAIRS_TITLE))"

# bench/triangles: run, keep the output with the machine, date and command,
# and splice it into RESULTS.md like pairs above.
triangles-run: $(TRIANGLES)
	@mkdir -p $(BENCH_OUT)
	@load=$$(cut -d' ' -f1-3 /proc/loadavg); when=$$(date -u '+%Y-%m-%d %H:%M UTC'); \
	start=$$(date +%s); \
	$(TRIANGLES) $(TRIANGLES_ARGS) > $(BENCH_OUT)/triangles.raw || exit 1; \
	end=$$(date +%s); \
	{ echo "Run $$when on $$(nproc) CPUs" \
	       "($$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1))," \
	       "wall time $$((end - start)) s, load average at start $$load."; \
	  echo "Command: \`make bench\`, which runs \`$(strip $(TRIANGLES) $(TRIANGLES_ARGS))\`."; \
	  echo; cat $(BENCH_OUT)/triangles.raw; } > $(BENCH_OUT)/triangles.md
	@cat $(BENCH_OUT)/triangles.md
	@$(MAKE) --no-print-directory -f bench/bench.mk BUILD=$(BUILD) triangles-splice

triangles-splice:
	@touch $(RESULTS)
	@if grep -q '^<!-- triangles:begin -->' $(RESULTS); then \
	  awk -v gen=$(BENCH_OUT)/triangles.md ' \
	    /^<!-- triangles:begin -->/ { print; while ((getline l < gen) > 0) print l; skip = 1; next } \
	    /^<!-- triangles:end -->/   { skip = 0 } \
	    !skip { print }' $(RESULTS) > $(RESULTS).tmp && mv $(RESULTS).tmp $(RESULTS); \
	else \
	  { echo; echo '## $(TRIANGLES_TITLE)'; echo; \
	    echo '<!-- triangles:begin -->'; cat $(BENCH_OUT)/triangles.md; \
	    echo '<!-- triangles:end -->'; } >> $(RESULTS); \
	fi
	@echo "bench: updated $(RESULTS) (section $(TRIANGLES_TITLE))"
