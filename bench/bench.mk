# bench.mk -- benchmark programs; run from the top directory, normally by
# `make bench` (which builds $(BUILD)/libhalfspace.a first):
#
#   make -f bench/bench.mk [BUILD=build] [TABLE1_ARGS='--sizes 60x60 ...']
#
# The default target (bench-all) runs every program, one after the other
# (never in parallel: they time things).  Each writes bench/out/NAME.md (its
# output with the machine, the date and the command) and refreshes the lines
# between <!-- NAME:begin --> and <!-- NAME:end --> of bench/RESULTS.md:
#
#   table1     bench/table1.c     seed 002's Table 1: faithful and exact engines
#   pairs      bench/pairs.c      fast and exact engines vs GLPK and libccd, cold, by family
#   triangles  bench/triangles.c  seed 000: raw method vs uniform grid, ~2000 triangles
#   world      bench/world.cpp    N moving convex bodies: raw, grid, tree vs FCL; resting
#                                 boxes and body setup vs FCL (bench/world_rest.cpp)
#                                 and mesh hulls set face down on a floor (bench/world_hulls.cpp)
#   robot      bench/robot.cpp    URDF Panda among 50 boxes vs FCL; guaranteed vs stepped
#                                 motions; URDF iiwa vs the same arm as a chain file
#   mesh       bench/mesh.cpp     FCL's env/rob meshes at 1000 poses vs FCL OBBRSS
#   chain      bench/chain.c      seed 003: ChainTree self-collision vs grid, 1-/K-OBBTree
#   path       bench/path.c       seed 004: lines and arcs in a palletizing cell, OBB SAT vs exact
#   python     bench/python/      the Python binding: intersect, intersect_many and
#                                 Robot.check_states vs C
#
# Text outside the markers is left alone.  One program alone:
# make -f bench/bench.mk NAME-run (NAME_ARGS='...' for other options, for
# example PAIRS_ARGS='--families sphere,hull --sizes 60 --pairs 30' or
# WORLD_ARGS='--parts rest,setup --rest-sizes 1000').
# world, mesh and robot are C++ against FCL (libfcl-dev, g++); robot reads the
# real data set (../shared/data, ROBOT_ARGS='--data DIR' elsewhere).

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
FAMILIES_OBJ := $(BUILD)/bench/families.o $(BUILD)/bench/families_rest.o
PAIRS_OBJ    := $(BUILD)/bench/pairs.o $(BUILD)/bench/pairs_report.o $(FAMILIES_OBJ) \
                $(BUILD)/bench/ccd_peer.o $(BENCH_COMMON:%.c=$(BUILD)/%.o)
PAIRS_ARGS   ?=
PAIRS_TITLE  := Fast engine vs GLPK and libccd (bench/pairs)
# Profiling aids (not timed by bench-all): a family's pairs as .ine files,
# and their replay through the public API alone (builds against any version).
PAIRS_DUMP   := $(BUILD)/bench/pairs_dump
PAIRS_REPLAY := $(BUILD)/bench/pairs_replay
REST_PROFILE := $(BUILD)/bench/rest_profile
# Where a cold query's time goes (code, data; bench/cold_anatomy.c, on pairs_dump's files).
COLD_ANATOMY := $(BUILD)/bench/cold_anatomy
# Two builds of the library side by side, cold (bench/ab_cold.c, on pairs_dump's files).
AB_COLD      := $(BUILD)/bench/ab_cold
TRIANGLES    := $(BUILD)/bench/triangles
TRIANGLES_OBJ := $(BUILD)/bench/triangles.o
TRIANGLES_ARGS ?=
TRIANGLES_TITLE := Seed 000: triangles, raw method vs uniform grid (bench/triangles)
# C++ programs against FCL (Debian libfcl-dev, bench only).
CXX      ?= g++
BENCH_CXXFLAGS := -std=c++17 -Wall -Wextra -Wpedantic -Iinclude -I. $(CFLAGS) -MMD -MP \
                  $(filter-out -std=%,$(shell pkg-config --cflags fcl 2>/dev/null))
