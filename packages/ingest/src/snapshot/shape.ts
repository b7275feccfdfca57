/**
 * Generic walk over a DatasetData tree, so that the snapshot never hard-codes its field list:
 * plain objects are recursed into, and every leaf is one of four kinds.
 *
 * - `typed`: a typed array (stored as raw bytes, read back as a zero-copy view);
 * - `strings`: an array of strings (stored as UTF-8 + offsets, decoded to a JS array at load);
 * - `scalar`: a string, number, boolean, `null` or `undefined` (stored in the JSON header);
 * - `object`: an empty plain object (so that it is not lost).
 *
 * Anything else (a Map, a class instance, an array of numbers…) is refused when writing, naming its
 * path, so that a field added to DatasetData with an unsupported type is noticed at once.
 */
import { createHash } from "node:crypto"

export type TypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array

interface TypedArrayConstructor {
  readonly BYTES_PER_ELEMENT: number
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): TypedArray
}

/** Typed-array types a snapshot can hold, with the numeric family that enters the shape signature. */
export const TYPED_ARRAYS: Readonly<Record<string, { readonly make: TypedArrayConstructor; readonly family: string }>> = {
  Int8Array: { make: Int8Array, family: "int" },
  Uint8Array: { make: Uint8Array, family: "uint" },
  Uint8ClampedArray: { make: Uint8ClampedArray, family: "uint" },
  Int16Array: { make: Int16Array, family: "int" },
  Uint16Array: { make: Uint16Array, family: "uint" },
  Int32Array: { make: Int32Array, family: "int" },
  Uint32Array: { make: Uint32Array, family: "uint" },
  Float32Array: { make: Float32Array, family: "float" },
  Float64Array: { make: Float64Array, family: "float" },
  BigInt64Array: { make: BigInt64Array, family: "bigint" },
  BigUint64Array: { make: BigUint64Array, family: "biguint" }
}

export type Scalar = string | number | boolean | null | undefined
export type Path = ReadonlyArray<string>

export type Leaf =
  | { readonly kind: "typed"; readonly path: Path; readonly type: string; readonly value: TypedArray }
  | { readonly kind: "strings"; readonly path: Path; readonly value: ReadonlyArray<string> }
  | { readonly kind: "scalar"; readonly path: Path; readonly value: Scalar }
  | { readonly kind: "object"; readonly path: Path }

/** Thrown by `collectLeaves` on a value the snapshot cannot hold. */
export class UnsupportedValue extends Error {}

const pathText = (path: Path): string => (path.length === 0 ? "(root)" : path.join("."))

const typedName = (value: ArrayBufferView): string | undefined => {
  const tag = (value as { readonly [Symbol.toStringTag]?: unknown })[Symbol.toStringTag]
  return typeof tag === "string" && Object.hasOwn(TYPED_ARRAYS, tag) ? tag : undefined
}

const isPlainObject = (value: object): boolean => {
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** Every leaf of `root`, depth first in key order. Throws `UnsupportedValue` naming the path. */
export const collectLeaves = (root: unknown): Array<Leaf> => {
  const leaves: Array<Leaf> = []
  const open = new Set<object>()
  const visit = (value: unknown, path: Array<string>): void => {
    if (value === null || value === undefined || typeof value === "string" || typeof value === "boolean") {
      leaves.push({ kind: "scalar", path: [...path], value })
      return
    }
    if (typeof value === "number") {
      leaves.push({ kind: "scalar", path: [...path], value })
      return
    }
    if (typeof value !== "object") {
      throw new UnsupportedValue(`unsupported value at ${pathText(path)} (${typeof value})`)
    }
    if (ArrayBuffer.isView(value)) {
      const type = typedName(value)
      if (type === undefined) throw new UnsupportedValue(`unsupported binary view at ${pathText(path)}`)
      leaves.push({ kind: "typed", path: [...path], type, value: value as TypedArray })
      return
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (typeof value[i] !== "string") {
          throw new UnsupportedValue(`unsupported array at ${pathText(path)}: item ${i} is not a string`)
        }
      }
      leaves.push({ kind: "strings", path: [...path], value: value as ReadonlyArray<string> })
      return
    }
    if (!isPlainObject(value)) {
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name
      throw new UnsupportedValue(`unsupported value at ${pathText(path)} (${typeof name === "string" ? name : "object"})`)
    }
    if (open.has(value)) throw new UnsupportedValue(`cycle at ${pathText(path)}`)
    const keys = Object.keys(value)
    if (keys.length === 0) {
      leaves.push({ kind: "object", path: [...path] })
      return
    }
    open.add(value)
    for (const key of keys) {
      path.push(key)
      visit((value as Record<string, unknown>)[key], path)
      path.pop()
    }
    open.delete(value)
  }
  visit(root, [])
  return leaves
}

/**
 * Sets `root[path]` to `value`, creating intermediate objects (own properties only, safe for any
 * key); a path that runs into a leaf, or a leaf placed twice, is reported to `conflict`.
 */
export const placeLeaf = (root: Record<string, unknown>, path: Path, value: unknown, conflict: (reason: string) => never): void => {
  let node = root
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]
    let child = Object.hasOwn(node, key) ? node[key] : undefined
    if (child === undefined) {
      child = {}
      Object.defineProperty(node, key, { value: child, enumerable: true, writable: true, configurable: true })
    } else if (typeof child !== "object" || child === null || ArrayBuffer.isView(child) || Array.isArray(child)) {
      conflict(`conflicting leaves at ${pathText(path)}`)
    }
    node = child as Record<string, unknown>
  }
  const last = path[path.length - 1]
  if (Object.hasOwn(node, last)) conflict(`duplicate leaf ${pathText(path)}`)
  Object.defineProperty(node, last, { value, enumerable: true, writable: true, configurable: true })
}

/**
 * One line of the shape description: path and kind. Typed arrays enter with their numeric family
 * only (`uint`, `int`, `float`…), since the builder picks the narrowest unsigned width per load.
 */
export const shapeKey = (leaf: { readonly kind: string; readonly path: Path; readonly type?: string }): string => {
  const family = leaf.kind === "typed" && leaf.type !== undefined ? `:${TYPED_ARRAYS[leaf.type]?.family ?? leaf.type}` : ""
  return `${JSON.stringify(leaf.path)}:${leaf.kind}${family}`
}

/** SHA-256 (hex) of the sorted shape keys: equal for two Datasets iff they have the same fields and kinds. */
export const shapeSignature = (keys: ReadonlyArray<string>): string =>
  createHash("sha256").update([...keys].sort().join("\n")).digest("hex")

/** Human-readable difference between two shapes (for "stale" messages). */
export const shapeDifference = (found: ReadonlyArray<string>, expected: ReadonlyArray<string>): string => {
  const foundSet = new Set(found)
  const expectedSet = new Set(expected)
  const readable = (key: string): string => {
    const cut = key.lastIndexOf("]:")
    const path = JSON.parse(key.slice(0, cut + 1)) as Array<string>
    return `${path.join(".")} (${key.slice(cut + 2)})`
  }
  const missing = expected.filter((key) => !foundSet.has(key)).map(readable)
  const unexpected = found.filter((key) => !expectedSet.has(key)).map(readable)
  const parts: Array<string> = []
  if (missing.length > 0) parts.push(`missing ${missing.slice(0, 8).join(", ")}${missing.length > 8 ? "…" : ""}`)
  if (unexpected.length > 0) parts.push(`unexpected ${unexpected.slice(0, 8).join(", ")}${unexpected.length > 8 ? "…" : ""}`)
  return parts.join("; ")
}
