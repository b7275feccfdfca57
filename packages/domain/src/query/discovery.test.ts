import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { Decouverte } from "../schemas/service.ts"
import { discovery, ENDPOINTS, GABARITS_URL } from "./discovery.ts"
import { API_VERSION, LICENCE_DONNEES, meta } from "./meta.ts"
import { build } from "./record.fixtures.ts"
import { idN } from "../testing/ids.ts"
import { URL_FICHE_MODELE } from "./record.ts"

const data = build([{ id: idN(1), nom: "A" }, { id: idN(2), nom: "B" }])

/** RFC 6570 level-3 expansion, enough for these templates (`{var}` and `{?a,b}`). */
const expand = (template: string, values: Record<string, string>): string =>
  template.replace(/\{(\??)([^}]+)\}/g, (_, query: string, names: string) => {
    const vars = names.split(",")
    if (query === "") return vars.map((name) => encodeURIComponent(values[name] ?? "")).join(",")
    const pairs = vars.filter((name) => values[name] !== undefined).map((name) => `${name}=${encodeURIComponent(values[name])}`)
    return pairs.length === 0 ? "" : `?${pairs.join("&")}`
  })

describe("discovery", () => {
  const d = discovery(data)

  it("names the service, its version, source, affiliation and licence", () => {
    expect(d.nom).toBe("Équidés API")
    expect(d.version).toBe(API_VERSION)
    expect(d.source).toBe(meta(data).jeu_de_donnees.source)
    expect(d.affiliation).toMatch(/indépendant/)
    expect(d.licence_donnees).toBe(LICENCE_DONNEES)
    expect(d.documentation).toBe("/documentation")
    expect(d.openapi).toBe("/openapi.json")
    expect(d.lignes).toBe(2)
  })

  it("lists every route of the spec, and the consanguinity and genetics routes, by use", () => {
    expect(new Set(Object.values(d.endpoints ?? {}))).toEqual(
      new Set([
        "/",
        "/healthz",
        "/readyz",
        "/openapi.json",
        "/documentation",
        "/v1/meta",
        "/v1/equides",
        "/v1/equides/{id}",
        "/v1/equides/{id}/pedigree",
        "/v1/equides/{id}/descendance",
        "/v1/equides/{id}/descendance/statistiques",
        "/v1/equides/{id}/consanguinite",
        "/v1/accouplements",
        "/v1/equides/{id}/genetique",
        "/v1/search",
        "/v1/referentiels/{dimension}",
        "/v1/stats",
        "/v1/stats/repartition",
        "/v1/stats/genetique",
        "/v1/stats/reproducteurs",
        "/v1/export/equides",
        "/v1/export/equides.parquet"
      ])
    )
    expect(d.endpoints).toBe(ENDPOINTS)
  })

  it("publishes templates from which every URL can be built", () => {
    const g = d.gabarits_url ?? {}
    expect(g).toBe(GABARITS_URL)
    expect(expand(g.fiche, { id: idN(1) })).toBe(`/v1/equides/${idN(1)}`)
    expect(expand(g.pedigree, { id: idN(1), generations: "6" })).toBe(`/v1/equides/${idN(1)}/pedigree?generations=6`)
    expect(expand(g.descendance, { id: idN(1), limite: "10", offset: "20" })).toBe(`/v1/equides/${idN(1)}/descendance?limite=10&offset=20`)
    expect(expand(g.consanguinite, { id: idN(1), generations: "12" })).toBe(`/v1/equides/${idN(1)}/consanguinite?generations=12`)
    expect(expand(g.accouplement, { pere: idN(1), mere: idN(2) })).toBe(`/v1/accouplements?pere=${idN(1)}&mere=${idN(2)}`)
    expect(expand(g.liste, { race: "Arabe,Pur Sang", vue: "complet" })).toBe("/v1/equides?race=Arabe%2CPur%20Sang&vue=complet")
    expect(expand(g.recherche, { q: "dal" })).toBe("/v1/search?q=dal")
    expect(expand(g.referentiel, { dimension: "races_lien" })).toBe("/v1/referentiels/races_lien")
    expect(expand(g.repartition, { dimension: "robe", sexe: "Male" })).toBe("/v1/stats/repartition?dimension=robe&sexe=Male")
    expect(expand(g.genetique, { id: idN(1) })).toBe(`/v1/equides/${idN(1)}/genetique`)
    expect(expand(g.genetique_race, { race: "Selle Francais", annee_min: "2010" })).toBe("/v1/stats/genetique?race=Selle%20Francais&annee_min=2010")
    expect(expand(g.statistiques_descendance, { id: idN(1) })).toBe(`/v1/equides/${idN(1)}/descendance/statistiques`)
    expect(expand(g.reproducteurs, { code: "ISO", sexe: "Femelle", produits_min: "10", offset: "20" })).toBe(
      "/v1/stats/reproducteurs?code=ISO&sexe=Femelle&produits_min=10&offset=20"
    )
    expect(expand(g.export, { race: "Selle Francais", format: "csv" })).toBe("/v1/export/equides?race=Selle%20Francais&format=csv")
    expect(g.fiche_source).toBe(URL_FICHE_MODELE)
    for (const key of ["liste", "repartition", "export"]) {
      for (const parameter of ["race", "robe", "sexe", "discipline", "indice", "annee_naissance", "nom", "annee_min", "annee_max", "avec_performances", "statut_reproducteur"]) {
        expect(g[key]).toMatch(new RegExp(`[?,]${parameter}[,}]`))
      }
    }
    expect(g.liste).toMatch(/,tri,vue,limite,offset\}$/)
  })

  it("is memoised and round-trips through its schema", () => {
    expect(discovery(data)).toBe(d)
    const decoded = Schema.decodeUnknownSync(Decouverte)(d)
    expect(JSON.stringify(Schema.encodeSync(Decouverte)(decoded))).toBe(JSON.stringify(d))
  })
})
