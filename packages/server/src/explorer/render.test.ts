/**
 * Rendering: escaping (a property against a naive decoder), absent fields, dangling and unknown
 * parents, repeated ancestors, over a small Dataset built with the API's own builder.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  accouplement,
  breedReference,
  buildDataset,
  etalonsAnswer,
  type EtalonsQuery,
  findEquide,
  foalCoefficient,
  inMemoryProvenance,
  meta,
  pedigree,
  type SourceRecord,
  statsGenetique
} from "@equides/domain"
import * as Result from "effect/Result"
import fc from "fast-check"
import { idN } from "@equides/domain/testing"
import { etalonsPage } from "./etalonsPage.ts"
import { genetiquePage } from "./genetiquePage.ts"
import { escapeHtml, html, trusted } from "./html.ts"
import { matingPage } from "./matingPage.ts"
import { pedigreeGrid } from "./pedigreeGrid.ts"
import { pedigreePage } from "./pedigreePage.ts"
import { progenyPage } from "./progenyPage.ts"
import { recordPage } from "./recordPage.ts"
import { parentLinks, progenyView, recordView } from "./views.ts"

const MARKUP = "<B> & \"C\" 'D'"
const SIRE = idN(1)
const DAUGHTER = idN(2)
const INBRED = idN(3)
const BARE = idN(4)
const ORPHAN = idN(5)
const ABSENT = idN(99)

const RECORDS: ReadonlyArray<SourceRecord> = [
  { id: SIRE, nom: MARKUP, race: "Selle Francais", sexe: "Male", annee_naissance: 1990 },
  {
    id: DAUGHTER, nom: "FILLE", race: "Selle Francais", sexe: "Femelle", annee_naissance: 2000,
    pere: { id: SIRE, nom: MARKUP, race: "SF" }, mere: { id: ABSENT, nom: "DISPARUE <X>", race: "SF" }
  },
  {
    id: INBRED, nom: "PETIT-FILS", race: "Selle Francais", sexe: "Male", annee_naissance: 2008,
    pere: { id: SIRE, nom: MARKUP, race: "SF" }, mere: { id: DAUGHTER, nom: "FILLE", race: "SF" }
  },
  { id: BARE, sexe: "Indeter" },
  { id: ORPHAN, nom: "ORPHELIN", race: "Arabe", sexe: "Hongre", mere: { nom: "SANS FICHE" } }
]
// Loaded in 2025: each breed's reference population is its last five birth years up to 2025.
const data = buildDataset(RECORDS, { ...inMemoryProvenance(RECORDS.length), ingestedAt: "2025-06-01T00:00:00.000Z" })
const about = meta(data)
const rowOf = (id: string): number => {
  const row = findEquide(data, id)
  if (row === undefined) throw new Error(`no row for ${id}`)
  return row
}
const recordMarkup = (id: string): string => recordPage(about, recordView(data, rowOf(id))).markup
const stallionsOfDaughter = (() => {
  const ranking = etalonsAnswer(data, rowOf(DAUGHTER), { mere: DAUGHTER } as EtalonsQuery, `/v1/accouplements/etalons?mere=${DAUGHTER}`)
  if (Result.isFailure(ranking)) throw new Error(ranking.failure.detail)
  return ranking.success
})()
const selleFrancais = (() => {
  const figures = statsGenetique(data, { race: ["selle francais"] })
  if (Result.isFailure(figures)) throw new Error(figures.failure.detail)
  return figures.success
})()

/** The naive model: the five entities back to their characters. */
const unescape = (text: string): string =>
  text.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", "\"").replaceAll("&#39;", "'").replaceAll("&amp;", "&")

