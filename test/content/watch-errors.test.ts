import { describe, expect, it } from 'vitest'
import { watchErrors } from '../../src/content/store/disk-watch.ts'

// At 40,000 events a start ran out of inotify watches and printed one line per file past the limit
// (tens of thousands). A system limit is told once, with what to do; any other error every time.
describe('the watcher errors the server tells', () => {
  it('tells a system limit once, with the setting to raise, and every other error each time', () => {
    const tell = watchErrors()
    const told = [
      tell("ENOSPC: System limit for number of file watchers reached, watch '/c/events/a.en.md'", 'ENOSPC'),
      tell("ENOSPC: System limit for number of file watchers reached, watch '/c/events/b.en.md'", 'ENOSPC'),
      tell('EACCES: permission denied', 'EACCES'),
      tell('EACCES: permission denied', 'EACCES'),
      tell('EMFILE: too many open files', 'EMFILE'),
      tell('EMFILE: too many open files', 'EMFILE'),
      tell('something else'),
    ].filter((line) => line !== undefined)
    expect(told).toHaveLength(5)
    expect(told[0]).toMatch(/fs\.inotify\.max_user_watches.*a\.en\.md/)
    expect(told.filter((line) => line!.includes('ENOSPC'))).toHaveLength(1)
    expect(told.filter((line) => line!.includes('EACCES'))).toHaveLength(2)
    expect(told.filter((line) => line!.includes('ulimit -n'))).toHaveLength(1)
  })
})
