/**
 * The frame of every explorer page: `<html lang="fr">`, a title, the site's navigation, the link
 * to the JSON the page shows, and a footer citing source, date and licence (spec: a reuse cites
 * `source` and `ingere_le`). Styles and scripts are files (`assets.ts`): no inline code, so the
 * pages hold under `Content-Security-Policy: default-src 'self'`.
 */
import type { Meta } from "@equides/domain"
import { assetUrl, SCRIPT, STYLESHEET } from "./assets.ts"
import { type Html, html } from "./html.ts"
import { EXPLORER_GENETICS, EXPLORER_HOME, EXPLORER_LIST, EXPLORER_SIRES, EXPLORER_STATS } from "./paths.ts"

export interface PageSpec {
  /** The page's subject: the title reads "<title> — Équidés". */
  readonly title: string
  /** The API request whose answer the page shows. */
  readonly json: string
  readonly body: Html
  /** Pages with the search box load its script. */
  readonly script?: boolean
}

const SITE = "Équidés"

/** `2026-11-20T09:00:00.000Z` → `20 novembre 2026` (the extract's date, in UTC). */
export const frenchDate = (iso: string | undefined): string => {
  const date = iso === undefined ? Number.NaN : Date.parse(iso)
  return Number.isNaN(date) ? "date inconnue" : new Date(date).toLocaleDateString("fr-FR", { dateStyle: "long", timeZone: "UTC" })
}

/** A count in French (`4 450 000`). */
export const frenchNumber = (n: number): string => n.toLocaleString("fr-FR")

export const footer = (meta: Meta): Html => {
  const data = meta.jeu_de_donnees
  return html`<footer>
<p>Source : ${data.source ?? ""} — extraction du ${frenchDate(data.ingere_le)}. Licence : ${data.licence ?? ""}.</p>
<p>Service indépendant du registre : seules les fiches en ligne du registre font foi. <a href="/v1/meta">Provenance et qualité des données</a>.</p>
</footer>`
}

export const layout = (meta: Meta, spec: PageSpec): Html =>
  html`<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${spec.title} — ${SITE}</title>
<link rel="stylesheet" href="${assetUrl(STYLESHEET)}">
<link rel="icon" href="/favicon.ico">
${spec.script === true ? html`<script src="${assetUrl(SCRIPT)}" defer></script>` : ""}
</head>
<body>
<a class="skip" href="#contenu">Aller au contenu</a>
<header class="site">
<nav aria-label="Site">
<a class="brand" href="${EXPLORER_HOME}">${SITE}</a>
<a href="${EXPLORER_LIST}">Liste et filtres</a>
<a href="${EXPLORER_STATS}">Statistiques</a>
<a href="${EXPLORER_SIRES}">Reproducteurs</a>
<a href="${EXPLORER_GENETICS}">Génétique</a>
<a href="/documentation">Documentation de l'API</a>
</nav>
</header>
<main id="contenu">
${spec.body}
<p class="json">Données de cette page : <a href="${spec.json}">JSON</a> (<code>GET ${spec.json}</code>)</p>
</main>
${footer(meta)}
</body>
</html>
`
