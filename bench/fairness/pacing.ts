/**
 * A caller that keeps within its quota (issue 24 item 5's measured caller): it reads the quota from
 * the answers' `RateLimit-Policy` and `RateLimit` headers (draft-ietf-httpapi-ratelimit-headers-10,
 * as the server sends them) and waits, before its next request, until the units one request costs
 * are back in its bucket. Nothing is assumed about a route's units: they are read from how far
 * `r` falls between two admitted requests, the refill between them added back.
 */

export interface Policy {
  /** `q`: the bucket's size (burst), units. */
  readonly burst: number
  /** `w`: seconds for an empty bucket to refill. */
  readonly windowSeconds: number
}

const parameter = (header: string | undefined, name: string): number | undefined => {
  const match = header === undefined ? null : new RegExp(`;\\s*${name}=(\\d+)`).exec(header)
  return match === null ? undefined : Number(match[1])
}

/** `"default";q=200;w=4` → { burst: 200, windowSeconds: 4 }; undefined without one (the quota is off). */
export const parsePolicy = (header: string | undefined): Policy | undefined => {
  const burst = parameter(header, "q")
  const windowSeconds = parameter(header, "w")
  return burst === undefined || windowSeconds === undefined || windowSeconds === 0 ? undefined : { burst, windowSeconds }
}

/** Units per second: `q / w` (the server rounds `w` up, so this is at most the true rate). */
export const unitsPerSecond = (policy: Policy): number => policy.burst / policy.windowSeconds

/** `r` of `"default";r=150;t=1`: whole units left. */
export const remainingOf = (header: string | undefined): number | undefined => parameter(header, "r")

/**
 * The probe's pace within its own quota: a probe costs 1 unit, so at most this share of the refill
 * rate, and never faster than `fastestMs` (the varied bench's pace, 100 a second).
 */
export const PROBE_SHARE = 0.8
export const probeIntervalMs = (rate: number, fastestMs: number): number => Math.max(fastestMs, Math.ceil(1000 / (PROBE_SHARE * rate)))

export class Pacer {
  /** Units of one request, at most, as read so far (0 before two admitted answers). */
  private cost = 0
  private last: { readonly sentAt: number; readonly remaining: number } | undefined

  /** Units per second. */
  readonly rate: number

  constructor(rate: number) {
    this.rate = rate
  }

  /**
   * After an admitted request sent at `sentAt` (ms) whose answer says `remaining` units are left:
   * milliseconds to wait before the next request. `r` is rounded down and refills meanwhile, so
   * `r` + refill falls by a request's units ± 1: its ceiling is the units or one more, never less.
   */
  admitted(sentAt: number, remaining: number): number {
    if (this.last !== undefined) {
      const refill = (this.rate * (sentAt - this.last.sentAt)) / 1000
      this.cost = Math.max(this.cost, Math.ceil(this.last.remaining - remaining + refill))
    }
    this.last = { sentAt, remaining }
    return remaining >= this.cost ? 0 : ((this.cost - remaining) / this.rate) * 1000
  }

  /** A refusal took nothing: the next admitted answer is not compared with the one before it. */
  refused(): void {
    this.last = undefined
  }
}
