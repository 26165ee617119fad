import { defineCommand } from 'citty'
import { ARGS, command } from './args.ts'

const LOGIN = { type: 'positional', description: "the user's login" } as const
const PASSWORD = {
  type: 'string',
  valueHint: 'PW',
  description: 'this application password instead of a generated one (at least 12 characters)',
} as const
type Flags = Record<string, string | boolean | undefined>

/** Runs `almanac user <action>`, loading the users code only then. */
const user = async (args: string[], flags: Record<string, string | undefined>) =>
  (await import('./user.ts')).user(args, flags)

/** The string flags `user` reads, with the login taken out. */
const strings = (flags: Flags) =>
  Object.fromEntries(Object.entries(flags).filter(([, v]) => typeof v === 'string')) as Record<
    string,
    string | undefined
  >

/** `almanac user …`: manages the users file. */
export const userCommand = defineCommand({
  meta: { name: 'almanac user', description: 'Manage the users file (who may write, with what role)' },
  subCommands: {
    add: command(
      'user add',
      'Add a user; prints the new application password once',
      {
        login: LOGIN,
        role: {
          type: 'string',
          valueHint: 'ROLE',
          description: 'administrator, editor, author, contributor or subscriber (required)',
        },
        password: PASSWORD,
        users: ARGS.users,
        config: ARGS.config,
      },
      (flags) => user(['add', String(flags.login)], strings(flags)),
    ),
    list: command(
      'user list',
      'List the users: id, login and role',
      { users: ARGS.users, config: ARGS.config },
      (flags) => user(['list'], strings(flags)),
    ),
    remove: command(
      'user remove',
      'Remove a user (their id is never given again)',
      { login: LOGIN, users: ARGS.users, config: ARGS.config },
      (flags) => user(['remove', String(flags.login)], strings(flags)),
    ),
    'reset-password': command(
      'user reset-password',
      "Replace a user's application passwords with one new one, printed once",
      {
        login: LOGIN,
        password: PASSWORD,
        users: ARGS.users,
        config: ARGS.config,
      },
      (flags) => user(['reset-password', String(flags.login)], strings(flags)),
    ),
  },
})
