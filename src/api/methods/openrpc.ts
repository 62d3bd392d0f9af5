// rpc.discover: an OpenRPC document generated from the method table (one schema per method).
import type { CompiledMethod } from './registry.ts'

export function openRpcDocument(table: ReadonlyMap<string, CompiledMethod>) {
  return {
    openrpc: '1.2.6',
    info: { title: 'perpd chain read API', version: '1', description: 'POST /api/v1/query, JSON-RPC 2.0; results are {height, chain_height, stale, data, page?}.' },
    methods: [...table.values()].map((m) => ({
      name: m.name,
      description: m.description,
      paramStructure: 'by-name',
      params: Object.entries((m.params.properties ?? {}) as Record<string, { description?: string }>).map(([name, schema]) => ({
        name, required: ((m.params.required ?? []) as string[]).includes(name), schema, ...(schema.description ? { description: schema.description } : {}),
      })),
      result: { name: 'result', schema: { type: 'object', required: ['height', 'chain_height', 'stale', 'data'] } },
      examples: [{ name: `${m.name} example`, params: Object.entries(m.example ?? {}).map(([name, value]) => ({ name, value })), result: { name: 'result', value: null } }],
    })),
  }
}
