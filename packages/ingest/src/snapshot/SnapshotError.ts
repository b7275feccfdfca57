import * as Schema from "effect/Schema"

/**
 * Why a Dataset snapshot cannot be written or served: unreadable, truncated, corrupt (checksum),
 * of another format version or Dataset shape, or stale (built from another source file).
 * A refused snapshot is never served: the caller rebuilds from the source.
 */
export class SnapshotError extends Schema.TaggedError<SnapshotError>()("SnapshotError", {
  file: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `${this.file}: ${this.reason}`
  }
}
