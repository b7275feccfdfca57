/** Test helpers of the domain (`@equides/domain/testing`): ids and record arbitraries. Not imported by production code. */
export * from "./arbitraries.ts"
export * from "./ids.ts"
