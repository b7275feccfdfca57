/** Pieces several pages share: a horse's name as a link, a parentage link, absent values. */
import { type Pagination, type PaginationLinks, paginationLinks, type Reference } from "@equides/domain"
import { type Html, html } from "./html.ts"
import { frenchNumber } from "./layout.ts"
import { type Pairs, recordPath } from "./paths.ts"

/** The source may lack a name: served as `""`, shown as such. */
export const nameOf = (nom: string | undefined): string => (nom === undefined || nom === "" ? "(sans nom)" : nom)

export const ABSENT = html`<span class="muted">non renseigné</span>`

export const horseLink = (id: string, nom: string | undefined): Html => html`<a href="${recordPath(id)}">${nameOf(nom)}</a>`

/**
 * A parentage link: the parent's record when it is in the data; a dangling parent (named by the
 * source, absent from the data) by its name only; no link at all as unknown.
 */
export const parentLink = (reference: Reference | undefined): Html => {
  if (reference === undefined) return html`<span class="muted">inconnu</span>`
  const race = reference.race === undefined || reference.race === "" ? "" : html` <span class="muted">(${reference.race})</span>`
  if (reference.id !== undefined && reference.fiche_disponible !== false) return html`${horseLink(reference.id, reference.nom)}${race}`
  return html`${nameOf(reference.nom)}${race} <span class="muted">— fiche absente du jeu de données</span>`
}

/** Previous and next page links around a position (`12 à 20 sur 86`). */
export const pager = (label: string, links: PaginationLinks, position: string): Html =>
  html`<nav class="pager" aria-label="${label}">
${links.precedent === null ? "" : html`<a href="${links.precedent}" rel="prev">← Page précédente</a>`}
<span>${position}</span>
${links.suivant === null ? "" : html`<a href="${links.suivant}" rel="next">Page suivante →</a>`}
</nav>`

/** The pager of a ranking page: the API's own links at `path` for the page's pairs, "1 à 20 sur 345". */
export const rankingPager = (path: string, pairs: Pairs, { total, limite, offset }: Pagination, shown: number): Html => {
  const position = total === 0 ? "" : `${frenchNumber(Math.min(total, offset + 1))} à ${frenchNumber(Math.min(total, offset + shown))} sur ${frenchNumber(total)}`
  return pager("Pages du classement", paginationLinks(path, pairs, offset, limite, total), position)
}
