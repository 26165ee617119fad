import { defineCommand, type CommandDef } from 'citty'
import { ARGS, BUILD_SWITCHES, command } from './args.ts'
import { userCommand } from './user-commands.ts'

// Each command's code is loaded when it runs, so --help and mistakes answer at once.

const serveCommand = command(
  'serve',
  'Serve the API live, following every change to the content tree',
  {
    content: ARGS.content,
    port: ARGS.port,
    host: ARGS.host,
    users: ARGS.users,
    config: ARGS.config,
    build: { type: 'boolean', description: 'keep the static build in --out current while serving' },
    out: ARGS.out,
    ...BUILD_SWITCHES,
    quiet: ARGS.quiet,
  },
  async (flags) => (await import('./serve.ts')).serve(flags),
)

const buildCommand = command(
  'build',
  'Write the public API as static files',
  {
    content: ARGS.content,
    out: ARGS.out,
    'base-url': { type: 'string', valueHint: 'URL', description: 'public URL the files will be served from' },
    watch: { type: 'boolean', description: 'keep building as the content changes' },
    workers: {
      type: 'string',
      valueHint: 'N',
      description: 'worker threads that render a full build beside the main thread (0: the main thread alone)',
    },
    ...BUILD_SWITCHES,
    config: ARGS.config,
  },
  async (flags) => (await import('./build.ts')).build(flags),
)

const previewCommand = command(
  'preview',
  'Serve the built files the way a static host would, on port 4173 by default',
  {
    out: ARGS.out,
    port: ARGS.port,
    host: ARGS.host,
    config: ARGS.config,
    quiet: ARGS.quiet,
  },
  async (flags) => (await import('./preview.ts')).preview(flags),
)

const checkCommand = command(
  'check',
  'Validate the content tree; exit 1 when it has errors',
  {
    content: ARGS.content,
    fix: {
      type: 'boolean',
      description: 'make mechanical repairs (missing ids, publication dates, key order) and say what changed',
    },
    format: { type: 'string', valueHint: 'text|github|json', description: 'how problems are printed (default text)' },
    config: ARGS.config,
  },
  async (flags) => (await import('./check.ts')).check(flags),
)

/** The almanac command and its subcommands. */
export function rootCommand(version: string): CommandDef {
  return defineCommand({
    meta: { name: 'almanac', version, description: 'The Events Calendar REST API over Markdown files' },
    subCommands: {
      serve: serveCommand,
      build: buildCommand,
      preview: previewCommand,
      check: checkCommand,
      user: userCommand,
    },
  })
}
