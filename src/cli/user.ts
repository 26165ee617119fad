import { existsSync } from 'node:fs'
import { openUsers } from '../auth/users.ts'
import { UsersError } from '../auth/users-file.ts'
import { isRole, ROLES } from '../auth/roles.ts'
import { CliError } from './errors.ts'
import { settings } from './settings.ts'
import { either } from './usage.ts'

/** `almanac user …`: manages the users file; prints a new application password once. */
export function user(args: string[], flags: Record<string, string | undefined>): number {
  const [action, login] = args
  const { config } = settings(flags)
  // Only add creates the file: for the others a missing one is most likely a wrong --users path.
  if (action !== 'add' && !existsSync(config.users))
    throw new CliError(`${config.users}: no users file yet; add one with almanac user add LOGIN --role ROLE`)
  try {
    const users = openUsers(config.users)
    if (action === 'list') {
      for (const u of users.list()) console.log(`${String(u.id).padStart(4)}  ${u.login.padEnd(24)} ${u.role}`)
      return 0
    }
    if (!login) throw new CliError(`user ${action ?? ''}: LOGIN is missing`)
    if (action === 'add') {
      if (flags.role === undefined) throw new CliError(`user add: --role is missing; use ${either(ROLES)}`)
      if (!isRole(flags.role))
        throw new CliError(`user add: --role ${JSON.stringify(flags.role)} is not a role; use ${either(ROLES)}`)
      const made = users.add(login, flags.role, flags.password)
      console.log(`Added ${made.user.login} (id ${made.user.id}, ${made.user.role}) to ${config.users}`)
      if (!flags.password) console.log(`Application password (shown once): ${made.password}`)
      return 0
    }
    if (action === 'remove') {
      // The login as stored: logins are found without case, so `Ana` may remove `ana`.
      console.log(`Removed ${users.remove(login).login}`)
      return 0
    }
    if (action === 'reset-password') {
      const { user, password } = users.resetPassword(login, flags.password)
      console.log(
        flags.password
          ? `Password of ${user.login} replaced`
          : `New application password for ${user.login} (shown once): ${password}`,
      )
      return 0
    }
    throw new CliError(`unknown command "user ${action ?? ''}"`)
  } catch (error) {
    if (error instanceof UsersError) throw new CliError(error.message)
    throw error
  }
}
