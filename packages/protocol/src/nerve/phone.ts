/**
 * Nerve on the phone: the bridge follows Nerve's event socket and passes each event on in its
 * own stream (`nerve.event`), and says when it reaches Nerve or lost it (`nerve.link`). The web
 * app reads the roster through the bridge's `/api/nerve/*` (a paired device's proxy to Nerve's
 * API) and keeps it current with these events.
 */
import { z } from 'zod';
import { NerveEvent } from './api';

const base = { seq: z.number().int().positive(), at: z.number() };

export const NervePhoneEvent = z.object({ type: z.literal('nerve.event'), ...base, event: NerveEvent });
/** `nerve` names which Nerve (the bridge may follow several: `COLLIE_NERVE_API`). */
export const NerveLinkEvent = z.object({ type: z.literal('nerve.link'), ...base, state: z.enum(['ready', 'down']), nerve: z.string().optional() });

/** `GET /api/nerve/nerves` (the bridge's own): the Nerves it follows and whether each answers. */
export const NerveListAnswer = z.object({ nerves: z.array(z.object({ name: z.string(), state: z.enum(['ready', 'down']) })) });
export type NerveListAnswer = z.infer<typeof NerveListAnswer>;

export const NERVE_EVENTS = [NervePhoneEvent, NerveLinkEvent] as const;
