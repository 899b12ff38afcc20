/* world_rest.h -- three parts of bench/world beside the moving bodies of
 * world.cpp: a resting-contact scene (boxes standing exactly on a floor,
 * and stacks of them) timed per world query step against FCL's collision
 * manager, and the cost of adding a body to a world against FCL's object
 * creation and manager registration (world_rest.cpp); and mesh hulls set
 * face down on a floor by floating-point poses (world_hulls.cpp). */
#ifndef HS_BENCH_WORLD_REST_H
#define HS_BENCH_WORLD_REST_H

#include <cstdint>
#include <string>
#include <vector>

struct rest_options {
    std::vector<int> sizes{100, 1000}; /* boxes in the resting scene */
    int steps = 30;                    /* timed steps per size */
    int setup_rounds = 5;              /* fresh worlds per setup timing */
    int setup_boxes = 1000;            /* boxes added per round */
    int setup_hull_copies = 10;        /* each mesh hull added this often per round */
    int hull_copies = 4;               /* each mesh hull set down this often (scene hull-rest) */
    uint64_t seed = 1;
    std::string data;                  /* data folder (mesh hulls) */
    bool verbose = false;
};

/* The resting-contact scene at every size: prints its tables, notes and
 * a fenced block of RESULT lines to stdout; exits on error. */
void rest_run(const rest_options &o);

/* Body setup, boxes and mesh hulls: prints as rest_run does. */
void setup_run(const rest_options &o);

/* Mesh hulls set face down on a floor by floating-point poses (a rounding
 * apart), world query steps against FCL (world_hulls.cpp): prints as
 * rest_run does; a note instead when the data folder is missing. */
void hulls_run(const rest_options &o);

#endif
