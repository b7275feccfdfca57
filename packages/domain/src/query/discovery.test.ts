import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import { Api } from "../api/Api.ts"
import { Discovery, queryNames, servedPath } from "../api/discoveryPlace.ts"
import { endpointsOf } from "../api/endpoints.ts"
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
        "/v1/accouplements/etalons",
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
    expect(expand(g.choix_etalon, { mere: idN(2), race: "Arabe", coefficient_max: "0.0625", limite: "50" })).toBe(
      `/v1/accouplements/etalons?mere=${idN(2)}&race=Arabe&coefficient_max=0.0625&limite=50`
    )
    expect(g.choix_etalon).not.toMatch(/[?,]sexe[,}]/)
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

describe("the discovery document, derived from the Api's definitions", () => {
  it("is today's document, key for key and byte for byte (docs/decisions.md, Discovery keys)", () => {
    expect(JSON.stringify(ENDPOINTS)).toBe(
      '{"decouverte":"/","sante":"/healthz","disponibilite":"/readyz","description":"/openapi.json","documentation":"/documentation",' +
        '"meta":"/v1/meta","liste":"/v1/equides","fiche":"/v1/equides/{id}","pedigree":"/v1/equides/{id}/pedigree",' +
        '"descendance":"/v1/equides/{id}/descendance","statistiques_descendance":"/v1/equides/{id}/descendance/statistiques",' +
        '"consanguinite":"/v1/equides/{id}/consanguinite","accouplement":"/v1/accouplements",' +
        '"choix_etalon":"/v1/accouplements/etalons","genetique":"/v1/equides/{id}/genetique",' +
        '"recherche":"/v1/search","referentiel":"/v1/referentiels/{dimension}","statistiques":"/v1/stats","repartition":"/v1/stats/repartition",' +
        '"genetique_race":"/v1/stats/genetique","reproducteurs":"/v1/stats/reproducteurs",' +
        '"export":"/v1/export/equides","export_parquet":"/v1/export/equides.parquet"}'
    )
    const filters = "race,robe,sexe,discipline,indice,annee_naissance,nom,annee_min,annee_max,avec_performances,statut_reproducteur"
    expect(GABARITS_URL).toStrictEqual({
      liste: `/v1/equides{?${filters},tri,vue,limite,offset}`,
      fiche: "/v1/equides/{id}",
      pedigree: "/v1/equides/{id}/pedigree{?generations}",
      descendance: "/v1/equides/{id}/descendance{?limite,offset}",
      statistiques_descendance: "/v1/equides/{id}/descendance/statistiques",
      consanguinite: "/v1/equides/{id}/consanguinite{?generations}",
      accouplement: "/v1/accouplements{?pere,mere,generations}",
      choix_etalon: `/v1/accouplements/etalons{?mere,${filters.replace("sexe,", "")},coefficient_max,limite,offset}`,
      genetique: "/v1/equides/{id}/genetique",
      recherche: "/v1/search{?q,limite,sexe}",
      referentiel: "/v1/referentiels/{dimension}",
      repartition: `/v1/stats/repartition{?dimension,${filters},limite}`,
      genetique_race: "/v1/stats/genetique{?race,annee_min,annee_max}",
      reproducteurs: "/v1/stats/reproducteurs{?code,sexe,race,annee_min,annee_max,produits_min,limite,offset}",
      export: `/v1/export/equides{?${filters},format}`,
      fiche_source: "https://infochevaux.ifce.fr/fr/{slug}-{id}/infos-generales"
    })
    expect(Object.keys(GABARITS_URL)).toEqual([
      "liste", "fiche", "pedigree", "descendance", "statistiques_descendance", "consanguinite", "accouplement", "choix_etalon",
      "genetique", "recherche", "referentiel", "repartition", "genetique_race", "reproducteurs", "export", "fiche_source"
    ])
  })

  it("publishes every route of the Api once, at its path, its template naming exactly the route's parameters", () => {
    const endpoints = endpointsOf(Api)
    const published = new Map(Object.entries(ENDPOINTS).map(([key, path]) => [path, key]))
    const templates = new Map(Object.entries(GABARITS_URL))
    expect(Object.keys(ENDPOINTS).length).toBe(endpoints.length + 1) // and the documentation page
    for (const endpoint of endpoints) {
      const place = Context.get(endpoint.annotations, Discovery)
      const path = servedPath(endpoint.path)
      expect(place?.key, endpoint.path).toBe(published.get(path))
      const names = queryNames(endpoint.query)
      const template = templates.get(place!.key)
      if (!path.includes("{") && names.length === 0) {
        expect(template, endpoint.path).toBeUndefined()
        continue
      }
      const [, base, query] = /^([^{]*(?:\{[^?][^}]*\}[^{]*)*)(?:\{\?([^}]*)\})?$/.exec(template ?? "") ?? []
      expect(base, endpoint.path).toBe(path)
      expect([...(query?.split(",") ?? [])].sort(), endpoint.path).toEqual([...names].sort())
    }
  })
})
