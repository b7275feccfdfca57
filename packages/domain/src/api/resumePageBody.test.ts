import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import { datasetArbitrary, NAME_WORDS, RACES } from "../testing/arbitraries.ts"
import { PageEquides } from "../schemas/lists.ts"
import { TRIS } from "../vocabulary.ts"
import { answer, listAnswer } from "./answers.ts"
import { listQuery } from "./equides.ts"

const text = new TextDecoder()

/** What HttpApi writes for a list page: the schema's encoding, as JSON. */
const bySchema = Schema.encodeSync(PageEquides)

const decodeList = Schema.decodeUnknownSync(Schema.toCodecArrayFromSingle(Schema.Struct(listQuery.fields)))

describe("resumePageBody", () => {
  it("writes, for every page of summaries, the bytes the schema writes: names and breeds of any Unicode, links and the depth note", () => {
    fc.assert(
      fc.property(
        datasetArbitrary({ minLength: 1, withAnyText: true }),
        fc.record({
          tri: fc.option(fc.constantFrom(...TRIS), { nil: undefined }),
          limite: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
          offset: fc.option(fc.nat(30), { nil: undefined }),
          race: fc.option(fc.constantFrom(...RACES), { nil: undefined }),
          nom: fc.option(fc.constantFrom(...NAME_WORDS), { nil: undefined })
        }),
        ({ data }, list) => {
          const pairs = Object.entries(list).flatMap(([name, value]): Array<[string, string]> => value === undefined ? [] : [[name, String(value)]])
          const url = pairs.length === 0 ? "/v1/equides" : `/v1/equides?${new URLSearchParams(pairs)}`
          const query = decodeList(Object.fromEntries(pairs))
          const expected = listAnswer(data, query, url)
          const body = answer(data, { endpoint: "list", query, url })
          expect(Result.isSuccess(body)).toBe(Result.isSuccess(expected))
          if (Result.isSuccess(body) && Result.isSuccess(expected)) {
            expect(text.decode(body.success)).toBe(JSON.stringify(bySchema(expected.success)))
            // Each body owns its buffer (the response cache keeps it).
            expect(body.success.byteOffset).toBe(0)
            expect(body.success.buffer.byteLength).toBe(body.success.byteLength)
          }
        }
      ),
      { numRuns: 200 }
    )
  })
})
