/**
 * A test mating (`/explorer/accouplements/essai?pere=ID&mere=ID&generations=N`), the page each
 * stallion of the ranking (`etalonsPage.ts`) links: the virtual foal's F over all known generations
 * (the ranking's coefficient), then what `GET /v1/accouplements` gives within its cut (N
 * generations, 8 by default): the foal's F there, the parents' relationship R, the common
 * ancestors with their contributions, and the completeness of both pedigrees.
 */
import type { Accouplement, Genetique, Meta } from "@equides/domain"
import { foalPercent } from "./etalonsPage.ts"
import { type Html, html } from "./html.ts"
import { frenchNumber, layout } from "./layout.ts"
import { horseLink, nameOf } from "./links.ts"
import { EXPLORER_MATING, matingsPath, type Pairs, pedigreePath, queryString } from "./paths.ts"

export interface MatingView {
  readonly accouplement: Accouplement
  /** The foal's F over all known generations (`foalCoefficient`). */
  readonly complet: number
  /** The reference population of the mare's breed, for its mean F. */
  readonly reference: Genetique["reference"]
}

/** The depths `/v1/accouplements` accepts, offered by the form. */
const DEPTHS = Array.from({ length: 12 }, (_, k) => k + 1)

const positions = (list: ReadonlyArray<number>): string => list.join(", ")

const ancestors = (mating: Accouplement): Html =>
  mating.ancetres_communs.length === 0
    ? html`<p>Aucun ancêtre commun au père et à la mère dans la coupe : le F du poulain y est nul.</p>`
    : html`<div class="table-wrap"><table>
<caption class="skip">Ancêtres communs par contribution décroissante</caption>
<thead><tr><th scope="col">Ancêtre commun</th><th scope="col">Générations côté père</th><th scope="col">Générations côté mère</th><th scope="col" class="num">Paires de chemins</th><th scope="col" class="num">Contribution à F</th><th scope="col" class="num">F de l'ancêtre</th></tr></thead>
<tbody>
${
      mating.ancetres_communs.map((a) =>
        html`<tr><td>${horseLink(a.id, a.nom)}</td><td>${positions(a.positions_pere)}</td><td>${positions(a.positions_mere)}</td><td class="num">${
          frenchNumber(a.chemins)
        }</td><td class="num">${foalPercent(a.contribution)}</td><td class="num">${foalPercent(a.coefficient_ancetre)}</td></tr>`
      )
    }
</tbody>
</table></div>`

/** `pairs`: the page's own query, empty values dropped (the API request is `/v1/accouplements` with the same). */
export const matingPage = (meta: Meta, pairs: Pairs, view: MatingView): Html => {
  const { accouplement: mating, complet, reference } = view
  const { pere, mere, generations } = mating
  return layout(meta, {
    title: `Accouplement ${nameOf(pere.nom)} × ${nameOf(mere.nom)}`,
    json: `/v1/accouplements${queryString(pairs)}`,
    body: html`<h1>Accouplement : ${nameOf(pere.nom)} × ${nameOf(mere.nom)}</h1>
<p>Le poulain que donnerait l'étalon ${horseLink(pere.id, pere.nom)} avec la jument ${horseLink(mere.id, mere.nom)}
(pedigrees : <a href="${pedigreePath(pere.id)}">du père</a>, <a href="${pedigreePath(mere.id)}">de la mère</a>).
<a href="${matingsPath([["mere", mere.id]])}">Autres étalons pour ${nameOf(mere.nom)}</a>.</p>
<dl class="fields">
<dt>F du poulain, toutes générations connues</dt><dd>${foalPercent(complet)} <span class="muted">(le coefficient du classement des étalons)</span></dd>
<dt>F du poulain sur ${String(generations)} générations</dt><dd>${foalPercent(mating.coefficient)}</dd>
<dt>Parenté R du père et de la mère</dt><dd>${foalPercent(mating.coefficient_de_parente)}</dd>
${
      reference === null ? "" : html`<dt>F moyen de la race</dt><dd>${foalPercent(reference.consanguinite_moyenne)} <span class="muted">(${reference.race} nés de ${
        String(reference.annee_min)
      } à ${String(reference.annee_max)})</span></dd>`
    }
<dt>Complétude sur ${String(generations - 1)} générations (MacCluer)</dt><dd>père ${foalPercent(mating.completude.pere.indice_maccluer)}, mère ${
      foalPercent(mating.completude.mere.indice_maccluer)
    }</dd>
</dl>
<form class="pager" method="get" action="${EXPLORER_MATING}">
<input type="hidden" name="pere" value="${pere.id}"><input type="hidden" name="mere" value="${mere.id}">
<label for="f-generations">Profondeur de la coupe</label>
<select id="f-generations" name="generations">${
      DEPTHS.map((n) => html`<option value="${String(n)}"${n === generations ? html` selected` : ""}>${String(n)} générations</option>`)
    }</select>
<button type="submit">Recalculer</button>
</form>
<h2>Ancêtres communs sur ${String(generations)} générations</h2>
<p>Chaque ancêtre présent des deux côtés, la génération de chacun de ses chemins (1 : les parents du poulain) et sa part de F.
Définitions : <a href="/documentation#consanguinite">documentation</a>.</p>
${ancestors(mating)}`
  })
}
