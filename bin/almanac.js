#!/usr/bin/env node
// Thin entry: Node 20 cannot run TypeScript itself, so tsx loads the CLI.
import { register } from 'tsx/esm/api'
register()
await import('../src/cli/index.ts')
