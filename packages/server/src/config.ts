/**
 * Server configuration, read from the environment through `Config` (design 4). An invalid value
 * stops the start with a message naming the variable.
 */
import { SAMPLE_FILE } from "@equides/ingest"
import { Config, Option } from "effect"

export interface ServerConfig {
  readonly port: number
  readonly host: string
  /** The extract to serve: `DATA_FILE`, or the embedded sample when unset. */
  readonly dataFile: string
}

export const serverConfig: Config.Config<ServerConfig> = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(8080)),
  host: Config.NonEmptyString("HOST").pipe(Config.withDefault("0.0.0.0")),
  dataFile: Config.option(Config.NonEmptyString("DATA_FILE"))
}).pipe(Config.map(({ dataFile, host, port }) => ({ port, host, dataFile: Option.getOrElse(dataFile, () => SAMPLE_FILE) })))
