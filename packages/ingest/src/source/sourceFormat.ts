export type SourceFormat = "jsonl" | "csv"

export const SOURCE_FORMATS: ReadonlyArray<SourceFormat> = ["jsonl", "csv"]

const EXTENSIONS: ReadonlyArray<readonly [string, SourceFormat]> = [
  [".jsonl", "jsonl"],
  [".ndjson", "jsonl"],
  [".csv", "csv"]
]

export interface FileKind {
  /** Undefined when the name does not tell. */
  readonly format: SourceFormat | undefined
  readonly gzipSuffix: boolean
}

/** What a file's name says it holds: `x.jsonl`, `x.ndjson.gz`, `X.CSV`… */
export const fileKindOf = (path: string): FileKind => {
  let name = path.toLowerCase()
  const gzipSuffix = name.endsWith(".gz")
  if (gzipSuffix) name = name.slice(0, -3)
  const match = EXTENSIONS.find(([extension]) => name.endsWith(extension))
  return { format: match?.[1], gzipSuffix }
}
