/** A response's own part (status, headers, body), as the answer path shapes it: written by admission, the direct lane and the pipeline alike. */
export interface Own {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array | undefined
}
