import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import * as S from "./index.ts"

/** The JSON Schema object of a resource (its component, by identifier). */
const jsonSchemaOf = (schema: Schema.Top, identifier: string): { required?: Array<string>; properties: Record<string, unknown> } => {
  const document = Schema.toJsonSchemaDocument(schema) as unknown as { definitions: Record<string, never> }
  return document.definitions[identifier]
}
const required = (schema: Schema.Top, identifier: string) => [...(jsonSchemaOf(schema, identifier).required ?? [])].sort()
const properties = (schema: Schema.Top, identifier: string) => Object.keys(jsonSchemaOf(schema, identifier).properties).sort()

const ID = "Z4ogLhlkS2CeUdq0bZ0YFw"
const accepts = (schema: Schema.Top, value: unknown) => Schema.is(schema as Schema.Codec<unknown>)(value)

describe("resource schemas: required fields as the spec marks them", () => {
  it.each([
    [S.Equide, "Equide", ["id", "nom", "slug", "url", "race", "sexe", "nombre_de_descendants"], ["annee_naissance", "robe", "filiation_texte", "pere", "mere", "pere_de_mere", "performances"]],
    [S.Resume, "Resume", ["id", "nom", "race", "sexe"], ["annee_naissance", "robe"]],
    [S.Reference, "Reference", [], ["id", "nom", "race", "fiche_disponible"]],
    [S.Performance, "Performance", [], ["discipline", "texte", "indices"]],
    [S.IndicePerformance, "IndicePerformance", [], ["annee", "appreciation", "code", "coefficient", "valeur"]],
    [S.Produit, "Produit", ["id", "nom", "race", "sexe", "fiche_disponible"], ["annee_naissance"]],
    [S.Descendance, "Descendance", ["parent", "total", "limite", "offset", "donnees"], []],
    [S.Noeud, "Noeud", [], ["id", "nom", "race", "sexe", "annee_naissance", "generation", "pere", "mere"]],
    [S.Pedigree, "Pedigree", ["generations", "noeuds", "noeuds_theoriques", "arbre"], []],
    [S.Pagination, "Pagination", ["total", "limite", "offset"], ["suivant", "precedent", "note"]],
    [S.PageResumes, "PageResumes", ["donnees", "pagination"], []],
    [S.PageEquidesComplets, "PageEquidesComplets", ["donnees", "pagination"], []],
    [S.Suggestions, "Suggestions", ["q", "limite", "resultats"], []],
    [S.Suggestion, "Suggestion", [], ["id", "nom", "race", "sexe", "annee_naissance", "score"]],
    [S.Referentiel, "Referentiel", ["dimension", "nombre_de_modalites", "donnees"], ["note"]],
    [S.Modalite, "Modalite", ["valeur", "nombre"], []],
    [S.Repartition, "Repartition", ["dimension", "effectif_filtre", "effectif_affiche", "donnees"], []],
    [S.Tranche, "Tranche", [], ["valeur", "nombre"]],
    [
      S.Stats,
      "Stats",
      [],
      ["total", "avec_filiation", "sans_filiation", "avec_performances", "sans_performances", "nombre_de_races", "nombre_de_robes", "nombre_de_disciplines", "annee_naissance_min", "annee_naissance_max", "par_sexe", "avertissement"]
    ],
    [S.Meta, "Meta", ["version_api", "remarques", "jeu_de_donnees"], []],
    [S.JeuDeDonnees, "JeuDeDonnees", [], ["source", "producteur", "licence", "lignes", "ingere_le", "empreinte_source", "url_modele", "anomalies"]],
    [
      S.AnomaliesSchema,
      "Anomalies",
      [],
      ["annee_naissance_absente", "annee_naissance_min", "annee_naissance_max", "identifiants_illisibles", "parents_pendants", "robe_absente", "sans_filiation", "slugs_non_deductibles", "textes_invalides", "types_invalides"]
    ],
    [S.Decouverte, "Decouverte", [], ["nom", "description", "version", "source", "affiliation", "documentation", "openapi", "licence_donnees", "lignes", "endpoints", "gabarits_url"]],
    // `quota`: an extension saying on /readyz that the shared quota is degraded (issue 12).
    [S.Sante, "Sante", ["statut", "lignes", "version"], ["quota"]],
    [S.Probleme, "Probleme", ["type", "title", "status", "detail"], ["parametre", "indice", "documentation"]]
  ] as const)("%#: %s", (schema, identifier, req, opt) => {
    expect(required(schema, identifier)).toEqual([...req].sort())
    expect(properties(schema, identifier)).toEqual([...req, ...opt].sort())
  })
})

