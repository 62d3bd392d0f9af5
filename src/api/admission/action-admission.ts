// The admission of one signed action, shared by POST /api/v1/action (routes/action-routes.ts,
// docs/protocol.md#envelope) and the WebSocket's post frames (ws/posts.ts,
// docs/websocket.md#posting-actions): the per-IP limit, the stateless part (action-intake.ts,
// inline or on an admission thread, admission-pool.ts), then ChainNode.submitPrepared (the checks
// that read state, the per-signer limit, the mempool), resolving once the block commits. One
// instance per app, so the HTTP and WebSocket actions of one client address share its per-IP budget.

import { RateLimiter } from '../../lib/rate-limit.ts'
import { actionResultJson } from '../../node/action-result.ts'
import type { ChainNode } from '../../node/chain-node.ts'
import { RPC } from '../../wire/rpc-errors.ts'
import { bodyTooLargeReply, type JsonRpcErrorBody, type JsonRpcId, rpcFailure, rpcResult } from '../jsonrpc.ts'
import { nodeMetrics } from '../metrics.ts'
import { type ActionForwarding, forwardAction, noLeaderRefusal } from './action-forward.ts'
import { type ActionIntake, actionIntake } from './action-intake.ts'
import { type AdmissionPool, AdmissionUnavailable } from './admission-pool.ts'
import { type PostFrame, type PostIntake, postIntake, readPostFrame } from './post-intake.ts'

/** The stateless part's outcome for an action to admit. */
type ActionIntakeAction = Extract<ActionIntake, { kind: 'action' }>

/** A JSON-RPC reply object of /action: a result (accepted, kept reject) or a refusal. */
export type ActionReplyBody =
  | { readonly jsonrpc: '2.0'; readonly id: JsonRpcId; readonly result: unknown; readonly error?: undefined }
  | { readonly jsonrpc: '2.0'; readonly id: JsonRpcId; readonly error: JsonRpcErrorBody; readonly result?: undefined }

/** The JSON text of a reply object, the result's from the text the node kept (node/action-result.ts). */
export function actionReplyJson(body: ActionReplyBody): string {
  if (body.error !== undefined) return JSON.stringify(body)
  return `{"jsonrpc":"2.0","id":${JSON.stringify(body.id)},"result":${actionResultJson(body.result)}}`
}

/** What admitting an action's text came to: a reply with its HTTP status, or none (a notification). */
export type AdmissionOutcome =
  | { readonly kind: 'reply'; readonly body: ActionReplyBody; readonly status: number }
  | { readonly kind: 'no-content' }

/** What admitting a WebSocket post frame's text came to: a frame that is no post or a bad one (post-intake.ts), or the post's outcome. */
export type PostAdmission =
  | Exclude<PostFrame, { kind: 'post' }>
  | { readonly kind: 'post'; readonly id: string | number; readonly outcome: AdmissionOutcome }

export class ActionAdmission {
  private readonly ipLimiter: RateLimiter
  /** perpd_actions_total{outcome="refused"}; accepted and kept rejects are counted per block (api/metrics.ts). */
  private readonly metrics: ReturnType<typeof nodeMetrics>

  /**
   * ipRatePerSec: actions per second per client IP (default 50, docs/limits.md#action-rate-limits);
   * 0 disables. pool: the admission threads that run the stateless part; without it, it runs here
   * on the block thread.
   */
  constructor(
    private readonly node: ChainNode,
    readonly ipRatePerSec = 0,
    private readonly pool?: AdmissionPool,
    /** On a node of a replicated chain: whether /action is admitted here or forwarded to the leader (action-forward.ts). */
    private readonly forwarding?: ActionForwarding,
  ) {
    this.ipLimiter = new RateLimiter(ipRatePerSec, 1_000)
    this.metrics = nodeMetrics(node)
  }

  /** Counts one action from ip; the RATE_LIMITED reply when ip is over its limit, else undefined. */
  ipRefusal(ip: string, id: JsonRpcId = null): ActionReplyBody | undefined {
    if (this.ipLimiter.allow(ip)) return undefined
    this.metrics.actionRefused(undefined, { data: { reason: 'RATE_LIMITED' } })
    return rpcFailure(id, {
      code: RPC.limited,
      message: `${ip} is over ${this.ipRatePerSec} /action requests per second; retry shortly`,
      data: { reason: 'RATE_LIMITED', limit_per_sec: this.ipRatePerSec },
    })
  }

  /**
   * Takes one action from ip's per-IP budget and says so; a refusal takes nothing (RateLimiter), so
   * ipRefusal can then count and refuse it with the request's id.
   */
  ipTake(ip: string): boolean {
    return this.ipLimiter.allow(ip)
  }

  /** Whether actions are admitted on this node (not forwarded to the leader of a replicated chain: action-forward.ts). */
  get admitsHere(): boolean {
    return this.forwarding?.() === undefined
  }

  /** The REQUEST_TOO_LARGE reply to a body over the cap. */
  tooLarge(): ActionReplyBody {
    const reply = bodyTooLargeReply()
    this.metrics.actionRefused(undefined, reply.error)
    return reply
  }

  /** Admits the JSON-RPC request in text; resolves with its reply once its block commits (or with the refusal). */
  admit(text: string, forwarded = false): Promise<AdmissionOutcome> {
    return new Promise((resolve, reject) => this.admitWith(text, resolve, reject, forwarded))
  }

