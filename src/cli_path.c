/* cli_path.c -- `halfspace path` (being written; see issue 5). */
#include <stdio.h>

#include "src/cli_commands.h"
#include "src/cli_common.h"

int cmd_path(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "halfspace path: not available in this build yet\n");
    return EXIT_USAGE;
}
