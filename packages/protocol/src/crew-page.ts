/**
 * The phone's Crew page on a lead (docs/api.md, "Crew"): a single-use invite with its QR code,
 * and removing a member. Portable: no `node:*`.
 */
import { z } from 'zod';
import { CrewId, Fingerprint, MemberName } from './crew';

/** `POST /api/crew/invite` takes `{}`. */
export const CrewInviteRequest = z.object({}).strict();
/** The token, shown once; `qr` the same code `collie crew invite` draws, as rows of 1 (dark) and 0. */
export const CrewInviteAnswer = z
  .object({
    token: z.string().regex(/^cj1_[A-Za-z0-9_-]+$/),
    crew: CrewId,
    lead: z.string(),
    fingerprint: Fingerprint,
    expires: z.number(),
    qr: z.array(z.string().regex(/^[01]{21,177}$/)).min(21).max(177),
  })
  .strict();
export type CrewInviteAnswer = z.infer<typeof CrewInviteAnswer>;

/** `POST /api/crew/remove`. */
export const CrewRemoveRequest = z.object({ member: MemberName }).strict();
export type CrewRemoveRequest = z.infer<typeof CrewRemoveRequest>;
export const CrewRemoveAnswer = z.object({ crew: CrewId, removed: MemberName }).strict();
export type CrewRemoveAnswer = z.infer<typeof CrewRemoveAnswer>;
