/** Handlers of the `consanguinite` group: a horse's inbreeding coefficient and a planned mating's. */
import { accouplement, Api, consanguinite, Dataset, findEquide, Introuvable, ParametreInvalide } from "@equides/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { equideRow } from "./query.ts"

/** A parent of a planned mating that matches no record: the 404 names the parameter. */
const parentNotFound = (parametres: ReadonlyArray<"pere" | "mere">) =>
  new Introuvable({
    detail: parametres.length === 2
      ? "Aucun équidé ne porte l'identifiant donné pour pere, ni celui donné pour mere, dans le jeu de données servi."
      : `Aucun équidé ne porte l'identifiant donné pour ${parametres[0]} dans le jeu de données servi.`,
    parametre: parametres[0]
  })

const sameParent = new ParametreInvalide({
  detail: "pere et mere désignent le même équidé : un accouplement joint deux individus distincts.",
  parametre: "mere",
  indice: "Donner pour mere un autre identifiant que pour pere."
})

export const ConsanguiniteHandlers = HttpApiBuilder.group(
  Api,
  "consanguinite",
  Effect.fnUntraced(function*(handlers) {
    const data = yield* Dataset
    return handlers.handleAll({
      equide: ({ params, query }) => Effect.map(equideRow(data, params.id), (row) => consanguinite(data, row, query.generations)),
      accouplement: ({ query }) => {
        const pere = findEquide(data, query.pere)
        const mere = findEquide(data, query.mere)
        if (pere === undefined || mere === undefined) {
          return Effect.fail(parentNotFound(pere === undefined ? (mere === undefined ? ["pere", "mere"] : ["pere"]) : ["mere"]))
        }
        if (pere === mere) return Effect.fail(sameParent)
        return Effect.succeed(accouplement(data, pere, mere, query.generations))
      }
    })
  })
)
