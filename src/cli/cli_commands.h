/* cli_commands.h -- one entry point per CLI command; argv[0] is the
 * command name.  Each returns the process exit code (cli_common.h). */
#ifndef HS_CLI_COMMANDS_H
#define HS_CLI_COMMANDS_H

int cmd_feasible(int argc, char **argv);
int cmd_intersect(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_batch(int argc, char **argv);
int cmd_world(int argc, char **argv);
int cmd_chain(int argc, char **argv);
int cmd_path(int argc, char **argv);
int cmd_crosscheck(int argc, char **argv);
int cmd_draw(int argc, char **argv); /* cli_draw.c (pictures, src/draw/) */
int cmd_robot(int argc, char **argv);

#endif
