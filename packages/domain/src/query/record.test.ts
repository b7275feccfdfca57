import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import { encodeId, ID_BYTES } from "../dataset/ids.ts"
import type { SourceRecord } from "../dataset/SourceRecord.ts"
import { Equide, Resume } from "../schemas/equide.ts"
import { PageEquides } from "../schemas/lists.ts"
import { Descendance, Pedigree } from "../schemas/pedigree.ts"
import { recordsArbitrary } from "../testing/arbitraries.ts"
import { descendance } from "./descendance.ts"
import { pedigree } from "./pedigree.ts"
import { arbitraryRecords, build, rowOf } from "./record.fixtures.ts"
import { idN } from "../testing/ids.ts"
import { type StringArena } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { equide, findEquide, idOf, resume, textOf, URL_FICHE_MODELE, urlFiche } from "./record.ts"
import { resumePageBody } from "../api/resumePageBody.ts"

const ALPHA = idN(1)
const SIRE = idN(2)
const DANGLING = idN(99)
/** An id written with `-` and `_` (as real ids are). */
const DASHED = encodeId(new Uint8Array(ID_BYTES).fill(0xfb), 0)

const records: ReadonlyArray<SourceRecord> = [
  {
    id: ALPHA,
    slug: "alpha-star",
    nom: "ALPHA STAR",
    race: "Selle Francais",
    sexe: "Male",
    robe: "Bai",
    annee_naissance: 2010,
    statut_reproducteur: "Etalon Actif",
    filiation_texte: "Par SIRE et LOST MARE par GRAND",
    pere: { id: SIRE, nom: "SIRE LINK NAME", race: "SF", pays: "FR" },
    mere: { id: DANGLING, nom: "LOST MARE", race: "TF" },
    pere_de_mere: { id: "not-a-readable-id", nom: "GRAND", race: "AA", alias: "G" },
    performances: [
      {
        discipline: "SAUT D'OBSTACLES",
        texte: "ISO 140 (0.90)",
        indices: [{ code: "ISO", valeur: "140", coefficient: 0.9, annee: 2020, appreciation: "indice-excellent" }]
      },
      { discipline: "DRESSAGE" }
    ]
  },
  // No slug in the source; parent of ALPHA and (as both pere and mere) of NAMELESS.
  { id: SIRE, nom: "SIRE", race: "Trotteur Francais", sexe: "Male", annee_naissance: 2000 },
  // Nothing but an id and links without a readable id.
  { id: idN(3), pere: { id: SIRE }, mere: { id: SIRE }, pere_de_mere: { race: "TF" } },
  // Slug not deducible from the name: served as given.
  { id: idN(4), nom: "BÉBÉ D'OR", slug: "bebe-dor-2", race: "Arabe", sexe: "Femelle", pere: {} },
  // Deducible slug: not stored, rebuilt from the name.
  { id: idN(5), nom: "DALIA AL SHAHANIA", slug: "dalia-al-shahania", race: "Arabe", sexe: "Hongre", mere: { nom: "UNKNOWN" } },
  { id: DASHED, nom: "DASHED", race: "Pur Sang", sexe: "Femelle" }
]

const data = build(records)
const row = (id: string) => rowOf(data, id)

/** Schema round trip: decodes, and encoding gives back exactly the object (as JSON). */
const roundTrips = <S extends Schema.Codec<unknown, unknown>>(schema: S, value: unknown) => {
  const decoded = Schema.decodeUnknownSync(schema)(value)
  expect(JSON.stringify(Schema.encodeSync(schema)(decoded))).toBe(JSON.stringify(value))
}

describe("fast paths", () => {
  it("idOf writes ids exactly as encodeId", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16 * 3, maxLength: 16 * 3 }), fc.integer({ min: 0, max: 2 }), (ids, row) => {
        expect(idOf({ ids } as unknown as DatasetData, row)).toBe(encodeId(ids, row * ID_BYTES))
      })
    )
  })

  it("textOf reads back the text an arena holds", () => {
    const arenaOf = (values: ReadonlyArray<string>): StringArena => {
      const encoded = values.map((v) => new TextEncoder().encode(v))
      const offsets = new Uint32Array(values.length + 1)
      encoded.forEach((bytes, i) => (offsets[i + 1] = offsets[i] + bytes.length))
      const bytes = new Uint8Array(offsets[values.length])
      encoded.forEach((chunk, i) => bytes.set(chunk, offsets[i]))
      return { bytes, offsets }
    }
    const body = fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: "grapheme", maxLength: 30 }), fc.constant("x".repeat(200)))
    // Half the values begin with U+FEFF, which a default `TextDecoder` would drop: the generators
    // above almost never draw it first.
    const text = fc.tuple(fc.boolean(), body).map(([bom, value]) => bom ? `\uFEFF${value}` : value)
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 8 }), (values) => {
        const arena = arenaOf(values)
        values.forEach((value, i) => expect(textOf(arena, i)).toBe(value))
      })
    )
    expect(textOf(arenaOf(["\uFEFF", "\uFEFF\uFEFFA", "A\uFEFF"]), 1)).toBe("\uFEFF\uFEFFA")
  })

  it("serves a value beginning with U+FEFF as stored: in the record, its performances and the byte-written bodies", () => {
    const data = build([{
      id: ALPHA,
      nom: "\uFEFFALPHA",
      filiation_texte: "\uFEFFPar SIRE",
      performances: [{ discipline: "\uFEFFCSO", texte: "\uFEFF1er" }]
    }])
    const served = equide(data, 0)
    expect(served.nom).toBe("\uFEFFALPHA")
    expect(served.filiation_texte).toBe("\uFEFFPar SIRE")
    expect(served.performances).toEqual([{ discipline: "\uFEFFCSO", texte: "\uFEFF1er" }])
    const page = resumePageBody(data, [0], { total: 1, limite: 20, offset: 0, suivant: null, precedent: null })
    // U+FEFF is EF BB BF in UTF-8; JSON writes it unescaped.
    const nom = Buffer.concat([Buffer.from(`"nom":"`), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`ALPHA"`)])
    expect(Buffer.from(page).includes(nom)).toBe(true)
  })
})