FCL_LIBS := $(shell pkg-config --libs fcl 2>/dev/null || echo -lfcl -lccd)
WORLD    := $(BUILD)/bench/world
WORLD_OBJ := $(BUILD)/bench/world.o $(BUILD)/bench/world_rest.o $(BUILD)/bench/world_hulls.o \
             $(FAMILIES_OBJ) \
             $(BUILD)/bench/tangent.o
WORLD_ARGS ?=
WORLD_TITLE := World: raw, grid and tree broad phases vs FCL (bench/world)
ROBOT    := $(BUILD)/bench/robot
ROBOT_OBJ := $(BUILD)/bench/robot.o
ROBOT_ARGS ?=
ROBOT_TITLE := Robots from URDF: Panda among 50 boxes vs FCL, guaranteed vs stepped motions, URDF vs chain (bench/robot)
ROBOT_LIBS := $(shell pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2) \
              $(shell pkg-config --libs assimp 2>/dev/null || echo -lassimp)
MESH     := $(BUILD)/bench/mesh
MESH_OBJ := $(BUILD)/bench/mesh.o
MESH_ARGS ?=
MESH_TITLE := The FCL mesh pair env and rob: triangle-level query vs FCL OBBRSS (bench/mesh)
# Seed 003 (chain): ChainTree against its three baselines, synthetic chains
# and protein backbones (CHAIN_ARGS='--sizes 1000 --iters 2000' for a
# quick run).
CHAIN    := $(BUILD)/bench/chain
CHAIN_OBJ := $(BUILD)/bench/chain.o $(BUILD)/bench/chain_baselines.o $(BUILD)/bench/pdb.o \
             $(BUILD)/bench/median.o
CHAIN_ARGS ?=
CHAIN_TITLE := Seed 003: ChainTree self-collision (bench/chain)
# Seed 004 (path): the palletizing cell's paths, stepped and guaranteed.
PATHB    := $(BUILD)/bench/path
PATHB_OBJ := $(BUILD)/bench/path.o
PATH_ARGS ?=
PATH_TITLE := Seed 004: paths in a palletizing cell (bench/path)
comma := ,

.PHONY: bench-all table1-run table1-build pairs-run pairs-build profile-build triangles-run triangles-build \
        world-run world-build mesh-run mesh-build chain-run chain-build path-run path-build \
        robot-run robot-build
# Timed runs must not overlap, whatever -j says.
.NOTPARALLEL:
bench-all: table1-run pairs-run triangles-run world-run mesh-run chain-run path-run python-run \
           robot-run

table1-build: $(TABLE1)
pairs-build: $(PAIRS)
profile-build: $(PAIRS_DUMP) $(PAIRS_REPLAY) $(REST_PROFILE) $(COLD_ANATOMY) $(AB_COLD)
triangles-build: $(TRIANGLES)
world-build: $(WORLD)
robot-build: $(ROBOT)
mesh-build: $(MESH)
chain-build: $(CHAIN)
path-build: $(PATHB)

$(BUILD)/bench/%.o: bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -c $< -o $@

$(BUILD)/bench/%.o: bench/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(BENCH_CXXFLAGS) -c $< -o $@

$(WORLD): $(WORLD_OBJ) $(LIBA)
	$(CXX) -o $@ $(WORLD_OBJ) $(LIBA) $(FCL_LIBS) $(BENCH_LIBS)

$(ROBOT): $(ROBOT_OBJ) $(LIBA)
	$(CXX) -o $@ $(ROBOT_OBJ) $(LIBA) $(FCL_LIBS) $(ROBOT_LIBS) $(BENCH_LIBS)

$(MESH): $(MESH_OBJ) $(LIBA)
	$(CXX) -o $@ $(MESH_OBJ) $(LIBA) $(FCL_LIBS) $(BENCH_LIBS)

