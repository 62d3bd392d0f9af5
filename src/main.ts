#!/usr/bin/env bun
// perpd: the chain node. `perpd --help` lists the options (the table in src/config.ts).
//
// This entry only settles the runtime's memory settings first (node/memory-settings.ts), which can
// mean starting the process again, and then loads the program (perpd.ts). A restart after loading
// the program's modules would load all of them twice: about 0.25 s more per start.
import { applyMemorySettings } from './node/memory-settings.ts'

applyMemorySettings()
await import('./perpd.ts')
