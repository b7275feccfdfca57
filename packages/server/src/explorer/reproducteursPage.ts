/**
 * Parents ranked by their offspring's index (`/explorer/reproducteurs?code=ISO…`): the parameters
 * of `GET /v1/stats/reproducteurs` as a GET form, then the ranking with its pagination. Without a
 * code the form alone is shown: the page is where one chooses it.
 */
import type { Meta, Reproducteurs } from "@equides/domain"
import { type Html, html } from "./html.ts"
import { frenchNumber, layout } from "./layout.ts"
import { ABSENT, horseLink, rankingPager } from "./links.ts"
import { EXPLORER_SIRES, type Pairs, queryString, valueOf } from "./paths.ts"

export type SiresOutcome =
  | { readonly kind: "form" }
  | { readonly kind: "ranking"; readonly ranking: Reproducteurs }
  | { readonly kind: "refused"; readonly detail: string; readonly indice: string | undefined }


export const decimal = (n: number): string => n.toLocaleString("fr-FR", { maximumFractionDigits: 2 })

const form = (pairs: Pairs, codes: ReadonlyArray<string>): Html => {
  const code = valueOf(pairs, "code")
  const sexe = valueOf(pairs, "sexe") || "Male"
  const option = (value: string, label: string, selected: boolean): Html =>
    html`<option value="${value}"${selected ? html` selected` : ""}>${label}</option>`
  return html`<form class="filters" method="get" action="${EXPLORER_SIRES}">
<fieldset><legend>Classement</legend>
<label for="f-code">Code d'indice</label>
<select id="f-code" name="code">${option("", "— choisir —", code === "")}${codes.map((c) => option(c, c, c.toLowerCase() === code.toLowerCase()))}</select>
<label for="f-sexe">Reproducteurs</label>
<select id="f-sexe" name="sexe">${option("Male", "pères", sexe === "Male")}${option("Femelle", "mères", sexe === "Femelle")}</select>
<label for="f-race">Race du reproducteur</label><input type="text" id="f-race" name="race" value="${valueOf(pairs, "race")}">
<label for="f-produits_min">Produits au moins</label><input type="number" id="f-produits_min" name="produits_min" min="1" max="1000" value="${
    valueOf(pairs, "produits_min")
  }" placeholder="5">
</fieldset>
<fieldset><legend>Produits nés</legend>
<label for="f-annee_min">au plus tôt en</label><input type="number" id="f-annee_min" name="annee_min" value="${valueOf(pairs, "annee_min")}">
<label for="f-annee_max">au plus tard en</label><input type="number" id="f-annee_max" name="annee_max" value="${valueOf(pairs, "annee_max")}">
</fieldset>
<button type="submit">Classer</button>
</form>`
}

const results = (pairs: Pairs, ranking: Reproducteurs): Html => {
  const { total, offset } = ranking.pagination
  const nav = rankingPager(EXPLORER_SIRES, pairs, ranking.pagination, ranking.donnees.length)
  return html`<p role="status"><strong>${frenchNumber(total)}</strong> reproducteur${total > 1 ? "s" : ""} classé${total > 1 ? "s" : ""} pour l'indice ${ranking.code}.</p>
${total === 0 ? "" : html`${nav}<div class="table-wrap"><table>
<caption class="skip">Classement</caption>
<thead><tr><th scope="col" class="num">Rang</th><th scope="col">Reproducteur</th><th scope="col">Race</th><th scope="col" class="num">Naissance</th><th scope="col" class="num">Produits</th><th scope="col" class="num">Moyenne</th><th scope="col" class="num">Médiane</th><th scope="col" class="num">Maximum</th></tr></thead>
<tbody>
${ranking.donnees.map((r, i) =>
    html`<tr><td class="num">${frenchNumber(offset + i + 1)}</td><td>${horseLink(r.parent.id, r.parent.nom)}</td><td>${
      r.parent.race === "" ? ABSENT : r.parent.race
    }</td><td class="num">${r.parent.annee_naissance ?? ABSENT}</td><td class="num">${frenchNumber(r.produits)}</td><td class="num">${
      decimal(r.moyenne)
    }</td><td class="num">${decimal(r.mediane)}</td><td class="num">${decimal(r.maximum)}</td></tr>`
  )}
</tbody>
</table></div>${nav}`}`
}

/** `pairs`: the page's own query, empty values dropped (the API request is `/v1/stats/reproducteurs` with the same). */
export const reproducteursPage = (meta: Meta, pairs: Pairs, outcome: SiresOutcome, codes: ReadonlyArray<string>): Html =>
  layout(meta, {
    title: "Reproducteurs classés par leurs produits",
    json: `/v1/stats/reproducteurs${queryString(pairs)}`,
    body: html`<h1>Reproducteurs classés par leurs produits</h1>
<p>Pères (ou mères) ayant au moins le nombre de produits demandé avec une valeur de l'indice choisi, par moyenne décroissante de ces valeurs.
La valeur d'un produit est son indice le plus récent de ce code.</p>
<div class="list-layout">
<div>${form(pairs, codes)}</div>
<div>${
      outcome.kind === "form"
        ? html`<p>Choisir un code d'indice pour afficher le classement.</p>`
        : outcome.kind === "refused"
        ? html`<div class="note" role="alert"><p><strong>Paramètre refusé.</strong> ${outcome.detail}</p>${
          outcome.indice === undefined ? "" : html`<p>${outcome.indice}</p>`
        }</div>`
        : results(pairs, outcome.ranking)
    }</div>
</div>`
  })