describe("findEquide", () => {
  it("finds a known id", () => {
    expect(findEquide(data, ALPHA)).toBe(row(ALPHA))
    expect(findEquide(data, idN(5))).toBe(row(idN(5)))
  })

  it("answers undefined alike for unknown, malformed and non-canonical ids", () => {
    expect(findEquide(data, DANGLING)).toBeUndefined()
    expect(findEquide(data, "")).toBeUndefined()
    expect(findEquide(data, "abc")).toBeUndefined()
    expect(findEquide(data, `${ALPHA}A`)).toBeUndefined()
    expect(DASHED).toMatch(/-/)
    expect(DASHED).toMatch(/_/)
    expect(findEquide(data, DASHED)).toBe(row(DASHED))
    // The standard base64 alphabet is not the registry's.
    expect(findEquide(data, DASHED.replace(/-/g, "+").replace(/_/g, "/"))).toBeUndefined()
    // Same 16 bytes, but the 4 padding bits are not zero: not canonical.
    const last = ALPHA.charCodeAt(21)
    expect("AQgw").toContain(String.fromCharCode(last))
    expect(findEquide(data, ALPHA.slice(0, 21) + String.fromCharCode(last + 1))).toBeUndefined()
    expect(findEquide(build([]), ALPHA)).toBeUndefined()
  })
})

describe("equide", () => {
  it("assembles a full record, with references from the links", () => {
    const alpha = equide(data, row(ALPHA))
    expect(alpha).toEqual({
      id: ALPHA,
      nom: "ALPHA STAR",
      slug: "alpha-star",
      url: `https://infochevaux.ifce.fr/fr/alpha-star-${ALPHA}/infos-generales`,
      race: "Selle Francais",
      sexe: "Male",
      nombre_de_descendants: 0,
      annee_naissance: 2010,
      robe: "Bai",
      filiation_texte: "Par SIRE et LOST MARE par GRAND",
      pere: { id: SIRE, nom: "SIRE LINK NAME", race: "SF", fiche_disponible: true },
      mere: { nom: "LOST MARE", race: "TF", fiche_disponible: false },
      pere_de_mere: { nom: "GRAND", race: "AA", fiche_disponible: false },
      performances: [
        {
          discipline: "SAUT D'OBSTACLES",
          texte: "ISO 140 (0.90)",
          indices: [{ annee: 2020, appreciation: "indice-excellent", code: "ISO", coefficient: 0.9, valeur: "140" }]
        },
        { discipline: "DRESSAGE" }
      ]
    })
    roundTrips(Equide, alpha)
  })

  it("takes a reference's race from the link, never from the parent's record", () => {
    const pere = equide(data, row(ALPHA)).pere
    expect(pere?.race).toBe("SF")
    expect(equide(data, row(SIRE)).race).toBe("Trotteur Francais")
  })

  it("serves a dangling or unreadable parent without id and with fiche_disponible false", () => {
    const alpha = equide(data, row(ALPHA))
    for (const reference of [alpha.mere, alpha.pere_de_mere]) {
      expect(reference).toBeDefined()
      expect(Object.keys(reference ?? {})).not.toContain("id")
      expect(reference?.fiche_disponible).toBe(false)
    }
  })

  it("omits a link carrying nothing, and keeps what a partial link carries", () => {
    const bebe = equide(data, row(idN(4)))
    expect("pere" in bebe).toBe(false)
    expect("mere" in bebe).toBe(false)
    expect("pere_de_mere" in bebe).toBe(false)
    const dalia = equide(data, row(idN(5)))
    expect(dalia.mere).toEqual({ nom: "UNKNOWN", fiche_disponible: false })
    const nameless = equide(data, row(idN(3)))
    expect(nameless.pere).toEqual({ id: SIRE, fiche_disponible: true })
    expect(nameless.pere_de_mere).toEqual({ race: "TF", fiche_disponible: false })
  })

  it("omits absent optional fields and serves missing required strings as empty", () => {
    const nameless = equide(data, row(idN(3)))
    expect(Object.keys(nameless).sort()).toEqual(
      ["id", "nom", "slug", "url", "race", "sexe", "nombre_de_descendants", "pere", "mere", "pere_de_mere"].sort()
    )
    expect(nameless.nom).toBe("")
    expect(nameless.slug).toBe("")
    expect(nameless.race).toBe("")
    expect(nameless.sexe).toBe("Indeter")
    for (const key of ["annee_naissance", "robe", "filiation_texte", "performances"]) expect(key in nameless).toBe(false)
    roundTrips(Equide, nameless)
  })

  it("rebuilds the url from the served slug and the id", () => {
    expect(equide(data, row(idN(4))).slug).toBe("bebe-dor-2")
    expect(equide(data, row(idN(4))).url).toBe(`https://infochevaux.ifce.fr/fr/bebe-dor-2-${idN(4)}/infos-generales`)
    expect(equide(data, row(idN(5))).slug).toBe("dalia-al-shahania")
    expect(equide(data, row(idN(5))).url).toBe(urlFiche("dalia-al-shahania", idN(5)))
    // No slug in the source: "" is served, and the url is still the template filled with it.
    expect(equide(data, row(SIRE)).slug).toBe("")
    expect(equide(data, row(SIRE)).url).toBe(`https://infochevaux.ifce.fr/fr/-${SIRE}/infos-generales`)
    expect(URL_FICHE_MODELE.replace("{slug}", "x").replace("{id}", "y")).toBe(urlFiche("x", "y"))
  })

  it("counts direct offspring once even when a record has the same parent twice", () => {
    // ALPHA (pere) and the nameless record (pere and mere) are SIRE's products.
    expect(equide(data, row(SIRE)).nombre_de_descendants).toBe(2)
  })
})

