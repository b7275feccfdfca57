import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import { buildDataset } from "../dataset/Dataset.ts"
import { Meta } from "../schemas/service.ts"
import { idN } from "../testing/ids.ts"
import { API_VERSION, meta } from "./meta.ts"
import { URL_FICHE_MODELE } from "./record.ts"

const provenance = {
  file: "extrait.jsonl.gz",
  fingerprint: "ab".repeat(32),
  bytes: 1234,
  lines: 4,
  ingestedAt: "2025-11-20T08:30:00.000Z"
}
const data = buildDataset(
  [
    { id: idN(1), nom: "A", slug: "not-a", annee_naissance: 2001 },
    { id: idN(2), nom: "B", pere: { id: idN(9) }, robe: "Bai" },
    { id: "bad", nom: "C" },
    { id: idN(3), nom: "D", annee_naissance: 193 }
  ],
  provenance
)

describe("meta", () => {
  const m = meta(data)

  it("gives the API version", () => {
    expect(API_VERSION).toBe("1.1.1")
    expect(m.version_api).toBe(API_VERSION)
  })

  it("describes the loaded extract, to be cited by source and ingestion date", () => {
    expect(m.jeu_de_donnees).toEqual({
      source: "IFCE — SIRE, fiches publiques infochevaux.ifce.fr",
      producteur: expect.stringContaining("IFCE"),
      licence: "Licence Ouverte / Open Licence 2.0 (Etalab)",
      lignes: 3,
      ingere_le: "2025-11-20T08:30:00.000Z",
      empreinte_source: "ab".repeat(32),
      url_modele: "https://infochevaux.ifce.fr/fr/{slug}-{id}/infos-generales",
      anomalies: {
        annee_naissance_absente: 1,
        annee_naissance_min: 193,
        annee_naissance_max: 2001,
        identifiants_illisibles: 1,
        parents_pendants: 1,
        robe_absente: 2,
        sans_filiation: 2,
        slugs_non_deductibles: 1,
        textes_invalides: 0,
        types_invalides: 0
      }
    })
    expect(m.jeu_de_donnees.url_modele).toBe(URL_FICHE_MODELE)
    expect(m.jeu_de_donnees.anomalies).toEqual(data.anomalies)
  })

  it("remarks on independence, reuse, known defects and privacy, in French", () => {
    const text = m.remarques.join("\n")
    expect(text).toMatch(/indépendant/)
    expect(text).toMatch(/font foi/)
    expect(text).toMatch(/« source »/)
    expect(text).toMatch(/« ingere_le »/)
    expect(text).toMatch(/temps de course/)
    expect(text).toMatch(/races_lien/)
    expect(text).toMatch(/parents_pendants/)
    expect(text).toMatch(/aberrantes/)
    expect(text).toMatch(/aucun indice/)
    expect(text).toMatch(/donnée personnelle/)
    expect(text).not.toMatch(/naisseur"/)
  })

  it("is memoised and round-trips through its schema", () => {
    expect(meta(data)).toBe(m)
    const decoded = Schema.decodeUnknownSync(Meta)(m)
    expect(JSON.stringify(Schema.encodeSync(Meta)(decoded))).toBe(JSON.stringify(m))
  })
})
