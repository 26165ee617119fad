// Run by scripts/code-cache.mjs: runs the bundle named first as the CLI with the arguments after it, and writes
// the bundle's code cache as the process exits.
import { runBundle } from '../bin/bundle.js'

const [bundle] = process.argv.splice(2, 1)
runBundle(bundle, { writeCache: true })
