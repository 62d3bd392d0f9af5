// TransferFunds: moves cross cash from the signer to another address, which becomes an account with
// the Trader role when new. Limited like a withdrawal (funds-ledger.ts movableCash).
import type { TransferFundsPayload } from '../../wire/actions.ts'
import { type ActionContext, OK, type Outcome } from '../core/action-context.ts'
import { reject } from '../core/reasons.ts'
import { changeBalance, movableCash, openAccount, positiveAmount } from './funds-ledger.ts'
import { isFrozen } from './funds-state.ts'

export function transferFunds(ctx: ActionContext, p: TransferFundsPayload): Outcome {
  const { state, account } = ctx
  const destination = p.destination.toLowerCase()
  const amount = positiveAmount(p.amount)
  if (!amount.ok) return amount
  if (isFrozen(state, account.address)) return reject('AccountFrozen', `${account.address} is frozen`)
  if (destination === account.address) return reject('InvalidDestination', 'cannot transfer to the same account')
  if (state.agents.has(destination)) return reject('AddressIsAgent', `${destination} is an agent key, not an account`)
  const movable = movableCash(state, account)
  if (amount.value > movable) return reject('InsufficientFunds', `amount ${p.amount} exceeds the ${movable} SCALE_6 the account may move`)
  // After this point the transfer happens.
  const to = openAccount(state, destination)
  ctx.events.push({
    kind: 'Core',
    sub_kind: 'FundsTransferred',
    market_id: null,
    account: account.address,
    destination,
    amount: amount.value,
  })
  changeBalance(state, account, -amount.value, 'TransferOut', null, ctx.events)
  changeBalance(state, to, amount.value, 'TransferIn', null, ctx.events)
  return OK
}
