/**
 * Sharing a Dataset: the shared tree has every value of the original, every typed array on shared
 * memory, and a Dataset already shared (a snapshot's, or one shared before) is shared again
 * without a copy.
 */
import { assert, describe, it } from "@effect/vitest"
import { buildDataset } from "@equides/domain"
import { syntheticRecords } from "@equides/domain/testing"
import { collectLeaves } from "../snapshot/shape.ts"
import { attachDataset, shareDataset } from "./sharedDataset.ts"

const data = buildDataset(syntheticRecords(500, 3))

describe("shareDataset", () => {
  it("keeps every leaf's value, typed arrays on one shared buffer", () => {
    const { data: shared, share } = shareDataset(data)
    const before = collectLeaves(data)
    const after = collectLeaves(shared)
    assert.deepStrictEqual(after.map((leaf) => leaf.path), before.map((leaf) => leaf.path))
    for (let i = 0; i < before.length; i++) {
      const [original, copy] = [before[i], after[i]]
      if (original.kind === "object" || copy.kind === "object") continue
      assert.strictEqual(copy.kind, original.kind)
      if (copy.kind === "typed" && original.kind === "typed") {
        assert.instanceOf(copy.value.buffer, SharedArrayBuffer)
        assert.strictEqual(copy.type, original.type)
        assert.deepStrictEqual(copy.value, original.value, copy.path.join("."))
      } else {
        assert.deepStrictEqual(copy.value, original.value)
      }
    }
    assert.strictEqual(share.buffers.length, 1)
  })

  it("shares a shared Dataset again without copying, and rebuilds the same tree from its share", () => {
    const first = shareDataset(data)
    const again = shareDataset(first.data)
    assert.strictEqual(again.share.buffers.length, 1)
    assert.strictEqual(again.share.buffers[0], first.share.buffers[0])
    const rebuilt = attachDataset(structuredClone(again.share))
    assert.strictEqual(rebuilt.size, data.size)
    assert.deepStrictEqual(Array.from(rebuilt.byName), Array.from(data.byName))
    // The clone of a share holds the same memory: a write through one view is seen by the other.
    const probe = first.data.ids
    const view = rebuilt.ids
    const saved = probe[0]
    probe[0] = saved ^ 0xff
    assert.strictEqual(view[0], saved ^ 0xff)
    probe[0] = saved
  })
})
