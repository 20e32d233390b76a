/* PLACEHOLDER: replaced by the real subcommand. */
#include "commands.h"
#include "cli_util.h"

int cmd_model(int argc, char **argv) {
  (void)argc; (void)argv;
  cli_error("model", "not built yet");
  return 1;
}