describe("escaping", () => {
  it("leaves no markup character in any text, and loses nothing", () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom("<", ">", "&", "\"", "'", "a", "é", ";", "#", "\u{1F40E}") }), (text) => {
      const escaped = escapeHtml(text)
      return !/[<>"']/.test(escaped) && !escaped.replace(/&(amp|lt|gt|quot|#39);/g, "").includes("&") && unescape(escaped) === text
    }))
  })

  it("escapes interpolated text and attribute values, never a fragment, and renders absent values as nothing", () => {
    const fragment = html`<b>${MARKUP}</b>`
    expect(html`<a title="${MARKUP}">${fragment}${undefined}${null}${false}${[1, " ", "&"]}</a>`.markup).toBe(
      "<a title=\"&lt;B&gt; &amp; &quot;C&quot; &#39;D&#39;\"><b>&lt;B&gt; &amp; &quot;C&quot; &#39;D&#39;</b>1 &amp;</a>"
    )
    expect(html`${trusted("<hr>")}`.markup).toBe("<hr>")
  })

  it("shows a name with markup characters as text on every page type", () => {
    const pages = [
      recordPage(about, recordView(data, rowOf(SIRE))),
      recordPage(about, recordView(data, rowOf(DAUGHTER))),
      pedigreePage(about, pedigree(data, rowOf(INBRED), 2), parentLinks(data)),
      progenyPage(about, progenyView(data, rowOf(SIRE), undefined, undefined), []),
      genetiquePage(about, [["race", "selle francais"]], { kind: "figures", stats: selleFrancais }, [MARKUP]),
      etalonsPage(about, [["mere", DAUGHTER]], { kind: "ranking", ranking: stallionsOfDaughter, reference: breedReference(data, rowOf(DAUGHTER)) }),
      matingPage(about, [["pere", SIRE], ["mere", DAUGHTER]], {
        accouplement: accouplement(data, rowOf(SIRE), rowOf(DAUGHTER)),
        complet: foalCoefficient(data, rowOf(SIRE), rowOf(DAUGHTER)),
        reference: breedReference(data, rowOf(DAUGHTER))
      })
    ]
    for (const page of pages) {
      expect(page.markup).not.toContain(MARKUP)
      expect(page.markup).toContain(escapeHtml(MARKUP))
      expect(page.markup).not.toContain("<B>")
    }
  })
})

describe("record page", () => {
  it("says which fields are absent, and shows unknown parents as such", () => {
    const page = recordPage(about, recordView(data, rowOf(BARE))).markup
    expect(page).toContain("<h1>(sans nom)</h1>")
    for (const field of ["Race", "Année de naissance", "Robe", "Slug", "Filiation rédigée par la source"]) {
      expect(page).toMatch(new RegExp(`<dt>${field}</dt><dd><span class="muted">non renseigné</span></dd>`))
    }
    expect(page).toMatch(/<dt>Père<\/dt><dd><span class="muted">inconnu<\/span><\/dd>/)
    expect(page).toMatch(/<dt>Mère<\/dt><dd><span class="muted">inconnu<\/span><\/dd>/)
    expect(page).toContain("Aucun indice publié")
  })

  it("names a dangling parent without linking it, and links known parents and grandparents", () => {
    const daughter = recordPage(about, recordView(data, rowOf(DAUGHTER))).markup
    expect(daughter).toContain("DISPARUE &lt;X&gt; <span class=\"muted\">(SF)</span> <span class=\"muted\">— fiche absente du jeu de données</span>")
    expect(daughter).toContain(`<a href="/explorer/equides/${SIRE}">${escapeHtml(MARKUP)}</a>`)
    const inbred = recordPage(about, recordView(data, rowOf(INBRED))).markup
    // The dam's own parents: the sire again (linked), and the dangling granddam (by name).
    expect(inbred).toMatch(new RegExp(`sa mère : DISPARUE &lt;X&gt;`))
    expect(inbred).toContain(`son père : <a href="/explorer/equides/${SIRE}">`)
    const orphan = recordPage(about, recordView(data, rowOf(ORPHAN))).markup
    expect(orphan).toMatch(/<dt>Mère<\/dt><dd>SANS FICHE <span class="muted">— fiche absente/)
  })
})

