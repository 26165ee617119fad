/**
 * A reader that went away (`almanac check 2>&1 | head -1`) ends what we print, not the command: the
 * exit code stays the command's and no stack trace follows. Other stream errors still surface.
 */
export function ignoreClosedPipes(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error
    })
  }
}
