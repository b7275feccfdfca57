/**
 * The requests whose execution leaves the server's thread (issue 24, item 4), one or more per route
 * family, valid (or refused) over `FAMILY`; `offThread.golden.json` holds what each answered before
 * the move, when the server's thread made them: status, content type and body.
 */
import { idN } from "@equides/domain/testing"
import { DAUGHTER, GRANDSON, SIRE, SON } from "../testing/family.ts"

export const OFF_THREAD_URLS: ReadonlyArray<string> = [
  `/v1/equides/${SON}/consanguinite`,
  `/v1/equides/${GRANDSON}/consanguinite?generations=12`,
  `/v1/accouplements?pere=${SON}&mere=${DAUGHTER}`,
  `/v1/accouplements?pere=${GRANDSON}&mere=${DAUGHTER}&generations=3`,
  "/v1/stats",
  "/v1/stats/repartition?dimension=race",
  "/explorer/equides",
  "/explorer/equides?race=selle%20francais&sexe=Male&tri=-annee",
  "/explorer/equides?annee_min=deux",
  `/explorer/equides/${SON}`,
  `/explorer/equides/${SON}/pedigree?generations=3`,
  `/explorer/equides/${SIRE}/pedigree?generations=99`,
  `/explorer/equides/${SIRE}/descendance?limite=2`,
  `/explorer/equides/${idN(77)}/descendance`,
  "/explorer/stats"
]
