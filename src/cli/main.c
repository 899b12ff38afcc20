/* main.c -- the halfspace command-line tool: dispatch to a command. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "halfspace.h"
#include "src/cli/cli_commands.h"
#include "src/cli/cli_common.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"feasible", cmd_feasible, "feasible A.ine             is {x : A x <= b} empty?"},
    {"intersect", cmd_intersect, "intersect A.ine B.ine      disjoint, touching or overlap?"},
    {"verify", cmd_verify, "verify A.ine [B.ine] CERT  check a certificate exactly"},
    {"batch", cmd_batch, "batch FILE [--threads N]   many pairs listed in FILE"},
    {"world", cmd_world, "world SCENE [options]      bodies in collision or contact"},
    {"chain", cmd_chain, "chain CHAIN [options]      kinematic chain: self-collision, world"},
    {"path", cmd_path, "path SCENE --body B ...    check a body's straight or arc path"},
    {"robot", cmd_robot, "robot ROBOT.urdf [options] URDF robot: self, scene, motions"},
    {"crosscheck", cmd_crosscheck, "crosscheck [options]       random instances vs GLPK"},
    {"draw", cmd_draw, "draw A.ine [B.ine] -o OUT  a picture; --trace: the recursion step by step"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: halfspace COMMAND [options] [files]\n"
                 "Exact intersection tests for convex polyhedra {x : A x <= b}.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %s\n", commands[i].summary);
    fprintf(out, "\n'halfspace COMMAND --help' describes a command.  --version prints the "
                 "version.\n");
}

/* GNU MP's own allocator aborts when the heap is exhausted.  The library
 * checks for room before its large GMP arrays, but a number can still
 * grow past the memory left; then the tool ends as for any input too large
 * for the memory (exit 2, see the README), not with an abort. */
static void gmp_out_of_memory(void)
{
    static const char msg[] = "halfspace: out of memory (in GNU MP arithmetic)\n";
    if (write(2, msg, sizeof msg - 1) < 0) {
        /* nothing more to say */
    }
    _exit(EXIT_INPUT);
}

static void *gmp_alloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        gmp_out_of_memory();
    return p;
}

static void *gmp_realloc(void *p, size_t old, size_t n)
{
    (void)old;
    void *q = realloc(p, n);
    if (!q)
        gmp_out_of_memory();
    return q;
}

static void gmp_free(void *p, size_t n)
{
    (void)n;
    free(p);
}

int main(int argc, char **argv)
{
    mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free);
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "help") == 0 || strcmp(name, "-h") == 0) {
        usage(stdout);
        return EXIT_ANSWER;
    }
    if (strcmp(name, "--version") == 0) {
        printf("halfspace %s\n", hs_version());
        return EXIT_ANSWER;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(name, commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "halfspace: unknown command '%s'\n", name);
    usage(stderr);
    return EXIT_USAGE;
}