$(TABLE1): $(TABLE1_OBJ) $(LIBA)
	$(CC) -o $@ $(TABLE1_OBJ) $(LIBA) $(BENCH_LIBS)

$(PAIRS_DUMP): $(BUILD)/bench/pairs_dump.o $(FAMILIES_OBJ) $(BENCH_COMMON:%.c=$(BUILD)/%.o) $(LIBA)
	$(CC) -o $@ $^ $(BENCH_LIBS)

$(PAIRS_REPLAY): $(BUILD)/bench/pairs_replay.o $(LIBA)
	$(CC) -o $@ $^ $(BENCH_LIBS)

$(REST_PROFILE): $(BUILD)/bench/rest_profile.o $(LIBA)
	$(CC) -o $@ $^ $(BENCH_LIBS)

$(COLD_ANATOMY): $(BUILD)/bench/cold_anatomy.o $(LIBA)
	$(CC) -o $@ $^ $(BENCH_LIBS)

$(AB_COLD): $(BUILD)/bench/ab_cold.o
	$(CC) -o $@ $^ -ldl

$(PAIRS): $(PAIRS_OBJ) $(LIBA)
	$(CC) -o $@ $(PAIRS_OBJ) $(LIBA) $(PAIRS_LIBS)

$(TRIANGLES): $(TRIANGLES_OBJ) $(LIBA)
	$(CC) -o $@ $(TRIANGLES_OBJ) $(LIBA) $(BENCH_LIBS)

$(CHAIN): $(CHAIN_OBJ) $(LIBA)
	$(CC) -o $@ $(CHAIN_OBJ) $(LIBA) $(BENCH_LIBS)

$(PATHB): $(PATHB_OBJ) $(LIBA)
	$(CC) -o $@ $(PATHB_OBJ) $(LIBA) $(BENCH_LIBS)

# Only when the library is missing (bench.mk run on its own).
$(LIBA):
	$(MAKE) -f Makefile BUILD=$(BUILD) $@

-include $(TABLE1_OBJ:.o=.d) $(PAIRS_OBJ:.o=.d) $(TRIANGLES_OBJ:.o=.d) $(WORLD_OBJ:.o=.d) \
         $(ROBOT_OBJ:.o=.d) \
         $(MESH_OBJ:.o=.d) $(CHAIN_OBJ:.o=.d) $(PATHB_OBJ:.o=.d)

# ---------------------------------------------------------------- running
# One generic rule runs a program, keeps its output with the machine, the
# date and the command in bench/out/NAME.md, and replaces the lines between
# <!-- NAME:begin --> and <!-- NAME:end --> of RESULTS.md with it (or
# appends a section titled NAME_TITLE when the markers are missing).  Text
# outside the markers is left alone.
#   $(call run_and_splice,NAME,PROGRAM,ARGS,TITLE)
define run_and_splice
	@mkdir -p $(BENCH_OUT)
	@load=$$(cut -d' ' -f1-3 /proc/loadavg); when=$$(date -u '+%Y-%m-%d %H:%M UTC'); \
	start=$$(date +%s); \
	$(2) $(3) > $(BENCH_OUT)/$(1).raw || exit 1; \
	end=$$(date +%s); endload=$$(cut -d' ' -f1-3 /proc/loadavg); \
	{ echo "Run $$when on $$(nproc) CPUs" \
	       "($$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1))," \
	       "wall time $$((end - start)) s, load average (1, 5, 15 min) at start $$load," \
	       "at end $$endload."; \
	  echo "Command: \`make -f bench/bench.mk $(1)-run\` (also run by \`make bench\`)," \
	       "which runs \`$(strip $(2) $(3))\`."; \
	  echo; cat $(BENCH_OUT)/$(1).raw; } > $(BENCH_OUT)/$(1).md
	@cat $(BENCH_OUT)/$(1).md
	@touch $(RESULTS)
	@if grep -q '^<!-- $(1):begin -->' $(RESULTS); then \
	  awk -v gen=$(BENCH_OUT)/$(1).md ' \
	    /^<!-- $(1):begin -->/ { print; while ((getline l < gen) > 0) print l; skip = 1; next } \
	    /^<!-- $(1):end -->/   { skip = 0 } \
	    !skip { print }' $(RESULTS) > $(RESULTS).tmp && mv $(RESULTS).tmp $(RESULTS); \
	else \
	  { echo; echo '## $(4)'; echo; echo '<!-- $(1):begin -->'; \
	    cat $(BENCH_OUT)/$(1).md; echo '<!-- $(1):end -->'; } >> $(RESULTS); \
	fi
	@echo "bench: updated $(RESULTS) (section $(4))"
