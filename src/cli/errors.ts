/** A user mistake on the command line: printed as one line, without a stack trace, exit code 1. */
export class CliError extends Error {}