describe("resume", () => {
  it("keeps the summary fields only", () => {
    expect(resume(data, row(ALPHA))).toEqual({
      id: ALPHA,
      nom: "ALPHA STAR",
      race: "Selle Francais",
      sexe: "Male",
      annee_naissance: 2010,
      robe: "Bai"
    })
    const nameless = resume(data, row(idN(3)))
    expect(Object.keys(nameless)).toEqual(["id", "nom", "race", "sexe"])
    roundTrips(Resume, nameless)
  })
})

describe("PageEquides", () => {
  it("encodes both views without losing or adding fields", () => {
    const pagination = { total: 6, limite: 20, offset: 0, suivant: null, precedent: null }
    const rows = Array.from({ length: data.size }, (_, r) => r)
    roundTrips(PageEquides, { donnees: rows.map((r) => equide(data, r)), pagination })
    roundTrips(PageEquides, { donnees: rows.map((r) => resume(data, r)), pagination })
  })
})

describe("arbitrary records", () => {
  it("every assembled record round-trips through its schema and carries no personal data", () => {
    fc.assert(
      fc.property(arbitraryRecords, (records) => {
        // Raw source lines may hold `naisseur`: the parsers drop it; make sure nothing else reintroduces it.
        const data = build(records.map((r) => ({ ...r, naisseur: "Jean Dupont" }) as SourceRecord))
        for (let r = 0; r < data.size; r++) {
          const full = equide(data, r)
          const summary = resume(data, r)
          roundTrips(Equide, full)
          roundTrips(Resume, summary)
          expect(JSON.stringify([full, summary])).not.toContain("naisseur")
          expect(full.id).toBe(encodeId(data.ids, r * ID_BYTES))
          expect(findEquide(data, full.id)).toBe(r)
          let products = 0
          for (let c = 0; c < data.size; c++) {
            if (data.links.pere.row[c] === r || data.links.mere.row[c] === r) products++
          }
          expect(full.nombre_de_descendants).toBe(products)
          for (const key of ["pere", "mere", "pere_de_mere"] as const) {
            const reference = full[key]
            if (reference !== undefined) expect("id" in reference).toBe(reference.fiche_disponible)
          }
        }
      }),
      { numRuns: 60 }
    )
  })

  it("larger record sets round-trip through every record-level view and carry no personal data", () => {
    fc.assert(
      fc.property(recordsArbitrary({ maxLength: 30 }), (records) => {
        const data = build(records.map((r) => ({ ...r, naisseur: "Marie Martin" }) as SourceRecord))
        for (let r = 0; r < data.size; r++) {
          const outputs = [equide(data, r), resume(data, r), pedigree(data, r, 4), descendance(data, r, 10, 0)] as const
          roundTrips(Equide, outputs[0])
          roundTrips(Resume, outputs[1])
          roundTrips(Pedigree, outputs[2])
          roundTrips(Descendance, outputs[3])
          expect(JSON.stringify(outputs)).not.toContain("naisseur")
          expect(JSON.stringify(outputs)).not.toContain("Marie Martin")
        }
      }),
      { numRuns: 30 }
    )
  })
})
