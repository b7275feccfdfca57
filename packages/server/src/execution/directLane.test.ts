/**
 * The direct lane answers the lookups it knows, leaves everything else to the pipeline (refusals,
 * unknown ids, filtered lists), and writes what the pipeline writes: the same body as a server
 * without a front door (`answerPaths.test.ts` compares whole answers, headers included).
 */
import { assert, describe, it } from "@effect/vitest"
import { buildDataset, fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ABSENT, FAMILY, SIRE } from "../testing/family.ts"
import { raw, testServer } from "../testing/server.ts"
import { laneWarmUp, makeDirectLane } from "./directLane.ts"

const lane = makeDirectLane(buildDataset(FAMILY))

const ANSWERED: ReadonlyArray<readonly [route: string, url: string]> = [
  ["/v1/equides/:id", `/v1/equides/${SIRE}`],
  ["/v1/equides/:id/pedigree", `/v1/equides/${SIRE}/pedigree?generations=2`],
  ["/v1/equides/:id/descendance", `/v1/equides/${SIRE}/descendance?limite=2&offset=1`],
  ["/v1/equides", "/v1/equides?tri=-annee&limite=3&vue=complet"]
]

describe("the direct lane", () => {
  it("leaves refusals, unknown ids, filtered lists and other routes to the pipeline", () => {
    for (const [method, route, url] of [
      ["POST", "/v1/equides/:id", `/v1/equides/${SIRE}`],
      ["DELETE", "/v1/equides", "/v1/equides"],
      ["GET", "/v1/equides", "/v1/equides?inconnu=1"],
      ["GET", "/v1/equides/:id/pedigree", `/v1/equides/${SIRE}/pedigree?generation=2`],
      ["GET", "/v1/equides/:id", `/v1/equides/${ABSENT}`],
      ["GET", "/v1/equides/:id", `/v1/equides/${SIRE}?vue=complet`],
      ["GET", "/v1/equides/:id/pedigree", `/v1/equides/${SIRE}/pedigree?generations=9`],
      ["GET", "/v1/equides/:id/descendance", `/v1/equides/${SIRE}/descendance?limite=deux`],
      ["GET", "/v1/equides", "/v1/equides?race=Selle%20Francais"],
      ["GET", "/v1/equides", "/v1/equides?limite=101"],
      ["GET", "/v1/stats", "/v1/stats"],
      ["GET", undefined, "/nulle-part"]
    ] as const) {
      assert.isUndefined(lane(method, route, url), `${method} ${url}`)
    }
  })

  it.effect("answers the lookups with the bytes the pipeline answers", () =>
    Effect.gen(function*() {
      for (const [route, url] of ANSWERED) {
        const own = lane("GET", route, url)
        assert.isDefined(own, url)
        const reply = yield* raw(url)
        assert.strictEqual(reply.status, 200, url)
        assert.strictEqual(Buffer.from(own!.body!).toString(), reply.body.toString(), url)
      }
    }).pipe(Effect.provide(Layer.fresh(testServer(fromRecords(FAMILY), { frontDoor: false })))))

  it("warms up on what requests meet: each lookup answered by the lane, a page of products and a pedigree with ancestors among them", () => {
    const data = buildDataset(FAMILY)
    const bodies = laneWarmUp(data).map(([route, url]) => {
      const own = lane("GET", route, url)
      assert.isDefined(own, url)
      return [route, JSON.parse(Buffer.from(own!.body!).toString()) as { readonly total?: number; readonly noeuds?: number }] as const
    })
    assert.deepStrictEqual(new Set(bodies.map(([route]) => route)), new Set(ANSWERED.map(([route]) => route)))
    // The sire with the most products (3), and his son by a dam on file (himself and his two parents).
    assert.include(bodies.filter(([route]) => route === "/v1/equides/:id/descendance").map(([, body]) => body.total), 3)
    assert.include(bodies.filter(([route]) => route === "/v1/equides/:id/pedigree").map(([, body]) => body.noeuds), 3)
  })

  it("answers nothing without data", () => {
    assert.isUndefined(makeDirectLane(buildDataset([]))("GET", "/v1/equides", "/v1/equides"))
  })
})
