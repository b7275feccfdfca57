/**
 * A pedigree (`/explorer/equides/{id}/pedigree?generations=N`): the bracket of `pedigreeGrid.ts`
 * as a CSS grid (an indented list on narrow screens), each ancestor a link to its record and to
 * its own pedigree ("re-root here"); ancestors present more than once carry a text marker
 * explained by a legend (not by colour alone).
 */
import { type Meta, PEDIGREE_GENERATIONS_MAX, type Pedigree } from "@equides/domain"
import { type Html, html } from "./html.ts"
import { layout } from "./layout.ts"
import { horseLink, nameOf } from "./links.ts"
import { type PedigreeCell, type PedigreeGrid, pedigreeGrid, type ParentLinks } from "./pedigreeGrid.ts"
import { pedigreePath, recordPath } from "./paths.ts"

const ROLE = { subject: "Sujet", sire: "Père", dam: "Mère" } as const

const marker = (n: number): Html => html` <span class="repeat" title="Ancêtre présent plusieurs fois">[${n}]</span>`

const cell = (c: PedigreeCell, generations: number): Html => {
  const place = `cell g${c.generation} c${c.generation} r${c.row} s${c.span} ${c.role}`
  const slot = c.slot
  switch (slot.kind) {
    case "known": {
      const n = slot.node
      const id = n.id ?? ""
      const details = [n.sexe, n.annee_naissance, n.race].filter((v) => v !== undefined && v !== "").join(", ")
      return html`<div class="${place}"><span class="skip">${ROLE[c.role]}, génération ${c.generation} : </span><span>${horseLink(id, n.nom)}${
        slot.marker === undefined ? "" : marker(slot.marker)
      }</span><span class="meta">${details}${
        c.generation === 0 ? "" : html` · <a href="${pedigreePath(id, generations)}">re-raciner ici<span class="skip"> : pedigree de ${nameOf(n.nom)}</span></a>`
      }</span></div>`
    }
    case "dangling":
      return html`<div class="${place} unknown"><span class="skip">${ROLE[c.role]}, génération ${c.generation} : </span><span>${
        nameOf(slot.nom)
      }</span><span class="meta">fiche absente du jeu de données</span></div>`
    case "unknown":
      return html`<div class="${place} unknown"><span class="skip">${ROLE[c.role]}, génération ${c.generation} : </span><span>inconnu</span></div>`
  }
}

const legend = (grid: PedigreeGrid): Html =>
  grid.repeated.length === 0
    ? html`<p class="legend">Aucun ancêtre n'apparaît plusieurs fois sur ces ${grid.generations} générations.</p>`
    : html`<div class="legend"><h2>Ancêtres présents plusieurs fois</h2>
<p>Le repère <span class="repeat">[n]</span> suit chaque apparition d'un même ancêtre.</p>
<ul>${grid.repeated.map((r) => html`<li><span class="repeat">[${r.marker}]</span> <a href="${recordPath(r.id)}">${nameOf(r.nom)}</a> : ${r.count} fois</li>`)}</ul></div>`

const depthChoice = (id: string, current: number): Html =>
  html`<form class="pager" method="get" action="${pedigreePath(id)}">
<label for="generations">Générations</label>
<select id="generations" name="generations">${
    Array.from({ length: PEDIGREE_GENERATIONS_MAX }, (_, i) => i + 1).map((g) =>
      html`<option value="${g}"${g === current ? html` selected` : ""}>${g}</option>`
    )
  }</select>
<button type="submit">Afficher</button>
</form>`

export const pedigreePage = (meta: Meta, tree: Pedigree, linksOf: ParentLinks): Html => {
  const grid = pedigreeGrid(tree, linksOf)
  const subject = tree.arbre
  const id = subject.id ?? ""
  return layout(meta, {
    title: `Pedigree de ${nameOf(subject.nom)}`,
    json: `/v1/equides/${id}/pedigree?generations=${tree.generations}`,
    body: html`<h1>Pedigree de ${horseLink(id, subject.nom)}</h1>
<p>${tree.noeuds} ancêtres connus (sujet compris) sur ${tree.noeuds_theoriques} places d'un pedigree complet à ${tree.generations} générations. Côté père en haut, côté mère en bas.</p>
${depthChoice(id, tree.generations)}
<div class="pedigree" role="group" aria-label="Arbre des ancêtres">
${grid.cells.map((c) => cell(c, tree.generations))}
</div>
${legend(grid)}`
  })
}
