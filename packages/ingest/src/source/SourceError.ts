import * as Schema from "effect/Schema"

/**
 * Why a source file cannot be loaded. `line` is the 1-based physical line of the decompressed text
 * (for CSV, the line where the record starts); it is absent when the file as a whole is at fault
 * (missing, unreadable, corrupt compression), so callers can tell the two apart.
 */
export class SourceError extends Schema.TaggedError<SourceError>()("SourceError", {
  file: Schema.String,
  line: Schema.optionalKey(Schema.Int),
  reason: Schema.String
}) {
  override get message(): string {
    return this.line === undefined ? `${this.file}: ${this.reason}` : `${this.file}:${this.line}: ${this.reason}`
  }
}
