import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import { datasetArbitrary, NAME_WORDS, RACES } from "../testing/arbitraries.ts"
import { Equide } from "../schemas/equide.ts"
import { PageEquides, Suggestions } from "../schemas/lists.ts"
import { Descendance, Pedigree } from "../schemas/pedigree.ts"
import { Repartition } from "../schemas/reference.ts"
import { descendance } from "../query/descendance.ts"
import { pedigree } from "../query/pedigree.ts"
import { equide } from "../query/record.ts"
import { REPARTITION_DIMENSIONS, TRIS, VUES } from "../vocabulary.ts"
import { listAnswer, repartitionAnswer, suggestAnswer } from "./answers.ts"
import { listQuery } from "./equides.ts"
import { isPlain, jsonEncoder } from "./json.ts"
import { searchQuery } from "./search.ts"
import { repartitionQuery } from "./stats.ts"

const text = new TextDecoder()

/** What HttpApi writes for `value`: the schema's encoding, as JSON. */
const bySchema = <A, I>(schema: Schema.Codec<A, I>, value: A): string => JSON.stringify(Schema.encodeSync(schema)(value))

const sameBytes = <A, I>(schema: Schema.Codec<A, I>, value: A): void => {
  expect(text.decode(jsonEncoder(schema)(value))).toBe(bySchema(schema, value))
}

/** Queries decoded as HttpApi decodes them, from their text. */
const decodeList = Schema.decodeUnknownSync(Schema.toCodecArrayFromSingle(Schema.Struct(listQuery.fields)))
const decodeSearch = Schema.decodeUnknownSync(Schema.toCodecArrayFromSingle(Schema.Struct(searchQuery.fields)))
const decodeRepartition = Schema.decodeUnknownSync(Schema.toCodecArrayFromSingle(Schema.Struct(repartitionQuery.fields)))

const success = <A, E>(result: Result.Result<A, E>): A => {
  if (Result.isFailure(result)) throw new Error(`refused: ${JSON.stringify(result.failure)}`)
  return result.success
}

describe("jsonEncoder", () => {
  it("takes the plain path for every body the lookups and scans answer", () => {
    for (const schema of [Equide, Pedigree, Descendance, PageEquides, Suggestions, Repartition]) {
      expect(isPlain(schema.ast)).toBe(true)
    }
  })

  it("encodes through the schema when a transformation is anywhere inside", () => {
    const Dated = Schema.Struct({ id: Schema.String, depuis: Schema.Array(Schema.Struct({ n: Schema.NumberFromString })) })
    expect(isPlain(Dated.ast)).toBe(false)
    const value = { id: "a", depuis: [{ n: 2 }] }
    expect(text.decode(jsonEncoder(Dated)(value))).toBe("{\"id\":\"a\",\"depuis\":[{\"n\":\"2\"}]}")
    const Renamed = Schema.Struct({ nomCourt: Schema.String }).pipe(Schema.encodeKeys({ nomCourt: "nom_court" }))
    expect(isPlain(Renamed.ast)).toBe(false)
    expect(text.decode(jsonEncoder(Renamed)({ nomCourt: "x" }))).toBe("{\"nom_court\":\"x\"}")
  })

  it("writes the same bytes as the schema for every record, pedigree and progeny page", () => {
    fc.assert(
      fc.property(datasetArbitrary({ minLength: 1 }), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 1, max: 5 }), fc.nat(4), ({ data }, generations, limite, offset) => {
        for (let row = 0; row < data.size; row++) {
          sameBytes(Equide, equide(data, row))
          sameBytes(Pedigree, pedigree(data, row, generations))
          sameBytes(Descendance, descendance(data, row, limite, offset))
        }
      }),
      { numRuns: 60 }
    )
  })

  it("writes the same bytes as the schema for list pages, suggestions and breakdowns", () => {
    fc.assert(
      fc.property(
        datasetArbitrary({ minLength: 1 }),
        fc.record({
          vue: fc.constantFrom(...VUES),
          tri: fc.constantFrom(...TRIS),
          limite: fc.integer({ min: 1, max: 100 }),
          offset: fc.nat(20),
          race: fc.option(fc.constantFrom(...RACES), { nil: undefined })
        }),
        fc.constantFrom(...NAME_WORDS),
        fc.constantFrom(...REPARTITION_DIMENSIONS),
        ({ data }, list, prefix, dimension) => {
          const pairs = Object.entries(list).flatMap(([name, value]): Array<[string, string]> => value === undefined ? [] : [[name, String(value)]])
          const url = `/v1/equides?${new URLSearchParams(pairs)}`
          const query = decodeList(Object.fromEntries(pairs))
          const page = listAnswer(data, query, url)
          if (Result.isSuccess(page)) sameBytes(PageEquides, page.success)
          sameBytes(Suggestions, success(suggestAnswer(data, decodeSearch({ q: prefix }))))
          sameBytes(Repartition, success(repartitionAnswer(data, decodeRepartition({ dimension }))))
        }
      ),
      { numRuns: 60 }
    )
  })
})
