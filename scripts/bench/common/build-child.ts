// Child process: one measured static build (build-run.ts's measureBuild), its result printed as one JSON line.
// Usage: node --import tsx scripts/bench/common/build-child.ts <job.json>
import { readFileSync } from 'node:fs'
import { isSeries, type ContentRecord } from '../../../src/content/model/record-types.ts'
import { type BuildJob, measureBuild } from './build-run.ts'

const middle = (items: ContentRecord[]) => items[Math.floor(items.length / 2)]
const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as BuildJob
const run = await measureBuild(job.content, job.out, job.edits, {
  ...(job.workers === undefined ? {} : { workers: job.workers }),
  // A series when the job asks for one and the tree has one; else the middle event.
  edited: (files) => (job.editSeries ? middle(files.filter(isSeries)) : undefined) ?? middle(files)!,
  commits: job.commits === true,
})
console.log(JSON.stringify(run))
