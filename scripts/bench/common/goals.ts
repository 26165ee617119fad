// The issue's goals as the report prints them: each with its number, what it asks, what was measured and ✓/✗,
// and the closing summary block with the machine the numbers were taken on.
import os from 'node:os'
import { loadTool } from './load.ts'
import { pinningNote } from './pin.ts'

/** One goal: `ok` is null when it was not measured in this run (skipped by a setting). */
export interface Goal {
  goal: string
  measured: string
  ok: boolean | null
}

/** A goal as numbered in the summary. */
export interface NumberedGoal extends Goal {
  n: number
}

/** The summary as `.bench/results.json` keeps it. */
export interface Summary {
  date: string
  machine: { cpu: string; cores: number; node: string; loadGenerator: string; pinning: string }
  events: number
  goals: NumberedGoal[]
  met: number
  missed: number
  skipped: number
}

/** A goal met or missed (or skipped when `measured` is undefined). */
export function goal(text: string, measured: string | undefined, ok: boolean): Goal {
  return measured === undefined ? { goal: text, measured: 'not measured', ok: null } : { goal: text, measured, ok }
}

/** The goals numbered in order, with the machine and counts. */
export function summarize(goals: Goal[], events: number): Summary {
  const cpus = os.cpus()
  return {
    date: new Date().toISOString(),
    machine: {
      cpu: cpus[0]?.model.trim() ?? 'unknown',
      cores: cpus.length,
      node: process.version,
      loadGenerator: loadTool(),
      pinning: pinningNote(),
    },
    events,
    goals: goals.map((g, i) => ({ ...g, n: i + 1 })),
    met: goals.filter((g) => g.ok === true).length,
    missed: goals.filter((g) => g.ok === false).length,
    skipped: goals.filter((g) => g.ok === null).length,
  }
}

/** One line per goal: number, ✓/✗ (– when skipped), the goal, then what was measured. */
export function formatGoals(goals: NumberedGoal[]): string[] {
  const width = Math.max(...goals.map((g) => g.goal.length))
  return goals.map(
    (g) =>
      `${String(g.n).padStart(2)}. ${g.ok === null ? '–' : g.ok ? '✓' : '✗'} ${g.goal.padEnd(width)}  ${g.measured}`,
  )
}

/** The closing block: machine, then every goal, then the count. */
export function formatSummary(s: Summary): string {
  const m = s.machine
  return [
    `Summary (${s.date}, ${s.events.toLocaleString('en')} events x 4 languages)`,
    `Machine: ${m.cpu}, ${m.cores} cores, Node ${m.node}; load: ${m.loadGenerator}; ${m.pinning}`,
    ...formatGoals(s.goals),
    `${s.met} met, ${s.missed} missed${s.skipped > 0 ? `, ${s.skipped} not measured` : ''}`,
  ].join('\n')
}
