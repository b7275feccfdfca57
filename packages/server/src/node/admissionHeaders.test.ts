/**
 * The front door's reading of the raw header list against Node's own headers object, built by
 * the method Node's parser calls (`_addHeaderLines`): the same value for each field admission
 * reads, whatever the case of the names, the repetitions and the other fields around them.
 */
import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { IncomingMessage } from "node:http"
import { Socket } from "node:net"
import { admissionHeaders } from "./admissionHeaders.ts"

const READ = ["accept", "accept-encoding", "if-none-match", "x-forwarded-for", "access-control-request-headers"] as const
const BODY = ["content-length", "transfer-encoding"]
/** Other fields, some of a length admission's fields have. */
const OTHERS = ["host", "user-agent", "connection", "accept-charset", "if-match", "x-forwarded-host", "content-type", "referer", "origin"]

interface NodeParsing {
  _addHeaderLines(raw: ReadonlyArray<string>, count: number): void
}

const nodeHeaders = (raw: ReadonlyArray<string>): NodeJS.Dict<string | Array<string>> => {
  const message = new IncomingMessage(new Socket())
  ;(message as unknown as NodeParsing)._addHeaderLines(raw, raw.length)
  return message.headers
}

const anyCase = (name: string) =>
  fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }).map((upper) =>
    [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join("")
  )

const field = (names: ReadonlyArray<string>) =>
  fc.tuple(fc.constantFrom(...names).chain(anyCase), fc.stringMatching(/^[!-~]([ -~]{0,20}[!-~])?$/))

describe("admissionHeaders", () => {
  it("gives the value Node's headers object gives each field admission reads", () => {
    fc.assert(
      fc.property(fc.array(field([...READ, ...OTHERS]), { maxLength: 12 }), (fields) => {
        const raw = fields.flat()
        const read = admissionHeaders(raw)
        const node = nodeHeaders(raw)
        assert.isDefined(read)
        for (const name of READ) assert.strictEqual(read![name], node[name], name)
      }),
      { numRuns: 300 }
    )
  })

  it("is undefined when a body is announced, wherever the field is and however it is spelt", () => {
    fc.assert(
      fc.property(fc.array(field([...READ, ...OTHERS]), { maxLength: 6 }), field(BODY), fc.nat(), (fields, body, at) => {
        const placed = [...fields]
        placed.splice(at % (fields.length + 1), 0, body)
        assert.isUndefined(admissionHeaders(placed.flat()))
      })
    )
  })

  it("reads a request of wrk's: Host and If-None-Match", () => {
    assert.deepStrictEqual(admissionHeaders(["Host", "127.0.0.1:8080", "If-None-Match", "\"0123456789abcdef\""]), {
      accept: undefined,
      "accept-encoding": undefined,
      "if-none-match": "\"0123456789abcdef\"",
      "x-forwarded-for": undefined,
      "access-control-request-headers": undefined
    })
  })
})
