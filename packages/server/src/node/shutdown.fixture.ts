/**
 * The production server with slow `stats` handlers (`SLOW_MS`, real time): the program the
 * shutdown test starts as a child process, to have a request in flight when the signal comes.
 * It writes `stats handler started` on stdout as each slow handler starts: the test signals then,
 * not after a guess of how long the request takes to arrive.
 */
import { makeServerLive, runServer } from "./server.ts"
import { instrumentedStats, makeProbe } from "../testing/instrumented.ts"

const probe = makeProbe()
let started = 0
Object.defineProperty(probe, "started", {
  get: () => started,
  set: (value: number) => {
    started = value
    process.stdout.write("stats handler started\n")
  }
})

runServer(makeServerLive(instrumentedStats(probe, Number(process.env["SLOW_MS"] ?? 1500))))