describe("resource schemas: values", () => {
  const resume = { id: ID, nom: "A", race: "Arabe", sexe: "Male" as const }

  it("admits the four sexes only", () => {
    for (const sexe of ["Femelle", "Male", "Hongre", "Indeter"]) expect(accepts(S.Resume, { ...resume, sexe })).toBe(true)
    expect(accepts(S.Resume, { ...resume, sexe: "male" })).toBe(false)
  })

  it("admits canonical 22-char base64url ids only", () => {
    expect(accepts(S.Resume, { ...resume, id: "gecpqPj6Rc2vy_Hz_Y1DmQ" })).toBe(true)
    expect(accepts(S.Resume, { ...resume, id: "gecpqPj6Rc2vy+Hz/Y1DmQ" })).toBe(false)
    expect(accepts(S.Resume, { ...resume, id: "Z4ogLhlkS2CeUdq0bZ0YFx" })).toBe(false)
    expect(accepts(S.Resume, { ...resume, id: "short" })).toBe(false)
  })

  it("rejects null for an omitted optional field, and integers that are not", () => {
    expect(accepts(S.Resume, { ...resume, robe: null })).toBe(false)
    expect(accepts(S.Resume, { ...resume, annee_naissance: null })).toBe(false)
    expect(accepts(S.Resume, { ...resume, annee_naissance: 2001.5 })).toBe(false)
    expect(accepts(S.Resume, { ...resume, annee_naissance: 2001 })).toBe(true)
  })

  it("admits null exactly where the spec does", () => {
    const pagination = { total: 0, limite: 20, offset: 0 }
    expect(accepts(S.Pagination, pagination)).toBe(true)
    expect(accepts(S.Pagination, { ...pagination, suivant: null, precedent: null })).toBe(true)
    expect(accepts(S.Pagination, { ...pagination, suivant: "/v1/equides?limite=20&offset=20", precedent: null })).toBe(true)
    expect(accepts(S.Pagination, { ...pagination, note: null })).toBe(false)
    expect(accepts(S.Stats, { annee_naissance_min: null, annee_naissance_max: null })).toBe(true)
    expect(accepts(S.AnomaliesSchema, { annee_naissance_min: null, annee_naissance_max: 2020 })).toBe(true)
    expect(accepts(S.Stats, { total: null })).toBe(false)
  })

  it("decodes a recursive pedigree tree", () => {
    const arbre = { id: ID, generation: 0, pere: { id: ID, generation: 1, mere: { generation: 2 } } }
    const pedigree = { generations: 2, noeuds: 3, noeuds_theoriques: 7, arbre }
    expect(Schema.decodeUnknownSync(S.Pedigree)(pedigree)).toEqual(pedigree)
    expect(accepts(S.Pedigree, { ...pedigree, arbre: { pere: { pere: { sexe: "X" } } } })).toBe(false)
  })

  it("keeps Produit.fiche_disponible true", () => {
    expect(accepts(S.Produit, { ...resume, fiche_disponible: true })).toBe(true)
    expect(accepts(S.Produit, { ...resume, fiche_disponible: false })).toBe(false)
  })

  it("bounds a suggestion's score to [0, 1] and Sante's statut to its two values", () => {
    expect(accepts(S.Suggestion, { score: 1 })).toBe(true)
    expect(accepts(S.Suggestion, { score: 1.5 })).toBe(false)
    expect(accepts(S.Sante, { statut: "ok", lignes: 3, version: "1.1.1" })).toBe(true)
    expect(accepts(S.Sante, { statut: "degrade", lignes: 3, version: "1.1.1" })).toBe(false)
    expect(accepts(S.Sante, { statut: "ok", lignes: 3, version: "1.1.1", quota: "degraded" })).toBe(true)
    expect(accepts(S.Sante, { statut: "ok", lignes: 3, version: "1.1.1", quota: "ok" })).toBe(false)
  })

  it("encodes a page of either view as given", () => {
    const pagination = { total: 1, limite: 20, offset: 0, suivant: null, precedent: null }
    const full = {
      ...resume,
      slug: "a",
      url: `https://infochevaux.ifce.fr/fr/a-${ID}/infos-generales`,
      nombre_de_descendants: 0
    }
    for (const page of [{ donnees: [resume], pagination }, { donnees: [full], pagination }, { donnees: [], pagination }]) {
      expect(Schema.encodeSync(S.PageEquides)(page)).toEqual(page)
    }
  })

  it("describes every resource for the OpenAPI document", () => {
    for (const schema of [S.Equide, S.Resume, S.Reference, S.Pedigree, S.Noeud, S.Descendance, S.Stats, S.Meta, S.Decouverte, S.Probleme, S.PageEquides]) {
      const document = Schema.toJsonSchemaDocument(schema) as unknown as { definitions: Record<string, { description?: string }> }
      const described = Object.values(document.definitions).filter((definition) => typeof definition.description === "string")
      expect(described.length).toBeGreaterThan(0)
    }
  })
})
