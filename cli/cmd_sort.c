/* PLACEHOLDER: replaced by the real subcommand. */
#include "commands.h"
#include "cli_util.h"

int cmd_sort(int argc, char **argv) {
  (void)argc; (void)argv;
  cli_error("sort", "not built yet");
  return 1;
}