endef

table1-run: $(TABLE1)
	$(call run_and_splice,table1,$(TABLE1),$(TABLE1_ARGS),Seed 002$(comma) Table 1: faithful and exact engines)

pairs-run: $(PAIRS)
	$(call run_and_splice,pairs,$(PAIRS),$(PAIRS_ARGS),$(PAIRS_TITLE))

triangles-run: $(TRIANGLES)
	$(call run_and_splice,triangles,$(TRIANGLES),$(TRIANGLES_ARGS),$(TRIANGLES_TITLE))

world-run: $(WORLD)
	$(call run_and_splice,world,$(WORLD),$(WORLD_ARGS),$(WORLD_TITLE))

robot-run: $(ROBOT)
	$(call run_and_splice,robot,$(ROBOT),$(ROBOT_ARGS),$(ROBOT_TITLE))

mesh-run: $(MESH)
	$(call run_and_splice,mesh,$(MESH),$(MESH_ARGS),$(MESH_TITLE))

chain-run: $(CHAIN)
	$(call run_and_splice,chain,$(CHAIN),$(CHAIN_ARGS),$(CHAIN_TITLE))

path-run: $(PATHB)
	$(call run_and_splice,path,$(PATHB),$(PATH_ARGS),$(PATH_TITLE))

# ---------------------------------------------------------------- python
# The cost of the Python binding (bench/python): the same queries from
# Python (the package of `make python`) and from C (python_c).
PYTHON   ?= /usr/bin/python3
PYBENCH  := $(BUILD)/bench/python_c
PYBENCH_OBJ := $(BUILD)/bench/python/c_side.o $(BUILD)/bench/median.o
PYTHON_ARGS ?=
PYTHON_TITLE := The cost of the Python binding (bench/python)
.PHONY: python-run python-build
python-build: $(PYBENCH)

$(PYBENCH): $(PYBENCH_OBJ) $(LIBA)
	$(CC) -o $@ $(PYBENCH_OBJ) $(LIBA) $(ROBOT_LIBS) $(BENCH_LIBS)

-include $(PYBENCH_OBJ:.o=.d)

python-run: $(PYBENCH)
	@$(MAKE) --no-print-directory -f Makefile BUILD=$(BUILD) python
	$(call run_and_splice,python,env PYTHONPATH=$(BUILD)/python $(PYTHON) bench/python/bench.py --c-program $(PYBENCH),$(PYTHON_ARGS),$(PYTHON_TITLE))

# ---------------------------------------------------------------- preds
# bench/preds.c: the exact predicates, hulls, vertex enumeration and body
# setup (`make -f bench/bench.mk preds-run`; PREDS_ARGS='0.5' gives each
# hull/vertex timing 0.5 s).  Not part of bench-all.  The predicates of
# commit PREDS_OLD (before the expansion stage) are extracted with git and
# compiled beside the current ones, every pred_ symbol renamed old_pred_,
# for before/after timings in one run; without git, or without that
# commit, a stub says so and only the current code is timed.
PREDS      := $(BUILD)/bench/preds
PREDS_OLD  ?= b752fcc
PREDS_OBJ  := $(BUILD)/bench/preds.o $(BUILD)/bench/preds_old.o
PREDS_ARGS ?=
PREDS_TITLE := Exact predicates, hulls, vertex enumeration and body setup (bench/preds)
PREDS_RENAME := $(foreach f,row_sign det_sign orient3d det4_rows det4_sign_q det3_q prod3_sum_sign,\
                  -Dpred_$(f)=old_pred_$(f))

