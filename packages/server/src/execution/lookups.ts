/**
 * The lookups: one record, its pedigree, its direct offspring, and the list's unfiltered page.
 * Each is bounded work (a row's neighbours, a page) that runs on the main thread, and each is
 * defined here once: the HttpApi handlers answer with these, and so does the front door's direct
 * lane (`directLane.ts`), which must answer the same bytes.
 */
import {
  type DatasetData,
  descendance,
  emptyWriter,
  descendanceQuery,
  equide,
  findEquide,
  listQuery,
  pedigree,
  pedigreeQuery,
  writeEquideJson
} from "@equides/domain"
import { descendanceBody, pedigreeBody } from "@equides/domain/answers"
import type * as Schema from "effect/Schema"

type Decoded<F extends Schema.Struct.Fields> = Schema.Struct<F>["Type"]
export type PedigreeQuery = Decoded<typeof pedigreeQuery.fields>
export type DescendanceQuery = Decoded<typeof descendanceQuery.fields>
export type ListQuery = Decoded<typeof listQuery.fields>

/** What a lookup of an id gives: the value, or `undefined` for an unknown (or malformed) id. */
const ofId = <A>(data: DatasetData, id: string, f: (row: number) => A): A | undefined => {
  const row = findEquide(data, id)
  return row === undefined ? undefined : f(row)
}

export const recordOf = (data: DatasetData, id: string) => ofId(data, id, (row) => equide(data, row))

/**
 * The same record as its JSON body, written straight as bytes (`writeEquideJson`, the exports'
 * writer, property-tested equal to the schema's encoding): the direct lane's. Building the record
 * as an object, then its JSON text, then its bytes allocated some 12 KB a request on the server's
 * thread, a scavenge every 10 ms under a crawl.
 */
export const recordBodyOf = (data: DatasetData, id: string) =>
  ofId(data, id, (row) => {
    const w = emptyWriter()
    writeEquideJson(w, data, row)
    return w.take()
  })

export const pedigreeOf = (data: DatasetData, id: string, query: PedigreeQuery) =>
  ofId(data, id, (row) => pedigree(data, row, query.generations))

/** The same pedigree as its JSON body, written straight as bytes (`pedigreeBody`): the direct lane's. */
export const pedigreeBodyOf = (data: DatasetData, id: string, query: PedigreeQuery) =>
  ofId(data, id, (row) => pedigreeBody(data, row, query.generations))

export const descendanceOf = (data: DatasetData, id: string, query: DescendanceQuery) =>
  ofId(data, id, (row) => descendance(data, row, query.limite, query.offset))

/** The same page as its JSON body, written straight as bytes (`descendanceBody`): the direct lane's. */
export const descendanceBodyOf = (data: DatasetData, id: string, query: DescendanceQuery) =>
  ofId(data, id, (row) => descendanceBody(data, row, query.limite, query.offset))
