// The result of /action (docs/protocol.md#replies): an envelope that reached a block, or a refusal
// before one.
import type { ActionReply } from '../wire/views.ts'

export type ActionResult = ActionReply | { status: 'refused'; error: { code: number; message: string; data?: unknown } }
