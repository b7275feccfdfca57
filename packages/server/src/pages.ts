/**
 * The documentation page (`/documentation`), with one anchored section per problem type (the
 * targets of problems' `type`). The headers of every HTML page are `responseHeaders.ts`'s.
 */
import { DEFINITIONS_CONSANGUINITE, DEFINITIONS_GENETIQUE, ENDPOINTS, GABARITS_URL, NOM_SERVICE, PROBLEM_TYPES } from "@equides/domain"
import { assetUrl, STYLESHEET } from "./explorer/assets.ts"
import { escapeHtml as escape } from "./explorer/html.ts"

export { escape }

const page = (title: string, body: string): string =>
  `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<link rel="stylesheet" href="${assetUrl(STYLESHEET)}">
<link rel="icon" href="/favicon.ico">
</head>
<body>
<main class="doc narrow">
${body}
</main>
</body>
</html>
`

const routes = Object.entries(ENDPOINTS)
  .map(([use, path]) => `<tr><td>${escape(use)}</td><td><code>GET ${escape(path)}</code></td></tr>`)
  .join("\n")

const templates = Object.entries(GABARITS_URL)
  .map(([use, template]) => `<tr><td>${escape(use)}</td><td><code>${escape(template)}</code></td></tr>`)
  .join("\n")

const definitionList = (definitions: ReadonlyArray<readonly [string, string]>): string =>
  definitions.map(([term, definition]) =>
    `<dt>${escape(term)}</dt>
<dd>${escape(definition)}</dd>`
  ).join("\n")

const consanguinityDefinitions = definitionList(DEFINITIONS_CONSANGUINITE)
const geneticsDefinitions = definitionList(DEFINITIONS_GENETIQUE)

const problemSections = PROBLEM_TYPES.map((problem) =>
  `<section id="${problem.anchor}">
<h3>${escape(problem.title)}</h3>
<p><code>type</code> : <code>/documentation#${problem.anchor}</code> — statut ${problem.statuses.join(", ")}</p>
<p>${escape(problem.explanation)}</p>
</section>`
).join("\n")

