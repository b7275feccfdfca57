/** A strict reader of the Prometheus text exposition format (0.0.4), for the telemetry tests. */


export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

export interface Exposition {
  readonly types: ReadonlyMap<string, string>
  readonly samples: ReadonlyArray<Sample>
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"])

const parseValue = (text: string, line: number): number => {
  if (text === "NaN") return Number.NaN
  if (text === "+Inf") return Infinity
  if (text === "-Inf") return -Infinity
  if (!/^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/.test(text)) throw new Error(`line ${line}: bad value ${text}`)
  return Number(text)
}

const parseLabels = (text: string, line: number): Record<string, string> => {
  const labels: Record<string, string> = {}
  let i = 0
  while (i < text.length) {
    const eq = text.indexOf("=", i)
    if (eq < 0) throw new Error(`line ${line}: label without value`)
    const name = text.slice(i, eq)
    if (!LABEL_NAME.test(name)) throw new Error(`line ${line}: bad label name ${name}`)
    if (name in labels) throw new Error(`line ${line}: repeated label ${name}`)
    if (text[eq + 1] !== "\"") throw new Error(`line ${line}: label value not quoted`)
    let value = ""
    let j = eq + 2
    for (; j < text.length && text[j] !== "\""; j++) {
      if (text[j] === "\\") {
        const next = text[++j]
        if (next === "n") value += "\n"
        else if (next === "\\" || next === "\"") value += next
        else throw new Error(`line ${line}: bad escape`)
      } else if (text[j] === "\n") {
        throw new Error(`line ${line}: raw newline in label`)
      } else {
        value += text[j]
      }
    }
    if (j >= text.length) throw new Error(`line ${line}: unterminated label value`)
    labels[name] = value
    i = j + 1
    if (i < text.length) {
      if (text[i] !== ",") throw new Error(`line ${line}: expected a comma between labels`)
      i++
    }
  }
  return labels
}

const familyOf = (name: string, types: ReadonlyMap<string, string>): string => {
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    const base = name.slice(0, -suffix.length)
    if (name.endsWith(suffix) && (types.get(base) === "histogram" || types.get(base) === "summary")) return base
  }
  return name
}

/** Parses `text`, throwing on anything the format does not allow; also checks histogram consistency. */
export const parsePrometheus = (text: string): Exposition => {
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a newline")
  const types = new Map<string, string>()
  const helps = new Set<string>()
  const seenFamilies = new Set<string>()
  const samples: Array<Sample> = []
  const keys = new Set<string>()
  const lines = text.slice(0, -1).split("\n")
  lines.forEach((content, index) => {
    const line = index + 1
    if (content.startsWith("#")) {
      const match = /^# (HELP|TYPE) (\S+) (.*)$/.exec(content)
      if (match === null) throw new Error(`line ${line}: bad comment ${content}`)
      const [, kind, name, rest] = match
      if (!METRIC_NAME.test(name)) throw new Error(`line ${line}: bad metric name ${name}`)
      if (kind === "TYPE") {
        if (!TYPES.has(rest)) throw new Error(`line ${line}: bad type ${rest}`)
        if (types.has(name)) throw new Error(`line ${line}: TYPE repeated for ${name}`)
        if (seenFamilies.has(name)) throw new Error(`line ${line}: TYPE after samples of ${name}`)
        types.set(name, rest)
      } else {
        if (helps.has(name)) throw new Error(`line ${line}: HELP repeated for ${name}`)
        helps.add(name)
      }
      return
    }
    const match = /^([^\s{]+)(?:\{(.*)\})? (\S+)(?: (-?[0-9]+))?$/.exec(content)
    if (match === null) throw new Error(`line ${line}: bad sample ${JSON.stringify(content)}`)
    const [, name, labelText, valueText] = match
    if (!METRIC_NAME.test(name)) throw new Error(`line ${line}: bad metric name ${name}`)
    const labels = labelText === undefined ? {} : parseLabels(labelText, line)
    const family = familyOf(name, types)
    if (!types.has(family)) throw new Error(`line ${line}: no TYPE for ${family}`)
    seenFamilies.add(family)
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`
    if (keys.has(key)) throw new Error(`line ${line}: repeated sample ${key}`)
    keys.add(key)
    samples.push({ name, labels, value: parseValue(valueText, line) })
  })
  // Histograms: cumulative buckets, `+Inf` equal to `_count`.
  for (const [family, type] of types) {
    if (type !== "histogram") continue
    const series = new Map<string, Array<Sample>>()
    for (const sample of samples.filter((s) => s.name === `${family}_bucket`)) {
      const { le, ...rest } = sample.labels
      if (le === undefined) throw new Error(`${family}: bucket without le`)
      const key = JSON.stringify(Object.entries(rest).sort())
      series.set(key, [...(series.get(key) ?? []), sample])
    }
    for (const [key, buckets] of series) {
      const sorted = [...buckets].sort((a, b) => parseValue(a.labels.le, 0) - parseValue(b.labels.le, 0))
      for (let i = 1; i < sorted.length; i++) {
        if (sorted[i].value < sorted[i - 1].value) throw new Error(`${family}${key}: buckets not cumulative`)
      }
      const last = sorted[sorted.length - 1]
      if (last.labels.le !== "+Inf") throw new Error(`${family}${key}: no +Inf bucket`)
      const count = samples.find((s) => s.name === `${family}_count` && JSON.stringify(Object.entries(s.labels).sort()) === key)
      if (count === undefined || count.value !== last.value) throw new Error(`${family}${key}: _count differs from +Inf`)
    }
  }
  return { types, samples }
}

/** The value of the sample `name` with exactly these labels (undefined when absent). */
export const sampleValue = (exposition: Exposition, name: string, labels: Readonly<Record<string, string>> = {}): number | undefined =>
  exposition.samples.find((sample) =>
    sample.name === name && Object.keys(sample.labels).length === Object.keys(labels).length &&
    Object.entries(labels).every(([key, value]) => sample.labels[key] === value)
  )?.value
