/**
 * A reader that went away (`almanac check 2>&1 | head -1`) ends what we print, not the command: the
 * exit code stays the command's and no stack trace follows. Other stream errors still surface.
 */
export function ignoreClosedPipes(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (!isBrokenPipe(error)) throw error
    })
  }
}

/** A write to a pipe or socket nobody reads any more. */
export function isBrokenPipe(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED'
}
