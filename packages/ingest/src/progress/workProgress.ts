/**
 * Progress of long work (reading an extract, writing one, writing a snapshot) as people see it:
 * on a terminal, a bar redrawn in place with the lines, bytes, rate and time left; elsewhere (a
 * log file, CI), one line each time another tenth of the work is done, so that a log holds ten
 * lines, not thousands.
 */
import type { ReadProgress } from "../source/readSource.ts"

/** Where some work stands. */
export interface WorkProgress {
  /** Share of the work done, from 0 to 1. */
  readonly fraction: number
  /** Lines read or written so far, when the work counts lines. */
  readonly lines?: number
  /** Bytes read or written so far. */
  readonly bytes: number
  readonly elapsedMs: number
}

/** The progress of a read: its share is that of the file's bytes (as stored) read so far. */
export const readWork = (progress: ReadProgress): WorkProgress => ({
  fraction: progress.totalBytes > 0 ? Math.min(progress.bytesRead / progress.totalBytes, 1) : 1,
  lines: progress.lines,
  bytes: progress.bytesRead,
  elapsedMs: progress.elapsedMs
})

const MB = 1e6

/** A duration for people: `42 s`, `3 min 05 s`, `1 h 02 min`. */
export const formatDuration = (seconds: number): string => {
  const whole = Math.max(0, Math.round(seconds))
  if (whole < 60) return `${whole} s`
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, "0")} s`
  return `${Math.floor(whole / 3600)} h ${String(Math.floor((whole % 3600) / 60)).padStart(2, "0")} min`
}

/** Seconds left at the pace so far, or undefined before there is a pace. */
export const secondsLeft = (progress: WorkProgress): number | undefined =>
  progress.fraction > 0 && progress.elapsedMs > 0 ? (progress.elapsedMs / 1000) * (1 - progress.fraction) / progress.fraction : undefined

/** `40 %  1,780,000 lines  420.5 MB  120,000 lines/s  9 s left` (the rate in MB/s when lines are not counted). */
export const progressFigures = (progress: WorkProgress): string => {
  const seconds = progress.elapsedMs / 1000
  const percent = `${Math.floor(progress.fraction * 100)} %`.padStart(5)
  const parts = [percent]
  if (progress.lines !== undefined) parts.push(`${progress.lines.toLocaleString("en")} lines`)
  parts.push(`${(progress.bytes / MB).toFixed(1)} MB`)
  if (seconds > 0) {
    parts.push(
      progress.lines !== undefined
        ? `${Math.round(progress.lines / seconds).toLocaleString("en")} lines/s`
        : `${(progress.bytes / MB / seconds).toFixed(1)} MB/s`
    )
  }
  const left = secondsLeft(progress)
  if (left !== undefined && progress.fraction < 1) parts.push(`${formatDuration(left)} left`)
  return parts.join("  ")
}

/** `[#########...........]`, `width` cells filled in proportion to the share done. */
export const progressBar = (fraction: number, width: number): string => {
  const filled = Math.round(Math.min(Math.max(fraction, 0), 1) * width)
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}]`
}

/**
 * The tenths of some work already reported: `cross(fraction)` answers the highest tenth (1 to 10)
 * newly reached, or undefined when the work has not reached a new one. Shared by the command
 * line (a line per tenth off a terminal) and the server's load log.
 */
export class Tenths {
  private reported = 0

  cross(fraction: number): number | undefined {
    const tenth = Math.min(Math.floor(fraction * 10), 10)
    if (tenth <= this.reported) return undefined
    this.reported = tenth
    return tenth
  }
}

/** What the display writes to: `process.stderr`, or a test's recorder. */
export interface ProgressOutput {
  readonly isTTY?: boolean | undefined
  readonly columns?: number | undefined
  write(text: string): unknown
}

export interface ProgressDisplay {
  /** A new state of the work (called as often as the work likes: a terminal is redrawn at most every 100 ms). */
  readonly update: (progress: WorkProgress) => void
  /** The work is over: the bar shows its last state and the cursor goes to the next line (once). */
  readonly end: () => void
}

const REDRAW_MS = 100
const BAR_WIDTH = { min: 10, max: 30 }

/** The progress of `label`'s work on `output`: a bar on a terminal, else a line every tenth. */
export const progressDisplay = (label: string, output: ProgressOutput): ProgressDisplay => {
  if (output.isTTY !== true) {
    const tenths = new Tenths()
    return {
      update: (progress) => {
        if (tenths.cross(progress.fraction) !== undefined) output.write(`${label} ${progressFigures(progress)}\n`)
      },
      end: () => undefined
    }
  }
  let last: WorkProgress | undefined
  let drawnAt = Number.NEGATIVE_INFINITY
  const draw = (progress: WorkProgress) => {
    const figures = progressFigures(progress)
    const columns = output.columns ?? 80
    // The bar takes the room the figures leave; the line is clipped to the terminal's width
    // (a wrapped line could not be redrawn in place).
    const width = Math.min(Math.max(columns - 1 - label.length - figures.length - 4, BAR_WIDTH.min), BAR_WIDTH.max)
    const line = `${label} ${progressBar(progress.fraction, width)} ${figures}`
    output.write(`\r${line.length >= columns ? line.slice(0, columns - 1) : line}\x1b[K`)
  }
  return {
    update: (progress) => {
      last = progress
      const now = performance.now()
      if (now - drawnAt < REDRAW_MS && progress.fraction < 1) return
      drawnAt = now
      draw(progress)
    },
    end: () => {
      if (last !== undefined) {
        draw(last)
        output.write("\n")
        last = undefined
      }
    }
  }
}
