import { CrewInviteAnswer, CrewRemoveAnswer, CrewView } from '@collie/protocol';
import { call, post, type DevicesResult } from './devices-api';

/** `GET /api/crew`: this machine's crew, or `{crew: null}`. */
export function fetchCrew(): Promise<DevicesResult<CrewView>> {
  return call('/api/crew', (b) => CrewView.safeParse(b).data ?? null);
}

/** `POST /api/crew/invite`: a single-use token valid 10 minutes, and its QR code. */
export function postInvite(): Promise<DevicesResult<CrewInviteAnswer>> {
  return call('/api/crew/invite', (b) => CrewInviteAnswer.safeParse(b).data ?? null, post({}));
}

/** `POST /api/crew/remove`: the member's key is refused from now on. */
export function postRemove(member: string): Promise<DevicesResult<CrewRemoveAnswer>> {
  return call('/api/crew/remove', (b) => CrewRemoveAnswer.safeParse(b).data ?? null, post({ member }));
}
