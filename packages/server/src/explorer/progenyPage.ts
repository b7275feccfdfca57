/**
 * Direct offspring (`/explorer/equides/{id}/descendance`): the page of `GET …/descendance` as a
 * table (year, name, sex, the other parent), with previous and next pages.
 */
import { type Descendance, type Meta, paginationLinks, type Reference } from "@equides/domain"
import { type Html, html } from "./html.ts"
import { frenchNumber, layout } from "./layout.ts"
import { ABSENT, horseLink, pager, parentLink } from "./links.ts"
import { type Pairs, progenyPath, queryString } from "./paths.ts"

export interface ProgenyView {
  readonly descendance: Descendance
  /** For each product, in order: its other parent (the one that is not the subject). */
  readonly otherParents: ReadonlyArray<Reference | undefined>
}

/** `pairs`: the page's own query (its links keep it, `limite` and `offset` rewritten). */
export const progenyPage = (meta: Meta, view: ProgenyView, pairs: Pairs): Html => {
  const { parent, total, limite, offset, donnees } = view.descendance
  const id = parent.id ?? ""
  const first = Math.min(total, offset + 1)
  const last = Math.min(total, offset + donnees.length)
  const links = paginationLinks(progenyPath(id), pairs, offset, limite, total)
  const nav = pager("Pages de la descendance", links, total === 0 ? "" : `Produits ${frenchNumber(first)} à ${frenchNumber(last)} sur ${frenchNumber(total)}`)
  return layout(meta, {
    title: `Descendance de ${parent.nom ?? id}`,
    json: `/v1/equides/${id}/descendance${queryString(pairs)}`,
    body: html`<h1>Descendance de ${horseLink(id, parent.nom)}</h1>
<p>${frenchNumber(total)} produit${total > 1 ? "s" : ""} direct${total > 1 ? "s" : ""} connu${total > 1 ? "s" : ""} (fiches ayant cet équidé pour père ou pour mère), par année de naissance.</p>
${total === 0 ? "" : html`${nav}<div class="table-wrap"><table>
<caption class="skip">Produits directs</caption>
<thead><tr><th scope="col" class="num">Année</th><th scope="col">Nom</th><th scope="col">Sexe</th><th scope="col">Autre parent</th></tr></thead>
<tbody>
${donnees.map((p, i) =>
      html`<tr><td class="num">${p.annee_naissance ?? ABSENT}</td><td>${horseLink(p.id, p.nom)}</td><td>${p.sexe}</td><td>${parentLink(view.otherParents[i])}</td></tr>`
    )}
</tbody>
</table></div>
${nav}`}
${offset >= total && total > 0 ? html`<p class="note">Cette page est au-delà du dernier produit.</p>` : ""}`
  })
}
