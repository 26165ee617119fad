// The static build's report and goals: a full build's time and size, and one event's edit until its files are current.
import type { BuildRun } from '../common/build-run.ts'
import { goal, type Goal } from '../common/goals.ts'

/** Issue 13: a full build of the 10k x 4 tree in 15 s, an output under 1 GB (GitHub and GitLab Pages' cap, read as
 * 10^9 bytes), and one edited event's files current within 300 ms. */
export const BUILD_BUDGETS = { fullMs: 15_000, bytes: 1e9, oneEventMs: 300 }

/** The median of the one-event edits, in ms. */
export function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

/** The report section of the build. */
export function formatBuild(run: BuildRun): string {
  const b = BUILD_BUDGETS
  const mark = (ok: boolean) => (ok ? '✓' : '✗')
  return [
    'Static build of the generated tree (a full build into an empty folder, then edits of one event)',
    `full build: ${run.files.toLocaleString('en')} files, ${(run.bytes / 1e6).toFixed(0)} MB (10^6 bytes), ` +
      `${(run.fullMs / 1000).toFixed(1)} s  (<= ${b.fullMs / 1000} s ${mark(run.fullMs <= b.fullMs)}, ` +
      `< 1 GB ${mark(run.bytes < b.bytes)})`,
    `  CPU of the build process meanwhile: ${(run.fullCpuMs.user / 1000).toFixed(1)} s user, ` +
      `${(run.fullCpuMs.system / 1000).toFixed(1)} s system (every thread)`,
    slugLine(run),
    `one event touched -> its files current: median ${median(run.oneEventMs).toFixed(0)} ms, max ` +
      `${Math.max(...run.oneEventMs).toFixed(0)} ms over ${run.oneEventMs.length} edits, ${run.written.join('/')} ` +
      `files written  (<= ${b.oneEventMs} ms ${mark(median(run.oneEventMs) <= b.oneEventMs)})`,
    ...editCpuLine(run),
    commitLine(run),
  ].join('\n')
}

/** What the build process itself spent on each edit, beside its wall time (older results have none). */
function editCpuLine({ oneEventCpuMs: cpu, oneEventGcMs: gc }: BuildRun): string[] {
  if (!cpu || !gc || cpu.length === 0) return []
  const each = (values: number[]) => values.map((ms) => ms.toFixed(0)).join('/')
  return [`  of which the build process's CPU ${each(cpu)} ms (every thread), its GC pauses ${each(gc)} ms`]
}

/** Each edit committed, until the output is current: reported, not a goal (no git: not measured). */
function commitLine({ commitMs, commitWritten }: BuildRun): string {
  if (!commitMs || commitMs.length === 0) return 'each edit committed: not measured (git is not installed)'
  return (
    `each edit committed -> git asked, its feeds current: median ${median(commitMs).toFixed(0)} ms, max ` +
    `${Math.max(...commitMs).toFixed(0)} ms, ${(commitWritten ?? []).join('/')} files written (git log included)`
  )
}

/** What the default did with the by-slug files, and their size either way. */
function slugLine({ slugPages: slugs }: BuildRun): string {
  if (!slugs) return 'by-slug files: none'
  const size = `${slugs.files.toLocaleString('en')} files, ${(slugs.bytes / 1e6).toFixed(0)} MB`
  return slugs.written
    ? `by-slug files: written (${size}; the site fits 1 GB with them)`
    : `by-slug files: left out by default (${size}; with them the site would pass 1 GB; slugs.json maps slugs to ids)`
}

/** The build goals: time and size of the full build, and one event's edit until its files are current. */
export function buildGoals(run: BuildRun | undefined): Goal[] {
  const b = BUILD_BUDGETS
  const edit = run ? median(run.oneEventMs) : NaN
  return [
    goal(
      `static build <= ${b.fullMs / 1000} s`,
      run && `${(run.fullMs / 1000).toFixed(1)} s, ${run.files.toLocaleString('en')} files`,
      (run?.fullMs ?? NaN) <= b.fullMs,
    ),
    goal(
      'static build output < 1 GB',
      run && `${(run.bytes / 1e6).toFixed(0)} MB (10^6 bytes)`,
      (run?.bytes ?? NaN) < b.bytes,
    ),
    goal(
      `one-event edit -> files current <= ${b.oneEventMs} ms`,
      run && `median ${edit.toFixed(0)} ms of ${run.oneEventMs.length}`,
      edit <= b.oneEventMs,
    ),
  ]
}
