import { assert, describe, it } from "@effect/vitest"
import { RawConnection } from "./rawConnection.ts"
import { onOwnServer } from "./httpGet.ts"

describe("onOwnServer", () => {
  it("answers 2 KiB with a length, or chunked for /?chunked, while it is used, and is closed after", async () => {
    let used = ""
    await onOwnServer(async (url) => {
      used = url
      const connection = new RawConnection(new URL(url))
      try {
        const plain = await connection.get("/")
        const chunked = await connection.get("/?chunked")
        assert.deepStrictEqual([plain.status, plain.bytes], [200, 2_048])
        // Two writes of 2 KiB, the second ending the body.
        assert.deepStrictEqual([chunked.status, chunked.bytes], [200, 4_096])
      } finally {
        connection.close()
      }
    })
    const after = new RawConnection(new URL(used))
    try {
      assert.strictEqual((await after.get("/")).status, 0)
    } finally {
      after.close()
    }
  })
})