.PHONY: preds-run preds-build
preds-build: $(PREDS)

$(BUILD)/bench/preds_old.c:
	@mkdir -p $(dir $@)
	@if git show $(PREDS_OLD):polytope/predicates.c > $@.tmp 2>/dev/null; then \
	  echo 'const int preds_old_present = 1;' >> $@.tmp; \
	else \
	  { echo '#include "polytope/predicates.h"'; \
	    echo 'const int preds_old_present = 0;'; \
	    echo 'int old_pred_orient3d(const double a[3], const double b[3], const double c[3],'; \
	    echo '                      const double d[3]) { return pred_orient3d(a, b, c, d); }'; \
	    echo 'int old_pred_det4_rows(const double *r0, const double *r1, const double *r2,'; \
	    echo '                       const double *r3) { return pred_det4_rows(r0, r1, r2, r3); }'; \
	  } > $@.tmp; \
	fi
	@mv $@.tmp $@

$(BUILD)/bench/preds_old.o: $(BUILD)/bench/preds_old.c
	$(CC) $(BENCH_CFLAGS) $(if $(shell grep -l 'preds_old_present = 1' $< 2>/dev/null),$(PREDS_RENAME)) -c $< -o $@

$(PREDS): $(PREDS_OBJ) $(LIBA)
	$(CC) -o $@ $(PREDS_OBJ) $(LIBA) $(BENCH_LIBS)

-include $(BUILD)/bench/preds.d

preds-run: $(PREDS)
	$(call run_and_splice,preds,$(PREDS),$(PREDS_ARGS),$(PREDS_TITLE))

# ---------------------------------------------------------------- robots
# Robot collision meshes pairwise (Panda, UR5), Panda meshes in FCL's env
# and boxes against Panda meshes, at random poses: our world query (the
# triangle hierarchy, HS_TRI_BVH) against FCL OBBRSS, in one run
# (bench/robots.cpp; ROBOTS_ARGS='--poses 50' for a quick run).  Runs after
# the others in bench-all.
ROBOTS       := $(BUILD)/bench/robots
ROBOTS_OBJ   := $(BUILD)/bench/robots.o
ROBOTS_ARGS  ?=
ROBOTS_TITLE := Robot meshes pairwise: triangle hierarchy vs FCL OBBRSS (bench/robots)

.PHONY: robots-run robots-build
bench-all: robots-run
robots-build: $(ROBOTS)

$(ROBOTS): $(ROBOTS_OBJ) $(LIBA)
	$(CXX) -o $@ $(ROBOTS_OBJ) $(LIBA) $(FCL_LIBS) $(BENCH_LIBS)

-include $(ROBOTS_OBJ:.o=.d)

robots-run: $(ROBOTS)
	$(call run_and_splice,robots,$(ROBOTS),$(ROBOTS_ARGS),$(ROBOTS_TITLE))

# ------------------------------------------------ dim (issue 13, item 5)
# bench/dim.c: exact, fast and GLPK engines in n = 6..10 dimensions (cold
# timing), polytope build times, the exact engine on the n-simplex.
DIM       := $(BUILD)/bench/dim
DIM_OBJ   := $(BUILD)/bench/dim.o $(BUILD)/bench/tangent.o
DIM_ARGS  ?=
DIM_TITLE := Higher dimension: exact, fast and GLPK engines (bench/dim)
.PHONY: dim-run dim-build
dim-build: $(DIM)
$(DIM): $(DIM_OBJ) $(LIBA)
	$(CC) -o $@ $(DIM_OBJ) $(LIBA) $(BENCH_LIBS)
-include $(DIM_OBJ:.o=.d)
dim-run: $(DIM)
	$(call run_and_splice,dim,$(DIM),$(DIM_ARGS),$(DIM_TITLE))
