/** A query worker that dies (its thread exits) on the suggestion `q=crash`, and answers the rest. */
import { serveQueries } from "./serveQueries.ts"
import { perform } from "./work.ts"

serveQueries((data, work) => {
  if ("endpoint" in work && work.endpoint === "suggest" && work.query.q === "crash") process.exit(3)
  return perform(data, work)
})