describe("genetics", () => {
  it("shows on a record its F, its equivalent generations and its breed's reference mean F, linked to the breed's page", () => {
    // Sire × his own daughter (whose dam is dangling): F = 1/4, t = (1 + 0)/2 + (1 + 1/2)/2 = 1.25; the
    // breed's reference population is the birth years 2004–2008, the inbred son alone.
    const inbred = recordMarkup(INBRED)
    expect(inbred).toContain("<dt>Consanguinité (F, toutes générations connues)</dt><dd>25,00\u00a0%</dd>")
    expect(inbred).toContain("<dt>Générations équivalentes connues</dt><dd>1,25</dd>")
    expect(inbred).toContain("<a href=\"/explorer/genetique?race=Selle+Francais\">Selle Francais nés 2004–2008 : 25,00\u00a0%</a>")
    expect(inbred).toContain(`<a href="/v1/equides/${INBRED}/genetique">JSON</a>`)
    expect(recordMarkup(SIRE)).toContain("<dd>0,00\u00a0%</dd>")
    expect(recordMarkup(BARE)).toContain("pas de population de référence")
  })

  it("draws a breed's mean F and Ne by year, tabulates every year, and links its major ancestors", () => {
    const page = genetiquePage(about, [["race", "selle francais"]], { kind: "figures", stats: selleFrancais }, []).markup
    expect(page).toContain("<h1>Génétique : Selle Francais</h1>")
    expect(page).toContain("<title id=\"graphique-f-titre\">Consanguinité moyenne (F) par année de naissance")
    expect(page).toContain("<title id=\"graphique-ne-titre\">Taille efficace (Ne) par année de naissance")
    for (const annee of [1990, 2000, 2008]) expect(page).toContain(`<tr><td>${annee}</td>`)
    expect(page).toContain("<tr><td>2008</td><td class=\"num\">1</td><td class=\"num\">25,00\u00a0%</td>")
    // The inbred son descends from the sire through both parents: the first ancestor chosen.
    expect(page).toMatch(new RegExp(`<td class="num">1</td><td><a href="/explorer/equides/${SIRE}">`))
    expect(page).toContain("href=\"/v1/stats/genetique?race=selle+francais\"")
  })

  it("without a race shows the form and links to the breeds; a refused parameter is said", () => {
    const form = genetiquePage(about, [], { kind: "form" }, ["Selle Francais", MARKUP]).markup
    expect(form).toContain("<a href=\"/explorer/genetique?race=Selle+Francais\">Selle Francais</a>")
    expect(form).toContain(`<option value="${escapeHtml(MARKUP)}"></option>`)
    expect(form).not.toContain("<svg")
    const refused = genetiquePage(about, [["race", "licorne"]], { kind: "refused", detail: "Race <inconnue>", indice: undefined }, []).markup
    expect(refused).toContain("<div class=\"note\" role=\"alert\"><p><strong>Paramètre refusé.</strong> Race &lt;inconnue&gt;</p>")
    expect(refused).toContain("value=\"licorne\"")
  })
})

describe("pedigree", () => {
  it("marks an ancestor present twice with the same number, and lists it in the legend", () => {
    const grid = pedigreeGrid(pedigree(data, rowOf(INBRED), 2), parentLinks(data))
    expect(grid.repeated).toEqual([{ marker: 1, id: SIRE, nom: MARKUP, count: 2 }])
    const marked = grid.cells.filter((c) => c.slot.kind === "known" && c.slot.marker === 1)
    expect(marked.map((c) => [c.generation, c.role])).toEqual([[1, "sire"], [2, "sire"]])
    const page = pedigreePage(about, pedigree(data, rowOf(INBRED), 2), parentLinks(data)).markup
    expect(page).toContain("<span class=\"repeat\">[1]</span>")
    expect(page).toContain("2 fois")
  })

  it("places every slot of a depth-N bracket once: sire above dam, unknown and dangling slots said so", () => {
    for (let depth = 0; depth <= 4; depth++) {
      const grid = pedigreeGrid(pedigree(data, rowOf(INBRED), depth), parentLinks(data))
      // Slots where a branch stops cover the rows their missing ancestors would have: per row, the
      // covering cells of generations 0..g are one per generation down to the branch's end.
      for (let row = 1; row <= 2 ** depth; row++) {
        const covering = grid.cells.filter((c) => c.row <= row && row < c.row + c.span).map((c) => c.generation)
        expect(covering).toEqual(Array.from({ length: covering.length }, (_, g) => g))
      }
      for (const c of grid.cells) {
        expect(c.span).toBe(2 ** (depth - c.generation))
        expect((c.row - 1) % c.span).toBe(0)
        if (c.role === "sire") expect(((c.row - 1) / c.span) % 2).toBe(0)
        if (c.role === "dam") expect(((c.row - 1) / c.span) % 2).toBe(1)
      }
    }
    const grid = pedigreeGrid(pedigree(data, rowOf(INBRED), 3), parentLinks(data))
    const slots = grid.cells.map((c) => `${c.generation}:${c.slot.kind === "known" ? c.slot.node.nom : c.slot.kind === "dangling" ? `~${c.slot.nom}` : "?"}`)
    expect(slots).toEqual([
      "0:PETIT-FILS",
      `1:${MARKUP}`, "2:?", "2:?",
      "1:FILLE", `2:${MARKUP}`, "3:?", "3:?", "2:~DISPARUE <X>"
    ])
  })
})

describe("progeny page", () => {
  it("shows each product's other parent, dangling ones by name", () => {
    const page = progenyPage(about, progenyView(data, rowOf(SIRE), undefined, undefined), []).markup
    expect(page).toContain("2 produits directs connus")
    // FILLE's dam is dangling; PETIT-FILS's dam is FILLE.
    expect(page).toMatch(/FILLE<\/a><\/td><td>Femelle<\/td><td>DISPARUE &lt;X&gt;/)
    expect(page).toMatch(new RegExp(`PETIT-FILS</a></td><td>Male</td><td><a href="/explorer/equides/${DAUGHTER}">FILLE</a>`))
  })
})
