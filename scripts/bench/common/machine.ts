// The machine and the generated content a run measured, and the report's first lines that name them.
import os from 'node:os'
import { int, seconds } from './format.ts'
import { loadTool } from './load.ts'
import { pinningNote } from './pin.ts'
import type { BenchRun } from './run.ts'

/** The machine: `loadBefore` is the 1-minute load average before the run; a high one explains noisy numbers. */
export interface Machine {
  cpu: string
  cores: number
  memoryGb: number
  node: string
  platform: string
  loadBefore: number
}

/** The generated content tree. */
export interface ContentSize {
  files: number
  megabytes: number
  events: number
  languages: number
  generateMs: number
}

/** When, on what and over what a run measured: the first keys of every entry's JSON. */
export interface RunInfo {
  date: string
  machine: Machine
  content: ContentSize
}

/** The run's date, machine and content, from the generated tree. */
export function runInfo(run: BenchRun): RunInfo {
  const cpus = os.cpus()
  return {
    date: new Date().toISOString(),
    machine: {
      cpu: cpus[0]?.model.trim() ?? 'unknown',
      cores: cpus.length,
      memoryGb: os.totalmem() / 1024 ** 3,
      node: process.version,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      loadBefore: run.loadBefore,
    },
    content: {
      files: run.corpus.files,
      megabytes: run.corpus.bytes / 1024 ** 2,
      events: run.corpus.events,
      languages: 4,
      generateMs: run.generateMs,
    },
  }
}

/** The report's first lines: the run's date, the machine, the load generator and pinning, and the content. */
export function formatHeader(r: RunInfo): string {
  const m = r.machine
  return [
    `Almanac bench, ${r.date}`,
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGb.toFixed(1)} GB, Node ${m.node} (${m.platform}), load ${m.loadBefore.toFixed(2)} before the run`,
    `Load generator: ${loadTool()}; ${pinningNote()}; servers run with --quiet (no request log)`,
    `Content: ${int(r.content.files)} files, ${r.content.megabytes.toFixed(1)} MB ` +
      `(${int(r.content.events)} events x ${r.content.languages} languages + venues, organizers, terms), ` +
      `generated in ${seconds(r.content.generateMs)}`,
  ].join('\n')
}
