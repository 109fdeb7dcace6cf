import { copyDurable, foldDurable, type ModelEvent } from '@collie/protocol';
import type { Model } from './model';
import { dropPane, putReceipt } from './receipts';
import { emptyNerve, foldNerveEvent, foldNerveLink } from './nerve/fold';

/**
 * Folds one model event into the model. Pure: the input is never mutated, and an event that
 * changes nothing (removing an unknown pane) still advances `seq`. Ordering is the caller's
 * job (see `sync.ts`); this function trusts that `event.seq` is the next one.
 */
export function applyEvent(model: Model, event: ModelEvent): Model {
  switch (event.type) {
    case 'pane.added':
    case 'pane.updated': {
      const panes = new Map(model.panes);
      panes.set(event.pane.id, event.pane);
      return { ...model, seq: event.seq, panes };
    }
    case 'pane.removed': {
      const panes = new Map(model.panes);
      panes.delete(event.id);
      return { ...model, seq: event.seq, panes, sends: dropPane(model.sends, event.id) };
    }
    case 'server.added':
    case 'server.updated': {
      const servers = new Map(model.servers);
      servers.set(event.server.name, event.server);
      return { ...model, seq: event.seq, servers };
    }
    case 'server.removed': {
      const servers = new Map(model.servers);
      servers.delete(event.name);
      return { ...model, seq: event.seq, servers };
    }
    case 'send.updated':
      return { ...model, seq: event.seq, sends: putReceipt(model.sends, event.receipt) };
    case 'durable.agent.updated':
    case 'durable.agent.removed':
    case 'durable.conversation.updated':
    case 'durable.conversation.removed':
    case 'durable.item.updated': {
      const durable = copyDurable(model.durable);
      foldDurable(durable, event);
      return { ...model, seq: event.seq, durable };
    }
    case 'walky.updated': {
      const walky = new Map(model.walky);
      walky.set(event.message.id, event.message);
      return { ...model, seq: event.seq, walky };
    }
    case 'session.changed':
      return { ...model, seq: event.seq, sessionSeq: event.seq };
    case 'nerve.event':
      return { ...model, seq: event.seq, nerve: foldNerveEvent(model.nerve ?? emptyNerve(), event.event) };
    case 'nerve.link':
      return { ...model, seq: event.seq, nerve: foldNerveLink(model.nerve ?? emptyNerve(), event.state) };
    default:
      return assertNever(event);
  }
}

function assertNever(value: never): never {
  throw new Error(`events: unhandled model event ${JSON.stringify(value)}`);
}
