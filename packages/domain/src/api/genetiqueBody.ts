/**
 * The bodies of the `genetique` group as an execution computes them (on a query worker when the
 * server has some: a breed's first use runs an indirect pass over the whole pedigree, and f_a).
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { DatasetData } from "../dataset/DatasetData.ts"
import type { QueryResult } from "../query/errors.ts"
import { genetique, statsGenetique } from "../query/genetique.ts"
import { Genetique, StatsGenetique } from "../schemas/genetique.ts"
import type { genetiqueQuery } from "./queries.ts"
import { jsonEncoder } from "./json.ts"

export type GenetiqueQuery = Schema.Struct<typeof genetiqueQuery.fields>["Type"]

/** One request of the group: a horse (its row, resolved by the handler) or a breed's figures. */
export type GenetiqueRequest =
  | { readonly kind: "equide"; readonly row: number }
  | { readonly kind: "stats"; readonly query: GenetiqueQuery }

const genetiqueJson = jsonEncoder(Genetique)
const statsJson = jsonEncoder(StatsGenetique)

export const genetiqueBody = (data: DatasetData, request: GenetiqueRequest): QueryResult<Uint8Array> =>
  request.kind === "equide"
    ? Result.succeed(genetiqueJson(genetique(data, request.row)))
    : Result.map(statsGenetique(data, request.query), statsJson)
