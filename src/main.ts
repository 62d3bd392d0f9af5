#!/usr/bin/env bun
// perpd: the chain node. `perpd --help` lists the options (the table in src/config.ts).
//
// This entry only settles the memory allocator's settings first (node/allocator-tuning.ts), which
// can mean starting the process again, and then loads the program (perpd.ts). A restart after
// loading the program's modules would load all of them twice: about 0.25 s more per start.
import { applyAllocatorSettings } from './node/allocator-tuning.ts'

applyAllocatorSettings()
await import('./perpd.ts')
