/**
 * The home page (`/explorer/`, and `/` for a browser): the search box, what the data is, where to
 * go next. The search box is an ARIA combobox fed by `/v1/search` (`static/explorer.js`); without
 * script the form submits to the list filtered by name. The same combobox picks the mare of the
 * stallions' ranking (`etalonsPage.ts`), suggesting mares only.
 */
import { REFERENTIEL_DIMENSIONS, type Meta, type Sexe } from "@equides/domain"
import { type Html, html } from "./html.ts"
import { frenchDate, frenchNumber, layout } from "./layout.ts"
import { EXPLORER_LIST, EXPLORER_STATS } from "./paths.ts"

/** A horse-name combobox: what its input is and what choosing a suggestion does. */
export interface ComboboxSpec {
  /** The input's id; its list, help and status take it as prefix. */
  readonly id: string
  readonly label: string
  readonly help: string
  /** The input's name, when its form submits the typed text (the home: `nom`). */
  readonly name?: string
  /** Choosing a suggestion writes its id into the field of this id; without it, opens its record. */
  readonly fill?: string
  /** Beside the input (the home's submit button). */
  readonly button?: Html
  /** The text the input starts with (the name of the horse already chosen). */
  readonly value?: string | undefined
  /** Suggests horses of this sex only (`/v1/search`'s `sexe`: the mare of the stallions' ranking, `Femelle`). */
  readonly sexe?: Sexe
}

/**
 * The ARIA 1.2 combobox fed by `/v1/search` (`static/explorer.js`: one per page), to be placed in
 * an element of class `search` (its list is positioned there); the page loads the script.
 */
export const horseCombobox = (c: ComboboxSpec): Html =>
  html`<label for="${c.id}">${c.label}</label>
<div class="row">
<input id="${c.id}"${c.name === undefined ? "" : html` name="${c.name}" required`}${
    c.value === undefined ? "" : html` value="${c.value}"`
  } type="text" autocomplete="off" spellcheck="false"
 role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="${c.id}-suggestions"
 aria-describedby="${c.id}-aide" data-suggest data-status="${c.id}-statut" ${
    c.fill === undefined ? html`data-record="/explorer/equides/"` : html`data-fill="${c.fill}"`
  }${c.sexe === undefined ? "" : html` data-sexe="${c.sexe}"`}>
${c.button ?? ""}
</div>
<ul id="${c.id}-suggestions" role="listbox" aria-label="Suggestions" hidden></ul>
<p id="${c.id}-aide" class="muted">${c.help}</p>
<p id="${c.id}-statut" class="skip" role="status" aria-live="polite"></p>`

export const searchBox = (): Html =>
  html`<form class="search" role="search" action="${EXPLORER_LIST}" method="get">
${
    horseCombobox({
      id: "recherche",
      label: "Nom d'un équidé",
      name: "nom",
      help: "Tapez le début d'un nom : les flèches parcourent les suggestions, Entrée ouvre la fiche, Échap ferme la liste.",
      button: html`<button type="submit">Rechercher</button>`
    })
  }
</form>`

export const homePage = (meta: Meta): Html => {
  const data = meta.jeu_de_donnees
  return layout(meta, {
    title: "Explorer le registre",
    json: "/v1/meta",
    script: true,
    body: html`<div class="narrow">
<h1>Explorer le registre des équidés</h1>
<p>Fiches publiques du registre français des équidés : identité, race, robe, naissance, filiation et indices de performance.</p>
${searchBox()}
<h2>Le jeu de données</h2>
<dl class="fields">
<dt>Fiches</dt><dd>${frenchNumber(data.lignes ?? 0)}</dd>
<dt>Extraction du</dt><dd>${frenchDate(data.ingere_le)}</dd>
<dt>Source</dt><dd>${data.source ?? ""}</dd>
<dt>Licence</dt><dd>${data.licence ?? ""}</dd>
</dl>
<h2>Aller plus loin</h2>
<ul>
<li><a href="${EXPLORER_LIST}">Liste et filtres</a> : race, sexe, robe, années, performances, avec leurs comptages</li>
<li><a href="${EXPLORER_STATS}">Statistiques</a> : chiffres globaux et répartitions</li>
<li>Listes de référence (JSON) : ${REFERENTIEL_DIMENSIONS.map((d, i) => html`${i > 0 ? ", " : ""}<a href="/v1/referentiels/${d}">${d}</a>`)}</li>
<li><a href="/documentation">Documentation de l'API</a> et sa <a href="/openapi.json">description OpenAPI</a> ; les programmes reçoivent à l'adresse <code>/</code> un document JSON de découverte.</li>
</ul>
</div>`
  })
}
