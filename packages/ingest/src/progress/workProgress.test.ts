import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { formatDuration, progressBar, progressDisplay, progressFigures, readWork, Tenths, type WorkProgress } from "./workProgress.ts"

/** A display's output, written to memory. */
const recorder = (isTTY: boolean, columns = 120) => {
  const writes: Array<string> = []
  return { writes, output: { isTTY, columns, write: (text: string) => writes.push(text) } }
}

const at = (fraction: number): WorkProgress => ({ fraction, lines: Math.round(fraction * 1000), bytes: fraction * 5e6, elapsedMs: 1000 })

/** Increasing shares of some work, ending on the whole of it. */
const run = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 60 }).map((shares) => [...shares.sort((a, b) => a - b), 1])

describe("progress figures", () => {
  it("says the share, lines, bytes, rate and time left", () => {
    expect(progressFigures({ fraction: 0.4, lines: 1_780_000, bytes: 420_500_000, elapsedMs: 8000 })).toBe(
      " 40 %  1,780,000 lines  420.5 MB  222,500 lines/s  12 s left"
    )
    // No line count (a snapshot): the rate in MB/s; no time left once done.
    expect(progressFigures({ fraction: 1, bytes: 1_200_000_000, elapsedMs: 4000 })).toBe("100 %  1200.0 MB  300.0 MB/s")
    // Nothing done yet: no pace, so neither rate nor time left.
    expect(progressFigures({ fraction: 0, lines: 0, bytes: 0, elapsedMs: 0 })).toBe("  0 %  0 lines  0.0 MB")
  })

  it("writes durations for people", () => {
    expect(formatDuration(0.4)).toBe("0 s")
    expect(formatDuration(59)).toBe("59 s")
    expect(formatDuration(185)).toBe("3 min 05 s")
    expect(formatDuration(3720)).toBe("1 h 02 min")
  })

  it("fills the bar in proportion", () => {
    expect(progressBar(0, 10)).toBe("[..........]")
    expect(progressBar(0.42, 10)).toBe("[####......]")
    expect(progressBar(1, 10)).toBe("[##########]")
    expect(progressBar(1.5, 4)).toBe("[####]")
  })

  it("takes a read's share from the bytes of the file", () => {
    expect(readWork({ lines: 10, bytesRead: 250, totalBytes: 1000, elapsedMs: 5 })).toEqual({ fraction: 0.25, lines: 10, bytes: 250, elapsedMs: 5 })
    expect(readWork({ lines: 0, bytesRead: 0, totalBytes: 0, elapsedMs: 5 }).fraction).toBe(1)
  })
})

describe("Tenths", () => {
  it("answers each tenth once, the highest reached, never going back", () => {
    fc.assert(fc.property(run, (shares) => {
      const tenths = new Tenths()
      const crossed = shares.map((share) => tenths.cross(share)).filter((tenth) => tenth !== undefined)
      // The naive model: the distinct values of floor(share × 10) above 0, in order.
      const expected = [...new Set(shares.map((share) => Math.floor(share * 10)).filter((tenth) => tenth > 0))]
      expect(crossed).toEqual(expected)
    }))
  })
})

describe("progressDisplay", () => {
  it("off a terminal, writes one line per tenth reached, ending on 100 %", () => {
    fc.assert(fc.property(run, (shares) => {
      const { output, writes } = recorder(false)
      const display = progressDisplay("reading", output)
      for (const share of shares) display.update(at(share))
      display.end()
      expect(writes.length).toBeLessThanOrEqual(10)
      for (const line of writes) {
        expect(line).toMatch(/^reading +\d+ % .*\n$/)
        expect(line).not.toContain("\r")
      }
      expect(writes.at(-1)).toMatch(/^reading 100 %  1,000 lines  5\.0 MB/)
    }))
  })

  it("off a terminal, steps of 1 % give exactly the ten lines 10 %, 20 %, … 100 %", () => {
    const { output, writes } = recorder(false)
    const display = progressDisplay("writing", output)
    for (let percent = 0; percent <= 100; percent++) display.update(at(percent / 100))
    display.end()
    expect(writes.map((line) => line.slice(0, 13))).toEqual(
      [10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((percent) => `writing ${String(percent).padStart(3)} %`)
    )
  })

  it("on a terminal, redraws one line in place, within the width, and ends it once", () => {
    const { output, writes } = recorder(true, 72)
    const display = progressDisplay("reading", output)
    display.update(at(0.1))
    display.update(at(1))
    display.end()
    display.end()
    const text = writes.join("")
    expect(text.endsWith("\n")).toBe(true)
    expect(text.split("\n")).toHaveLength(2)
    const frames = text.slice(0, -1).split("\r").filter((frame) => frame.length > 0)
    expect(frames[0]).toMatch(/^reading \[#*\.*\]  10 %/)
    expect(frames.at(-1)).toMatch(/^reading \[#+\] 100 %/)
    for (const frame of frames) expect(frame.replace("\x1b[K", "").length).toBeLessThan(72)
  })
})
