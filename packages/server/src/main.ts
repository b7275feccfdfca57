/**
 * Entry point (`npm start`): serve until SIGINT/SIGTERM, then shut down gracefully and exit 0
 * (see `server.ts`). A start that fails (invalid configuration, unreadable file) exits non-zero.
 * A process started without the server's V8 flags and allocator settings first replaces itself
 * with one started with them (`processSettings.ts`), or, when it cannot, logs a warning; then
 * Node's `nextTick` is given its shapes before anything else runs (`warmTicks.ts`).
 *
 * The modules' compiled code (TypeScript stripped) is kept on disk by Node's compile cache, so
 * that a restart does not compile them again (start target, design 5): loaded after it is on.
 */
import { enableCompileCache } from "node:module"
import { ensureProcessSettings } from "./node/processSettings.ts"
import { warmTicks } from "./node/warmTicks.ts"

const unsettled = ensureProcessSettings()
warmTicks()
enableCompileCache()
const { runServer, ServerLive } = await import("./node/server.ts")
if (unsettled !== undefined) {
  const Effect = await import("effect/Effect")
  Effect.runSync(Effect.logWarning(unsettled))
}
runServer(ServerLive)
