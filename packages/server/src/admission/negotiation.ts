/** Content negotiation of `GET /` (design 3): HTML only for an `Accept` that prefers `text/html`. */

interface MediaRange {
  readonly type: string
  readonly subtype: string
  readonly q: number
}

const parseAccept = (accept: string): Array<MediaRange> => {
  const ranges: Array<MediaRange> = []
  for (const part of accept.split(",")) {
    const [range, ...parameters] = part.split(";")
    const [type, subtype] = range.trim().toLowerCase().split("/")
    if (type === undefined || subtype === undefined || type === "" || subtype === "") continue
    let q = 1
    for (const parameter of parameters) {
      const [key, value] = parameter.split("=")
      if (key?.trim().toLowerCase() === "q") {
        const parsed = Number(value?.trim())
        q = Number.isFinite(parsed) ? Math.min(1, Math.max(0, parsed)) : 0
      }
    }
    ranges.push({ type, subtype, q })
  }
  return ranges
}

/** The quality an `Accept` gives to `type/subtype`: its most specific matching range (RFC 9110 12.5.1). */
const qualityOf = (ranges: ReadonlyArray<MediaRange>, type: string, subtype: string): number => {
  let best = -1
  let specificity = -1
  for (const range of ranges) {
    const s = range.type === type && range.subtype === subtype
      ? 2
      : range.type === type && range.subtype === "*"
      ? 1
      : range.type === "*" && range.subtype === "*"
      ? 0
      : -1
    if (s > specificity) {
      specificity = s
      best = range.q
    }
  }
  return best < 0 ? 0 : best
}

/** True when `accept` gives `text/html` a strictly higher quality than `application/json`. */
export const prefersHtml = (accept: string | undefined): boolean => {
  if (accept === undefined || accept.trim() === "") return false
  const ranges = parseAccept(accept)
  return qualityOf(ranges, "text", "html") > qualityOf(ranges, "application", "json")
}
