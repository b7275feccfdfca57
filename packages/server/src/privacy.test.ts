/**
 * Privacy: `naisseur` (a person's name, the only personal field of the source) never reaches a
 * response. The extract is read from a real file through the ingestion, as in production.
 */
import { assert, layer } from "@effect/vitest"
import { datasetLayerFromFile } from "@equides/ingest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DAM, FAMILY, SIRE, SON } from "./testing/family.ts"
import { call, testServer } from "./testing/server.ts"

const BREEDER = "Marguerite Naisseuse-Secrète"

/** The family as JSON Lines in a temporary file, every record with a breeder, loaded by the ingestion. */
const fileDataset = Layer.unwrap(
  Effect.acquireRelease(
    Effect.sync(() => {
      const dir = mkdtempSync(join(tmpdir(), "equides-privacy-"))
      const file = join(dir, "extract.jsonl")
      writeFileSync(file, FAMILY.map((record) => JSON.stringify({ ...record, naisseur: BREEDER })).join("\n") + "\n")
      return { dir, file }
    }),
    ({ dir }) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  ).pipe(Effect.map(({ file }) => datasetLayerFromFile(file)))
)

const ROUTES = [
  "/",
  "/healthz",
  "/openapi.json",
  "/documentation",
  "/v1/meta",
  "/v1/equides?vue=complet&limite=100",
  `/v1/equides/${SIRE}`,
  `/v1/equides/${SON}`,
  `/v1/equides/${DAM}`,
  `/v1/equides/${SON}/pedigree?generations=8`,
  `/v1/equides/${SIRE}/descendance`,
  "/v1/search?q=marguerite",
  "/v1/search?q=j",
  "/v1/equides?nom=marguerite",
  ...["races", "races_lien", "robes", "sexes", "statuts_reproducteur", "disciplines", "codes_indice", "annees_naissance"].map(
    (d) => `/v1/referentiels/${d}`
  ),
  "/v1/stats",
  ...["race", "robe", "sexe", "discipline", "annee_naissance", "statut_reproducteur"].map((d) => `/v1/stats/repartition?dimension=${d}`),
  "/v1/equides?naisseur=x"
]

layer(testServer(fileDataset))("privacy", (it) => {
  it.effect("no response of any route contains a breeder's name", () =>
    Effect.gen(function*() {
      const loaded = yield* call("/healthz")
      assert.strictEqual(loaded.json.lignes, FAMILY.length)
      const needles = [BREEDER, ...BREEDER.split(/[\s-]+/)].map((s) => s.toLowerCase())
      for (const path of ROUTES) {
        const reply = yield* call(path)
        // Searching for the breeder echoes the query itself (q, pagination links): look at the results only.
        const shown = path.includes("marguerite") ? JSON.stringify(reply.json.resultats ?? reply.json.donnees) : reply.text
        assert.isDefined(shown, path)
        const text = shown.toLowerCase()
        for (const needle of needles) assert.notInclude(text, needle, path)
        assert.notInclude(text, "naisseur\":", path)
      }
    }))
})