  /**
   * admit with callbacks: `done` gets the outcome, for an admitted action synchronously inside its
   * block's commit (ChainNode.submitWith), so a WebSocket reply leaves with the block's other
   * replies and before its pushes; `failed` gets an unexpected error (a bug) before submission.
   */
  admitWith(text: string, done: (outcome: AdmissionOutcome) => void, failed: (err: unknown) => void, forwarded = false): void {
    const arrivedMs = performance.now()
    this.intake(text, forwarded).then((step) => this.proceed(step, arrivedMs, done, failed), failed)
  }

  /**
   * admitWith for the text of a WebSocket post frame (post-intake.ts), on a node that admits actions
   * itself (admitsHere), the per-IP limit taken already (ipTake). The frame is read on an admission
   * thread with the rest of the stateless part; done gets what it came to.
   */
  admitPostWith(text: string, done: (admission: PostAdmission) => void, failed: (err: unknown) => void): void {
    const arrivedMs = performance.now()
    const stateless: Promise<PostIntake> =
      this.pool === undefined
        ? new Promise((resolve) => resolve(postIntake(text, this.node.state.params.network)))
        : this.pool.postIntake(text)
    stateless.then(
      (post) => {
        if (post.kind !== 'post') {
          done(post)
          return
        }
        const id = post.id
        this.proceed(this.afterIntake(post.intake), arrivedMs, (outcome) => done({ kind: 'post', id, outcome }), failed)
      },
      (err: unknown) => {
        if (!(err instanceof AdmissionUnavailable)) {
          failed(err)
          return
        }
        // No thread read the frame: read here for its id, which the refusal carries.
        const frame = readPostFrame(text)
        done(frame.kind === 'post' ? { kind: 'post', id: frame.id, outcome: this.unavailable(err, frame.id) } : frame)
      },
    )
  }

  /** After the stateless part: its reply, or the prepared action handed to the node. */
  private proceed(
    step: AdmissionOutcome | { readonly kind: 'prepared'; readonly intake: ActionIntakeAction },
    arrivedMs: number,
    done: (outcome: AdmissionOutcome) => void,
    failed: (err: unknown) => void,
  ): void {
    if (step.kind !== 'prepared') {
      done(step)
      return
    }
    // A throw here is a bug in the checks that read state, before any answer (the node catches
    // what done throws): failed, as admit() would reject.
    try {
      this.submit(step.intake, arrivedMs, done)
    } catch (err) {
      failed(err)
    }
  }

  /** Everything before the node's state is read: forwarding, the stateless part (inline or on an admission thread). */
  private async intake(
    text: string,
    forwarded: boolean,
  ): Promise<AdmissionOutcome | { readonly kind: 'prepared'; readonly intake: ActionIntakeAction }> {
    const leader = this.forwarding?.()
    if (leader === null || (leader !== undefined && forwarded)) return noLeaderRefusal(text, forwarded)
    if (leader !== undefined) return forwardAction(leader, text)
    let intake: ActionIntake
    if (this.pool === undefined) {
      intake = actionIntake(text, this.node.state.params.network)
    } else {
      try {
        intake = await this.pool.intake(text)
      } catch (err) {
        if (!(err instanceof AdmissionUnavailable)) throw err
        return this.unavailable(err, null)
      }
    }
    return this.afterIntake(intake)
  }

  /** The reply to an action no admission thread could take: not admitted, no nonce consumed (docs/errors.md#json-rpc-codes); the client sends it again. */
  private unavailable(err: AdmissionUnavailable, id: JsonRpcId): AdmissionOutcome {
    this.metrics.actionRefused(undefined, { data: { reason: 'ADMISSION_UNAVAILABLE' } })
    return {
      kind: 'reply',
      body: rpcFailure(id, { code: RPC.internalError, message: err.message, data: { reason: 'ADMISSION_UNAVAILABLE' } }),
      status: 503,
    }
  }

  /** The stateless part's outcome: a reply (counted as a refusal), none, or the prepared action. */
  private afterIntake(intake: ActionIntake): AdmissionOutcome | { readonly kind: 'prepared'; readonly intake: ActionIntakeAction } {
    if (intake.kind === 'reply') {
      const body = intake.body as ActionReplyBody
      this.metrics.actionRefused(undefined, body.error ?? {})
      return { kind: 'reply', body, status: 200 }
    }
    if (intake.kind === 'no-content') return { kind: 'no-content' }
    return { kind: 'prepared', intake }
  }

  /**
   * Hands a prepared action to the node; done gets its reply (none for a notification, HTTP 204).
   * arrivedMs: when its request was in hand (performance.now()), for perpd_action_seconds.
   */
  private submit(intake: ActionIntakeAction, arrivedMs: number, done: (outcome: AdmissionOutcome) => void): void {
    // A notification (no id) is run like any action, and answered with no reply object (HTTP 204).
    this.node.submitWith(intake.prepared, (result) => {
      if (result.status === 'refused') this.metrics.actionRefused(intake.prepared.ok ? intake.prepared.kind : undefined, result.error)
      else this.metrics.actionAnswered((performance.now() - arrivedMs) / 1000)
      if (intake.quiet) done({ kind: 'no-content' })
      else if (result.status === 'refused') done({ kind: 'reply', body: rpcFailure(intake.id, result.error), status: 200 })
      else done({ kind: 'reply', body: rpcResult(intake.id, result), status: 200 })
    })
  }
}
