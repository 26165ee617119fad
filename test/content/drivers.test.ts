import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDiskDriver } from '../../src/content/store/disk-driver.ts'
import { createMemoryDriver } from '../../src/content/store/memory-driver.ts'
import { driverContract } from './driver-contract.ts'

driverContract('disk', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'almanac-driver-'))
  return {
    driver: createDiskDriver(dir),
    stored: (folder) => readdir(join(dir, folder)).then((names) => names.sort()),
    close: () => rm(dir, { recursive: true, force: true }),
  }
})

driverContract('memory', async () => {
  const driver = createMemoryDriver()
  return {
    driver,
    // The names right under a folder, as a directory listing gives them (a subfolder once).
    stored: async (folder) => [
      ...new Set(
        [...driver.files.keys()]
          .filter((path) => path.startsWith(`${folder}/`))
          .map((path) => path.slice(folder.length + 1).split('/')[0]!)
          .sort(),
      ),
    ],
    close: async () => {},
  }
})
