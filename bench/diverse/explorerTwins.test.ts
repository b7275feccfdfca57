import { assert, describe, it, layer } from "@effect/vitest"
import { buildDataset, fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import { servedDescription } from "../../packages/server/src/openapi.ts"
import { EXPLORER_EXECUTION_MS } from "../../packages/server/src/pageRoutes.ts"
import { DAM, FAMILY, SIRE, SON } from "../../packages/server/src/testing/family.ts"
import { call, testServer } from "../../packages/server/src/testing/server.ts"
import type { Description } from "../routes.ts"
import { EXPLORER_TWINS } from "./explorerTwins.ts"
import { familiesOf } from "./run.ts"
import type { Sample } from "./sample.ts"

const description = servedDescription(buildDataset(FAMILY)).document as Description
const SAMPLE: Sample = {
  records: 3,
  ids: [SIRE, DAM, SON],
  rows: [{ id: SON, nom: "QUAPRICE BOIMARGOT", race: "Selle Francais", sexe: "Male", annee_naissance: 2000, robe: "Bai" }],
  parents: [{ id: SIRE, role: "pere", descendants: 3 }, { id: DAM, role: "mere", descendants: 1 }],
  statuses: [["Etalon Actif", 1]]
}
const options = { seed: 1, size: 4 }
const families = familiesOf(SAMPLE, description, options)
const twins = families.filter((family) => EXPLORER_TWINS.some((twin) => twin.name === family.name))

/** Whether `path` is a request of the page template `template` (`:id` one segment), and of no longer one. */
const ofTemplate = (template: string, path: string): boolean =>
  new RegExp(`^${template.replace(":id", "[^/?]+")}(\\?.*)?$`).test(path)

describe("the explorer's pages in the varied families", () => {
  it("every explorer page that reads the data is sent by a family", () => {
    const pages = Object.keys(EXPLORER_EXECUTION_MS)
    assert.isAbove(pages.length, 8)
    for (const page of pages) assert.isTrue(families.some((family) => family.paths.some((path) => ofTemplate(page, path))), page)
  })

  it("sends a page on the paths of the route whose answer it shows", () => {
    const byName = Object.fromEntries(families.map((family) => [family.name, family]))
    assert.deepStrictEqual(byName["explorer-matings"]?.paths, [`/explorer/accouplements?mere=${DAM}`])
    assert.deepStrictEqual(byName["explorer-sires"]?.paths, Array.from({ length: options.size }, () => "/explorer/reproducteurs?code=BTR"))
    assert.isTrue(byName["explorer-sires"]?.sameUri)
    assert.deepStrictEqual(byName["explorer-mating"]?.paths, byName["matings"]?.paths.map((path) => path.replace("/v1/accouplements", "/explorer/accouplements/essai")))
    assert.deepStrictEqual(byName["explorer-genetics"]?.paths, Array.from({ length: options.size }, () => "/explorer/genetique"))
    assert.strictEqual(twins.length, EXPLORER_TWINS.length)
  })

  layer(testServer(fromRecords(FAMILY), { settings: { responseCacheBytes: 0 } }), { timeout: 30_000, excludeTestServices: true })((it) => {
    it.effect("every page path drawn is answered 200", () =>
      Effect.gen(function*() {
        for (const path of new Set(twins.flatMap((family) => family.paths))) assert.strictEqual((yield* call(path)).status, 200, path)
      }))
  })
})
