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
export const NerveLinkEvent = z.object({ type: z.literal('nerve.link'), ...base, state: z.enum(['ready', 'down']) });

export const NERVE_EVENTS = [NervePhoneEvent, NerveLinkEvent] as const;
