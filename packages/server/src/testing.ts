/**
 * Test fixtures of the server: a small family of records (a sire with offspring over three
 * generations, a dangling dam, a record without birth year, trotters) and an id maker.
 * Not exported by the package.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { type Dataset, encodeId, type SourceRecord } from "@equides/domain"
import { Effect, Layer } from "effect"
import { HttpClient, HttpClientRequest, HttpRouter } from "effect/http"
import { AppLive, ROUTER_CONFIG } from "./App.ts"

/** A canonical id made from a small number (distinct numbers give distinct ids). */
export const idN = (n: number): string => {
  const bytes = new Uint8Array(16)
  bytes[0] = n & 0xff
  bytes[1] = (n >>> 8) & 0xff
  bytes[15] = 0x3c
  return encodeId(bytes, 0)
}

export const SIRE = idN(1)
export const DAM = idN(2)
export const SON = idN(3)
export const GELDING = idN(4)
export const DAUGHTER = idN(5)
export const GRANDSON = idN(6)
export const TROTTER = idN(7)
export const MARE = idN(8)
/** Referenced as a dam, absent from the records: a dangling link. */
export const ABSENT = idN(99)

const isoIndex = { code: "ISO", valeur: "+150", coefficient: 0.9, annee: 1988, appreciation: "indice-excellent" }

export const FAMILY: ReadonlyArray<SourceRecord> = [
  {
    id: SIRE, nom: "JAPPELOUP DE LUZE", slug: "jappeloup-de-luze", race: "Selle Francais", sexe: "Male", robe: "Bai",
    annee_naissance: 1975, statut_reproducteur: "Etalon Actif",
    performances: [{ discipline: "SAUT D'OBSTACLES", texte: "ISO +150 (0.9)", indices: [isoIndex] }]
  },
  { id: DAM, nom: "VENISE", race: "Selle Francais", sexe: "Femelle", robe: "Alezan", annee_naissance: 1978, statut_reproducteur: "Pouliniere" },
  {
    id: SON, nom: "QUAPRICE BOIMARGOT", race: "Selle Francais", sexe: "Male", robe: "Bai", annee_naissance: 2000,
    filiation_texte: "Par JAPPELOUP DE LUZE et VENISE",
    pere: { id: SIRE, nom: "JAPPELOUP DE LUZE", race: "SF" }, mere: { id: DAM, nom: "VENISE", race: "SF" }
  },
  {
    id: GELDING, nom: "JAPPELOUP II", race: "Selle Francais", sexe: "Hongre", robe: "Gris", annee_naissance: 2002,
    pere: { id: SIRE, nom: "JAPPELOUP DE LUZE", race: "SF" }, mere: { id: ABSENT, nom: "DISPARUE", race: "SF" }
  },
  { id: DAUGHTER, nom: "ÉCLAIR DU BOIS", race: "Selle Francais", sexe: "Femelle", pere: { id: SIRE, nom: "JAPPELOUP DE LUZE", race: "SF" } },
  {
    id: GRANDSON, nom: "ROCK AND ROLL", race: "Selle Francais", sexe: "Male", robe: "Bai", annee_naissance: 2010,
    pere: { id: SON, nom: "QUAPRICE BOIMARGOT", race: "SF" }
  },
  {
    id: TROTTER, nom: "BOLD EAGLE", race: "Trotteur Francais", sexe: "Male", robe: "Bai", annee_naissance: 2011,
    performances: [{ discipline: "TROT COURSE", texte: "BTR +59 (0.35)", indices: [{ code: "BTR", valeur: "+59", coefficient: 0.35, annee: 2024 }] }]
  },
  { id: MARE, nom: "ÉCLIPSE", race: "Trotteur Francais", sexe: "Femelle", robe: "Noir", annee_naissance: 2011 }
]

// -----------------------------------------------------------------------------
// A test server over a given Dataset, and raw HTTP calls against it.

/** The application on a real Node server (port 0), and an `HttpClient` aimed at it. */
export const testServer = <E>(dataset: Layer.Layer<Dataset, E>) =>
  HttpRouter.serve(AppLive, { disableLogger: true, disableListenLog: true, routerConfig: ROUTER_CONFIG }).pipe(
    Layer.provide(dataset),
    Layer.provideMerge(NodeHttpServer.layerTest)
  )

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: any
}

/** One request (GET unless told), answered whatever its status. */
export const call = (path: string, options: { readonly method?: "GET" | "HEAD" | "POST" | "DELETE" | "PUT" | "OPTIONS"; readonly headers?: Record<string, string> } = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const request = HttpClientRequest.make(options.method ?? "GET")(path).pipe(HttpClientRequest.setHeaders(options.headers ?? {}))
    const response = yield* client.execute(request)
    const text = yield* response.text
    let json: any
    try {
      json = text === "" ? undefined : JSON.parse(text)
    } catch {
      json = undefined
    }
    const reply: Reply = { status: response.status, headers: response.headers as Record<string, string>, text, json }
    return reply
  }).pipe(Effect.orDie)
