import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Vitest's default is one file at a time on two cores (cores - 1), yet many files spend their time waiting on a
    // child process, a socket or the disk: two at a time took the suite from 420 s to 297 s on the 2-core CI machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
})