/** `/documentation`, with `examples`: the HTML of the example requests and answers (may be empty). */
export const documentationPage = (examples: string): string => page(
  `${NOM_SERVICE} — documentation`,
  `<h1>${escape(NOM_SERVICE)} — documentation</h1>
<p>API JSON publique, en lecture seule, sans authentification, sur une extraction datée des fiches publiques du registre
français des équidés. Le service est indépendant du registre : seules les fiches en ligne du registre font foi. Toute
réutilisation cite la source et la date de mise à jour (<code>source</code> et <code>ingere_le</code> de <code>/v1/meta</code>).</p>

<h2 id="guide">Guide</h2>
<ul>
<li>Toutes les routes répondent à <code>GET</code> et <code>HEAD</code>, en <code>application/json; charset=utf-8</code>.
La description complète est <a href="/openapi.json"><code>/openapi.json</code></a> (OpenAPI 3.1).</li>
<li><code>GET /</code> publie les routes et les gabarits d'URL : un client qui ne connaît que cette URL construit toutes les autres.
Les réponses ne répètent pas les liens qui se déduisent d'un identifiant.</li>
<li>Un identifiant d'équidé fait 22 caractères base64url : le même que dans l'URL de la fiche publique du registre.</li>
<li>Tout paramètre de requête non prévu pour une route est refusé (400), jamais ignoré.</li>
<li>Filtres de <code>/v1/equides</code> et <code>/v1/stats/repartition</code> : les valeurs d'un même filtre se combinent par OU
(<code>?race=A&amp;race=B</code> ou <code>?race=A,B</code>), les filtres différents par ET ; les valeurs admises sont
celles des référentiels <code>/v1/referentiels/{dimension}</code>, sans égard à la casse ni aux accents.</li>
<li>Pagination de la liste : <code>limite</code> de 1 à 100 (20 par défaut), <code>offset</code> jusqu'à 10000 ; les liens
<code>suivant</code> et <code>precedent</code> conservent les filtres. Sur la descendance, la recherche et la répartition,
une <code>limite</code> hors bornes est ramenée à la borne.</li>
<li>Les réponses peuvent être mises en cache ; une requête portant <code>If-None-Match</code> égal à l'ETag courant reçoit 304.</li>
<li>Limites : quota par adresse (429 au-delà, avec <code>Retry-After</code>), requêtes simultanées (503 avec <code>Retry-After</code>).</li>
</ul>

<h2 id="routes">Routes</h2>
<table>
${routes}
</table>
<p>Référence interactive (essai des requêtes depuis le navigateur) : <a href="/documentation/reference"><code>/documentation/reference</code></a>.</p>
${examples}
<h2 id="gabarits">Gabarits d'URL</h2>
<table>
${templates}
</table>

<h2 id="consanguinite">Consanguinité : définitions</h2>
<p><code>GET /v1/equides/{id}/consanguinite?generations=N</code> donne le coefficient de consanguinité d'un équidé et ses
ancêtres communs ; <code>GET /v1/accouplements?pere=ID&amp;mere=ID&amp;generations=N</code> celui du poulain d'un accouplement envisagé ;
<code>GET /v1/accouplements/etalons?mere=ID&amp;race=…&amp;coefficient_max=…</code> classe tous les étalons retenus par les filtres de la liste
pour une jument, par le F de leur poulain sur toutes les générations connues.</p>
<dl>
${consanguinityDefinitions}
</dl>

<h2 id="genetique">Génétique du registre : définitions</h2>
<p><code>GET /v1/equides/{id}/genetique</code> donne la consanguinité d'un équidé sur toutes ses générations connues, ses générations
et sa parenté moyenne avec la population de référence de sa race ; <code>GET /v1/stats/genetique?race=&amp;annee_min=&amp;annee_max=</code>
la consanguinité d'une race par année de naissance, ses fondateurs et ancêtres efficaces.</p>
<dl>
${geneticsDefinitions}
</dl>

<h2 id="descendance-statistiques">Produits et reproducteurs : définitions</h2>
<p><code>GET /v1/equides/{id}/descendance/statistiques</code> décrit les produits d'un équidé (fiches l'ayant pour père ou pour
mère) ; <code>GET /v1/stats/reproducteurs?code=ISO</code> classe les pères (<code>sexe=Male</code>, par défaut) ou les mères
(<code>sexe=Femelle</code>) par les valeurs de leurs produits pour un code d'indice.</p>
<dl>
<dt>Valeur d'un produit pour un code</dt><dd>Celle de son indice de ce code dont l'<code>annee</code> est la plus récente (un
indice sans année compte pour plus ancien ; à égalité, le premier cité), lue comme un décimal signé (<code>+6</code>,
<code>88</code>, <code>-3.5</code>) ; une valeur illisible écarte le produit de ce code.</dd>
<dt>Moyenne, médiane</dt><dd>Arrondies au centième ; la médiane d'un nombre pair de valeurs est la moyenne des deux du milieu.</dd>
<dt>Meilleurs produits</dt><dd>Les cinq plus grandes valeurs, puis par nom (sans casse ni accents), puis par identifiant.</dd>
<dt>Classement</dt><dd>Moyenne décroissante, puis nombre de produits décroissant, puis nom, puis identifiant ; seuls comptent les
produits nés entre <code>annee_min</code> et <code>annee_max</code> quand ces bornes sont données (les produits sans année sont
alors écartés), et il en faut au moins <code>produits_min</code> (5 par défaut).</dd>
</dl>

<h2 id="exports">Exports : une sélection entière en un fichier</h2>
<p><code>GET /v1/export/equides?format=ndjson|csv&amp;&lt;filtres de la liste&gt;</code> envoie toutes les fiches de la sélection,
dans l'ordre du fichier, sans limite de profondeur, en flux (<code>Content-Disposition: attachment</code>, fichier nommé
<code>equides-&lt;12 premiers chiffres hexadécimaux de l'empreinte&gt;.ndjson</code> ou <code>.csv</code>). Mêmes filtres que
<code>/v1/equides</code>, sans <code>tri</code>, <code>vue</code>, <code>limite</code> ni <code>offset</code> (refusés, 400).</p>
<dl>
<dt><code>ndjson</code> (par défaut)</dt><dd><code>application/x-ndjson; charset=utf-8</code> : une fiche <code>Equide</code> par ligne,
octet pour octet la réponse de <code>GET /v1/equides/{id}</code>.</dd>
<dt><code>csv</code></dt><dd><code>text/csv; charset=utf-8; header=present</code>, RFC 4180, fins de ligne CRLF. Colonnes :
<code>id, nom, slug, url, race, sexe, nombre_de_descendants, annee_naissance, robe, filiation_texte</code>, puis pour
<code>pere</code>, <code>mere</code> et <code>pere_de_mere</code> : <code>_id, _nom, _race, _fiche_disponible</code>, puis
<code>performances</code> (le tableau JSON en une cellule). Valeur absente : cellule vide ; booléens <code>true</code>/<code>false</code>.</dd>
<dt>Quota</dt><dd>L'export coûte 1 unité au départ, puis 1 unité par 16 Kio de corps, prélevée au fil de l'envoi. Quand le quota
de l'adresse est épuisé, le flux attend la recharge au lieu d'échouer : le téléchargement ralentit au débit de recharge, il n'est
jamais coupé. Les en-têtes <code>RateLimit</code> décrivent l'état au départ.</dd>
<dt>Limites</dt><dd>Un petit nombre d'exports à la fois (503 avec <code>Retry-After</code> au-delà) ; compression
<code>br</code>/<code>gzip</code>/<code>deflate</code> selon <code>Accept-Encoding</code>, ETag et 304 comme toute route.</dd>
</dl>
<pre><code>curl -sOJ --compressed "$API/v1/export/equides?format=csv&amp;race=Selle%20Fran%C3%A7ais&amp;sexe=Femelle&amp;annee_min=2000"</code></pre>
<p><code>GET /v1/export/equides.parquet</code> donne l'extraction entière en un fichier Parquet (<code>application/vnd.apache.parquet</code>,
nommé d'après l'empreinte du jeu de données) : les colonnes de l'export CSV, typées (entiers <code>INT32</code>, booléens,
textes UTF-8, valeurs absentes nulles), <code>performances</code> en colonne JSON, compression zstd. Il est écrit une fois
par jeu de données, au démarrage du service (ou à la première demande, qui attend alors son écriture), puis servi depuis le disque avec ETag, 304 et
<code>Range</code> (206) : un téléchargement interrompu reprend (<code>curl -C -</code>). Le quota est prélevé de la même façon.</p>
<pre><code>curl -sOJ "$API/v1/export/equides.parquet"</code></pre>
<p>Lire les fichiers :</p>
<pre><code>-- DuckDB
SELECT race, count(*) FROM 'equides-….parquet' GROUP BY race ORDER BY 2 DESC;
SELECT nom, annee_naissance FROM 'equides-….parquet' WHERE pere_nom = 'QUIDAM DE REVEL';
SELECT race, count(*) FROM read_csv('equides-….csv') GROUP BY race;
SELECT nom, pere.nom FROM read_json('equides-….ndjson', format = 'newline_delimited');

# pandas (pyarrow)
import pandas as pd
df = pd.read_parquet("equides-….parquet", columns=["id", "nom", "race", "annee_naissance"])
csv = pd.read_csv("equides-….csv", dtype=str, keep_default_na=False)
fiches = pd.read_json("equides-….ndjson", lines=True)

# R
library(arrow); df &lt;- read_parquet("equides-….parquet", col_select = c("id", "nom", "race", "annee_naissance"))
library(readr); csv &lt;- read_csv("equides-….csv", col_types = cols(.default = "c"))
library(jsonlite); fiches &lt;- stream_in(file("equides-….ndjson"))</code></pre>

<h2 id="erreurs">Erreurs</h2>
<p>Les erreurs suivent la RFC 9457 (<code>application/problem+json</code>) : <code>type</code> (relatif, vers une section
ci-dessous), <code>title</code> (stable pour un type), <code>status</code>, <code>detail</code> et, selon le cas,
<code>parametre</code> (le paramètre en faute), <code>indice</code> (nom de paramètre le plus proche, valeurs admises,
référentiel à consulter) et <code>documentation</code>.</p>
${problemSections}`
)
