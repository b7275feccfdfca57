/**
 * Entry point (`npm start`): serve until SIGINT/SIGTERM, then shut down gracefully and exit 0
 * (see `server.ts`). A start that fails (invalid configuration, unreadable file) exits non-zero.
 *
 * The modules' compiled code (TypeScript stripped) is kept on disk by Node's compile cache, so
 * that a restart does not compile them again (start target, design 5): loaded after it is on.
 */
import { enableCompileCache } from "node:module"

enableCompileCache()
const { runServer, ServerLive } = await import("./node/server.ts")
runServer(ServerLive)
