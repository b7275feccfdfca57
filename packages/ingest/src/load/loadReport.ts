import type { DatasetData } from "@equides/domain"

const MiB = 1024 * 1024

/** The anomaly report and load figures of `check`, as text for people. */
export const loadReport = (
  data: DatasetData,
  elapsedMs: number,
  memory: { readonly rss: number; readonly heapUsed: number; readonly arrayBuffers: number }
): string => {
  const { provenance, anomalies } = data
  const seconds = elapsedMs / 1000
  const rows: Array<[string, string]> = [
    ["file", provenance.file],
    ["empreinte_source (BLAKE3)", provenance.fingerprint],
    ["ingere_le", provenance.ingestedAt],
    ["bytes", provenance.bytes.toLocaleString("en")],
    ["lines", provenance.lines.toLocaleString("en")],
    ["rows loaded", data.size.toLocaleString("en")],
    ...Object.entries(anomalies).map(([name, value]): [string, string] => [name, value === null ? "null" : value.toLocaleString("en")]),
    ["load time", `${seconds.toFixed(2)} s`],
    ["lines/s", Math.round(provenance.lines / Math.max(seconds, 1e-9)).toLocaleString("en")],
    ["resident memory", `${(memory.rss / MiB).toFixed(0)} MiB`],
    ["JS heap used", `${(memory.heapUsed / MiB).toFixed(0)} MiB`],
    ["array buffers", `${(memory.arrayBuffers / MiB).toFixed(0)} MiB`]
  ]
  const width = Math.max(...rows.map(([name]) => name.length))
  return rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join("\n") + "\n"
}
