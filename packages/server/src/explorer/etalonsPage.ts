/**
 * Stallions ranked for a mare (`/explorer/accouplements?mere=ID…`, issue 28): the parameters of
 * `GET /v1/accouplements/etalons` as a GET form, then the ranking, each foal's coefficient drawn
 * as a meter, each row linking the planned mating's common ancestors (`/v1/accouplements`).
 * Without a mare the form alone is shown; a mare's record page links here.
 */
import type { Etalons, Meta } from "@equides/domain"
import { type Html, html } from "./html.ts"
import { frenchNumber, layout } from "./layout.ts"
import { ABSENT, horseLink, nameOf, rankingPager } from "./links.ts"
import { EXPLORER_MATINGS, type Pairs, queryString, valueOf } from "./paths.ts"

export type MatingsOutcome =
  | { readonly kind: "form" }
  | { readonly kind: "ranking"; readonly ranking: Etalons }
  | { readonly kind: "refused"; readonly detail: string; readonly indice: string | undefined }

/** The meters' scale: a foal's F of 0.25 (a parent and its offspring, full siblings) fills it. */
const SCALE = 0.25


const percent = (x: number): string => `${(100 * x).toLocaleString("fr-FR", { maximumFractionDigits: 3 })} %`

const form = (pairs: Pairs): Html =>
  html`<form class="filters" method="get" action="${EXPLORER_MATINGS}">
<fieldset><legend>Jument</legend>
<label for="f-mere">Identifiant de la jument</label><input type="text" id="f-mere" name="mere" value="${valueOf(pairs, "mere")}" required>
</fieldset>
<fieldset><legend>Étalons</legend>
<label for="f-race">Race</label><input type="text" id="f-race" name="race" value="${valueOf(pairs, "race")}">
<label for="f-annee_min">Nés au plus tôt en</label><input type="number" id="f-annee_min" name="annee_min" value="${valueOf(pairs, "annee_min")}">
<label for="f-annee_max">Nés au plus tard en</label><input type="number" id="f-annee_max" name="annee_max" value="${valueOf(pairs, "annee_max")}">
<label for="f-coefficient_max">Coefficient au plus</label><input type="number" id="f-coefficient_max" name="coefficient_max" min="0" max="1" step="any" value="${
    valueOf(pairs, "coefficient_max")
  }" placeholder="0,0625">
</fieldset>
<button type="submit">Classer</button>
</form>`

const results = (pairs: Pairs, ranking: Etalons): Html => {
  const { total, offset } = ranking.pagination
  const nav = rankingPager(EXPLORER_MATINGS, pairs, ranking.pagination, ranking.donnees.length)
  const mere = ranking.mere
  return html`<p role="status"><strong>${frenchNumber(total)}</strong> étalon${total > 1 ? "s" : ""} classé${total > 1 ? "s" : ""} pour ${horseLink(mere.id, mere.nom)}${
    mere.race === "" ? "" : html` (${mere.race})`
  }.</p>
${total === 0 ? "" : html`${nav}<div class="table-wrap"><table>
<caption class="skip">Étalons par coefficient croissant</caption>
<thead><tr><th scope="col" class="num">Rang</th><th scope="col">Étalon</th><th scope="col">Race</th><th scope="col" class="num">Naissance</th><th scope="col">F du poulain</th><th scope="col" class="num">Parenté moyenne avec la race</th><th scope="col" class="num">Produits</th><th scope="col">Accouplement</th></tr></thead>
<tbody>
${ranking.donnees.map((d, i) =>
    html`<tr><td class="num">${frenchNumber(offset + i + 1)}</td><td>${horseLink(d.etalon.id, d.etalon.nom)}</td><td>${
      d.etalon.race === "" ? ABSENT : d.etalon.race
    }</td><td class="num">${d.etalon.annee_naissance ?? ABSENT}</td><td><meter min="0" max="${SCALE}" value="${Math.min(SCALE, d.coefficient)}" aria-label="F du poulain par ${
      nameOf(d.etalon.nom)
    }"></meter> ${percent(d.coefficient)}</td><td class="num">${d.parente_moyenne === null ? ABSENT : percent(d.parente_moyenne)}</td><td class="num">${
      frenchNumber(d.produits)
    }</td><td><a href="/v1/accouplements${queryString([["pere", d.etalon.id], ["mere", mere.id]])}">ancêtres communs</a></td></tr>`
  )}
</tbody>
</table></div>${nav}`}`
}

/** `pairs`: the page's own query, empty values dropped (the API request is `/v1/accouplements/etalons` with the same). */
export const etalonsPage = (meta: Meta, pairs: Pairs, outcome: MatingsOutcome): Html =>
  layout(meta, {
    title: "Choisir un étalon",
    json: `/v1/accouplements/etalons${queryString(pairs)}`,
    body: html`<h1>Choisir un étalon</h1>
<p>Chaque étalon retenu par les filtres, classé par le coefficient de consanguinité F du poulain qu'il donnerait avec la jument, sur toutes les
générations connues ; la jauge va de 0 à ${percent(SCALE)}. La parenté moyenne avec la population de référence de la race de la jument aide à
préférer les étalons qui gardent la race diverse. Définitions : <a href="/documentation#consanguinite">documentation</a>.</p>
<div class="list-layout">
<div>${form(pairs)}</div>
<div>${
      outcome.kind === "form"
        ? html`<p>Donner l'identifiant d'une jument, ou suivre « Choisir un étalon » depuis sa fiche.</p>`
        : outcome.kind === "refused"
        ? html`<div class="note" role="alert"><p><strong>Paramètre refusé.</strong> ${outcome.detail}</p>${
          outcome.indice === undefined ? "" : html`<p>${outcome.indice}</p>`
        }</div>`
        : results(pairs, outcome.ranking)
    }</div>
</div>`
  })
