// The result of /action for an envelope that reached a block (PROTOCOL §3).
import type { EventViewJson } from './views.ts'

export type ActionResult =
  | { status: 'accepted'; tx_hash: string; height: number; envelope_idx: number; events: EventViewJson[] }
  | { status: 'kept-reject'; tx_hash: string; height: number; envelope_idx: number; reason: { code: string; message: string } }
  | { status: 'refused'; error: { code: number; message: string; data?: unknown } }
