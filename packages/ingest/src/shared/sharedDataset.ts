/**
 * One copy of a Dataset for every thread of the process. Query workers (`WORKERS`) must read the
 * same columns as the main thread without each holding its own gigabyte: every typed array of the
 * DatasetData tree is a view on a `SharedArrayBuffer`, and a `DatasetShare` (the buffers plus a
 * description of every leaf) is what a worker receives to rebuild the same tree on the same memory.
 *
 * A Dataset read from a snapshot already lives in one shared buffer (the file is read into it):
 * sharing it copies nothing. A Dataset just ingested is copied once into a new shared buffer, and
 * the caller keeps the shared tree, so the private arrays can be collected.
 *
 * Arrays of strings cannot be shared: each worker gets its own copy by structured clone. The
 * dictionaries and the name tokens, whose size grows with the data (a `race` field polluted by
 * race times has hundreds of thousands of values, real names as many words), are UTF-8 and
 * offsets in typed arrays (`Dictionary`) and so shared; what is left as arrays (the performance
 * texts' few dozen strings) does not grow with the rows.
 */
import type { DatasetData } from "@equides/domain"
import { collectLeaves, type Path, placeLeaf, type Scalar, TYPED_ARRAYS, type TypedArray } from "../snapshot/shape.ts"

export type SharedLeaf =
  | {
    readonly kind: "typed"
    readonly path: Path
    readonly type: string
    /** Index in `DatasetShare.buffers`. */
    readonly buffer: number
    readonly byteOffset: number
    readonly length: number
  }
  | { readonly kind: "strings"; readonly path: Path; readonly value: ReadonlyArray<string> }
  | { readonly kind: "scalar"; readonly path: Path; readonly value: Scalar }
  | { readonly kind: "object"; readonly path: Path }

/** What a thread needs to rebuild a shared Dataset: plain data and shared buffers, cloneable as is. */
export interface DatasetShare {
  readonly buffers: ReadonlyArray<SharedArrayBuffer>
  readonly leaves: ReadonlyArray<SharedLeaf>
}

/** Copies start on multiples of 8 bytes, so that a view of any element size can be made on them. */
const ALIGN = 8
const align = (n: number): number => Math.ceil(n / ALIGN) * ALIGN

const isShared = (value: TypedArray): boolean => value.buffer instanceof SharedArrayBuffer

/**
 * The share of `data`: its typed arrays on shared buffers (copied into one new buffer where they
 * are not already shared), and the same tree rebuilt on them, which the caller should serve from.
 */
export const shareDataset = (data: DatasetData): { readonly data: DatasetData; readonly share: DatasetShare } => {
  const leaves = collectLeaves(data)
  let privateBytes = 0
  for (const leaf of leaves) {
    if (leaf.kind === "typed" && !isShared(leaf.value)) privateBytes += align(leaf.value.byteLength)
  }
  const buffers: Array<SharedArrayBuffer> = []
  const indexOf = new Map<SharedArrayBuffer, number>()
  const bufferIndex = (buffer: SharedArrayBuffer): number => {
    let index = indexOf.get(buffer)
    if (index === undefined) {
      index = buffers.push(buffer) - 1
      indexOf.set(buffer, index)
    }
    return index
  }
  // Registered in `buffers` only if a leaf is copied into it.
  const copies = new SharedArrayBuffer(privateBytes)
  const copyBytes = new Uint8Array(copies)
  let cursor = 0
  /** Where a typed array lives in shared memory: its own buffer, or its copy in `copies`. */
  const placeOf = (value: TypedArray): { readonly buffer: SharedArrayBuffer; readonly byteOffset: number } => {
    if (isShared(value)) return { buffer: value.buffer as SharedArrayBuffer, byteOffset: value.byteOffset }
    const byteOffset = cursor
    copyBytes.set(new Uint8Array(value.buffer, value.byteOffset, value.byteLength), byteOffset)
    cursor += align(value.byteLength)
    return { buffer: copies, byteOffset }
  }
  const shared = leaves.map((leaf): SharedLeaf => {
    if (leaf.kind !== "typed") return leaf
    const { buffer, byteOffset } = placeOf(leaf.value)
    return { kind: "typed", path: leaf.path, type: leaf.type, buffer: bufferIndex(buffer), byteOffset, length: leaf.value.length }
  })
  const share: DatasetShare = { buffers, leaves: shared }
  return { data: attachDataset(share), share }
}

const conflict = (reason: string): never => {
  throw new Error(`not a Dataset share: ${reason}`)
}

/** The Dataset a share describes, its typed arrays views on the share's buffers (no copy). */
export const attachDataset = (share: DatasetShare): DatasetData => {
  const root: Record<string, unknown> = {}
  for (const leaf of share.leaves) {
    let value: unknown
    switch (leaf.kind) {
      case "typed": {
        const typed = TYPED_ARRAYS[leaf.type] ?? conflict(`unknown array type ${leaf.type}`)
        value = new typed.make(share.buffers[leaf.buffer], leaf.byteOffset, leaf.length)
        break
      }
      case "strings":
      case "scalar":
        value = leaf.value
        break
      case "object":
        value = {}
        break
    }
    placeLeaf(root, leaf.path, value, conflict)
  }
  // The leaves were collected from a DatasetData by `shareDataset`.
  return root as unknown as DatasetData
}
